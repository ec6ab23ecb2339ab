package diplomacy

import (
	"errors"
	"testing"

	"arena/games/breakroom/diplomacy/adjudicate"
	"arena/games/breakroom/diplomacy/board"
)

// TestRetreatNamesTheFleetsCoast: §6.7 refuses "a unit the power does not have at that place" in
// every phase: a dislodged fleet on spa/nc ordered as "F spa/sc R por" is refused with the coast
// it is on, as in movement; "F spa R por" and "F spa/nc R por" are its orders, echoed with the coast.
func TestRetreatNamesTheFleetsCoast(t *testing.T) {
	s := New(DefaultRules())
	s.Units = []board.Unit{{Power: board.FRA, Type: board.Fleet, Loc: "spa/nc"}, {Power: board.ENG, Type: board.Fleet, Loc: "mao"},
		{Power: board.ENG, Type: board.Army, Loc: "gas"}}
	sortUnits(s.Units)
	if _, err := s.CheckOrders(board.FRA, []string{"F spa/sc H"}); err == nil {
		t.Fatal("movement: F spa/sc H accepted for a fleet on spa/nc")
	}
	s, _ = resolve(t, s, map[board.Power][]string{board.ENG: {"A gas - spa", "F mao S A gas - spa"}})
	if s.Kind != board.Retreats || len(s.Dislodged) != 1 {
		t.Fatalf("%s dislodged %v", s.Phase(), s.Dislodged)
	}
	before := s.Phase()
	_, err := s.CheckOrders(board.FRA, []string{"F spa/sc R por"})
	var oe *OrderError
	if !errors.As(err, &oe) || oe.Index != 0 || oe.Reason != "the fleet is at spa/nc, not spa/sc" {
		t.Fatalf("F spa/sc R por: %v", err)
	}
	if s.Phase() != before || len(s.Dislodged) != 1 {
		t.Fatalf("a refusal changed the state: %s %v", s.Phase(), s.Dislodged)
	}
	for _, text := range []string{"F spa R por", "F spa/nc R por", "f SPA(nc) -> por"} {
		os, err := s.CheckOrders(board.FRA, []string{text})
		if err != nil || len(os) != 1 || os[0].Order.String() != "F spa/nc R por" {
			t.Errorf("%q: %v %v", text, os, err)
		}
	}
}

// TestRemovalNamesTheProvince: §6.6's removal is `"D" ("A"|"F") prov`, and its echo names the
// province; the unit as legal_actions lists it ("F stp/sc") is accepted too, a wrong coast is
// refused with the coast the fleet is on, and the order removes the fleet on its coast.
func TestRemovalNamesTheProvince(t *testing.T) {
	w := New(DefaultRules())
	w.Season, w.Kind = Winter, board.Adjustments
	w.Owners = map[string]board.Power{"mos": board.RUS}
	w.Units = []board.Unit{{Power: board.RUS, Type: board.Fleet, Loc: "stp/sc"}, {Power: board.RUS, Type: board.Army, Loc: "mos"}}
	sortUnits(w.Units)
	if w.Adjustment(board.RUS) != -1 {
		t.Fatalf("adjustment %d", w.Adjustment(board.RUS))
	}
	for _, text := range []string{"D F stp/nc", "d f stp(nc)"} {
		_, err := w.CheckOrders(board.RUS, []string{text})
		var oe *OrderError
		if !errors.As(err, &oe) || oe.Reason != "the fleet is at stp/sc, not stp/nc" {
			t.Errorf("%q: %v", text, err)
		}
	}
	var os []adjudicate.Order
	for _, text := range []string{"D F stp", "D F stp/sc", "d  f STP(sc)"} {
		var err error
		os, err = w.CheckOrders(board.RUS, []string{text})
		if err != nil || len(os) != 1 || os[0].Order.String() != "D F stp" || os[0].Order.Loc != "stp/sc" {
			t.Fatalf("%q: %v %v", text, os, err)
		}
	}
	if again, err := board.ParseOrder(board.Adjustments, os[0].Order.String()); err != nil || again.Kind != board.Remove {
		t.Fatalf("the echo %q does not parse: %v", os[0].Order.String(), err)
	}
}
