package diplomacy

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"arena/games/breakroom/diplomacy/board"
)

// randomSet draws an order set for p that the door accepts, order by order: for movement, moves
// (often at another power's unit), supports of those moves and convoys; for retreats a listed
// place or a disband; for the winter builds at sites or waives, and removals, sometimes left to
// the civil-disorder rule.
func randomSet(r *rand.Rand, s State, p board.Power) []string {
	var set []string
	try := func(text string) bool {
		if _, err := s.CheckOrders(p, append(append([]string(nil), set...), text)); err == nil {
			set = append(set, text)
			return true
		}
		return false
	}
	switch s.Kind {
	case board.Movement:
		// First moves, mostly into a neighbour another power holds, then supports of those moves
		// and convoys, then holds.
		moves := map[string]string{} // province -> destination, of the moves drawn
		var helpers []board.Unit
		for _, u := range s.UnitsOf(p) {
			self := letter(u.Type) + " " + string(u.Loc)
			if r.IntN(3) == 0 {
				helpers = append(helpers, u)
				continue
			}
			var near, held []string
			if u.Type == board.Army {
				near = board.ArmyNeighbours(u.Loc.Province())
			} else {
				for _, l := range board.FleetNeighbours(u.Loc) {
					near = append(near, string(l))
				}
			}
			for _, n := range near {
				if v, ok := s.unitAt(board.Loc(n).Province()); ok && v.Power != p {
					held = append(held, n)
				}
			}
			if len(near) == 0 {
				continue
			}
			to := near[r.IntN(len(near))]
			if len(held) > 0 && r.IntN(3) > 0 {
				to = held[r.IntN(len(held))]
			}
			if try(self + " - " + to) {
				moves[u.Loc.Province()] = board.Loc(to).Province()
			}
		}
		for _, u := range helpers {
			self := letter(u.Type) + " " + string(u.Loc)
			done := false
			for _, v := range r.Perm(len(s.Units)) {
				w := s.Units[v]
				other := letter(w.Type) + " " + w.Loc.Province()
				if d, ok := moves[w.Loc.Province()]; ok {
					if (u.Type == board.Fleet && w.Type == board.Army && try(self+" C "+other+" - "+d)) || try(self+" S "+other+" - "+d) {
						done = true
						break
					}
				}
			}
			if !done {
				for _, v := range r.Perm(len(s.Units)) {
					w := s.Units[v]
					if w.Power == p && try(self+" S "+letter(w.Type)+" "+w.Loc.Province()) {
						done = true
						break
					}
				}
			}
			if !done {
				try(self + " H")
			}
		}
	case board.Retreats:
		for _, d := range s.Dislodged {
			if d.Unit.Power != p || r.IntN(5) == 0 {
				continue
			}
			self := letter(d.Unit.Type) + " " + string(d.Unit.Loc)
			if len(d.To) > 0 && r.IntN(4) > 0 {
				try(self + " R " + string(d.To[r.IntN(len(d.To))]))
			} else {
				try(self + " D")
			}
		}
	case board.Adjustments:
		if n := s.Builds(p); n > 0 {
			sites := s.Sites(p)
			for k := 0; k < n; k++ {
				site := sites[r.IntN(len(sites))]
				if r.IntN(4) == 0 {
					try("W")
				} else if !try("B F "+site) && !try("B A "+site) {
					for _, c := range []string{"nc", "sc", "ec"} {
						try("B F " + site + "/" + c)
					}
				}
			}
		}
		if n := -s.Adjustment(p); n > 0 && r.IntN(3) > 0 {
			us := s.UnitsOf(p)
			for k := 0; k < n; k++ {
				u := us[r.IntN(len(us))]
				try("D " + letter(u.Type) + " " + string(u.Loc))
			}
		}
	}
	return set
}

// playRandom plays one game of random door-legal orders from seed and checks §6.14's invariants
// after every phase; it returns the phases played and the final state.
func playRandom(t testing.TB, seed uint64) ([]string, State) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 6))
	s := New(DefaultRules())
	var phases []string
	for steps := 0; !s.Over; steps++ {
		if steps > 6*5 {
			t.Fatalf("seed %d: no end after %d phases", seed, steps)
		}
		if r.IntN(15) == 0 { // a played power misses three sets in a row, or comes back
			p := s.Cfg.Powers[r.IntN(len(s.Cfg.Powers))]
			s = s.WithDisorder(p, !s.Disorder[p])
		}
		orders := map[board.Power][]string{}
		for _, p := range s.Cfg.Powers {
			if s.Active(p) && r.IntN(10) > 0 {
				orders[p] = randomSet(r, s, p)
			}
		}
		before := s.clone()
		next, rep, err := s.Resolve(orders)
		if err != nil {
			t.Fatalf("seed %d %s: %v", seed, s.Phase(), err)
		}
		if !reflect.DeepEqual(before, s) {
			t.Fatalf("seed %d %s: Resolve changed its state", seed, s.Phase())
		}
		checkInvariants(t, seed, s, next, rep)
		phases = append(phases, rep.Phase)
		s = next
	}
	return phases, s
}

func checkInvariants(t testing.TB, seed uint64, s, next State, rep Report) {
	t.Helper()
	total := 0
	for _, n := range next.Centres() {
		total += n
	}
	if total != 34 {
		t.Fatalf("seed %d %s: %d centres", seed, rep.Phase, total)
	}
	seen := map[string]bool{}
	for _, u := range next.Units {
		if seen[u.Loc.Province()] {
			t.Fatalf("seed %d %s: two units in %s", seed, rep.Phase, u.Loc.Province())
		}
		seen[u.Loc.Province()] = true
	}
	for _, d := range next.Dislodged {
		if !seen[d.Unit.Loc.Province()] {
			t.Fatalf("seed %d %s: dislodged %v left its province empty", seed, rep.Phase, d.Unit)
		}
	}
	for _, p := range s.Cfg.Removed {
		for _, o := range rep.Orders[p] {
			ok := s.Kind == board.Movement && strings.HasSuffix(o, " H") ||
				s.Kind == board.Retreats && strings.HasSuffix(o, " D") ||
				s.Kind == board.Adjustments && strings.HasPrefix(o, "D ")
			if !ok {
				t.Fatalf("seed %d %s: %s ordered %q", seed, rep.Phase, p, o)
			}
		}
	}
	if s.Kind == board.Adjustments {
		had := map[board.Unit]bool{}
		for _, u := range s.Units {
			had[u] = true
		}
		for _, u := range next.Units {
			if had[u] {
				continue
			}
			r, _ := board.Lookup(u.Loc.Province())
			if r.Home != u.Power || s.Owners[r.Abbr] != u.Power || !contains(s.Sites(u.Power), r.Abbr) {
				t.Fatalf("seed %d %s: %v built off an owned vacant home centre", seed, rep.Phase, u)
			}
		}
		for _, p := range board.Powers() {
			if next.Adjustment(p) > 0 && s.Adjustment(p) < 0 || next.Adjustment(p) < 0 {
				t.Fatalf("seed %d %s: %s still owes removals (%d)", seed, rep.Phase, p, next.Adjustment(p))
			}
		}
	}
}

// TestRandomGames plays whole games of random door-legal orders: every one ends by the 1906
// centre update (or a solo), keeps the invariants of §6.14 after each phase, and replays to the
// same phases and the same final state.
func TestRandomGames(t *testing.T) {
	games := 60
	if testing.Short() {
		games = 10
	}
	phases, retreats, winters := 0, 0, 0
	for seed := uint64(1); seed <= uint64(games); seed++ {
		ps, final := playRandom(t, seed)
		ps2, final2 := playRandom(t, seed)
		if !reflect.DeepEqual(ps, ps2) || !reflect.DeepEqual(final, final2) {
			t.Fatalf("seed %d: a replay differs", seed)
		}
		if final.Solo == "" && (final.Year != 1906 || final.Season != Fall) {
			t.Fatalf("seed %d: ended in %s without a solo", seed, final.Phase())
		}
		phases += len(ps)
		for _, p := range ps {
			switch p[len(p)-1] {
			case 'R':
				retreats++
			case 'A':
				winters++
			}
		}
	}
	t.Logf("%d games, %d phases, %d retreat phases, %d winters", games, phases, retreats, winters)
	if phases < games*12 || retreats < games || winters < games*3 {
		t.Errorf("%d phases, %d retreat phases, %d winters in %d games: the games are too tame", phases, retreats, winters, games)
	}
}

// FuzzCheckOrders: the door never panics, a refusal always carries a reason, and one order given
// twice is always refused (two orders for one unit).
func FuzzCheckOrders(f *testing.F) {
	for _, s := range []string{"A vie - gal", "F stp - bot", "A war S A vie - gal", "F tri C A vie - ven", "B A vie", "", "F stp/nc - bar"} {
		f.Add(s, uint8(0))
	}
	f.Fuzz(func(t *testing.T, text string, k uint8) {
		s := New(DefaultRules())
		p := s.Cfg.Powers[int(k)%len(s.Cfg.Powers)]
		os, err := s.CheckOrders(p, []string{text, text})
		if err != nil {
			oe, ok := err.(*OrderError)
			if !ok || oe.Reason == "" {
				t.Fatalf("%q: %T %v", text, err, err)
			}
			return
		}
		t.Fatalf("%q accepted twice for one unit: %v", text, os)
	})
}

// BenchmarkGame plays a whole game, S1901M to the 1906 centre update, of random door-legal
// orders (drawing them, checking them at the door and checking §6.14's invariants included).
func BenchmarkGame(b *testing.B) {
	phases := 0
	for i := 0; i < b.N; i++ {
		ps, _ := playRandom(b, uint64(i%64)+1)
		phases += len(ps)
	}
	b.ReportMetric(float64(phases)/float64(b.N), "phases/op")
}
