package sha256pair

import (
	"bytes"
	"crypto/sha256"
	"math/rand/v2"
	"testing"
)

// TestHasSHA reports what this machine runs: the paired blocks or crypto/sha256 alone.
func TestHasSHA(t *testing.T) { t.Logf("paired blocks: %v", paired) }

// FIPS 180-4 examples (one block, two blocks) and the empty string.
func TestVectors(t *testing.T) {
	for _, c := range []struct{ in, sum string }{
		{"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		{"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
		{"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
	} {
		d := New()
		d.Write([]byte(c.in))
		if got := hexOf(d.Sum(nil)); got != c.sum {
			t.Errorf("sha256(%q) = %s, want %s", c.in, got, c.sum)
		}
	}
}

func hexOf(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return string(out)
}

// TestPairMatchesStdlib writes two streams in random pieces, paired and alone, and checks every
// sum along the way against crypto/sha256 over the same bytes.
func TestPairMatchesStdlib(t *testing.T) {
	for _, pairedHere := range []bool{true, false} {
		if pairedHere && !paired {
			continue
		}
		t.Run(map[bool]string{true: "paired", false: "stdlib"}[pairedHere], func(t *testing.T) {
			defer func(p bool) { paired = p }(paired)
			paired = pairedHere
			rng := rand.New(rand.NewPCG(1, 2))
			for round := 0; round < 200; round++ {
				a, b := New(), New()
				sa, sb := sha256.New(), sha256.New()
				var all []byte // a's bytes
				for step := 0; step < 20; step++ {
					p := randBytes(rng, rng.IntN(700))
					q := randBytes(rng, rng.IntN(700))
					switch rng.IntN(3) {
					case 0:
						WritePair(a, p, b, q)
					case 1:
						WritePair(a, p, nil, nil)
						b.Write(q)
					default:
						WritePair(b, q, a, p)
					}
					sa.Write(p)
					sb.Write(q)
					all = append(all, p...)
					if !bytes.Equal(a.Sum(nil), sa.Sum(nil)) || !bytes.Equal(b.Sum(nil), sb.Sum(nil)) {
						t.Fatalf("round %d step %d: sums differ from crypto/sha256", round, step)
					}
					if step == 10 { // a clone goes on alone; the original is unchanged by it
						c := a.Clone()
						c.Write([]byte("more"))
						sc := sha256.Sum256(append(all[:len(all):len(all)], "more"...))
						if !bytes.Equal(c.Sum(nil), sc[:]) || !bytes.Equal(a.Sum(nil), sa.Sum(nil)) {
							t.Fatalf("round %d: clone", round)
						}
					}
				}
			}
		})
	}
}

func randBytes(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// FuzzPair checks any two streams, cut anywhere, against crypto/sha256.
func FuzzPair(f *testing.F) {
	f.Add([]byte("abc"), []byte("defghijklmnopqrstuvwxyz"), uint16(1), uint16(2))
	f.Fuzz(func(t *testing.T, p, q []byte, cp, cq uint16) {
		a, b := New(), New()
		i, j := int(cp)%(len(p)+1), int(cq)%(len(q)+1)
		WritePair(a, p[:i], b, q[:j])
		WritePair(b, q[j:], a, p[i:])
		wa, wb := sha256.Sum256(p), sha256.Sum256(q)
		if !bytes.Equal(a.Sum(nil), wa[:]) || !bytes.Equal(b.Sum(nil), wb[:]) {
			t.Fatal("sums differ from crypto/sha256")
		}
	})
}

// BenchmarkPair hashes two 4 KiB streams together; BenchmarkTwoAlone hashes them one after the
// other with crypto/sha256. Their ratio is what pairing saves.
func BenchmarkPair(b *testing.B) {
	p, q := make([]byte, 4096), make([]byte, 4096)
	x, y := New(), New()
	b.SetBytes(8192)
	for b.Loop() {
		WritePair(x, p, y, q)
	}
}

func BenchmarkTwoAlone(b *testing.B) {
	p, q := make([]byte, 4096), make([]byte, 4096)
	x, y := sha256.New(), sha256.New()
	b.SetBytes(8192)
	for b.Loop() {
		x.Write(p)
		y.Write(q)
	}
}

func BenchmarkLone(b *testing.B) {
	p := make([]byte, 4096)
	x := New()
	b.SetBytes(4096)
	for b.Loop() {
		x.Write(p)
	}
}

// cpuOff reads GODEBUG as the runtime does: later settings override earlier ones, cpu.all
// covers every feature, features block2 does not use and other keys are ignored.
func TestCPUOffGODEBUG(t *testing.T) {
	for _, c := range []struct {
		godebug string
		off     bool
	}{
		{"", false},
		{"cpu.sha=off", true},
		{"cpu.avx=off", true},
		{"cpu.sse41=off", true},
		{"cpu.ssse3=off", true},
		{"cpu.all=off", true},
		{"cpu.all=off,cpu.sha=on,cpu.avx=on,cpu.sse41=on,cpu.ssse3=on", false},
		{"cpu.sha=off,cpu.sha=on", false},
		{"cpu.avx2=off,cpu.aes=off", false},
		{"gctrace=1,cpu.sha=off,madvdontneed=1", true},
		{"cpu.sha=maybe", false},
		{"sha=off", false},
	} {
		if got := cpuOff(c.godebug); got != c.off {
			t.Errorf("cpuOff(%q) = %v, want %v", c.godebug, got, c.off)
		}
	}
}
