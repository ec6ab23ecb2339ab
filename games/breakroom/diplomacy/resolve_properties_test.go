package diplomacy

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"arena/games/breakroom/diplomacy/board"
)

// TestResolveOnReachedPositions: the properties on positions reached by play (not only
// random boards): the house's orders for every power over 40 seeded games, each phase resolved
// again with every power's list shuffled. The result never depends on the order orders are
// listed in, no province holds two units, and the 34 centres are always accounted for.
func TestResolveOnReachedPositions(t *testing.T) {
	for seed := uint64(0); seed < 40; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		s := New(DefaultRules())
		for step := 0; step < 60 && !s.Over; step++ {
			orders, shuffled := map[board.Power][]string{}, map[board.Power][]string{}
			for _, p := range board.Powers() {
				if !s.Active(p) {
					continue
				}
				o := HouseOrders(s, p, seed*1000+uint64(step))
				orders[p] = o
				r := append([]string(nil), o...)
				rng.Shuffle(len(r), func(i, j int) { r[i], r[j] = r[j], r[i] })
				shuffled[p] = r
			}
			n, _, err := s.Resolve(orders)
			if err != nil {
				t.Fatalf("seed %d %s: %v", seed, s.Phase(), err)
			}
			n2, _, err := s.Resolve(shuffled)
			if err != nil || !reflect.DeepEqual(n.Units, n2.Units) || !reflect.DeepEqual(n.Owners, n2.Owners) ||
				!reflect.DeepEqual(n.Dislodged, n2.Dislodged) || n.Phase() != n2.Phase() {
				t.Fatalf("seed %d %s: the result depends on the orders' listing (%v)", seed, s.Phase(), err)
			}
			seen := map[string]bool{}
			for _, u := range n.Units {
				if seen[u.Loc.Province()] {
					t.Fatalf("seed %d %s: two units in %s", seed, n.Phase(), u.Loc.Province())
				}
				seen[u.Loc.Province()] = true
			}
			sum := 0
			for _, v := range n.Centres() {
				sum += v
			}
			if sum != 34 {
				t.Fatalf("seed %d %s: the centres sum to %d", seed, n.Phase(), sum)
			}
			s = n
		}
	}
}
