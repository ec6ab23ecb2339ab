package diplomacy

import (
	"sort"

	"arena/games/breakroom/diplomacy/board"
)

// Options are the places each of p's units can move to without a convoy (§6.12 `options`),
// keyed by the unit as the wire names it ("A bud", "F stp/sc"): provinces for an army, places
// for a fleet (a coast where it matters), sorted.
func (s State) Options(p board.Power) map[string][]string {
	out := map[string][]string{}
	for _, u := range s.UnitsOf(p) {
		key := letter(u.Type) + " " + string(u.Loc)
		if u.Type == board.Army {
			out[key] = board.ArmyNeighbours(u.Loc.Province())
			continue
		}
		to := []string{}
		for _, l := range board.FleetNeighbours(u.Loc) {
			to = append(to, string(l))
		}
		out[key] = to
	}
	return out
}

// letter is a unit type as the wire writes it.
func letter(t board.UnitType) string {
	if t == board.Fleet {
		return "F"
	}
	return "A"
}

// Site is one place p may build (§6.11 `sites`): an army can always be built there; Fleet lists
// the places a fleet can be built, none inland, both coasts of a split-coast province.
type Site struct {
	Province string
	Army     bool
	Fleet    []string
}

// BuildSites are p's build sites this winter with the unit types each takes (§6.11).
func (s State) BuildSites(p board.Power) []Site {
	var out []Site
	for _, c := range s.Sites(p) {
		r, _ := board.Lookup(c)
		site := Site{Province: c, Army: true, Fleet: []string{}}
		switch {
		case r.Kind != board.Coastal:
		case len(r.Coasts) == 0:
			site.Fleet = []string{c}
		default:
			for _, k := range r.Coasts {
				site.Fleet = append(site.Fleet, c+"/"+string(k))
			}
		}
		out = append(out, site)
	}
	return out
}

// Standing is one played power's line in the ranking (§6.10): its score is its centres.
type Standing struct {
	Rank           int
	Seat           int
	Power          board.Power
	Centres, Units int
	Solo           bool
	EliminatedYear int // 0: never eliminated
	Disorder       bool
}

// Standings ranks the played powers, seats[i] being seat i's power (§6.10): by centres, more
// first; among powers with none, a later elimination year first and never eliminated above any
// year; powers still equal share a rank and are listed in seat order.
func (s State) Standings(seats []board.Power) []Standing {
	centres := s.Centres()
	var out []Standing
	for seat, p := range seats {
		out = append(out, Standing{Seat: seat, Power: p, Centres: centres[string(p)], Units: len(s.UnitsOf(p)),
			Solo: s.Solo == p, EliminatedYear: s.Eliminated[p], Disorder: s.Disorder[p]})
	}
	// later is the elimination key: never eliminated counts as the latest.
	later := func(st Standing) int {
		if st.EliminatedYear == 0 {
			return 1 << 30
		}
		return st.EliminatedYear
	}
	cmp := func(a, b Standing) int {
		if a.Centres != b.Centres {
			return b.Centres - a.Centres
		}
		if a.Centres == 0 && later(a) != later(b) {
			return later(b) - later(a)
		}
		return 0
	}
	sort.SliceStable(out, func(i, j int) bool {
		if c := cmp(out[i], out[j]); c != 0 {
			return c < 0
		}
		return out[i].Seat < out[j].Seat
	})
	for i := range out {
		out[i].Rank = i + 1
		if i > 0 && cmp(out[i], out[i-1]) == 0 {
			out[i].Rank = out[i-1].Rank
		}
	}
	return out
}
