package adjudicate

import (
	"errors"
	"fmt"
	"sort"

	"arena/games/breakroom/diplomacy/board"
)

// Order is one power's order (§6.6), as board.ParseOrder gives it.
type Order struct {
	Power board.Power
	board.Order
}

// String is "POWER: normalized order".
func (o Order) String() string { return string(o.Power) + ": " + o.Order.String() }

// Reason says why an order failed (§6.13 `reason`).
type Reason string

// The failure reasons of §6.13.
const (
	Bounced   Reason = "bounced"   // a move that did not get through
	Cut       Reason = "cut"       // a support cut by an attack
	Dislodged Reason = "dislodged" // a holding, supporting or convoying unit that was dislodged
	Void      Reason = "void"      // an order that names nothing it can act on in this position
	NoPath    Reason = "no_path"   // a convoyed move without an unbroken convoy, or a convoy in a paradox
)

// Result is the outcome of one order. Reason is empty when Succeeds.
type Result struct {
	Power    board.Power
	Order    board.Order
	Succeeds bool
	Reason   Reason
}

// Dislodgement is a unit dislodged in a movement phase, with where it may retreat (§6.8).
type Dislodgement struct {
	Unit         board.Unit
	AttackerFrom string      // province the dislodging unit came from
	ByConvoy     bool        // the dislodging unit came by convoy (its origin is then open)
	To           []board.Loc // retreat destinations, sorted; empty: the unit can only disband
}

// MovementOutcome is the resolution of a movement phase.
type MovementOutcome struct {
	// Results has one entry per order given and one hold for each unit that had no order,
	// sorted by the ordered unit's province, then by order text.
	Results []Result
	// Dislodged lists the dislodged units by province. They are not in Units.
	Dislodged []Dislodgement
	// Standoffs are the provinces left empty by a bounce (no retreat there), sorted.
	Standoffs []string
	// Units is the board after the moves, without the dislodged units, sorted by province.
	Units []board.Unit
}

// ErrPosition is wrapped by every error about a malformed position: a unit at an unknown or
// impassable place, an army at sea or on a coast, a fleet inland or on a split-coast province
// without its coast, two units in one province, or a unit of an unknown power.
var ErrPosition = errors.New("adjudicate: bad position")

func checkUnits(units []board.Unit) (map[string]int, error) {
	at := map[string]int{}
	known := map[board.Power]bool{}
	for _, p := range board.Powers() {
		known[p] = true
	}
	for i, u := range units {
		p, ok := board.Lookup(u.Loc.Province())
		if !ok || !board.ValidLoc(u.Loc) || p.Kind == board.Impassable {
			return nil, fmt.Errorf("%w: unknown place %q", ErrPosition, u.Loc)
		}
		if !known[u.Power] {
			return nil, fmt.Errorf("%w: unknown power %q", ErrPosition, u.Power)
		}
		switch u.Type {
		case board.Army:
			if p.Kind == board.Sea || u.Loc.Coast() != "" {
				return nil, fmt.Errorf("%w: an army cannot be at %s", ErrPosition, u.Loc)
			}
		case board.Fleet:
			if p.Kind == board.Land || (len(p.Coasts) > 0 && u.Loc.Coast() == "") {
				return nil, fmt.Errorf("%w: a fleet cannot be at %s", ErrPosition, u.Loc)
			}
		default:
			return nil, fmt.Errorf("%w: unknown unit type at %s", ErrPosition, u.Loc)
		}
		if _, dup := at[p.Abbr]; dup {
			return nil, fmt.Errorf("%w: two units in %s", ErrPosition, p.Abbr)
		}
		at[p.Abbr] = i
	}
	return at, nil
}

// decision states of the guess algorithm.
const (
	unresolved uint8 = iota
	guessing
	resolved
)

// piece is one unit with its effective order.
type piece struct {
	u      board.Unit
	prov   string
	given  *Order // the order given for it, nil when none (or more than one)
	kind   board.OrderKind
	dest   string      // move: destination province; support: province supported into; convoy: army's destination
	destL  board.Loc   // move: destination location (coast resolved)
	from   string      // support/convoy: province of the supported or convoyed unit
	coast  board.Coast // support of a fleet's move: the coast it names, "" for none
	convoy bool        // a move that goes by convoy
	void   bool        // the given order is void in this position
}

type resolver struct {
	ps        []piece
	at        map[string]int
	into      map[string][]int // province -> moves into it
	supports  [][]int          // piece -> supports matching its effective order
	convoyers [][]int          // army piece -> convoys matching its move
	state     []uint8
	res       []bool
	deps      []int
	paradox   []bool // convoy settled by the Szykman rule
}

func seaTouches(sea, prov string) bool { return len(board.FleetCoastsTo(board.Loc(sea), prov)) > 0 }

// reaches reports whether unit u could move into province p without a convoy.
func reaches(u board.Unit, p string) bool {
	if u.Type == board.Army {
		return board.ArmyAdjacent(u.Loc, board.Loc(p))
	}
	return len(board.FleetCoastsTo(u.Loc, p)) > 0
}

// fleetDest resolves a fleet move's destination location from loc (4.B.1–4.B.3); ok false when
// the fleet cannot get there or the coast is ambiguous.
func fleetDest(loc, d board.Loc) (board.Loc, bool) {
	reach := board.FleetCoastsTo(loc, d.Province())
	if d.Coast() == "" {
		if len(reach) == 1 {
			return reach[0], true
		}
		return "", false
	}
	for _, m := range reach {
		if m == d {
			return d, true
		}
	}
	return "", false
}

func kindOf(p string) board.Kind {
	r, _ := board.Lookup(p)
	return r.Kind
}

// Movement resolves a movement phase: units is the board, orders the orders given (any order,
// any number; a unit without an order holds). Orders for a unit that is not there, is another
// power's or of another type, duplicate orders for one unit (all of them), and orders void in the
// position are reported Void and the unit holds (4.E.1). It fails only for a malformed position
// (ErrPosition).
func Movement(units []board.Unit, orders []Order) (MovementOutcome, error) {
	at, err := checkUnits(units)
	if err != nil {
		return MovementOutcome{}, err
	}
	r := &resolver{at: at, into: map[string][]int{}}
	r.ps = make([]piece, len(units))
	for i, u := range units {
		r.ps[i] = piece{u: u, prov: u.Loc.Province(), kind: board.Hold}
	}
	var out MovementOutcome
	count := make([]int, len(units))
	orderOf := make([]Order, len(units))
	for _, o := range orders {
		i, ok := at[o.Loc.Province()]
		if !ok || !movementKind(o.Kind) || r.ps[i].u.Power != o.Power || r.ps[i].u.Type != o.Unit {
			out.Results = append(out.Results, Result{Power: o.Power, Order: o.Order, Reason: Void})
			continue
		}
		count[i]++
		orderOf[i] = o
	}
	for i := range r.ps {
		switch count[i] {
		case 0:
		case 1:
			o := orderOf[i]
			r.ps[i].given = &o
			r.setOrder(i, o.Order)
		default:
			for _, o := range orders {
				if p, ok := at[o.Loc.Province()]; ok && p == i && movementKind(o.Kind) &&
					o.Power == r.ps[i].u.Power && o.Unit == r.ps[i].u.Type {
					out.Results = append(out.Results, Result{Power: o.Power, Order: o.Order, Reason: Void})
				}
			}
			r.ps[i].void = true
		}
	}
	r.match()
	r.state = make([]uint8, len(r.ps))
	r.res = make([]bool, len(r.ps))
	r.paradox = make([]bool, len(r.ps))
	for i := range r.ps {
		if r.ps[i].kind != board.Hold {
			r.resolve(i)
		}
	}
	r.collect(&out)
	return out, nil
}

func movementKind(k board.OrderKind) bool {
	switch k {
	case board.Hold, board.Move, board.SupportHold, board.SupportMove, board.Convoy:
		return true
	}
	return false
}

// setOrder checks order o for piece i against the map from the unit's real place and records its
// effective kind; an order impossible there is void and the unit holds.
func (r *resolver) setOrder(i int, o board.Order) {
	p := &r.ps[i]
	u := p.u
	voidIt := func() { p.void, p.kind = true, board.Hold }
	switch o.Kind {
	case board.Hold:
	case board.Move:
		d := o.Dest
		if !board.ValidLoc(d) || d.Province() == p.prov || kindOf(d.Province()) == board.Impassable {
			voidIt()
			return
		}
		p.kind, p.dest = board.Move, d.Province()
		if u.Type == board.Fleet {
			l, ok := fleetDest(u.Loc, d)
			if !ok {
				voidIt()
				return
			}
			p.destL = l
			return
		}
		p.destL = board.Loc(p.dest)
		if d.Coast() != "" || kindOf(p.dest) == board.Sea {
			voidIt()
			return
		}
		adjacent := board.ArmyAdjacent(u.Loc, d)
		coastal := kindOf(p.prov) == board.Coastal && kindOf(p.dest) == board.Coastal
		switch {
		case o.ViaTag && coastal:
			p.convoy = true
		case adjacent:
		case coastal:
			p.convoy = true
		default:
			voidIt()
		}
	case board.SupportHold, board.SupportMove:
		from := o.From.Province()
		t, ok := r.at[from]
		if !ok || from == p.prov || r.ps[t].u.Type != o.Target {
			voidIt()
			return
		}
		dest := from
		if o.Kind == board.SupportMove {
			dest = o.Dest.Province()
		}
		if dest == p.prov || !reaches(u, dest) {
			voidIt()
			return
		}
		p.kind, p.from, p.dest = o.Kind, from, dest
		if o.Kind == board.SupportMove {
			p.coast = o.Dest.Coast()
		}
	case board.Convoy:
		from := o.From.Province()
		t, ok := r.at[from]
		if u.Type != board.Fleet || kindOf(p.prov) != board.Sea || !ok || r.ps[t].u.Type != board.Army ||
			o.Dest.Province() == from || kindOf(o.Dest.Province()) != board.Coastal {
			voidIt()
			return
		}
		p.kind, p.from, p.dest = board.Convoy, from, o.Dest.Province()
	}
}

// match settles the orders that depend on others (4.E.1, 4.A.3): a convoyed move with no route of
// fleets on the board is void (6.D.32); a convoy by a fleet on no minimal route of fleets, or of an
// army not moving there, is void (6.G.7, 6.G.19); an army moving to an adjacent province goes by
// convoy when a convoy of its own power fits it; a support fits only the order it names, coast
// included (6.B.9), and not a convoy that could only pass through the supporting fleet itself
// (6.D.31); an order that fits nothing is void.
func (r *resolver) match() {
	n := len(r.ps)
	r.supports = make([][]int, n)
	r.convoyers = make([][]int, n)
	routes := map[[3]string]map[string]bool{}
	routeWithout := func(from, to, without string) map[string]bool {
		k := [3]string{from, to, without}
		if m, ok := routes[k]; ok {
			return m
		}
		m := r.minimalRoutes(from, to, without)
		routes[k] = m
		return m
	}
	route := func(from, to string) map[string]bool { return routeWithout(from, to, "") }
	voidIt := func(p *piece) { p.void, p.kind, p.convoy = true, board.Hold, false }
	for i := range r.ps {
		p := &r.ps[i]
		if p.kind == board.Move && p.convoy && len(route(p.prov, p.dest)) == 0 {
			voidIt(p)
		}
	}
	for i := range r.ps {
		p := &r.ps[i]
		if p.kind != board.Convoy {
			continue
		}
		t := r.at[p.from]
		tp := r.ps[t]
		if tp.kind != board.Move || tp.dest != p.dest || tp.u.Type != board.Army || !route(p.from, p.dest)[p.prov] {
			voidIt(p)
			continue
		}
		r.convoyers[t] = append(r.convoyers[t], i)
	}
	for i := range r.ps {
		p := &r.ps[i]
		if p.kind == board.Move && p.u.Type == board.Army && !p.convoy {
			for _, f := range r.convoyers[i] {
				if r.ps[f].u.Power == p.u.Power {
					p.convoy = true
				}
			}
		}
	}
	for i := range r.ps {
		p := &r.ps[i]
		if p.kind != board.SupportHold && p.kind != board.SupportMove {
			continue
		}
		t := r.at[p.from]
		tp := r.ps[t]
		fits := tp.kind != board.Move
		if p.kind == board.SupportMove {
			fits = tp.kind == board.Move && tp.dest == p.dest && (p.coast == "" || p.coast == tp.destL.Coast())
			// A fleet cannot support a convoy that can only go through itself (DATC 6.D.31).
			if fits && tp.convoy && kindOf(p.prov) == board.Sea && len(routeWithout(tp.prov, tp.dest, p.prov)) == 0 {
				fits = false
			}
		}
		if !fits {
			voidIt(p)
			continue
		}
		r.supports[t] = append(r.supports[t], i)
	}
	for i := range r.ps {
		if p := r.ps[i]; p.kind == board.Move {
			r.into[p.dest] = append(r.into[p.dest], i)
		}
	}
}

// minimalRoutes returns the sea provinces whose fleets lie on a minimal convoy route from coastal
// province from to to: a chain of fleets in seas, each next to the one before, the first touching
// from and the last touching to, with no shortcut (no fleet but the first touches from, none but
// the last touches to, no two fleets but neighbours in the chain touch). Every fleet of such a
// route is needed for it; a fleet on none cannot convoy this army (DATC 6.G.19, 4.E.1). Any route
// contains a minimal one, so the result is empty exactly when no convoy is possible.
func (r *resolver) minimalRoutes(from, to, without string) map[string]bool {
	var seas []string
	for _, p := range r.ps {
		if p.u.Type == board.Fleet && kindOf(p.prov) == board.Sea && p.prov != without {
			seas = append(seas, p.prov)
		}
	}
	sort.Strings(seas)
	on := map[string]bool{}
	adj := func(a, b string) bool { return board.FleetAdjacent(board.Loc(a), board.Loc(b)) }
	var path []string
	var walk func()
	walk = func() {
		last := path[len(path)-1]
		if seaTouches(last, to) {
			for _, s := range path {
				on[s] = true
			}
			return
		}
	next:
		for _, s := range seas {
			if !adj(last, s) || seaTouches(s, from) {
				continue
			}
			for _, q := range path[:len(path)-1] {
				if q == s || adj(q, s) {
					continue next
				}
			}
			if s == last {
				continue
			}
			path = append(path, s)
			walk()
			path = path[:len(path)-1]
		}
	}
	for _, s := range seas {
		if seaTouches(s, from) {
			path = append(path[:0], s)
			walk()
		}
	}
	return on
}

// reachable returns the convoying fleets of army i reachable by a chain of them from coastal
// province start; ok, when set, filters the fleets that may be used.
func (r *resolver) reachable(i int, start string, ok func(int) bool) map[int]bool {
	seen := map[int]bool{}
	var queue []int
	for _, f := range r.convoyers[i] {
		if seaTouches(r.ps[f].prov, start) && (ok == nil || ok(f)) {
			seen[f] = true
			queue = append(queue, f)
		}
	}
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		for _, g := range r.convoyers[i] {
			if !seen[g] && board.FleetAdjacent(board.Loc(r.ps[f].prov), board.Loc(r.ps[g].prov)) && (ok == nil || ok(g)) {
				seen[g] = true
				queue = append(queue, g)
			}
		}
	}
	return seen
}

// path reports whether move i can get to its destination: always for a move over land, and for
// a convoyed move when an unbroken chain of convoys that stand joins its two ends.
func (r *resolver) path(i int) bool {
	p := r.ps[i]
	if !p.convoy {
		return true
	}
	reach := r.reachable(i, p.prov, func(f int) bool { return r.resolve(f) })
	for f := range reach {
		if seaTouches(r.ps[f].prov, p.dest) {
			return true
		}
	}
	return false
}

// resolve is the guess-and-check driver: it returns decision i, guessing when i depends on itself.
func (r *resolver) resolve(i int) bool {
	switch r.state[i] {
	case resolved:
		return r.res[i]
	case guessing:
		// Every read of a guess is recorded, even of one already listed: the caller's length check
		// is how a decision learns that it rests on a guess.
		r.deps = append(r.deps, i)
		return r.res[i]
	}
	old := len(r.deps)
	r.res[i], r.state[i] = false, guessing
	first := r.adjudicate(i)
	if len(r.deps) == old {
		if r.state[i] != resolved {
			r.res[i], r.state[i] = first, resolved
		}
		return r.res[i]
	}
	if r.deps[old] != i {
		// i is in a cycle begun by another decision: leave it guessing, the first one decides.
		r.deps = append(r.deps, i)
		r.res[i] = first
		return first
	}
	// i starts a cycle: try the other guess.
	for _, d := range r.deps[old:] {
		r.state[d] = unresolved
	}
	r.deps = r.deps[:old]
	r.res[i], r.state[i] = true, guessing
	second := r.adjudicate(i)
	if first == second {
		for _, d := range r.deps[old:] {
			r.state[d] = unresolved
		}
		r.deps = r.deps[:old]
		r.res[i], r.state[i] = first, resolved
		return first
	}
	// No or two consistent outcomes: the backup rule over the cycle.
	cycle := append([]int(nil), r.deps[old:]...)
	if !contains(cycle, i) {
		cycle = append(cycle, i)
	}
	r.deps = r.deps[:old]
	r.backup(cycle)
	return r.resolve(i)
}

func contains(s []int, x int) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

// backup settles a cycle with no or two consistent outcomes: a cycle through a convoy is a convoy
// paradox, and its convoys fail (Szykman, 4.A.2); otherwise it is circular movement and its moves
// succeed.
func (r *resolver) backup(cycle []int) {
	var convoys bool
	for _, d := range cycle {
		if r.ps[d].kind == board.Convoy {
			convoys = true
		}
	}
	for _, d := range cycle {
		r.state[d] = unresolved
		switch {
		case convoys && r.ps[d].kind == board.Convoy:
			r.res[d], r.state[d], r.paradox[d] = false, resolved, true
		case !convoys && r.ps[d].kind == board.Move:
			r.res[d], r.state[d] = true, resolved
		}
	}
}

func (r *resolver) adjudicate(i int) bool {
	switch r.ps[i].kind {
	case board.Move:
		return r.adjMove(i)
	case board.SupportHold, board.SupportMove:
		return r.adjSupport(i)
	case board.Convoy:
		for _, k := range r.into[r.ps[i].prov] {
			if r.resolve(k) {
				return false
			}
		}
		return true
	}
	return true
}

// headToHead returns the move coming the other way over land, if i is a move over land.
func (r *resolver) headToHead(i int) (int, bool) {
	p := r.ps[i]
	if p.kind != board.Move || p.convoy {
		return 0, false
	}
	j, ok := r.at[p.dest]
	if !ok {
		return 0, false
	}
	q := r.ps[j]
	if q.kind == board.Move && !q.convoy && q.dest == p.prov {
		return j, true
	}
	return 0, false
}

func (r *resolver) supportCount(i int, except board.Power) int {
	n := 0
	for _, s := range r.supports[i] {
		if except != "" && r.ps[s].u.Power == except {
			continue
		}
		if r.resolve(s) {
			n++
		}
	}
	return n
}

func (r *resolver) holdStrength(prov string) int {
	j, ok := r.at[prov]
	if !ok {
		return 0
	}
	if r.ps[j].kind == board.Move {
		if r.resolve(j) {
			return 0
		}
		return 1
	}
	return 1 + r.supportCount(j, "")
}

func (r *resolver) attackStrength(i int) int {
	if !r.path(i) {
		return 0
	}
	p := r.ps[i]
	j, ok := r.at[p.dest]
	if !ok {
		return 1 + r.supportCount(i, "")
	}
	if _, h2h := r.headToHead(i); r.ps[j].kind == board.Move && !h2h && r.resolve(j) {
		return 1 + r.supportCount(i, "")
	}
	if r.ps[j].u.Power == p.u.Power {
		return 0
	}
	return 1 + r.supportCount(i, r.ps[j].u.Power)
}

func (r *resolver) preventStrength(k int) int {
	if !r.path(k) {
		return 0
	}
	if j, ok := r.headToHead(k); ok && r.resolve(j) {
		return 0
	}
	return 1 + r.supportCount(k, "")
}

func (r *resolver) adjMove(i int) bool {
	if !r.path(i) {
		return false
	}
	att := r.attackStrength(i)
	if j, ok := r.headToHead(i); ok {
		if att <= 1+r.supportCount(j, "") {
			return false
		}
	} else if att <= r.holdStrength(r.ps[i].dest) {
		return false
	}
	for _, k := range r.into[r.ps[i].dest] {
		if k != i && att <= r.preventStrength(k) {
			return false
		}
	}
	return true
}

// adjSupport: a support is given unless an attack by another power from anywhere but the province
// it supports into cuts it, or the unit there dislodges it.
func (r *resolver) adjSupport(i int) bool {
	p := r.ps[i]
	var viaConvoy []int
	for _, k := range r.into[p.prov] {
		q := r.ps[k]
		if q.u.Power == p.u.Power || q.prov == p.dest {
			continue
		}
		if !q.convoy {
			return false
		}
		viaConvoy = append(viaConvoy, k)
	}
	for _, k := range viaConvoy {
		if r.path(k) {
			return false
		}
	}
	for _, k := range r.into[p.prov] {
		if r.ps[k].prov == p.dest && r.resolve(k) {
			return false
		}
	}
	return true
}

// dislodger returns the move that dislodged piece i, if any.
func (r *resolver) dislodger(i int) (int, bool) {
	p := r.ps[i]
	if p.kind == board.Move && r.res[i] {
		return 0, false
	}
	for _, k := range r.into[p.prov] {
		if r.res[k] {
			return k, true
		}
	}
	return 0, false
}

func (r *resolver) collect(out *MovementOutcome) {
	occupied := map[string]bool{}
	dislodged := make([]bool, len(r.ps))
	for i, p := range r.ps {
		if _, ok := r.dislodger(i); ok {
			dislodged[i] = true
			continue
		}
		if p.kind == board.Move && r.res[i] {
			out.Units = append(out.Units, board.Unit{Power: p.u.Power, Type: p.u.Type, Loc: p.destL})
			occupied[p.dest] = true
		} else {
			out.Units = append(out.Units, p.u)
			occupied[p.prov] = true
		}
	}
	for prov, ks := range r.into {
		if occupied[prov] {
			continue
		}
		for _, k := range ks {
			if !r.res[k] && r.preventStrength(k) > 0 {
				out.Standoffs = append(out.Standoffs, prov)
				break
			}
		}
	}
	sort.Strings(out.Standoffs)
	standoff := map[string]bool{}
	for _, s := range out.Standoffs {
		standoff[s] = true
	}
	for i, p := range r.ps {
		res := Result{Power: p.u.Power, Order: board.Order{Kind: board.Hold, Unit: p.u.Type, Loc: p.u.Loc}}
		if p.given != nil {
			res.Order = p.given.Order
		}
		switch {
		case p.void:
			res.Reason = Void
		case p.kind == board.Move:
			res.Succeeds = r.res[i]
			if !res.Succeeds {
				res.Reason = Bounced
				if !r.path(i) {
					res.Reason = NoPath
				}
			}
		case p.kind == board.SupportHold || p.kind == board.SupportMove:
			res.Succeeds = r.res[i]
			if !res.Succeeds {
				res.Reason = Cut
				if dislodged[i] {
					res.Reason = Dislodged
				}
			}
		case p.kind == board.Convoy:
			res.Succeeds = r.res[i] && !dislodged[i]
			if !res.Succeeds {
				res.Reason = Dislodged
				if r.paradox[i] && !dislodged[i] {
					res.Reason = NoPath
				}
			}
		default:
			res.Succeeds = !dislodged[i]
			if !res.Succeeds {
				res.Reason = Dislodged
			}
		}
		if !p.void || p.given != nil { // a unit with several orders has them all reported void above
			out.Results = append(out.Results, res)
		}
		if dislodged[i] {
			k, _ := r.dislodger(i)
			d := Dislodgement{Unit: p.u, AttackerFrom: r.ps[k].prov, ByConvoy: r.ps[k].convoy}
			d.To = retreatTargets(p.u, d.AttackerFrom, d.ByConvoy, occupied, standoff)
			out.Dislodged = append(out.Dislodged, d)
		}
	}
	sortUnits(out.Units)
	sort.Slice(out.Dislodged, func(a, b int) bool { return out.Dislodged[a].Unit.Loc < out.Dislodged[b].Unit.Loc })
	sortResults(out.Results)
}

// retreatTargets lists where unit u, dislodged by a unit from attacker, may retreat (§6.8): an
// adjacent place that is empty after the moves, not left empty by a standoff, and not the
// attacker's origin unless the attacker came by convoy.
func retreatTargets(u board.Unit, attacker string, byConvoy bool, occupied, standoff map[string]bool) []board.Loc {
	var cands []board.Loc
	if u.Type == board.Army {
		for _, p := range board.ArmyNeighbours(u.Loc.Province()) {
			cands = append(cands, board.Loc(p))
		}
	} else {
		cands = board.FleetNeighbours(u.Loc)
	}
	var to []board.Loc
	for _, l := range cands {
		p := l.Province()
		if occupied[p] || standoff[p] || (p == attacker && !byConvoy) || kindOf(p) == board.Impassable {
			continue
		}
		to = append(to, l)
	}
	return to
}
