package dotdotdot

import (
	"encoding/json"
	"fmt"
	"testing"
)

// BenchmarkRecomputeRatings recomputes 60 Badges' ratings from 2,000 stored six-seat rated
// rounds (each Badge in 200), reading every round back from bbolt.
func BenchmarkRecomputeRatings(b *testing.B) {
	h := newHarness(b)
	for n := 0; n < 2000; n++ {
		r := RatedRound{Table: fmt.Sprintf("rb%05d", n), Round: fmt.Sprintf("T-%d", n+1)}
		agents := make([]string, 6)
		for i := range 6 {
			agents[i] = fmt.Sprintf("%s/cis-2:Bench%02d", chainID, (n*7+i*11)%60)
			r.Seats = append(r.Seats, RatedSeat{Seat: i + 1, Agent: agents[i], Name: agents[i], Rank: 1 + (n+i)%6})
		}
		rb, _ := json.Marshal(r)
		if _, err := h.arena.Store().RateRound(r.Table, rb, agents, func(old [][]byte) ([][]byte, error) { return rateRound(r, old) }); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		got, err := h.arena.RecomputeRatings()
		if err != nil || len(got) != 60 {
			b.Fatalf("%d ratings, %v", len(got), err)
		}
	}
}
