package auction

import (
	"encoding/json"
	"testing"

	"arena/games"
)

// TestSpectatorViewFromPublicLines: the spectators' view (§1.8, §4.6) is what the public lines
// alone say, rebuilt here from them: the lot, the status, every seat's cash (starting_cash from
// match_start's config less the prices lot_result says it paid), lots won and sitting-out
// status, every lot's result and the talk. Through random matches, at their end and midway.
func TestSpectatorViewFromPublicLines(t *testing.T) {
	type seatView struct {
		Seat    int    `json:"seat"`
		Cash    int64  `json:"cash"`
		LotsWon int    `json:"lots_won"`
		Status  string `json:"status"`
	}
	type resultView struct {
		Round  int    `json:"round"`
		Sold   bool   `json:"sold"`
		Winner *int   `json:"winner"`
		Price  *int64 `json:"price"`
	}
	type view struct {
		Game, RulesVersion string            `json:"-"`
		Status             string            `json:"status"`
		Phase              string            `json:"phase"`
		Round              int               `json:"round"`
		LotsTotal          int               `json:"lots_total"`
		Seats              []seatView        `json:"seats"`
		Results            []resultView      `json:"results"`
		Talk               []json.RawMessage `json:"talk"`
		Truncated          bool              `json:"truncated,omitempty"`
	}
	check := func(tb *table) {
		t.Helper()
		d := view{Status: "waiting", Phase: "waiting", Seats: []seatView{}, Results: []resultView{}, Talk: []json.RawMessage{}}
		for _, e := range games.Redact(tb.evs, 0, false) {
			switch e.Type {
			case "match_start":
				var ms struct {
					Players []struct{ Seat int }
					Config  Config
				}
				json.Unmarshal(e.Payload, &ms)
				d.Status, d.Phase, d.LotsTotal = "playing", "bidding", ms.Config.Lots
				for _, p := range ms.Players {
					d.Seats = append(d.Seats, seatView{Seat: p.Seat, Cash: ms.Config.StartingCash, Status: "active"})
				}
			case "round_start":
				var p struct{ Round int }
				json.Unmarshal(e.Payload, &p)
				d.Round = p.Round
			case "lot_result":
				var r resultView
				json.Unmarshal(e.Payload, &r)
				d.Results = append(d.Results, r)
				if r.Sold {
					d.Seats[*r.Winner].Cash -= *r.Price
					d.Seats[*r.Winner].LotsWon++
				}
			case "sit_out", "sit_in":
				var p struct{ Seat int }
				json.Unmarshal(e.Payload, &p)
				d.Seats[p.Seat].Status = map[string]string{"sit_out": "sitting_out", "sit_in": "active"}[e.Type]
			case "message":
				var p map[string]any
				json.Unmarshal(e.Payload, &p)
				b, _ := json.Marshal(map[string]any{"round": p["round"], "seat": p["seat"], "text": p["text"], "turn": p["turn"]})
				d.Talk = append(d.Talk, b)
			case "match_end":
				d.Status, d.Phase = "ended", "ended"
			case "match_abandoned":
				d.Status, d.Phase = "abandoned", "abandoned"
			}
		}
		var v view
		raw := tb.m.View(0).Bytes()
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatal(err)
		}
		var members map[string]json.RawMessage
		json.Unmarshal(raw, &members)
		for _, own := range []string{"seat", "value", "cash", "holdings", "strikes"} {
			if _, ok := members[own]; ok {
				t.Fatalf("the spectators' view has %s: %s", own, raw)
			}
		}
		if len(v.Talk) < len(d.Talk) && v.Truncated {
			d.Talk, d.Truncated = d.Talk[len(d.Talk)-len(v.Talk):], true
		}
		vj, _ := json.Marshal(v)
		dj, _ := json.Marshal(d)
		if string(vj) != string(dj) {
			t.Fatalf("spectator view\n%s\nthe public lines say\n%s", vj, dj)
		}
	}
	for k := range 40 {
		rnd := newRand(uint64(k))
		abandon := 0
		if k%3 == 2 {
			abandon = 5 + k
		}
		n := 3 + k%6
		opts := `{"lots":6,"starting_cash":150}`
		tb := randomMatch(t, n, randomSeed(rnd), opts, rnd, abandon, nil)
		check(tb)
		// Midway too: replay half of the inputs.
		m, evs, err := games.Replay(Engine{}, setupN(n, tb.m.setup.Seed, opts), nil, tb.log[:len(tb.log)/2])
		if err != nil {
			t.Fatal(err)
		}
		check(&table{t: t, m: m.(*match), evs: evs})
	}
}
