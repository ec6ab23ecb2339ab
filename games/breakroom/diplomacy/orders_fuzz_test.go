package diplomacy

import (
	"errors"
	"reflect"
	"testing"

	"arena/games/breakroom/diplomacy/board"
)

// FuzzCheckOrdersAnyPhase: the door's check in every kind of phase (movement, retreats,
// adjustments), on positions reached by the house's play: whatever the text, a refusal is an
// *OrderError with a reason, nothing panics, the state is unchanged, and an accepted order's
// normalized echo is accepted again and echoes itself (§6.6).
func FuzzCheckOrdersAnyPhase(f *testing.F) {
	for _, s := range []string{"A vie - gal", "F spa/sc R por", "F spa R por", "A bur D", "B A vie", "B F stp/nc",
		"D F stp/sc", "D A mos", "W", "F tri - adr", "A par - bur via convoy", "f SPA(nc) -> por"} {
		for _, steps := range []uint8{0, 1, 2, 3, 5, 8} {
			f.Add(s, steps, uint8(0), uint64(1))
		}
	}
	f.Fuzz(func(t *testing.T, text string, steps, k uint8, seed uint64) {
		s := New(DefaultRules())
		for i := 0; i < int(steps%24) && !s.Over; i++ {
			orders := map[board.Power][]string{}
			for _, p := range board.Powers() {
				if s.Active(p) {
					orders[p] = HouseOrders(s, p, seed+uint64(i))
				}
			}
			n, _, err := s.Resolve(orders)
			if err != nil {
				t.Fatalf("%s: %v", s.Phase(), err)
			}
			s = n
		}
		p := s.Cfg.Powers[int(k)%len(s.Cfg.Powers)]
		before := clone(s)
		os, err := s.CheckOrders(p, []string{text})
		if !reflect.DeepEqual(s, before) {
			t.Fatalf("%s %s %q: the check changed the state", s.Phase(), p, text)
		}
		if err != nil {
			var oe *OrderError
			if !errors.As(err, &oe) || oe.Reason == "" {
				t.Fatalf("%s %s %q: %T %v", s.Phase(), p, text, err, err)
			}
			return
		}
		if len(os) == 0 {
			return
		}
		echo := os[0].Order.String()
		again, err := s.CheckOrders(p, []string{echo})
		if err != nil || len(again) != 1 || again[0].Order.String() != echo {
			t.Fatalf("%s %s %q: echo %q checks as %v %v", s.Phase(), p, text, echo, again, err)
		}
	})
}

// clone copies a State deeply enough for reflect.DeepEqual to see a change made through its
// maps or slices.
func clone(s State) State {
	c := s
	c.Units = append([]board.Unit(nil), s.Units...)
	c.Dislodged = append(c.Dislodged[:0:0], s.Dislodged...)
	c.Owners = map[string]board.Power{}
	for k, v := range s.Owners {
		c.Owners[k] = v
	}
	return c
}
