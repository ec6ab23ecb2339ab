package adjudicate

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"sort"
	"strings"
	"testing"

	"arena/games/breakroom/diplomacy/board"
)

func mustOrders(t testing.TB, ph board.Phase, byPower map[board.Power][]string) []Order {
	t.Helper()
	var os []Order
	for _, p := range board.Powers() {
		for _, s := range byPower[p] {
			o, err := board.ParseOrder(ph, s)
			if err != nil {
				t.Fatalf("%s: %q: %v", p, s, err)
			}
			os = append(os, Order{Power: p, Order: o})
		}
	}
	return os
}

func failing(out MovementOutcome) []string {
	var f []string
	for _, r := range out.Results {
		if !r.Succeeds {
			f = append(f, fmt.Sprintf("%s %s (%s)", r.Power, r.Order, r.Reason))
		}
	}
	sort.Strings(f)
	return f
}

// TestWorkedExample1901 is the adjudication of breakroom-games §6.15: both phases' bounces and
// standoffs, and the units the centre count of RUS 6, AUS 5, FRA 5, ENG 4, TUR 4, GER 3, ITA 3
// comes from.
func TestWorkedExample1901(t *testing.T) {
	spring := mustOrders(t, board.Movement, map[board.Power][]string{
		board.FRA: {"F bre - mao", "A par - bur", "A mar - spa"},
		board.ENG: {"F lon - nth", "F edi - nwg", "A lvp - yor"},
		board.TUR: {"F ank - bla", "A con - bul", "A smy - con"},
		board.RUS: {"A mos - ukr", "A war - gal", "F sev - bla", "F stp/sc - bot"},
		board.AUS: {"A vie - gal", "A bud - ser", "F tri - alb"},
		board.GER: {"A ber H", "F kie H", "A mun H"},
		board.ITA: {"F nap H", "A rom H", "A ven H"},
	})
	s, err := Movement(board.StartingUnits(), spring)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"AUS A vie - gal (bounced)", "RUS A war - gal (bounced)", "RUS F sev - bla (bounced)", "TUR F ank - bla (bounced)"}
	if got := failing(s); !reflect.DeepEqual(got, want) {
		t.Errorf("S1901M fails %v, want %v", got, want)
	}
	if !reflect.DeepEqual(s.Standoffs, []string{"bla", "gal"}) || len(s.Dislodged) != 0 {
		t.Errorf("S1901M standoffs %v dislodged %v, want [bla gal] and none", s.Standoffs, s.Dislodged)
	}
	fall := mustOrders(t, board.Movement, map[board.Power][]string{
		board.FRA: {"A bur - bel", "F mao - por", "A spa H"},
		board.ENG: {"F nwg - nwy", "F nth C A yor - bel", "A yor - bel"},
		board.TUR: {"F ank - bla", "A bul H", "A con S A bul"},
		board.RUS: {"A ukr - rum", "F sev S A ukr - rum", "A war - gal", "F bot - swe"},
		board.AUS: {"F alb - gre", "A ser - rum", "A vie - gal"},
	})
	f, err := Movement(s.Units, fall)
	if err != nil {
		t.Fatal(err)
	}
	want = []string{"AUS A ser - rum (bounced)", "AUS A vie - gal (bounced)", "ENG A yor - bel (bounced)",
		"FRA A bur - bel (bounced)", "RUS A war - gal (bounced)"}
	if got := failing(f); !reflect.DeepEqual(got, want) {
		t.Errorf("F1901M fails %v, want %v", got, want)
	}
	if !reflect.DeepEqual(f.Standoffs, []string{"bel", "gal"}) || len(f.Dislodged) != 0 {
		t.Errorf("F1901M standoffs %v dislodged %v, want [bel gal] and none", f.Standoffs, f.Dislodged)
	}
	count := map[board.Power]int{}
	owner := map[string]board.Power{}
	for _, p := range board.Provinces() {
		if p.Centre && p.Home != "" {
			owner[p.Abbr] = p.Home
		}
	}
	for _, u := range f.Units {
		if r, _ := board.Lookup(u.Loc.Province()); r.Centre {
			owner[r.Abbr] = u.Power
		}
	}
	for _, p := range owner {
		count[p]++
	}
	wantCount := map[board.Power]int{board.RUS: 6, board.AUS: 5, board.FRA: 5, board.ENG: 4, board.TUR: 4, board.GER: 3, board.ITA: 3}
	if !reflect.DeepEqual(count, wantCount) {
		t.Errorf("centres %v, want %v", count, wantCount)
	}
	// With the default last_year the winter follows: AUS, FRA and RUS build 2, ENG and TUR 1.
	adj := map[board.Power]int{}
	for _, p := range board.Powers() {
		if a := Adjustment(f.Units, owner, p); a != 0 {
			adj[p] = a
		}
	}
	wantAdj := map[board.Power]int{board.AUS: 2, board.FRA: 2, board.RUS: 2, board.ENG: 1, board.TUR: 1}
	if !reflect.DeepEqual(adj, wantAdj) {
		t.Errorf("adjustments %v, want %v", adj, wantAdj)
	}
}

// randomPosition places n units of random powers on distinct random provinces.
func randomPosition(r *rand.Rand, n int) []board.Unit {
	provs := board.Provinces()
	r.Shuffle(len(provs), func(i, j int) { provs[i], provs[j] = provs[j], provs[i] })
	powers := board.Powers()
	var us []board.Unit
	for _, p := range provs {
		if len(us) == n {
			break
		}
		u := board.Unit{Power: powers[r.IntN(len(powers))]}
		switch p.Kind {
		case board.Impassable:
			continue
		case board.Land:
			u.Type, u.Loc = board.Army, board.Loc(p.Abbr)
		case board.Sea:
			u.Type, u.Loc = board.Fleet, board.Loc(p.Abbr)
		case board.Coastal:
			u.Type, u.Loc = board.Army, board.Loc(p.Abbr)
			if r.IntN(2) == 0 {
				u.Type = board.Fleet
				if len(p.Coasts) > 0 {
					u.Loc = board.Loc(p.Abbr + "/" + string(p.Coasts[r.IntN(len(p.Coasts))]))
				}
			}
		}
		us = append(us, u)
	}
	return us
}

func letter(t board.UnitType) string {
	if t == board.Fleet {
		return "F"
	}
	return "A"
}

// moveTargets: the places unit u may be ordered to, as order text, convoy moves included.
func moveTargets(u board.Unit) []string {
	var out []string
	if u.Type == board.Fleet {
		for _, l := range board.FleetNeighbours(u.Loc) {
			out = append(out, string(l))
		}
		return out
	}
	out = board.ArmyNeighbours(u.Loc.Province())
	if r, _ := board.Lookup(u.Loc.Province()); r.Kind == board.Coastal {
		for _, p := range board.Provinces() {
			if p.Kind == board.Coastal && p.Abbr != r.Abbr {
				out = append(out, p.Abbr)
			}
		}
	}
	return out
}

// randomOrders gives most units a random order the door accepts; the rest get none. Moves are
// drawn first, then supports and convoys mostly aimed at them, so that attacks are supported,
// cut and convoyed often enough to matter.
func randomOrders(r *rand.Rand, us []board.Unit) []Order {
	parse := func(text string) (board.Order, bool) {
		o, err := board.ParseOrder(board.Movement, text)
		return o, err == nil
	}
	name := func(u board.Unit) string { return letter(u.Type) + " " + string(u.Loc) }
	given := make([]*board.Order, len(us))
	helpers := []int{}
	for i, u := range us {
		switch k := r.IntN(10); {
		case k == 0: // no order
		case k <= 2:
			o, _ := parse(name(u) + " H")
			given[i] = &o
		case k <= 6:
			ts := moveTargets(u)
			var attacks []string // places held by another power's unit
			for _, t := range ts {
				for _, v := range us {
					if v.Power != u.Power && v.Loc.Province() == board.Loc(t).Province() {
						attacks = append(attacks, t)
					}
				}
			}
			for try := 0; try < 4 && given[i] == nil && len(ts) > 0; try++ {
				to := ts[r.IntN(len(ts))]
				if len(attacks) > 0 && r.IntN(2) == 0 {
					to = attacks[r.IntN(len(attacks))]
				}
				text := name(u) + " - " + to
				if u.Type == board.Army && r.IntN(6) == 0 {
					text += " via convoy"
				}
				if o, ok := parse(text); ok {
					given[i] = &o
				}
			}
		default:
			helpers = append(helpers, i)
		}
	}
	for _, i := range helpers {
		u := us[i]
		for _, j := range r.Perm(len(us)) {
			if given[i] != nil {
				break
			}
			v, g := us[j], given[j]
			var text string
			switch {
			case j == i:
				continue
			case u.Type == board.Fleet && v.Type == board.Army && g != nil && g.Kind == board.Move && r.IntN(2) == 0:
				text = name(u) + " C " + name(v) + " - " + g.Dest.Province()
			case g != nil && g.Kind == board.Move && r.IntN(5) > 0:
				text = name(u) + " S " + name(v) + " - " + string(g.Dest)
			default:
				text = name(u) + " S " + name(v)
			}
			if o, ok := parse(text); ok {
				given[i] = &o
			}
		}
	}
	var os []Order
	for i, g := range given {
		if g != nil {
			os = append(os, Order{Power: us[i].Power, Order: *g})
		}
	}
	return os
}

// checkOutcome asserts what holds after any movement phase: every unit ends in exactly one place
// (moved, stayed, or dislodged with only empty, legal retreat places), no two in a province, and
// every order given has a result.
func checkOutcome(t testing.TB, us []board.Unit, os []Order, out MovementOutcome) {
	t.Helper()
	if len(out.Units)+len(out.Dislodged) != len(us) {
		t.Fatalf("%d units after, %d dislodged, from %d", len(out.Units), len(out.Dislodged), len(us))
	}
	seen := map[string]bool{}
	for _, u := range out.Units {
		p := u.Loc.Province()
		if seen[p] {
			t.Fatalf("two units in %s: %v", p, out.Units)
		}
		seen[p] = true
		if _, err := checkUnits([]board.Unit{u}); err != nil {
			t.Fatalf("unit after the moves: %v", err)
		}
	}
	for _, d := range out.Dislodged {
		for _, l := range d.To {
			if seen[l.Province()] {
				t.Fatalf("%v may retreat to occupied %s", d.Unit, l)
			}
			if d.Unit.Type == board.Army && !board.ArmyAdjacent(d.Unit.Loc, l) ||
				d.Unit.Type == board.Fleet && !board.FleetAdjacent(d.Unit.Loc, l) {
				t.Fatalf("%v may retreat to non-adjacent %s", d.Unit, l)
			}
		}
	}
	given := 0
	for _, r := range out.Results {
		for _, o := range os {
			if o.Power == r.Power && o.Order == r.Order {
				given++
				break
			}
		}
	}
	if given < len(os) {
		t.Fatalf("%d of %d orders have a result", given, len(os))
	}
}

// TestMovementRandom resolves many random door-legal order sets on random positions: it
// terminates, keeps every unit somewhere legal, and gives the same outcome whatever the order in
// which the orders are listed, every time.
func TestMovementRandom(t *testing.T) {
	const seed = 20261203
	r := rand.New(rand.NewPCG(seed, 1))
	rounds := 3000
	if testing.Short() {
		rounds = 300
	}
	dislodged, convoyed := 0, 0
	for i := 0; i < rounds; i++ {
		us := randomPosition(r, 10+r.IntN(25))
		os := randomOrders(r, us)
		out, err := Movement(us, os)
		if err != nil {
			t.Fatalf("round %d: %v", i, err)
		}
		checkOutcome(t, us, os, out)
		shuffled := append([]Order(nil), os...)
		r.Shuffle(len(shuffled), func(a, b int) { shuffled[a], shuffled[b] = shuffled[b], shuffled[a] })
		rus := append([]board.Unit(nil), us...)
		r.Shuffle(len(rus), func(a, b int) { rus[a], rus[b] = rus[b], rus[a] })
		again, err := Movement(rus, shuffled)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(out, again) {
			t.Fatalf("seed %d round %d: the outcome depends on the order of the orders\n%v\n%v", seed, i, out, again)
		}
		dislodged += len(out.Dislodged)
		for _, o := range os {
			if o.Kind == board.Convoy {
				convoyed++
			}
		}
		ret := Retreats(out.Dislodged, randomRetreats(r, out.Dislodged))
		after := map[string]bool{}
		for _, u := range append(append([]board.Unit(nil), out.Units...), ret.Retreated...) {
			if after[u.Loc.Province()] {
				t.Fatalf("round %d: two units in %s after retreats", i, u.Loc.Province())
			}
			after[u.Loc.Province()] = true
		}
		if len(ret.Retreated)+len(ret.Disbanded) != len(out.Dislodged) {
			t.Fatalf("round %d: %d retreated + %d disbanded of %d", i, len(ret.Retreated), len(ret.Disbanded), len(out.Dislodged))
		}
	}
	t.Logf("seed %d: %d rounds, %d dislodgements, %d convoy orders", seed, rounds, dislodged, convoyed)
	// The generator must reach the interesting cases, or the properties say little.
	if dislodged < rounds/10 || convoyed < rounds/10 {
		t.Errorf("seed %d: %d dislodgements and %d convoy orders in %d rounds: generator too tame", seed, dislodged, convoyed, rounds)
	}
}

func randomRetreats(r *rand.Rand, ds []Dislodgement) []Order {
	var os []Order
	for _, d := range ds {
		text := letter(d.Unit.Type) + " " + string(d.Unit.Loc) + " D"
		if len(d.To) > 0 && r.IntN(4) > 0 {
			text = letter(d.Unit.Type) + " " + string(d.Unit.Loc) + " R " + string(d.To[r.IntN(len(d.To))])
		}
		o, err := board.ParseOrder(board.Retreats, text)
		if err != nil {
			panic(fmt.Sprintf("%q: %v", text, err))
		}
		os = append(os, Order{Power: d.Unit.Power, Order: o})
	}
	return os
}

// FuzzMovement derives a position and orders from the fuzzer's bytes: resolution never panics,
// keeps every unit somewhere legal and is deterministic.
func FuzzMovement(f *testing.F) {
	for _, s := range []uint64{1, 2, 3, 42, 20261203} {
		f.Add(s, uint8(20))
	}
	f.Fuzz(func(t *testing.T, seed uint64, n uint8) {
		r := rand.New(rand.NewPCG(seed, 7))
		us := randomPosition(r, int(n%35))
		os := randomOrders(r, us)
		out, err := Movement(us, os)
		if err != nil {
			t.Fatal(err)
		}
		checkOutcome(t, us, os, out)
		again, _ := Movement(us, os)
		if !reflect.DeepEqual(out, again) {
			t.Fatal("not deterministic")
		}
	})
}

// TestMovementVoid: orders that name no unit of theirs, or two orders for one unit, are void and
// the unit holds; a malformed position is an error.
func TestMovementVoid(t *testing.T) {
	us := []board.Unit{{Power: board.ENG, Type: board.Fleet, Loc: "lon"}, {Power: board.FRA, Type: board.Army, Loc: "par"}}
	os := []Order{
		{Power: board.GER, Order: board.Order{Kind: board.Move, Unit: board.Fleet, Loc: "lon", Dest: "nth"}},
		{Power: board.FRA, Order: board.Order{Kind: board.Move, Unit: board.Army, Loc: "par", Dest: "bur"}},
		{Power: board.FRA, Order: board.Order{Kind: board.Move, Unit: board.Army, Loc: "par", Dest: "pic"}},
	}
	out, err := Movement(us, os)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range out.Results {
		got = append(got, fmt.Sprintf("%s %s %v %s", r.Power, r.Order, r.Succeeds, r.Reason))
	}
	want := []string{"ENG F lon H true ", "GER F lon - nth false void", "FRA A par - bur false void", "FRA A par - pic false void"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("results\n%v\nwant\n%v", got, want)
	}
	if !reflect.DeepEqual(out.Units, []board.Unit{us[0], us[1]}) {
		t.Errorf("units %v", out.Units)
	}
	for _, bad := range [][]board.Unit{
		{{Power: board.ENG, Type: board.Army, Loc: "nth"}},
		{{Power: board.ENG, Type: board.Fleet, Loc: "stp"}},
		{{Power: board.ENG, Type: board.Fleet, Loc: "par"}},
		{{Power: board.ENG, Type: board.Army, Loc: "swi"}},
		{{Power: "XXX", Type: board.Army, Loc: "par"}},
		{{Power: board.ENG, Type: board.Army, Loc: "par"}, {Power: board.FRA, Type: board.Army, Loc: "par"}},
		{{Power: board.RUS, Type: board.Fleet, Loc: "stp/nc"}, {Power: board.RUS, Type: board.Fleet, Loc: "stp/sc"}},
	} {
		if _, err := Movement(bad, nil); err == nil || !strings.Contains(err.Error(), "bad position") {
			t.Errorf("%v: err %v, want ErrPosition", bad, err)
		}
	}
}

// FuzzMovementRawOrders hands Movement, Retreats and Adjust orders with arbitrary fields (any
// kind, unit type, place or power, as a caller that skipped the door might): nothing panics, every
// unit still ends somewhere legal, and an order naming no unit of its power is void.
func FuzzMovementRawOrders(f *testing.F) {
	f.Add(uint64(1), "par", "bur", "ENG", uint8(2), uint8(1))
	f.Add(uint64(2), "stp/nc", "spa/xx", "RUS", uint8(5), uint8(2))
	f.Add(uint64(3), "", "nth", "", uint8(200), uint8(0))
	f.Fuzz(func(t *testing.T, seed uint64, loc, dest, power string, kind, typ uint8) {
		r := rand.New(rand.NewPCG(seed, 3))
		us := randomPosition(r, 20)
		os := randomOrders(r, us)
		raw := Order{Power: board.Power(power), Order: board.Order{Kind: board.OrderKind(kind), Unit: board.UnitType(typ),
			Loc: board.Loc(loc), Target: board.UnitType(typ), From: board.Loc(dest), Dest: board.Loc(dest), ViaTag: kind%2 == 0, Convoyed: kind%3 == 0}}
		os = append(os, raw)
		out, err := Movement(us, os)
		if err != nil {
			t.Fatal(err)
		}
		checkOutcome(t, us, os, out)
		Retreats(out.Dislodged, []Order{raw})
		owners := map[string]board.Power{loc: board.Power(power), dest: board.Power(power)}
		if _, err := Adjust(out.Units, owners, []Order{raw, raw}); err != nil {
			t.Fatal(err)
		}
	})
}
