package blitz

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"arena/games"
)

// The encoding/json construction of the §5.4 state object, kept as the reference for the
// hand-written writer (state_write.go): checkStates compares every envelope a test produces.

// sharedState is the part of the §5.4 state object that is the same for every seat of a phase,
// in the layout encoding/json gives it: the reference sharedParts is checked against.
type sharedState struct {
	Agents       []agentView   `json:"agents"`
	Bounty       int64         `json:"bounty"`
	Format       formatState   `json:"format"`
	Pattern      []Pattern     `json:"pattern"`
	TaskCategory string        `json:"task_category"`
	Talking      []talkingPair `json:"talking"`
}

// sharedReflect is the shared members as encoding/json writes sharedState: the reference
// sharedParts must equal, joined.
func (m *Match) sharedReflect() []byte {
	st := sharedState{TaskCategory: m.task.Category, Bounty: m.pot, Pattern: m.pattern.patterns(),
		Format:  formatState{Name: m.format.Name, Seats: len(m.seats), Turns: m.format.Turns, Exchanges: m.format.Exchanges},
		Talking: []talkingPair{}}
	for _, s := range m.seats {
		av := agentView{Seat: s.Seat.Seat, Agent: s.Agent, Name: s.Name, Rating: s.Rating, Alive: s.alive, Dark: s.dark,
			Commitments: []publicTerms{}}
		if s.initial > 0 {
			av.Collateral = int(s.collateral*10/s.initial) * 10
		}
		for _, c := range m.sealed {
			if c.payer == s.Seat.Seat || c.payee == s.Seat.Seat {
				av.Commitments = append(av.Commitments, publicTerms{ID: c.id, Payer: c.payer, Payee: c.payee, Due: c.due})
			}
		}
		st.Agents = append(st.Agents, av)
	}
	for _, p := range m.talking {
		st.Talking = append(st.Talking, talkingPair{p[0], p[1]})
	}
	b, _ := json.Marshal(st)
	return b[1 : len(b)-1]
}

// stateForReflect is seat n's state object built through encoding/json, as the engine did
// before its hand-written writer: the reference stateFor must equal byte for byte.
func (m *Match) stateForReflect(n int, shared []byte) json.RawMessage {
	s := m.seat(n)
	me := meView{Seat: n, Role: "player", Collateral: s.collateral, Locks: map[string]int64{}, Unlocked: m.unlocked(n),
		Budget: s.budget, Open: []openTerms{}, Pending: []openTerms{}, Calls: append([]string{}, s.calls...),
		Accusation: s.accusation, NextSeq: max(s.lastSeq+1, s.nextSeq)}
	for _, c := range m.sealed {
		if c.outcome == outcomeOpen && (c.payer == n || c.payee == n) {
			if c.payer == n {
				me.Locks[c.id] = c.lock
			}
			me.Open = append(me.Open, termsOf(c))
		}
	}
	for _, c := range m.pending {
		if c.payer == n && !c.vetoed {
			me.Pending = append(me.Pending, termsOf(c))
		}
	}
	me.Levers = leverView{Calls: 2 - s.callsUsed, Veto: 1, Accusation: 2 - s.accuseUsed}
	if s.vetoUsed {
		me.Levers.Veto = 0
	}
	if n == m.mole {
		me.Role = "mole"
		me.Levers.Accusation = 0
		me.Task = m.moleTask()
	}
	if s.Levers == LeversNone {
		me.Levers = leverView{}
	}
	if s.Kind == "ots" {
		me.Playbook = m.opt.Playbooks[fmt.Sprint(n)]
	}
	mb, _ := json.Marshal(me)
	parts := [][]byte{[]byte(`{"me":`), mb, []byte(","), shared, []byte(`,"public_log":[`), m.pubLog.bytes(), []byte("]}")}
	return bytes.Join(parts, nil)
}

func termsOf(c *promise) openTerms {
	return openTerms{ID: c.id, Ref: c.ref, Payer: c.payer, Payee: c.payee, Amount: c.amount, Condition: c.condRaw,
		Due: c.due, Lock: c.lock, SealedTurn: c.sealedTurn, Pair: c.pair}
}

// CheckStates compares each prompt's state with the encoding/json reference built now. Call it
// right after the Advance or Act that returned the prompts, before anything else changes the
// match. (Exported for the external tests: this file is compiled only with the tests.)
func CheckStates(m *Match, prompts []games.Prompt) error {
	ref := m.sharedReflect()
	for _, p := range prompts {
		got := p.State.Bytes()
		if want := m.stateForReflect(p.Seat, ref); !bytes.Equal(got, want) {
			i := 0
			for i < len(want) && i < len(got) && want[i] == got[i] {
				i++
			}
			return fmt.Errorf("seat %d %+v: state differs from encoding/json at byte %d:\n got  %.200s\n want %.200s",
				p.Seat, p.Move, i, got[max(0, i-40):], want[max(0, i-40):])
		}
	}
	return nil
}

// TestStateWriterEdgeStrings: names, calls, refs and pair names that encoding/json escapes
// (HTML characters, U+2028, controls, non-ASCII) are written exactly as encoding/json writes
// them, for the mole's envelope and the others, with open and pending commitments.
func TestStateWriterEdgeStrings(t *testing.T) {
	s := testSetup("blitz", 6, `{"mole":2,"task":{"kind":"broker","named":[]}}`)
	s.Seats[0].Name = "A<b>&c\u2028é\x7f"
	s.Seats[3].Name = `q"uo\te`
	h := newHarness(t, s)
	h.to(1, "talk", 1)
	for _, text := range []string{"<script>&amp;", "line\u2028sep \u00e9\t"} {
		if _, err := h.act(1, "call", fmt.Sprintf(`{"text":%q}`, text)); err != nil {
			t.Fatal(err)
		}
	}
	h.to(1, "commit", 0)
	h.mustNoDrop(1, commitBody(`{"ref":"r<1>&","payee":2,"amount":2000000,"condition":{"always":true},"due":2,"pair":"deal:0000000a"}`))
	h.mustNoDrop(2, commitBody(`{"ref":"r\u00e9","payee":1,"amount":2000000,"condition":{"always":true},"due":2,"pair":"deal:0000000a"}`,
		`{"ref":"x","payee":3,"amount":1000000,"condition":{"and":[{"always":true},{"not":{"survives":[3,2]}}]},"due":3}`))
	h.finish()
	n := 0
	for _, st := range h.steps {
		n += len(st.Prompts)
	}
	if n < 20 {
		t.Fatalf("%d prompts checked, want a whole round's", n)
	}
}
