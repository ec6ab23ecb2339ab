package play

import (
	"fmt"
	"testing"
)

// TestRecommendPaid: recommended_paid is the paid queue closest to opening (fewest agents short
// of min_players, then most waiting), a tie going to the earlier game, then the lower stake; nil
// when nobody waits at a paid queue.
func TestRecommendPaid(t *testing.T) {
	g := func(id string, min int, wp map[string]int) GameInfo {
		return GameInfo{ID: id, MinPlayers: min, WaitingPaid: wp}
	}
	for _, tc := range []struct {
		list []GameInfo
		want string
	}{
		{[]GameInfo{g("a", 3, nil), g("b", 2, map[string]int{})}, "<nil>"},
		{[]GameInfo{g("a", 3, map[string]int{"10": 1}), g("b", 2, map[string]int{"100": 1})}, "&{b 100 1}"},
		{[]GameInfo{g("a", 3, map[string]int{"10": 2, "100": 1})}, "&{a 10 2}"},
		{[]GameInfo{g("a", 3, map[string]int{"100": 2, "10": 2})}, "&{a 10 2}"},
		{[]GameInfo{g("a", 2, map[string]int{"10": 1}), g("b", 2, map[string]int{"10": 1})}, "&{a 10 1}"},
		{[]GameInfo{g("a", 3, map[string]int{"10": 5}), g("b", 3, map[string]int{"10": 4})}, "&{a 10 5}"},
		{[]GameInfo{g("a", 3, map[string]int{"x": 5, "10": 0})}, "<nil>"},
	} {
		if got := fmt.Sprint(recommendPaid(tc.list)); got != tc.want {
			t.Errorf("%+v: %s, want %s", tc.list, got, tc.want)
		}
	}
}
