//go:build amd64 && !purego

package sha256pair

import "os"

//go:generate sh -c "go run gen.go > block2_amd64.s"

// block2 hashes the len(pa)/64 whole blocks of pa into a and as many of pb into b, two rounds
// of one then two of the other; len(pb) >= len(pa) rounded down to a block.
//
//go:noescape
func block2(a *[8]uint32, pa []byte, b *[8]uint32, pb []byte)

// hasSHA reports whether the CPU has the SHA extensions and the SSSE3, SSE4.1 and AVX that
// block2 also uses, with the OS saving AVX state.
func hasSHA() bool

// paired is whether block2 runs here; without it every Digest is crypto/sha256's.
var paired = hasSHA() && !cpuOff(os.Getenv("GODEBUG"))
