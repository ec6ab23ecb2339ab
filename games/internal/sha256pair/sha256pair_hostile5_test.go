package sha256pair

// Hostile review (T5) of the paired SHA-256: every test compares with crypto/sha256 over the same
// bytes, in both modes a Digest can run in (the paired SHA-NI blocks where this CPU has them, and
// crypto/sha256's own, forced by clearing paired). Findings that fail today are in
// sha256pair_hostile5_fail_test.go (build tag hostile5).

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"hash"
	"math/rand/v2"
	"sync"
	"testing"
)

// modes5 runs f once per mode this machine has: paired blocks (if the CPU has SHA-NI and the build
// is not purego) and crypto/sha256 alone. paired is a package variable: the tests that change it
// do not run in parallel.
func modes5(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	hw := paired
	defer func() { paired = hw }()
	for _, p := range []bool{true, false} {
		if p && !hw {
			continue
		}
		paired = p
		t.Run(map[bool]string{true: "paired", false: "stdlib"}[p], f)
	}
}

// msg5 is n bytes that differ at every offset (a bit lost or moved anywhere changes the sum).
func msg5(seed uint64, n int) []byte {
	r := rand.New(rand.NewPCG(seed, uint64(n)))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func want5(parts ...[]byte) [32]byte {
	h := sha256.New()
	for _, p := range parts {
		h.Write(p)
	}
	var s [32]byte
	h.Sum(s[:0])
	return s
}

// Every length 0..200 cut once at every place, and written whole: the sum is crypto/sha256's,
// through Write, Sum256 and Sum, and Sum's bytes are appended after the caller's prefix.
func TestHostile5EveryLengthEveryCut(t *testing.T) {
	modes5(t, func(t *testing.T) {
		for n := 0; n <= 200; n++ {
			m := msg5(1, n)
			want := want5(m)
			for i := 0; i <= n; i++ {
				d := New()
				d.Write(m[:i])
				d.Write(m[i:])
				if got := d.Sum256(); got != want {
					t.Fatalf("len %d cut %d: %x, want %x", n, i, got, want)
				}
				if got := d.Sum([]byte("pre")); string(got[:3]) != "pre" || !bytes.Equal(got[3:], want[:]) {
					t.Fatalf("len %d cut %d: Sum(pre) = %x", n, i, got)
				}
			}
		}
	})
}

// Every length 0..130 cut twice at every place (three writes, the middle one often empty).
func TestHostile5TwoCuts(t *testing.T) {
	modes5(t, func(t *testing.T) {
		for n := 0; n <= 130; n++ {
			m := msg5(2, n)
			want := want5(m)
			for i := 0; i <= n; i++ {
				for j := i; j <= n; j++ {
					d := New()
					d.Write(m[:i])
					d.Write(m[i:j])
					d.Write(m[j:])
					if got := d.Sum256(); got != want {
						t.Fatalf("len %d cuts %d,%d: sum differs", n, i, j)
					}
				}
			}
		}
	})
}

// WritePair with each stream already holding part of a block (0, 1, 55 or 63 bytes), p of every
// length 0..200 and q at and around every block edge up to 200, then a second pair the other way
// round: both sums are crypto/sha256's after each.
func TestHostile5PairAroundBlocks(t *testing.T) {
	edges := []int{0, 1, 55, 56, 63, 64, 65, 119, 120, 127, 128, 129, 191, 192, 193, 200}
	pre := []int{0, 1, 55, 63}
	modes5(t, func(t *testing.T) {
		whole := msg5(3, 1000)
		for _, fa := range pre {
			for _, fb := range pre {
				for la := 0; la <= 200; la++ {
					for _, lb := range edges {
						a, b := New(), New()
						pa, pb := whole[:fa], whole[500:500+fb]
						a.Write(pa)
						b.Write(pb)
						p, q := whole[fa:fa+la], whole[500+fb:500+fb+lb]
						WritePair(a, p, b, q)
						if a.Sum256() != want5(pa, p) || b.Sum256() != want5(pb, q) {
							t.Fatalf("pre %d,%d lens %d,%d: sums differ", fa, fb, la, lb)
						}
						r := whole[fa+la : fa+la+lb] // a second pair, b first, a with q's length
						s := whole[500+fb+lb : 500+fb+lb+la]
						WritePair(b, s, a, r)
						if a.Sum256() != want5(pa, p, r) || b.Sum256() != want5(pb, q, s) {
							t.Fatalf("pre %d,%d lens %d,%d: second pair's sums differ", fa, fb, la, lb)
						}
					}
				}
			}
		}
	})
}

// WritePair with an empty or nil side, and with b nil: the other stream is hashed, the empty one
// is unchanged (its sum still that of its bytes so far).
func TestHostile5PairOneSideEmpty(t *testing.T) {
	modes5(t, func(t *testing.T) {
		for _, n := range []int{0, 1, 63, 64, 65, 128, 129, 1000} {
			m := msg5(4, n)
			for _, empty := range [][]byte{nil, {}, m[:0]} {
				a, b := New(), New()
				b.Write([]byte("held"))
				WritePair(a, m, b, empty)
				if a.Sum256() != want5(m) || b.Sum256() != want5([]byte("held")) {
					t.Fatalf("n %d: a full, b empty: sums differ", n)
				}
				WritePair(b, empty, a, m)
				if a.Sum256() != want5(m, m) || b.Sum256() != want5([]byte("held")) {
					t.Fatalf("n %d: b empty, a full: sums differ", n)
				}
			}
			a := New()
			WritePair(a, m, nil, nil)
			WritePair(a, m, nil, []byte("ignored: no b"))
			if a.Sum256() != want5(m, m) {
				t.Fatalf("n %d: b nil: sum differs", n)
			}
		}
	})
}

// Inputs that share memory: q the same slice as p, q a suffix of p (the blitz exchange hash reads
// the transcript's batch so), overlapping windows, and p taken from the Digest's own partial block
// after a Clone. block2 only reads its inputs, so sharing is harmless.
func TestHostile5AliasedInputs(t *testing.T) {
	modes5(t, func(t *testing.T) {
		buf := msg5(5, 5000)
		for _, c := range []struct{ p, q []byte }{
			{buf, buf},
			{buf, buf[1:]},
			{buf, buf[4000:]},
			{buf[:3000], buf[1000:4000]},
			{buf[7:4103], buf[:4096]},
			{buf[:64], buf[:64]},
			{buf[100:100], buf[100:300]},
		} {
			a, b := New(), New()
			WritePair(a, c.p, b, c.q)
			WritePair(a, c.q, b, c.p)
			if a.Sum256() != want5(c.p, c.q) || b.Sum256() != want5(c.q, c.p) {
				t.Fatalf("aliased lens %d,%d: sums differ", len(c.p), len(c.q))
			}
			if !bytes.Equal(buf, msg5(5, 5000)) {
				t.Fatal("the input was written to")
			}
		}
		if !paired {
			return // crypto/sha256's Digest keeps its pending block out of reach
		}
		// a Digest fed bytes that live in another Digest's pending block
		a := New()
		a.Write(buf[:40])
		c := a.Clone()
		b := New()
		WritePair(b, c.x[:c.nx], a, c.x[:c.nx])
		if b.Sum256() != want5(buf[:40]) || a.Sum256() != want5(buf[:40], buf[:40]) {
			t.Fatal("bytes from a clone's pending block: sums differ")
		}
	})
}

// Inputs at every alignment: each lane's slice starts at offsets 0..15 of its buffer (block2
// reads with VMOVDQU, which takes any address).
func TestHostile5Unaligned(t *testing.T) {
	modes5(t, func(t *testing.T) {
		buf := msg5(6, 1200)
		for oa := 0; oa < 16; oa++ {
			for ob := 0; ob < 16; ob++ {
				for _, n := range []int{64, 128 + 5, 320 + 63} {
					p, q := buf[oa:oa+n], buf[500+ob:500+ob+n+ob]
					a, b := New(), New()
					WritePair(a, p, b, q)
					if a.Sum256() != want5(p) || b.Sum256() != want5(q) {
						t.Fatalf("offsets %d,%d len %d: sums differ", oa, ob, n)
					}
				}
			}
		}
	})
}

// Sum and Clone after every byte of a 300-byte stream written a byte at a time (alternately alone
// and paired with a second stream): Sum leaves the stream as it was (asked twice, same answer;
// the stream goes on to the right final sum), and a Clone goes on alone without touching the
// original.
func TestHostile5SumCloneEveryByte(t *testing.T) {
	modes5(t, func(t *testing.T) {
		m := msg5(7, 300)
		a, b := New(), New()
		for i := 0; i < len(m); i++ {
			if i%2 == 0 {
				a.Write(m[i : i+1])
			} else {
				WritePair(a, m[i:i+1], b, m[:i])
			}
			s1, s2 := a.Sum256(), a.Sum256()
			if s1 != s2 || s1 != want5(m[:i+1]) {
				t.Fatalf("after %d bytes: Sum256 %x, %x", i+1, s1, s2)
			}
			c := a.Clone()
			c.Write(m[i+1:])
			c.Write([]byte("tail"))
			if c.Sum256() != want5(m, []byte("tail")) {
				t.Fatalf("clone after %d bytes: sum differs", i+1)
			}
			if a.Sum256() != s1 {
				t.Fatalf("after %d bytes: the clone's writes reached the original", i+1)
			}
		}
		if a.Sum256() != want5(m) {
			t.Fatal("final sum differs")
		}
	})
}

// Reset empties a stream mid-block and after many blocks; Size and BlockSize are SHA-256's; a
// Digest is a hash.Hash that gives crypto/sha256's answers through the interface.
func TestHostile5ResetAndInterface(t *testing.T) {
	modes5(t, func(t *testing.T) {
		var h hash.Hash = New()
		if h.Size() != sha256.Size || h.BlockSize() != sha256.BlockSize {
			t.Fatalf("Size %d BlockSize %d", h.Size(), h.BlockSize())
		}
		for _, n := range []int{0, 1, 63, 64, 65, 1000} {
			h.Write(msg5(8, n))
			h.Reset()
			h.Write([]byte("abc"))
			if got := fmt.Sprintf("%x", h.Sum(nil)); got != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
				t.Fatalf("after %d bytes and Reset: sum(abc) = %s", n, got)
			}
			h.Reset()
		}
		if got := fmt.Sprintf("%x", h.Sum(nil)); got != "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" {
			t.Fatalf("empty after Reset: %s", got)
		}
	})
}

// Tens of megabytes in one Write and one WritePair (the lanes 13 bytes apart over one buffer),
// the sums crypto/sha256's.
func TestHostile5Huge(t *testing.T) {
	buf := msg5(9, 24<<20+77)
	wantA, wantB := want5(buf), want5(buf[13:])
	modes5(t, func(t *testing.T) {
		d := New()
		d.Write(buf)
		if d.Sum256() != wantA {
			t.Fatal("24 MiB Write: sum differs")
		}
		a, b := New(), New()
		a.Write([]byte{})
		WritePair(a, buf, b, buf[13:])
		if a.Sum256() != wantA || b.Sum256() != wantB {
			t.Fatal("24 MiB WritePair: sums differ")
		}
	})
}

// Many Digests on many goroutines (run with -race): each goroutine's streams, one of them a Clone
// of a shared prefix taken before the goroutines start, written in random pieces alone and
// paired, sum as crypto/sha256. (A Digest is not safe for concurrent use, Sum256 included: with
// crypto/sha256 under it, Sum256 writes the fallback's buffer.)
func TestHostile5ManyGoroutines(t *testing.T) {
	modes5(t, func(t *testing.T) {
		shared := New()
		shared.Write(msg5(10, 1000))
		clones := make([]*Digest, 16)
		for i := range clones {
			clones[i] = shared.Clone()
		}
		var wg sync.WaitGroup
		errs := make(chan string, 64)
		for g := 0; g < 16; g++ {
			wg.Add(1)
			go func(g int) {
				defer wg.Done()
				r := rand.New(rand.NewPCG(uint64(g), 11))
				a, b := clones[g], New()
				sa, sb := sha256.New(), sha256.New()
				sa.Write(msg5(10, 1000))
				for step := 0; step < 60; step++ {
					p, q := msg5(uint64(g*1000+step), r.IntN(300)), msg5(uint64(g*1000+step+500), r.IntN(300))
					if r.IntN(2) == 0 {
						WritePair(a, p, b, q)
					} else {
						a.Write(p)
						b.Write(q)
					}
					sa.Write(p)
					sb.Write(q)
					if !bytes.Equal(a.Sum(nil), sa.Sum(nil)) || !bytes.Equal(b.Sum(nil), sb.Sum(nil)) {
						errs <- fmt.Sprintf("goroutine %d step %d: sums differ", g, step)
						return
					}
				}
			}(g)
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Error(e)
		}
		if shared.Sum256() != want5(msg5(10, 1000)) {
			t.Error("the shared prefix changed under its clones")
		}
	})
}

// A long random life of two streams: Write, WritePair both ways, Sum, Clone (the clone then
// replacing the original, as blitz's sum does with its copy), Reset, with pieces up to 3 blocks.
func TestHostile5RandomLife(t *testing.T) {
	modes5(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(12, 12))
		a, b := New(), New()
		var ma, mb []byte
		for step := 0; step < 3000; step++ {
			p, q := msg5(uint64(step), r.IntN(200)), msg5(uint64(step)+1<<32, r.IntN(200))
			switch r.IntN(7) {
			case 0:
				a.Write(p)
				ma = append(ma, p...)
			case 1, 2:
				WritePair(a, p, b, q)
				ma, mb = append(ma, p...), append(mb, q...)
			case 3:
				WritePair(b, q, a, p)
				ma, mb = append(ma, p...), append(mb, q...)
			case 4:
				a = a.Clone()
			case 5:
				a, b, ma, mb = b, a, mb, ma
			default:
				if r.IntN(10) == 0 {
					b.Reset()
					mb = nil
				}
			}
			if a.Sum256() != want5(ma) || b.Sum256() != want5(mb) {
				t.Fatalf("step %d: sums differ (lens %d, %d)", step, len(ma), len(mb))
			}
		}
	})
}

// FuzzHostile5 drives two streams through a program read from the fuzzer's bytes: each op writes
// a piece of p or q (length from the op byte) alone or paired, or takes a Sum or a Clone; at the
// end and after every op the sums are crypto/sha256's over the bytes written.
func FuzzHostile5(f *testing.F) {
	f.Add([]byte{0x00, 0x41, 0x82, 0xff, 0x13}, []byte("some bytes for p"), []byte("and q"))
	f.Add([]byte{0x7f, 0x7f, 0x7f}, bytes.Repeat([]byte{1}, 300), bytes.Repeat([]byte{2}, 300))
	f.Fuzz(func(t *testing.T, prog, p, q []byte) {
		a, b := New(), New()
		sa, sb := sha256.New(), sha256.New() // the reference, fed the same pieces
		var na, nb int                       // bytes of p and q written so far
		take := func(src []byte, at *int, n int, ref hash.Hash) []byte {
			n = min(n, len(src)-*at)
			s := src[*at : *at+n]
			*at += n
			ref.Write(s)
			return s
		}
		var ra, rb [32]byte
		for i, op := range prog {
			n := int(op>>2) * 3 // 0..189 bytes
			switch op & 3 {
			case 0:
				a.Write(take(p, &na, n, sa))
			case 1:
				WritePair(a, take(p, &na, n, sa), b, take(q, &nb, n+int(op)%70, sb))
			case 2:
				WritePair(b, take(q, &nb, n, sb), a, take(p, &na, n/2, sa))
			case 3:
				if op&4 != 0 {
					a = a.Clone()
				} else {
					_ = b.Sum(nil)
				}
			}
			if a.Sum256() != [32]byte(sa.Sum(ra[:0])) || b.Sum256() != [32]byte(sb.Sum(rb[:0])) {
				t.Fatalf("op %d (%#x): sums differ", i, op)
			}
		}
		WritePair(a, p[na:], b, q[nb:])
		if a.Sum256() != sha256.Sum256(p) || b.Sum256() != sha256.Sum256(q) {
			t.Fatal("final sums differ")
		}
	})
}

// BenchmarkHostile5StdOne is crypto/sha256 over one 4 KiB stream: BenchmarkLone's yardstick (the
// lone path hashes its blocks in both lanes, the second into a discarded state; the doc says that
// costs next to nothing on a CPU whose SHA unit waits on each round).
func BenchmarkHostile5StdOne(b *testing.B) {
	p := make([]byte, 4096)
	x := sha256.New()
	b.SetBytes(4096)
	for b.Loop() {
		x.Write(p)
	}
}
