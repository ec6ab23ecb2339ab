package breakroom

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"arena/games"
	"arena/games/breakroom/inference"
	"arena/games/breakroom/wire"
)

// shortInference is Inference with 4 hands and 3 s turns, the room drawing each table's
// deal_key.
func shortInference(size, min int) Game {
	return Game{ID: inference.GameID, Name: inference.Name, RulesVersion: inference.RulesVersion, TableSize: size, Min: min,
		Options: json.RawMessage(`{"rounds":4}`), Rules: inference.RulesText, DealKey: inference.DealKeyOption,
		Pace: games.Pace{Steps: map[string]time.Duration{"turn": 3 * time.Second, "away": 300 * time.Millisecond}}}
}

// raiseOn plays a socket connection to its match_end: it raises by the least it may whenever
// it may, else calls or checks.
func raiseOn(h *harness, rd *reader) (wire.MatchEnd, error) {
	for {
		m, err := rd.next()
		if err != nil {
			return wire.MatchEnd{}, err
		}
		switch m := m.(type) {
		case wire.YourTurn:
			var legal []struct {
				Action string `json:"action"`
			}
			_ = json.Unmarshal(m.LegalActions, &legal)
			body := `{"action":"check"}`
			for _, a := range legal {
				switch a.Action {
				case "raise":
					body = `{"action":"raise","amount":1}`
				case "call":
					if body == `{"action":"check"}` {
						body = `{"action":"call"}`
					}
				}
			}
			_ = h.room.Move(context.Background(), rd.conn, &wire.Move{MatchID: m.MatchID, Round: m.Round, Turn: m.Turn, Body: json.RawMessage(body)})
		case wire.MatchEnd:
			return m, nil
		}
	}
}

// TestInferenceFeedsReputation: a ranked Inference table of three agents who raise whenever
// they may. The room draws the table's deal_key (64 hex digits in the table's options, in no
// line of the match log); each agent's reputation counts the match and Inference's figures
// (§2.8): raises its raise lines, bluffs those made holding a value ≤ low_value_max (its
// deal_private lines), caught the showdowns where it raised, was revealed and lost; bluff_rate
// is bluffs ÷ raises.
func TestInferenceFeedsReputation(t *testing.T) {
	h := newHarness(t, shortInference(3, 3))
	agents := []*agent{newAgent(h, "Ada"), newAgent(h, "Bea"), newAgent(h, "Cy")}
	readers := make([]*reader, len(agents))
	for i, a := range agents {
		a.game = inference.GameID
		readers[i] = &reader{h: h, conn: a.join(ViaWebSocket).Conn}
	}
	seated, err := seatedOn(readers[0])
	if err != nil {
		t.Fatal(err)
	}
	ends := make(chan error, len(agents))
	for _, rd := range readers {
		go func() { _, err := raiseOn(h, rd); ends <- err }()
	}
	for range agents {
		if err := <-ends; err != nil {
			t.Fatal(err)
		}
	}

	st, err := h.arena.Stored("br-" + inference.GameID + "-" + strings.TrimPrefix(seated.MatchID, MatchIDPrefix))
	if err != nil {
		t.Fatal(err)
	}
	var opts struct {
		DealKey string `json:"deal_key"`
	}
	if err := json.Unmarshal(st.Options, &opts); err != nil || !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(opts.DealKey) {
		t.Fatalf("the table's options %s: no deal_key of 64 hex digits", st.Options)
	}
	evs, err := h.store.Events(seated.MatchID)
	if err != nil {
		t.Fatal(err)
	}
	type fig struct{ raises, bluffs, caught int }
	want := map[int]*fig{}
	values := map[[2]int]int{}
	raised := map[[2]int]bool{}
	for _, e := range evs {
		if bytes.Contains(e.Payload, []byte(opts.DealKey)) {
			t.Fatalf("the deal key is in the %s line", e.Type)
		}
		var p struct {
			Round, Seat, Value int
			Action             string
			Reveals            []struct{ Seat int }
			Winners            []int
		}
		_ = json.Unmarshal(e.Payload, &p)
		if want[p.Seat] == nil {
			want[p.Seat] = &fig{}
		}
		switch e.Type {
		case "deal_private":
			values[[2]int{p.Round, p.Seat}] = p.Value
		case "action":
			if p.Action == "raise" {
				want[p.Seat].raises++
				raised[[2]int{p.Round, p.Seat}] = true
				if values[[2]int{p.Round, p.Seat}] <= 50 {
					want[p.Seat].bluffs++
				}
			}
		case "showdown":
			for _, r := range p.Reveals {
				if want[r.Seat] == nil {
					want[r.Seat] = &fig{}
				}
				if raised[[2]int{p.Round, r.Seat}] && p.Winners[0] != r.Seat {
					want[r.Seat].caught++
				}
			}
		}
	}
	total := 0
	for _, a := range agents {
		seat := -1
		for _, pl := range seated.Players {
			if pl.Pubkey == a.key {
				seat = pl.Seat
			}
		}
		var rec repRecord
		b, err := h.store.BreakroomReputation(a.key)
		if err != nil || json.Unmarshal(b, &rec) != nil {
			t.Fatalf("%s: reputation %s %v", a.name, b, err)
		}
		w := want[seat]
		if w == nil {
			w = &fig{}
		}
		if rec.Matches != 1 || rec.Raises != w.raises || rec.Bluffs != w.bluffs || rec.Caught != w.caught {
			t.Fatalf("%s (seat %d): reputation %+v, the log says raises %d bluffs %d caught %d", a.name, seat, rec, w.raises, w.bluffs, w.caught)
		}
		r, _ := h.room.Reputation(a.key)
		if r.Caught != w.caught || w.raises > 0 && r.BluffRate != float64(int(float64(w.bluffs)/float64(w.raises)*100+0.5))/100 {
			t.Fatalf("%s: wire reputation %+v, want caught %d and bluff_rate %d/%d", a.name, r, w.caught, w.bluffs, w.raises)
		}
		total += rec.Raises
	}
	if total == 0 {
		t.Fatal("nobody raised: the test raises whenever it may")
	}
}
