package blitz

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"arena/games"
)

// The reveal's three decisive moments are picked from marks noted as events are emitted
// (marks.go), not from the transcript. These tests recompute them by hand from the events the
// round handed out, with a scan of the transcript (momentsByScan, the reference), and require the
// same moments; and they hold Events() (a replay) to the events the steps handed out, byte for
// byte.

// momentsByScan is moments() without the marks: the candidates found by scanning the
// transcript events.
func momentsByScan(m *Match, events []games.Event) []Moment {
	var firstElim, firstBell, lastAcc *games.Event
	for i := range events {
		e := &events[i]
		switch {
		case e.Type == "agent.eliminated" && firstElim == nil:
			firstElim = e
		case e.Type == "mole.rung" && firstBell == nil:
			firstBell = e
		case e.Type == "accusation.sealed" || e.Type == "accusation.moved":
			lastAcc = e
		}
	}
	eventOf := func(typ, id string) games.Event {
		for i := len(events) - 1; i >= 0; i-- {
			e := &events[i]
			if e.Visibility != visPublic || e.Type != typ || !bytes.Contains(e.Payload, []byte(id)) {
				continue
			}
			var p struct{ ID string }
			if json.Unmarshal(e.Payload, &p) == nil && p.ID == id {
				return *e
			}
		}
		return games.Event{}
	}
	largest := func(pred func(*promise) bool) *promise {
		var best *promise
		for _, c := range m.sealed {
			if pred(c) && (best == nil || c.amount > best.amount) {
				best = c
			}
		}
		return best
	}
	var out []Moment
	seen := map[int64]bool{}
	add := func(e games.Event, what string) {
		if len(out) < 3 && !seen[e.Seq] {
			seen[e.Seq] = true
			out = append(out, Moment{Seq: e.Seq, Turn: e.Turn, Type: e.Type, What: what})
		}
	}
	if c := largest(func(c *promise) bool { return c.outcome == outcomeBreached }); c != nil {
		add(eventOf("commitment.settled", c.id), fmt.Sprintf("seat %d breached %s to seat %d (paid %s, penalty %s)", c.payer, money(c.amount), c.payee, money(c.paid), money(c.penalty)))
	}
	if firstElim != nil {
		var p struct{ Seat int }
		_ = json.Unmarshal(firstElim.Payload, &p)
		add(*firstElim, fmt.Sprintf("seat %d was eliminated", p.Seat))
	}
	if c := largest(func(*promise) bool { return true }); c != nil {
		add(eventOf("commitment.sealed", c.id), fmt.Sprintf("seat %d sealed the round's largest commitment, %s to seat %d", c.payer, money(c.amount), c.payee))
	}
	if firstBell != nil {
		add(*firstBell, "the mole's first rung rang")
	}
	if lastAcc != nil {
		var p struct{ Seat, On int }
		_ = json.Unmarshal(lastAcc.Payload, &p)
		add(*lastAcc, fmt.Sprintf("seat %d's accusation settled on seat %d", p.Seat, p.On))
	}
	if c := largest(func(c *promise) bool { return c.outcome == outcomeHonoured }); c != nil {
		add(eventOf("commitment.settled", c.id), fmt.Sprintf("seat %d honoured %s to seat %d", c.payer, money(c.amount), c.payee))
	}
	if len(m.sealed) > 0 {
		c := m.sealed[0]
		add(eventOf("commitment.sealed", c.id), fmt.Sprintf("the first commitment: seat %d to seat %d", c.payer, c.payee))
	}
	sortMoments(out)
	if out == nil {
		out = []Moment{}
	}
	return out
}

func sortMoments(ms []Moment) {
	for i := 1; i < len(ms); i++ {
		for j := i; j > 0 && ms[j].Seq < ms[j-1].Seq; j-- {
			ms[j], ms[j-1] = ms[j-1], ms[j]
		}
	}
}

// revealedMoments reads the moments round.revealed carried.
func revealedMoments(t *testing.T, events []games.Event) []Moment {
	t.Helper()
	for _, e := range events {
		if e.Type == "round.revealed" {
			var r Reveal
			if err := json.Unmarshal(e.Payload, &r); err != nil {
				t.Fatal(err)
			}
			return r.Moments
		}
	}
	t.Fatal("no round.revealed")
	return nil
}

// TestMomentsMatchTranscriptScan: for varied rounds (drawn and fixed moles, breaches, bells,
// accusations, hostile answers), the moments the reveal names are the ones a scan of the
// handed-out transcript finds, and each names the seq, turn and type of a real event.
func TestMomentsMatchTranscriptScan(t *testing.T) {
	kinds := map[string]int{}
	for seed := uint64(1); seed <= 6; seed++ {
		_, events, m := playShared(t, seed, nil)
		got := revealedMoments(t, events)
		want := momentsByScan(m, events)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("seed %d: moments\n %+v\nwant (transcript scan)\n %+v", seed, got, want)
		}
		bySeq := map[int64]games.Event{}
		for _, e := range events {
			bySeq[e.Seq] = e
		}
		for _, mo := range got {
			e, ok := bySeq[mo.Seq]
			if !ok || e.Type != mo.Type || e.Turn != mo.Turn {
				t.Errorf("seed %d: moment %+v names no such event (%+v)", seed, mo, e)
			}
			kinds[mo.Type]++
		}
	}
	t.Logf("moment types over the rounds: %v", kinds)
	if len(kinds) < 2 {
		t.Fatalf("the rounds named only %v: not varied enough to compare", kinds)
	}
}

// TestEventsReplayEqualsSteps: Events() (a replay of the inputs since the live match keeps no
// event list) is exactly the events the steps handed out, in order, byte for byte; mid-round
// and after the reveal, and asking twice changes nothing.
func TestEventsReplayEqualsSteps(t *testing.T) {
	for seed := uint64(1); seed <= 2; seed++ {
		_, events, m := playShared(t, seed, nil)
		for k := 0; k < 2; k++ {
			got := mustEvents(m.Events())
			if len(got) != len(events) {
				t.Fatalf("seed %d: Events() has %d events, the steps handed out %d", seed, len(got), len(events))
			}
			for i := range got {
				a, _ := json.Marshal(got[i])
				b, _ := json.Marshal(events[i])
				if !bytes.Equal(a, b) {
					t.Fatalf("seed %d: event %d differs:\n %s\nwant\n %s", seed, i, a, b)
				}
			}
		}
	}
}

// TestMomentsWithEliminationAndBreach: a round with a breach that drains a seat to elimination,
// the mole's bells and accusations placed and moved: the moments are the transcript scan's.
func TestMomentsWithEliminationAndBreach(t *testing.T) {
	h := newHarness(t, testSetup("blitz", 6, `{"mole":3,"task":{"kind":"breach","named":[1]}}`))
	h.to(1, "talk", 1)
	h.mustNoDrop(2, `{"messages":[{"type":"public","text":"I accuse 4"}],"accusation":4}`)
	h.to(1, "commit", 0)
	h.mustNoDrop(1, commitBody(
		`{"ref":"c1","payee":3,"amount":80000000,"condition":{"always":true},"due":1}`,
		`{"ref":"c2","payee":2,"amount":60000000,"condition":{"always":true},"due":2}`,
		`{"ref":"c3","payee":4,"amount":40000000,"condition":{"always":true},"due":2}`))
	h.mustNoDrop(5, commitBody(`{"ref":"c5","payee":6,"amount":30000000,"condition":{"always":true},"due":3}`))
	h.to(2, "talk", 1)
	h.mustNoDrop(2, `{"messages":[],"accusation":5}`)
	h.finish()
	var events []games.Event
	for _, st := range h.steps {
		events = append(events, st.Events...)
	}
	kinds := map[string]bool{}
	for _, e := range events {
		kinds[e.Type] = true
	}
	if !kinds["agent.eliminated"] || !kinds["accusation.moved"] {
		t.Fatalf("the round lacks an elimination or a moved accusation: %v", kinds)
	}
	got := revealedMoments(t, events)
	want := momentsByScan(h.m, events)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("moments\n %+v\nwant (transcript scan)\n %+v", got, want)
	}
	t.Logf("moments: %+v", got)
}
