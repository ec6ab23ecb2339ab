package lobby_test

import (
	"slices"
	"testing"
	"time"

	"arena/actors/lobby"
)

// withHouse is six with house fill.
func withHouse(id string) lobby.Config {
	c := six(id)
	c.House = house
	return c
}

func TestHouseFillsAfterSixtySecondsAlone(t *testing.T) {
	for _, c := range []struct {
		name  string
		real  []time.Duration // join instants
		house int
	}{
		{"one alone", []time.Duration{0}, 2},
		{"two alone, the second later", []time.Duration{0, 40 * time.Second}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newRig(t)
			r.open(withHouse("g"), false)
			ks := names("k", len(c.real))
			for i, at := range c.real {
				r.joinAt("g", ks[i], at)
			}
			r.to(30 * time.Second)
			r.to(59*time.Second + 999*time.Millisecond)
			if n := len(r.formed("g")); n != 0 {
				t.Fatalf("%d tables before 60 s alone", n)
			}
			r.to(60 * time.Second) // the longest-waiting joined at 0
			tabs := r.formed("g")
			if len(tabs) != 1 {
				t.Fatalf("%d tables at 60 s, want 1", len(tabs))
			}
			tf := tabs[0]
			if tf.Ranked || tf.Reason != lobby.ReasonAlone || len(tf.Seats) != 3 || !tf.At.Equal(t0.Add(time.Minute)) {
				t.Fatalf("table %+v", tf)
			}
			var houses, reals []string
			for _, s := range tf.Seats {
				if s.Staff {
					t.Fatalf("staff seated without a Staff factory: %+v", s)
				}
				if s.House {
					houses = append(houses, s.Key)
				} else {
					reals = append(reals, s.Key)
				}
			}
			slices.Sort(houses)
			slices.Sort(reals)
			want := []string{"house:1:0", "house:1:1"}[:c.house]
			if !slices.Equal(houses, want) || !slices.Equal(reals, ks) {
				t.Fatalf("house %v real %v, want %v and %v", houses, reals, want, ks)
			}
		})
	}
}

func TestCompanyBeforeSixtySecondsSeatsNoHouse(t *testing.T) {
	r := newRig(t)
	r.open(withHouse("g"), false)
	r.joinAt("g", "a", 0)
	r.joinAt("g", "b", 20*time.Second)
	if got := r.joinAt("g", "c", 59*time.Second); !got.Seated { // Min reached, a has waited past the timer
		t.Fatalf("c at 59 s: %+v, want seated", got)
	}
	r.to(5 * time.Minute)
	tabs := r.formed("g")
	if len(tabs) != 1 {
		t.Fatalf("%d tables, want 1", len(tabs))
	}
	tf := tabs[0]
	if !tf.Ranked || tf.Reason != lobby.ReasonTimer || !slices.Equal(sortedKeys(tf), []string{"a", "b", "c"}) {
		t.Fatalf("table %+v seats %v", tf, keys(tf))
	}
	for _, s := range tf.Seats {
		if s.House {
			t.Fatalf("house seat %+v", s)
		}
	}
}

// Alone is fewer than Min queued: the 60 s run from when the line fell below Min, not from the
// join of an entrant that had company then.
func TestAloneCountsFromFallingBelowMin(t *testing.T) {
	r := newRig(t)
	r.open(withHouse("g"), false)
	r.joinAt("g", "a", 0)
	r.joinAt("g", "b", 5*time.Second)
	r.joinAt("g", "c", 10*time.Second)
	r.to(20 * time.Second)
	if was, err := r.l.Leave(t.Context(), "g", "c"); err != nil || !was {
		t.Fatalf("leave c: %v %v", was, err)
	}
	r.to(30 * time.Second) // the timer finds 2 of 3
	r.to(79 * time.Second)
	if n := len(r.formed("g")); n != 0 {
		t.Fatalf("%d tables before 60 s alone", n)
	}
	r.to(80 * time.Second)
	if tabs := r.formed("g"); len(tabs) != 1 || tabs[0].Ranked || len(tabs[0].Seats) != 3 {
		t.Fatalf("tables %+v", tabs)
	}
}

func TestStaffSitsDownWhenAlone(t *testing.T) {
	for _, c := range []struct {
		name      string
		house     bool
		real      int
		formed    bool
		ranked    bool
		houseSeat int
	}{
		{"staff completes the table: ranked", true, 2, true, true, 0},
		{"staff and house: unranked", true, 1, true, false, 1},
		{"staff alone completes it, no house", false, 2, true, true, 0},
		{"staff cannot complete it, no house: nothing", false, 1, false, false, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newRig(t)
			cfg := six("g")
			cfg.Staff = staff
			if c.house {
				cfg.House = house
			}
			r.open(cfg, false)
			ks := names("k", c.real)
			for _, k := range ks {
				r.join("g", k)
			}
			r.to(59 * time.Second)
			if n := len(r.formed("g")); n != 0 {
				t.Fatalf("%d tables before 60 s", n)
			}
			r.to(60 * time.Second)
			r.to(10 * time.Minute)
			tabs := r.formed("g")
			if !c.formed {
				if len(tabs) != 0 || r.clock.Pending() != 0 {
					t.Fatalf("tables %+v, timers %d: want none", tabs, r.clock.Pending())
				}
				return
			}
			if len(tabs) != 1 {
				t.Fatalf("%d tables, want 1", len(tabs))
			}
			tf := tabs[0]
			staffs, houses := 0, 0
			for _, s := range tf.Seats {
				if s.Staff {
					staffs++
					if s.Key != "staff:1" || s.House {
						t.Fatalf("staff seat %+v", s)
					}
				}
				if s.House {
					houses++
				}
			}
			if tf.Ranked != c.ranked || staffs != 1 || houses != c.houseSeat || len(tf.Seats) != 3 ||
				tf.Reason != lobby.ReasonAlone {
				t.Fatalf("table %+v: staff %d house %d", tf, staffs, houses)
			}
		})
	}
}
