package sha256pair

// The assembly checked against FIPS 180-4 from first principles (T5), not against gen.go (whose
// own test only says the file is what gen.go writes): the round constants are the first 32 bits
// of the fractional parts of the cube roots of the first 64 primes (§4.2.2), the byte flip turns
// each 32-bit word big-endian, each group's constants are added in both lanes, and the feature
// mask is the CPUID bits the instructions need.

import (
	"fmt"
	"math/big"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// fipsK5 computes K[0..63]: floor(cbrt(p) * 2^32) mod 2^32 = floor(cbrt(p << 96)) mod 2^32.
func fipsK5() [64]uint32 {
	var k [64]uint32
	n := 0
	for p := int64(2); n < 64; p++ {
		if !big.NewInt(p).ProbablyPrime(20) {
			continue
		}
		x := new(big.Int).Lsh(big.NewInt(p), 96)
		lo, hi := big.NewInt(0), new(big.Int).Lsh(big.NewInt(1), 40) // cbrt(p<<96) < 2^40 for p < 2^24
		for new(big.Int).Sub(hi, lo).Cmp(big.NewInt(1)) > 0 {        // largest r with r^3 <= x
			mid := new(big.Int).Rsh(new(big.Int).Add(lo, hi), 1)
			if new(big.Int).Exp(mid, big.NewInt(3), nil).Cmp(x) <= 0 {
				lo = mid
			} else {
				hi = mid
			}
		}
		k[n] = uint32(lo.Uint64())
		n++
	}
	return k
}

func TestHostile5AsmConstants(t *testing.T) {
	src, err := os.ReadFile("block2_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	k := fipsK5()
	if k[0] != 0x428a2f98 || k[63] != 0xc67178f2 { // FIPS 180-4 §4.2.2's first and last
		t.Fatalf("cube roots: K[0] %#x K[63] %#x", k[0], k[63])
	}
	data := regexp.MustCompile(`(?m)^DATA k<>\+(0x[0-9a-f]+)\(SB\)/4, \$(0x[0-9a-f]+)$`).FindAllStringSubmatch(s, -1)
	if len(data) != 64 {
		t.Fatalf("%d DATA k<> words, want 64", len(data))
	}
	for i, d := range data {
		off, _ := strconv.ParseUint(d[1], 0, 32)
		v, _ := strconv.ParseUint(d[2], 0, 32)
		if off != uint64(4*i) || uint32(v) != k[i] {
			t.Errorf("DATA k<>+%s = %s, want +%#x = %#08x", d[1], d[2], 4*i, k[i])
		}
	}
	for _, want := range []string{
		"GLOBL k<>(SB), RODATA|NOPTR, $256",
		// PSHUFB with these indices reverses the bytes of each 32-bit word: 3 2 1 0, 7 6 5 4, ...
		"DATA flip<>+0(SB)/8, $0x0405060700010203",
		"DATA flip<>+8(SB)/8, $0x0c0d0e0f08090a0b",
		"GLOBL flip<>(SB), RODATA|NOPTR, $16",
		// 64 bytes of locals (the two lanes' saved states), 64 of arguments: two pointers, two slices
		"TEXT ·block2(SB), NOSPLIT, $64-64",
		// leaf 1 ECX: SSSE3 bit 9, SSE4.1 bit 19, OSXSAVE bit 27, AVX bit 28
		fmt.Sprintf("ANDL $%#x, R9", 1<<9|1<<19|1<<27|1<<28),
		"ANDL $6, AX", // XCR0: SSE and AVX state saved by the OS
		"BTL $29, BX", // leaf 7 EBX: SHA
	} {
		if !strings.Contains(s, want) {
			t.Errorf("block2_amd64.s lacks %q", want)
		}
	}
	// rounds 4g..4g+3 add K[4g..4g+3] in each lane: every 16-byte group exactly twice, and 128
	// SHA256RNDS2 (64 rounds, two at a time, two lanes)
	for g := 0; g < 16; g++ {
		if n := strings.Count(s, fmt.Sprintf("VPADDD %d(AX), X0, X0\n", 16*g)); n != 2 {
			t.Errorf("group %d's constants added %d times, want 2", g, n)
		}
	}
	if n := strings.Count(s, "SHA256RNDS2 X0, "); n != 64 {
		t.Errorf("%d SHA256RNDS2, want 64 (32 per lane per block)", n)
	}
	if n := strings.Count(s, "SHA256MSG1 "); n != 24 {
		t.Errorf("%d SHA256MSG1, want 24 (12 per lane)", n)
	}
	if n := strings.Count(s, "SHA256MSG2 "); n != 24 {
		t.Errorf("%d SHA256MSG2, want 24 (12 per lane)", n)
	}
}
