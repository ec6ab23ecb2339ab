package games

import (
	"crypto/sha256"
	"encoding/binary"
	"math/rand/v2"
)

// SubSeed is a random stream of its own for one purpose of a match, drawn from the match's seed:
// PCG seeded with the first 16 bytes of SHA-256(seed ‖ label). Streams of different labels are
// independent, so adding a draw for one purpose (a house seat's answers, a shuffle) moves no
// other purpose's draws, and anyone holding the revealed seed re-draws them (Break Room's
// re-simulation). Labels name the purpose and its instance: "house/3", "deal/round/2".
func SubSeed(seed [32]byte, label string) *rand.PCG {
	h := sha256.New()
	h.Write(seed[:])
	h.Write([]byte(label))
	var sum [32]byte
	h.Sum(sum[:0])
	return rand.NewPCG(binary.BigEndian.Uint64(sum[:8]), binary.BigEndian.Uint64(sum[8:16]))
}
