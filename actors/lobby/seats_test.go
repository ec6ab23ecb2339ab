package lobby_test

import (
	"slices"
	"testing"

	"arena/actors/lobby"
)

// seatOrder plays six joins on a fresh lobby with seed and returns the first table's seats.
func seatOrder(t *testing.T, seed byte) []string {
	t.Helper()
	r := newRig(t)
	c := six("g")
	c.Seed = [32]byte{seed, 0xa5}
	r.open(c, false)
	for _, k := range names("k", 12) {
		r.join("g", k)
	}
	tabs := r.formed("g")
	if len(tabs) != 2 {
		t.Fatalf("%d tables, want 2", len(tabs))
	}
	return append(keys(tabs[0]), keys(tabs[1])...)
}

func TestSeatsFollowTheSeed(t *testing.T) {
	first := seatOrder(t, 1)
	if again := seatOrder(t, 1); !slices.Equal(first, again) {
		t.Fatalf("same seed, same joins: %v then %v", first, again)
	}
	joined := names("k", 12)
	sorted := append(slices.Sorted(slices.Values(first[:6])), slices.Sorted(slices.Values(first[6:]))...)
	if !slices.Equal(sorted, joined) {
		t.Fatalf("seats %v are not the entrants %v", first, joined)
	}
	if slices.Equal(first[:6], joined[:6]) && slices.Equal(first[6:], joined[6:]) {
		t.Fatalf("seats in join order: %v", first)
	}
	other := seatOrder(t, 2)
	if slices.Equal(first, other) {
		t.Fatalf("seeds 1 and 2 seat alike: %v", first)
	}
	// The order is drawn for each table: the two tables of one seed differ in pattern.
	pos := func(ks []string, base int) []int {
		out := make([]int, len(ks))
		for i, k := range ks {
			out[i] = slices.Index(joined, k) - base
		}
		return out
	}
	if slices.Equal(pos(first[:6], 0), pos(first[6:], 6)) {
		t.Fatalf("both tables drew the same permutation %v", pos(first[:6], 0))
	}
}

// The house and staff seats are shuffled in with the rest.
func TestHouseSeatsShuffledIn(t *testing.T) {
	seen := map[int]bool{}
	for seed := byte(1); seed <= 12; seed++ {
		r := newRig(t)
		c := six("g")
		c.Seed = [32]byte{seed}
		c.House = house
		r.open(c, false)
		r.join("g", "a")
		r.to(lobby.DefaultHouseAfter)
		tabs := r.formed("g")
		if len(tabs) != 1 {
			t.Fatalf("seed %d: %d tables", seed, len(tabs))
		}
		seen[slices.Index(keys(tabs[0]), "a")] = true
	}
	if len(seen) != 3 {
		t.Fatalf("over 12 seeds the real entrant sat at seats %v, want each of 0, 1, 2", seen)
	}
}
