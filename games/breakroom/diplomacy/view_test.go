package diplomacy

import (
	"fmt"
	"reflect"
	"testing"

	"arena/games/breakroom/diplomacy/board"
)

// TestOptions is §6.12's options for AUS in spring 1901, and a fleet on a split coast.
func TestOptions(t *testing.T) {
	s := New(DefaultRules())
	want := map[string][]string{"A bud": {"gal", "rum", "ser", "tri", "vie"}, "A vie": {"boh", "bud", "gal", "tri", "tyr"}, "F tri": {"adr", "alb", "ven"}}
	if got := s.Options(board.AUS); !reflect.DeepEqual(got, want) {
		t.Errorf("AUS options %v, want %v", got, want)
	}
	if got := s.Options(board.RUS)["F stp/sc"]; !reflect.DeepEqual(got, []string{"bot", "fin", "lvn"}) {
		t.Errorf("F stp/sc options %v", got)
	}
}

// TestBuildSites is §6.11's sites for AUS after §6.15's 1901 (bud and tri vacant), and stp's two
// coasts.
func TestBuildSites(t *testing.T) {
	s := New(DefaultRules())
	s, _ = resolve(t, s, spring1901)
	s, _ = resolve(t, s, fall1901)
	want := []Site{{Province: "bud", Army: true, Fleet: []string{}}, {Province: "tri", Army: true, Fleet: []string{"tri"}}}
	if got := s.BuildSites(board.AUS); !reflect.DeepEqual(got, want) {
		t.Errorf("AUS sites %v, want %v", got, want)
	}
	// RUS left mos and stp in 1901 (A mos - ukr - rum, F stp/sc - bot - swe); war and sev are occupied.
	want = []Site{{Province: "mos", Army: true, Fleet: []string{}}, {Province: "stp", Army: true, Fleet: []string{"stp/nc", "stp/sc"}}}
	if got := s.BuildSites(board.RUS); !reflect.DeepEqual(got, want) {
		t.Errorf("RUS sites %v, want %v", got, want)
	}
}

// TestStandings is §6.15's match_end ranking, and the elimination-year order among powers with no
// centres (§6.10).
func TestStandings(t *testing.T) {
	cfg := DefaultRules()
	cfg.LastYear = 1901
	s := New(cfg)
	s, _ = resolve(t, s, spring1901)
	s, _ = resolve(t, s, fall1901)
	seats := []board.Power{board.FRA, board.ENG, board.TUR, board.RUS, board.AUS}
	var got []string
	for _, st := range s.Standings(seats) {
		got = append(got, fmt.Sprintf("%d:%d:%s:%d:%d", st.Rank, st.Seat, st.Power, st.Centres, st.Units))
	}
	want := []string{"1:3:RUS:6:4", "2:0:FRA:5:3", "2:4:AUS:5:3", "4:1:ENG:4:3", "4:2:TUR:4:3"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("standings %v, want %v", got, want)
	}

	e := New(DefaultRules())
	e.Owners = map[string]board.Power{"bud": board.AUS}
	e.Units = nil
	e.Eliminated = map[board.Power]int{board.ENG: 1903, board.FRA: 1905, board.TUR: 1905}
	got = nil
	for _, st := range e.Standings(seats) {
		got = append(got, fmt.Sprintf("%d:%s:%d", st.Rank, st.Power, st.EliminatedYear))
	}
	want = []string{"1:AUS:0", "2:RUS:0", "3:FRA:1905", "3:TUR:1905", "5:ENG:1903"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("standings %v, want %v", got, want)
	}
}
