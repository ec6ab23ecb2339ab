package lobby_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"arena/actors/lobby"
)

// Random runs of joins, rejoins, leaves, matches ending and time passing keep the rules: every
// table has Min to TableSize seats of distinct keys, each real one queued until then; house
// seats and only they unrank; a line never holds a full table, nor a due one once the lobby
// timer has passed; the queue's places are its lines in join order.
func TestRandomRunsKeepTheRules(t *testing.T) {
	for run := range 6 {
		t.Run(fmt.Sprint(run), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(run), 7))
			r := newRig(t)
			c := lobby.Config{ID: "g", TableSize: 4 + run%3, Min: 2 + run%2, SplitAt: 12, Seed: [32]byte{byte(run)}}
			if run%2 == 0 {
				c.House = house
			}
			if run%3 == 0 {
				c.Staff = staff
			}
			r.open(c, true)
			pool := names("p", 30)
			for i, k := range pool {
				r.completed[k] = (i % 3) * 6 // 0 and 6: rookies; 12: open
			}
			joined := map[string]time.Time{} // the model: queued keys and their join instants
			tier := map[string]string{}
			var order []string // queued keys in join order
			now := time.Duration(0)
			seen := 0
			for step := range 400 {
				k := pool[rng.IntN(len(pool))]
				switch op := rng.IntN(10); {
				case op < 5:
					r.mu.Lock()
					playing := r.playing["g/"+k]
					r.mu.Unlock()
					got, err := r.l.Join(t.Context(), "g", lobby.Entrant{Key: k, Data: step})
					_, queued := joined[k]
					switch {
					case queued:
						wantErr(t, "join of a queued key", err, lobby.ErrAlreadyQueued)
					case playing:
						wantErr(t, "join of a playing key", err, lobby.ErrAlreadyPlaying)
					case err != nil:
						t.Fatalf("step %d join %s: %v", step, k, err)
					default:
						joined[k], tier[k] = t0.Add(now), got.Tier
						order = append(order, k)
					}
				case op < 6:
					got, err := r.l.Rejoin(t.Context(), "g", lobby.Entrant{Key: k, Data: -step})
					if _, queued := joined[k]; queued && (err != nil || !got.Replaced) {
						t.Fatalf("step %d rejoin %s: %+v %v", step, k, got, err)
					}
					if _, queued := joined[k]; !queued && err == nil {
						joined[k], tier[k] = t0.Add(now), got.Tier
						order = append(order, k)
					}
				case op < 7:
					was, err := r.l.Leave(t.Context(), "g", k)
					_, queued := joined[k]
					if was != queued || queued && err != nil {
						t.Fatalf("step %d leave %s: %v %v, queued %v", step, k, was, err, queued)
					}
					delete(joined, k)
					order = slices.DeleteFunc(order, func(x string) bool { return x == k })
				case op < 8:
					r.setPlaying("g", k, false) // its match ended
				default:
					now += time.Duration(rng.IntN(25)) * time.Second
					r.to(now)
				}
				// Tables formed: their real keys leave the model.
				tabs := r.formed("g")
				for _, tf := range tabs[seen:] {
					checkTable(t, c, tf, joined)
					for _, s := range tf.Seats {
						if !s.House && !s.Staff {
							delete(joined, s.Key)
							order = slices.DeleteFunc(order, func(x string) bool { return x == s.Key })
						}
					}
				}
				seen = len(tabs)
				checkLines(t, r, c, t0.Add(now), order, joined, tier)
			}
			reasons := map[string]int{}
			for _, tf := range r.formed("g") {
				reasons[tf.Reason]++
			}
			t.Logf("tables by reason %v, split %v", reasons, r.info("g").Split)
			if seen == 0 {
				t.Fatal("no table in a run")
			}
		})
	}
}

func checkTable(t *testing.T, c lobby.Config, tf *lobby.TableFormed, joined map[string]time.Time) {
	t.Helper()
	if n := len(tf.Seats); n < c.Min || n > c.TableSize {
		t.Fatalf("table %d of %d seats (min %d, size %d)", tf.Number, n, c.Min, c.TableSize)
	}
	keys := map[string]bool{}
	houses, staffs := 0, 0
	for _, s := range tf.Seats {
		if keys[s.Key] {
			t.Fatalf("table %d seats %s twice", tf.Number, s.Key)
		}
		keys[s.Key] = true
		switch {
		case s.House:
			houses++
		case s.Staff:
			staffs++
		default:
			if _, ok := joined[s.Key]; !ok {
				t.Fatalf("table %d seats %s, not queued", tf.Number, s.Key)
			}
		}
	}
	if tf.Ranked != (houses == 0) || (tf.Reason == lobby.ReasonAlone) != (houses+staffs > 0) || staffs > 1 {
		t.Fatalf("table %d: ranked %v reason %s with %d house and %d staff", tf.Number, tf.Ranked, tf.Reason, houses, staffs)
	}
	if houses > 0 && c.House == nil || staffs > 0 && c.Staff == nil {
		t.Fatalf("table %d: house or staff not configured", tf.Number)
	}
}

func checkLines(t *testing.T, r *rig, c lobby.Config, now time.Time, order []string, joined map[string]time.Time, tier map[string]string) {
	t.Helper()
	in := r.info("g")
	if in.Waiting != len(order) {
		t.Fatalf("queue holds %d, the model %d (%v)", in.Waiting, len(order), order)
	}
	lines := map[string][]string{}
	for _, k := range order {
		line := ""
		if in.Split {
			line = tier[k]
		}
		lines[line] = append(lines[line], k)
	}
	for line, ks := range lines {
		if len(ks) >= c.TableSize {
			t.Fatalf("line %q holds a full table %v", line, ks)
		}
		if len(ks) >= c.Min && !now.Before(joined[ks[0]].Add(lobby.DefaultWait)) {
			t.Fatalf("line %q holds %v, due since %v", line, ks, joined[ks[0]].Add(lobby.DefaultWait))
		}
		for i, k := range ks {
			p, err := r.l.Position(t.Context(), "g", k)
			if err != nil || p.Position != i+1 || p.Waiting != len(ks) {
				t.Fatalf("position of %s: %+v %v, want %d of %d", k, p, err, i+1, len(ks))
			}
		}
	}
}
