package blitz

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"
	"time"

	"arena/games"
)

// houseRound plays a round of six house seats as a Practice table seats them (lent keys: they
// seal commitments) with the house policy answering every prompt at once, on the agent clock,
// calling after with every step when given. It returns the match.
func houseRound(t testing.TB, seed string, names []string, steps int, after func(m *Match, st games.Step)) *Match {
	t.Helper()
	s := testSetup("blitz", 6, `{}`)
	for i := range s.Seats {
		seatOpts(&s.Seats[i], func(o *SeatOptions) { o.Kind, o.Collateral = "house", 120*ccd }) // as a Practice table's house seats
		if i < len(names) {
			s.Seats[i].Name = names[i]
		}
	}
	copy(s.Seed[:], seed)
	s.Pace = games.Pace{Name: "agent", Steps: map[string]time.Duration{"scouting": 2 * time.Second, "talk": 2 * time.Second, "commit": 2 * time.Second, "settle": 2 * time.Second}}
	h := newHarness(t, s)
	e := NewEngine(DefaultFees())
	for i := 0; i < steps; i++ {
		if _, ok := h.m.Deadline(); !ok {
			break
		}
		st := h.next()
		if after != nil {
			after(h.m, st)
		}
		for _, p := range st.Prompts {
			b := e.HouseAnswer(p, uint64(i*7+p.Seat))
			ast, err := h.m.Act(h.now, games.Input{Seat: p.Seat, Kind: "answer", Move: p.Move, Body: b})
			if err != nil {
				t.Fatalf("house answer refused: %v", err)
			}
			if after != nil {
				after(h.m, ast)
			}
		}
	}
	return h.m
}

// TestPubLogDict checks the packing dictionary (publog_dict.json) and, with
// ARENA_WRITE_PUBLOG_DICT=1, writes it first: from the public log of a whole house round (seats
// Agent1-6, test agent ids, a seed of its own: no table of a real server or of the bench has
// them), its seating events (round.created, seat.taken: long, and in every log) and then as much
// of its end as fits DEFLATE's 32 KiB window, cut at events. The dictionary must be public
// events, comma-joined (JSON once bracketed), hold every kind a house round's log has, and pack
// the log of another round (other names, another seed) to under a tenth of its size.
func TestPubLogDict(t *testing.T) {
	if os.Getenv("ARENA_WRITE_PUBLOG_DICT") == "1" {
		m := houseRound(t, "the public log dictionary's round", nil, 200, nil)
		log := m.pubLog.bytes()
		i := bytes.Index(log, []byte(`"type":"scouting.started"`))
		head := log[:bytes.LastIndex(log[:i], []byte(`,{"at"`))+1] // the seating events and a comma
		tail := log[len(log)-(32<<10-len(head)):]
		tail = tail[bytes.Index(tail, []byte(`,{"at"`))+1:]
		dict := append(bytes.Clone(head), tail...)
		if err := os.WriteFile("publog_dict.json", dict, 0o644); err != nil {
			t.Fatal(err)
		}
		pubLogDictBytes = dict
	}
	d := pubLogDictBytes
	var evs []struct {
		Type       string `json:"type"`
		Visibility string `json:"visibility"`
	}
	if len(d) > 32<<10 || json.Unmarshal(append(append([]byte("["), d...), ']'), &evs) != nil {
		t.Fatalf("the dictionary is %d bytes, or not comma-joined JSON values", len(d))
	}
	kinds := map[string]bool{}
	for _, e := range evs {
		if e.Visibility != "public" {
			t.Fatalf("a %s event of visibility %q in the dictionary", e.Type, e.Visibility)
		}
		kinds[e.Type] = true
	}
	m := houseRound(t, "another round", []string{"Ada", "Basil", "Cleo", "Dara", "Emil", "Faye"}, 200, nil)
	log := m.pubLog.bytes()
	for _, typ := range []string{"round.created", "seat.taken", "message.public", "commitment.sealed",
		"commitment.settled", "phase.started", "exchange.started", "round.revealed"} {
		if !kinds[typ] {
			t.Errorf("the dictionary has no %s event", typ)
		}
		if !bytes.Contains(log, []byte(`"type":"`+typ+`"`)) {
			t.Errorf("the check round's log has no %s event", typ)
		}
	}
	m.pubLog.pack(testPacker, pubLogDict, packMin)
	if n, k := m.pubLog.packed.Len(), m.pubLog.packed.PackedLen(); n < 20<<10 || k*10 > n {
		t.Fatalf("a house round's public log packed %d bytes into %d", n, k)
	}
}
