package adjudicate

import (
	"fmt"
	"sort"

	"arena/games/breakroom/diplomacy/board"
)

// AdjustOutcome is the resolution of an adjustment phase (§6.9).
type AdjustOutcome struct {
	// Results has one entry per order given, in the order given.
	Results []Result
	// Built are the units built, sorted by province.
	Built []board.Unit
	// Removed are the units removed by order, and Disorder those removed by the civil-disorder
	// rule for removals not ordered; both sorted by province.
	Removed, Disorder []board.Unit
	// Units is the board after the phase, sorted by province.
	Units []board.Unit
}

// Adjustment is owned centres minus units for power p (§6.9): positive builds, negative removals.
// owners maps supply-centre provinces to their owner; provinces that are not centres are ignored.
func Adjustment(units []board.Unit, owners map[string]board.Power, p board.Power) int {
	n := 0
	for _, c := range board.Centres() {
		if owners[c] == p {
			n++
		}
	}
	for _, u := range units {
		if u.Power == p {
			n--
		}
	}
	return n
}

// Adjust resolves an adjustment phase (§6.9). Orders are taken in the order given: a build needs
// an owned, vacant home centre of its power and a build left (a fleet inland or on a split coast
// without its coast is void, 6.I.2, 6.B.14); a waive uses a build; a removal needs a unit of its
// power and a removal left. Every other order is void (the first legal orders count, DATC 4.D.4,
// 4.D.6). Removals a power owes and did not order are made by the 2023 civil-disorder rule
// (4.D.8, 6.J): the farthest from any centre the power owns first (counting moves through land and
// sea alike, whatever the unit's type), fleets before armies, then by province name. A unit on a
// centre after the fall update owns it, so it is at distance 0 and goes last.
// A power in civil disorder simply gives no orders. It fails only for a malformed position.
func Adjust(units []board.Unit, owners map[string]board.Power, orders []Order) (AdjustOutcome, error) {
	at, err := checkUnits(units)
	if err != nil {
		return AdjustOutcome{}, err
	}
	left := map[board.Power]int{}
	for _, p := range board.Powers() {
		left[p] = Adjustment(units, owners, p)
	}
	removed := make([]bool, len(units))
	occupied := map[string]bool{}
	for p := range at {
		occupied[p] = true
	}
	var out AdjustOutcome
	for _, o := range orders {
		res := Result{Power: o.Power, Order: o.Order, Reason: Void}
		switch o.Kind {
		case board.Build:
			if left[o.Power] > 0 && buildable(o, owners, occupied) {
				left[o.Power]--
				occupied[o.Loc.Province()] = true
				out.Built = append(out.Built, board.Unit{Power: o.Power, Type: o.Unit, Loc: o.Loc})
				res.Succeeds, res.Reason = true, ""
			}
		case board.Waive:
			if left[o.Power] > 0 {
				left[o.Power]--
				res.Succeeds, res.Reason = true, ""
			}
		case board.Remove:
			i, ok := at[o.Loc.Province()]
			if left[o.Power] < 0 && ok && !removed[i] && units[i].Power == o.Power && units[i].Type == o.Unit {
				left[o.Power]++
				removed[i] = true
				out.Removed = append(out.Removed, units[i])
				res.Succeeds, res.Reason = true, ""
			}
		}
		out.Results = append(out.Results, res)
	}
	for _, p := range board.Powers() {
		if left[p] >= 0 {
			continue
		}
		for _, i := range disorderOrder(units, owners, p, removed)[:-left[p]] {
			removed[i] = true
			out.Disorder = append(out.Disorder, units[i])
		}
	}
	for i, u := range units {
		if !removed[i] {
			out.Units = append(out.Units, u)
		}
	}
	out.Units = append(out.Units, out.Built...)
	sortUnits(out.Units)
	sortUnits(out.Built)
	sortUnits(out.Removed)
	sortUnits(out.Disorder)
	return out, nil
}

func buildable(o Order, owners map[string]board.Power, occupied map[string]bool) bool {
	prov := o.Loc.Province()
	r, ok := board.Lookup(prov)
	if !ok || !board.ValidLoc(o.Loc) || !r.Centre || r.Home != o.Power || owners[prov] != o.Power || occupied[prov] {
		return false
	}
	if o.Unit == board.Fleet {
		return r.Kind == board.Coastal && (len(r.Coasts) == 0) == (o.Loc.Coast() == "")
	}
	return o.Unit == board.Army && o.Loc.Coast() == ""
}

// disorderOrder lists p's units not yet removed in the order the civil-disorder rule removes them.
func disorderOrder(units []board.Unit, owners map[string]board.Power, p board.Power, removed []bool) []int {
	var sources []string
	for _, c := range board.Centres() {
		if owners[c] == p {
			sources = append(sources, c)
		}
	}
	dist := distances(sources)
	var idx []int
	for i, u := range units {
		if u.Power == p && !removed[i] {
			idx = append(idx, i)
		}
	}
	d := func(i int) int {
		if v, ok := dist[units[i].Loc.Province()]; ok {
			return v
		}
		return 1 << 20 // unreachable from any owned centre: farthest
	}
	sort.Slice(idx, func(a, b int) bool {
		x, y := idx[a], idx[b]
		if d(x) != d(y) {
			return d(x) > d(y)
		}
		if units[x].Type != units[y].Type {
			return units[x].Type == board.Fleet
		}
		return units[x].Loc < units[y].Loc
	})
	return idx
}

// neighbours is the province graph of the civil-disorder distance: provinces joined by an army or
// a fleet move from any of their coasts.
var neighbours = func() map[string][]string {
	g := map[string]map[string]bool{}
	add := func(a, b string) {
		if g[a] == nil {
			g[a] = map[string]bool{}
		}
		g[a][b] = true
	}
	for _, p := range board.Provinces() {
		for _, q := range board.ArmyNeighbours(p.Abbr) {
			add(p.Abbr, q)
		}
		locs := []board.Loc{board.Loc(p.Abbr)}
		for _, c := range p.Coasts {
			locs = append(locs, board.Loc(fmt.Sprintf("%s/%s", p.Abbr, c)))
		}
		for _, l := range locs {
			for _, m := range board.FleetNeighbours(l) {
				add(p.Abbr, m.Province())
			}
		}
	}
	out := map[string][]string{}
	for a, bs := range g {
		for b := range bs {
			out[a] = append(out[a], b)
		}
		sort.Strings(out[a])
	}
	return out
}()

// distances is a breadth-first count of moves from the nearest source province.
func distances(sources []string) map[string]int {
	dist := map[string]int{}
	queue := append([]string(nil), sources...)
	for _, s := range sources {
		dist[s] = 0
	}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, q := range neighbours[p] {
			if _, seen := dist[q]; !seen {
				dist[q] = dist[p] + 1
				queue = append(queue, q)
			}
		}
	}
	return dist
}
