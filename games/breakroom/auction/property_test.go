package auction

import (
	"bytes"
	"encoding/json"
	"testing"

	"arena/games"
)

// invariants returns a checker of §4.9's invariants for a table of n seats, to call after every
// step of a match: it reads the events written since its last call and asserts, over the match
// so far,
//
//   - Σ cash + Σ prices paid = seats × starting_cash, from the engine's own books and from the
//     public lines alone (every lot_result's price), and the public seats[].cash of the
//     spectators' view equals starting_cash less the prices the public lines say each paid;
//   - every cash ≥ 0;
//   - the winner's bid is at least every other bid of the same lot, and the price is the
//     winner's own bid (first price); an unsold lot had no bid;
//   - no value and no losing bid appears in a public line, in the spectators' view, or in
//     another seat's view before match_end: no public line but the end lines has a member named
//     value or amount, and every public line's members are those §4.7 lists;
//   - a seat that won nothing scores starting_cash (and every ranking entry's score is its
//     cash plus value won).
func invariants(t testing.TB, cfg Config) func(tb *table) {
	seen := 0
	var prices int64
	bids := map[[2]int]int64{} // (lot, seat) → bid, from action_private
	paid := map[int]int64{}    // seat → Σ prices, from lot_result
	publicMembers := map[string]map[string]bool{
		"round_start": {"round": true},
		"message":     {"round": true, "seat": true, "turn": true, "text": true},
		"lot_result":  {"round": true, "sold": true, "winner": true, "price": true},
		"sit_out":     {"round": true, "seat": true},
		"sit_in":      {"round": true, "seat": true},
	}
	return func(tb *table) {
		t.Helper()
		m := tb.m
		n := len(m.seats)
		for _, e := range tb.evs[seen:] {
			var p map[string]json.RawMessage
			if err := json.Unmarshal(e.Payload, &p); err != nil {
				t.Fatalf("%s payload %s: %v", e.Type, e.Payload, err)
			}
			num := func(k string) int64 {
				var v int64
				_ = json.Unmarshal(p[k], &v)
				return v
			}
			if e.Visibility == games.Public {
				if allowed, ok := publicMembers[e.Type]; ok {
					for k := range p {
						if !allowed[k] {
							t.Fatalf("public %s line has member %s: %s", e.Type, k, e.Payload)
						}
					}
				} else if e.Type != "match_start" && e.Type != "match_end" && e.Type != "match_abandoned" {
					t.Fatalf("public line of type %s: %s", e.Type, e.Payload)
				}
			} else if string(p["reveal"]) != `"end"` {
				t.Fatalf("a private %s line without reveal end: %s", e.Type, e.Payload)
			}
			switch e.Type {
			case "action_private":
				if string(p["action"]) == `"bid"` {
					bids[[2]int{int(num("round")), int(num("seat"))}] = num("amount")
				}
			case "lot_result":
				r := int(num("round"))
				var best int64
				for s := range n {
					best = max(best, bids[[2]int{r, s}])
				}
				if string(p["sold"]) == "true" {
					w, price := int(num("winner")), num("price")
					if bids[[2]int{r, w}] != price || price != best {
						t.Fatalf("lot %d: winner %d bid %d, paid %d, the highest bid was %d", r, w, bids[[2]int{r, w}], price, best)
					}
					prices += price
					paid[w] += price
				} else if best != 0 || string(p["winner"]) != "null" || string(p["price"]) != "null" {
					t.Fatalf("lot %d unsold with a highest bid of %d: %s", r, best, e.Payload)
				}
			case "match_end", "match_abandoned":
				var end struct {
					Ranking []struct {
						Seat                           int
						Score, Cash, ValueWon, LotsWon int64
					}
				}
				b, _ := json.Marshal(p)
				_ = json.Unmarshal(bytes.ReplaceAll(bytes.ReplaceAll(b, []byte(`"value_won"`), []byte(`"valuewon"`)), []byte(`"lots_won"`), []byte(`"lotswon"`)), &end)
				if len(end.Ranking) != n {
					t.Fatalf("%d ranking entries for %d seats", len(end.Ranking), n)
				}
				for _, r := range end.Ranking {
					if r.Score != r.Cash+r.ValueWon || r.Cash != cfg.StartingCash-paid[r.Seat] {
						t.Fatalf("seat %d's entry %+v: score is not cash + value won, or cash is not %d − %d", r.Seat, r, cfg.StartingCash, paid[r.Seat])
					}
					if r.LotsWon == 0 && (r.Score != cfg.StartingCash || r.ValueWon != 0) {
						t.Fatalf("seat %d won nothing and scores %d, not the starting cash %d", r.Seat, r.Score, cfg.StartingCash)
					}
				}
			}
		}
		seen = len(tb.evs)
		var cash int64
		for i, s := range m.seats {
			if s.cash < 0 {
				t.Fatalf("seat %d has cash %d", i, s.cash)
			}
			if s.cash != cfg.StartingCash-paid[i] {
				t.Fatalf("seat %d's cash %d, the public lines say %d", i, s.cash, cfg.StartingCash-paid[i])
			}
			if s.lotsWon == 0 && s.score() != cfg.StartingCash {
				t.Fatalf("seat %d won nothing and scores %d", i, s.score())
			}
			cash += s.cash
		}
		if cash+prices != int64(n)*cfg.StartingCash {
			t.Fatalf("Σ cash %d + Σ prices %d ≠ %d × %d", cash, prices, n, cfg.StartingCash)
		}
		if m.phase == phaseDone && m.abandoned == "" {
			return
		}
		var spec struct {
			Seats []struct {
				Seat int
				Cash int64
			}
		}
		sv := m.View(0).Bytes()
		if err := json.Unmarshal(sv, &spec); err != nil || len(spec.Seats) != n {
			t.Fatalf("spectators' view %s: %v", sv, err)
		}
		for _, s := range spec.Seats {
			if s.Cash != cfg.StartingCash-paid[s.Seat] {
				t.Fatalf("the spectators see seat %d's cash %d, the public lines say %d", s.Seat, s.Cash, cfg.StartingCash-paid[s.Seat])
			}
		}
		for _, k := range []string{`"value"`, `"holdings"`, `"amount"`, `"strikes"`} {
			if bytes.Contains(sv, []byte(k)) {
				t.Fatalf("the spectators' view holds %s: %s", k, sv)
			}
		}
	}
}

// TestInvariants: §4.9 over thousands of random matches (3 to 8 seats, random seeds, lots and
// cash; random legal and illegal moves, timeouts, sit-outs and returns, away seats, some matches
// abandoned), asserted after every step: 2000 matches, 300 under -short or the race detector.
func TestInvariants(t *testing.T) {
	rnd := newRand(7)
	matches := 2000
	if testing.Short() || raceBuild {
		matches = 300
	}
	seen := map[string]int{}
	for k := range matches {
		n := 3 + k%6
		lots := 1 + rnd.IntN(12)
		cash := []int64{0, 5, 60, 200, 1000}[rnd.IntN(5)]
		opts := `{"lots":` + itoa(lots) + `,"starting_cash":` + itoa(int(cash)) + `,"value_max":` + itoa(1+rnd.IntN(150)) + `}`
		cfg, err := configOf(setupN(n, [32]byte{}, opts))
		if err != nil {
			t.Fatal(err)
		}
		abandon := 0
		if k%9 == 8 {
			abandon = 1 + rnd.IntN(lots*n)
		}
		tb := randomMatch(t, n, randomSeed(rnd), opts, rnd, abandon, invariants(t, cfg))
		for typ, c := range typesOf(tb.evs) {
			seen[typ] += c
		}
	}
	for _, typ := range LineTypes {
		if seen[typ.Type] == 0 {
			t.Errorf("the random matches wrote no %s line: the test does not reach it", typ.Type)
		}
	}
}
