package diplomacy

import (
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"arena/games/breakroom/diplomacy/board"
)

func resolve(t *testing.T, s State, orders map[board.Power][]string) (State, Report) {
	t.Helper()
	next, rep, err := s.Resolve(orders)
	if err != nil {
		t.Fatalf("%s: %v", s.Phase(), err)
	}
	return next, rep
}

func failed(rep Report) []string {
	var out []string
	for _, r := range rep.Results {
		if !r.Succeeds {
			out = append(out, fmt.Sprintf("%s %s", r.Power, r.Order))
		}
	}
	sort.Strings(out)
	return out
}

var spring1901 = map[board.Power][]string{
	board.FRA: {"F bre - mao", "A par - bur", "A mar - spa"},
	board.ENG: {"F lon - nth", "F edi - nwg", "A lvp - yor"},
	board.TUR: {"F ank - bla", "A con - bul", "A smy - con"},
	board.RUS: {"A mos - ukr", "A war - gal", "F sev - bla", "F stp/sc - bot"},
	board.AUS: {"A vie - gal", "A bud - ser", "F tri - alb"},
}

var fall1901 = map[board.Power][]string{
	board.FRA: {"A bur - bel", "F mao - por", "A spa H"},
	board.ENG: {"F nwg - nwy", "F nth C A yor - bel", "A yor - bel"},
	board.TUR: {"F ank - bla", "A bul H", "A con S A bul"},
	board.RUS: {"A ukr - rum", "F sev S A ukr - rum", "A war - gal", "F bot - swe"},
	board.AUS: {"F alb - gre", "A ser - rum", "A vie - gal"},
}

// TestWorkedExample is breakroom-games §6.15 (last_year 1901) through the phase cycle: the
// phases played, their bounces and standoffs, GER/ITA's holds in the orders line, the centre
// counts and the year-limit end; and with the default last year, the winter's builds.
func TestWorkedExample(t *testing.T) {
	cfg := DefaultRules()
	cfg.LastYear = 1901
	s := New(cfg)
	if s.Phase() != "S1901M" {
		t.Fatalf("first phase %s", s.Phase())
	}
	s, rep := resolve(t, s, spring1901)
	if got, want := failed(rep), []string{"AUS A vie - gal", "RUS A war - gal", "RUS F sev - bla", "TUR F ank - bla"}; !reflect.DeepEqual(got, want) {
		t.Errorf("S1901M fails %v, want %v", got, want)
	}
	if !reflect.DeepEqual(rep.Standoffs, []string{"bla", "gal"}) || rep.Centres {
		t.Errorf("S1901M standoffs %v centres %v", rep.Standoffs, rep.Centres)
	}
	if got := rep.Orders[board.GER]; !reflect.DeepEqual(got, []string{"A ber H", "F kie H", "A mun H"}) {
		t.Errorf("GER orders %v", got)
	}
	if s.Phase() != "F1901M" {
		t.Fatalf("after S1901M: %s (no retreats)", s.Phase())
	}
	s, rep = resolve(t, s, fall1901)
	if got, want := failed(rep), []string{"AUS A ser - rum", "AUS A vie - gal", "ENG A yor - bel", "FRA A bur - bel", "RUS A war - gal"}; !reflect.DeepEqual(got, want) {
		t.Errorf("F1901M fails %v, want %v", got, want)
	}
	if !rep.Centres || !s.Over || s.Solo != "" {
		t.Errorf("F1901M: centres %v over %v solo %q, want a year-limit end", rep.Centres, s.Over, s.Solo)
	}
	want := map[string]int{"RUS": 6, "AUS": 5, "FRA": 5, "ENG": 4, "TUR": 4, "GER": 3, "ITA": 3, "neutral": 4}
	if got := s.Centres(); !reflect.DeepEqual(got, want) {
		t.Errorf("centres %v, want %v", got, want)
	}
	var neutral []string
	for _, c := range board.Centres() {
		if _, ok := s.Owners[c]; !ok {
			neutral = append(neutral, c)
		}
	}
	if !reflect.DeepEqual(neutral, []string{"bel", "den", "hol", "tun"}) {
		t.Errorf("neutral %v", neutral)
	}
	if _, _, err := s.Resolve(nil); !errors.Is(err, ErrOver) {
		t.Errorf("resolve after the end: %v", err)
	}

	s = New(DefaultRules())
	s, _ = resolve(t, s, spring1901)
	s, _ = resolve(t, s, fall1901)
	if s.Phase() != "W1901A" || s.Over {
		t.Fatalf("after F1901M with last_year 1906: %s over=%v", s.Phase(), s.Over)
	}
	builds := map[board.Power]int{}
	for _, p := range board.Powers() {
		if n := s.Builds(p); n != 0 {
			builds[p] = n
		}
	}
	if want := map[board.Power]int{board.AUS: 2, board.FRA: 2, board.RUS: 2, board.ENG: 1, board.TUR: 1}; !reflect.DeepEqual(builds, want) {
		t.Errorf("builds %v, want %v", builds, want)
	}
	if got := s.Sites(board.AUS); !reflect.DeepEqual(got, []string{"bud", "tri"}) {
		t.Errorf("AUS sites %v", got)
	}
	s, rep = resolve(t, s, map[board.Power][]string{board.AUS: {"B A bud", "B F tri"}, board.RUS: {"W"}})
	if s.Phase() != "S1902M" {
		t.Fatalf("after W1901A: %s", s.Phase())
	}
	if got := rep.Orders[board.AUS]; !reflect.DeepEqual(got, []string{"B A bud", "B F tri"}) {
		t.Errorf("AUS winter orders %v", got)
	}
	if len(s.UnitsOf(board.AUS)) != 5 || len(s.UnitsOf(board.RUS)) != 4 || len(s.UnitsOf(board.FRA)) != 3 {
		t.Errorf("units after the winter: AUS %v RUS %v FRA %v", s.UnitsOf(board.AUS), s.UnitsOf(board.RUS), s.UnitsOf(board.FRA))
	}
}

// TestCheckOrders: the door's refusals (§6.7), each naming the first bad order and why.
func TestCheckOrders(t *testing.T) {
	s := New(DefaultRules())
	for _, c := range []struct {
		p      board.Power
		orders []string
		want   string // "" = accepted
	}{
		{board.AUS, []string{"A vie - gal", "A bud - ser", "F tri - alb"}, ""},
		{board.AUS, nil, ""},
		{board.RUS, []string{"F stp - bot"}, ""}, // the fleet is on stp/sc
		{board.AUS, []string{"A vie - gal", "A vie - boh"}, `order 2 "A vie - boh": a second order for the unit at vie`},
		{board.AUS, []string{"A tri - alb"}, "AUS has no army at tri"},
		{board.AUS, []string{"A ven - tri"}, "AUS has no army at ven"},
		{board.AUS, []string{"F tri - tyr"}, "inland"},
		{board.AUS, []string{"A vie - par"}, "not adjacent"},
		{board.AUS, []string{"A vie S A par"}, "cannot support"},
		{board.AUS, []string{"A vie S F adr - tri"}, "there is no fleet at adr"},
		{board.AUS, []string{"A vie S A tyr"}, "there is no army at tyr"},
		{board.RUS, []string{"F stp/nc - bar"}, "the fleet is at stp/sc, not stp/nc"},
		{board.RUS, []string{"F stp - bar"}, "from stp/sc"},
		{board.GER, []string{"A ber H"}, "GER gives no orders now"},
		{board.AUS, []string{"A vie R boh"}, `unknown order "r"`},
		{board.AUS, []string{"B A vie"}, "expected unit type"},
	} {
		_, err := s.CheckOrders(c.p, c.orders)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s %v: %v", c.p, c.orders, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s %v: err %v, want %q", c.p, c.orders, err, c.want)
		case err != nil:
			var oe *OrderError
			if !errors.As(err, &oe) || oe.Reason == "" {
				t.Errorf("%s %v: %T without a reason", c.p, c.orders, err)
			}
		}
	}
	os, err := s.CheckOrders(board.RUS, []string{"F stp - bot", "a WAR  ->  gal"})
	if err != nil || os[0].Order.String() != "F stp/sc - bot" || os[1].Order.String() != "A war - gal" {
		t.Errorf("normalized %v %v", os, err)
	}
}

// TestCheckOrdersRetreatsAndWinter: a retreat goes only to a listed place; builds only to sites
// and no more than allowed; removals only of own units and no more than owed.
func TestCheckOrdersRetreatsAndWinter(t *testing.T) {
	s := New(DefaultRules())
	// Dislodge F tri: Italy and Austria's neighbours are in place for a supported attack.
	s.Units = []board.Unit{{Power: board.AUS, Type: board.Fleet, Loc: "tri"}, {Power: board.TUR, Type: board.Army, Loc: "ven"},
		{Power: board.TUR, Type: board.Army, Loc: "tyr"}, {Power: board.FRA, Type: board.Army, Loc: "alb"}}
	s, _ = resolve(t, s, map[board.Power][]string{board.TUR: {"A ven - tri", "A tyr S A ven - tri"}})
	if s.Kind != board.Retreats || len(s.Dislodged) != 1 {
		t.Fatalf("%s dislodged %v", s.Phase(), s.Dislodged)
	}
	if got := s.Dislodged[0].To; !reflect.DeepEqual(got, []board.Loc{"adr"}) {
		t.Fatalf("F tri may retreat to %v, want [adr]", got)
	}
	if _, err := s.CheckOrders(board.AUS, []string{"F tri R alb"}); err == nil || !strings.Contains(err.Error(), "only to [adr]") {
		t.Errorf("retreat to alb: %v", err)
	}
	if _, err := s.CheckOrders(board.AUS, []string{"F tri S A alb"}); err == nil {
		t.Error("support in a retreat phase accepted")
	}
	if _, err := s.CheckOrders(board.AUS, []string{"F tri R adr"}); err != nil {
		t.Error(err)
	}
	s, rep := resolve(t, s, map[board.Power][]string{board.AUS: {"F tri R adr"}})
	if s.Phase() != "F1901M" || !reflect.DeepEqual(rep.Orders[board.AUS], []string{"F tri R adr"}) {
		t.Errorf("after the retreat: %s %v", s.Phase(), rep.Orders)
	}

	w := New(DefaultRules())
	w.Season, w.Kind = Winter, board.Adjustments
	w.Units = []board.Unit{{Power: board.AUS, Type: board.Army, Loc: "vie"}, {Power: board.RUS, Type: board.Army, Loc: "bud"}}
	sortUnits(w.Units)
	// AUS owns bud, tri, vie and has one unit: 2 builds, but bud is occupied, so one site (tri).
	if w.Builds(board.AUS) != 1 || !reflect.DeepEqual(w.Sites(board.AUS), []string{"tri"}) {
		t.Fatalf("builds %d sites %v", w.Builds(board.AUS), w.Sites(board.AUS))
	}
	for _, c := range []struct {
		orders []string
		want   string
	}{
		{[]string{"B F tri"}, ""},
		{[]string{"W"}, ""},
		{[]string{"B A bud"}, "not a build site"},
		{[]string{"B A tri", "W"}, "may build 1"},
		{[]string{"B A tri", "B F tri"}, "a second build in tri"},
		{[]string{"D A vie"}, "must remove 0"},
		{[]string{"A vie H"}, "adjustment order"},
	} {
		_, err := w.CheckOrders(board.AUS, c.orders)
		if (c.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%v: err %v, want %q", c.orders, err, c.want)
		}
	}
	// RUS owns four home centres and has one unit: builds, no removals; a removal is refused.
	if _, err := w.CheckOrders(board.RUS, []string{"D A bud"}); err == nil || !strings.Contains(err.Error(), "must remove 0") {
		t.Errorf("RUS removal: %v", err)
	}
}
