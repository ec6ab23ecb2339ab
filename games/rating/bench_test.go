package rating

import "testing"

// BenchmarkRoundOfEight is one eight-seat rated round: eight Glicko-2 periods of seven games.
func BenchmarkRoundOfEight(b *testing.B) {
	ps := []Rating{
		{1500, 350, 0.06}, {1620, 80, 0.059}, {1380, 120, 0.061}, {1500, 200, 0.06},
		{1710, 60, 0.058}, {1450, 300, 0.06}, {1555, 95, 0.06}, {1290, 150, 0.062},
	}
	ranks := []int{2, 5, 1, 2, 6, 4, 8, 7}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Default().Round(ps, ranks); err != nil {
			b.Fatal(err)
		}
	}
}
