package lobby

import (
	"math/rand/v2"

	"arena/games"
)

// shuffle puts seats in a random order drawn from seed and label (Fisher–Yates over
// games.SubSeed's PCG stream, each draw uniform by rejection): the same seed, label and seats
// give the same order, and anyone holding the seed draws it again.
func shuffle(seats []Seat, seed [32]byte, label string) {
	src := games.SubSeed(seed, label)
	for i := len(seats) - 1; i > 0; i-- {
		j := draw(src, uint64(i+1))
		seats[i], seats[j] = seats[j], seats[i]
	}
}

// draw is uniform in [0, n), n > 0: values below 2^64 mod n are rejected so every residue is
// equally likely.
func draw(src *rand.PCG, n uint64) uint64 {
	low := -n % n // 2^64 mod n
	for {
		if v := src.Uint64(); v >= low {
			return v % n
		}
	}
}
