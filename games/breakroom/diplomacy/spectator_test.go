package diplomacy

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	"arena/games"
	"arena/games/breakroom/diplomacy/board"
)

// derive rebuilds the spectator's view from public lines alone (§1.8): the powers line, phase
// starts, press-round markers and broadcasts, and each phase's public orders line resolved again
// by the rules (with the civil-disorder lines applied as they come).
func derive(t *testing.T, s games.Setup, pub []games.Event) []byte {
	t.Helper()
	cfg, err := configOf(s)
	if err != nil {
		t.Fatal(err)
	}
	d := &match{setup: s, cfg: cfg, st: New(cfg.rules())}
	d.seats = make([]seat, Seats)
	var adj map[string]any
	for _, e := range pub {
		var p map[string]any
		if err := json.Unmarshal(e.Payload, &p); err != nil {
			t.Fatal(err)
		}
		l, _ := readWords(e)
		switch e.Type {
		case "powers":
			for _, a := range l.Assignment {
				d.seats[a.Seat].power = board.Power(a.Power)
			}
		case "phase_start":
			d.round, d.press, d.pressRound = l.Round, nil, 0
		case "press_round":
			d.pressRound = l.PressRound
		case "message":
			d.press = append(d.press, pressItem{pressRound: d.pressRound, from: *l.Seat, text: l.Text})
		case "civil_disorder":
			d.st = d.st.WithDisorder(board.Power(l.Power), l.On)
		case "adjudication":
			adj = p
			d.lastPhase["adjudication"] = adj
		case "orders":
			var os map[board.Power][]string
			if err := json.Unmarshal(l.Orders, &os); err != nil {
				t.Fatal(err)
			}
			given := map[board.Power][]string{}
			for pw, o := range os {
				if d.st.Active(pw) {
					given[pw] = o
				}
			}
			next, _, err := d.st.Resolve(given)
			if err != nil {
				t.Fatalf("the public orders of %s do not resolve: %v", d.st.Phase(), err)
			}
			d.st = next
			d.lastPhase = map[string]any{"orders": p}
		}
	}
	if d.st.Kind == board.Movement {
		d.step = stepPress
	}
	return d.state(-1)
}

// TestSpectatorDerivable: after every step of random matches, the spectator's view is exactly
// what the public lines so far give (§1.8).
func TestSpectatorDerivable(t *testing.T) {
	c := conformance()
	for k := byte(1); k <= 3; k++ {
		seed := seq0()
		seed[0] = k
		s := setup(seed, `{"last_year":1903,"turn_deadline_ms":1500,"orders_deadline_ms":3000,"away_deadline_ms":500}`)
		mm, err := Engine{}.New(s, nil)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(uint64(k), 1))
		var evs []games.Event
		check := func() {
			t.Helper()
			got, want := derive(t, s, games.Redact(evs, 0, false)), mm.View(0).Bytes()
			if string(got) != string(want) {
				t.Fatalf("seed %d after %d lines: derived\n%s\nview\n%s", k, len(evs), got, want)
			}
		}
		for {
			dl, ok := mm.Deadline()
			if !ok {
				break
			}
			evs = append(evs, mm.Advance(dl).Events...)
			check()
			now := dl
			for {
				ps := mm.Prompts()
				if len(ps) == 0 {
					break
				}
				now = now.Add(time.Second)
				body := c.Answer(ps[0], r)
				if body == nil || !now.Before(ps[0].Deadline) {
					break
				}
				st, err := mm.Act(now, games.Input{Seat: ps[0].Seat, Kind: "answer", Move: ps[0].Move, Body: body})
				if err != nil {
					t.Fatal(err)
				}
				evs = append(evs, st.Events...)
				check()
			}
		}
	}
}
