//go:build hostile5

package sha256pair

// Findings of the hostile review (T5) that fail today: go test -tags hostile5 -run Hostile5.
// Each test says what a user would expect, what happens on this machine, and the fix proposed
// (the package's own files are not the reviewer's to change).

import (
	"crypto/sha256"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// WritePair's doc says "It is a.Write(p) then b.Write(q)". With a == b (one stream fed two
// pieces in one call, a natural way to write "p then q") the paired path breaks that:
//   - p and q both non-empty, however short (WritePair(d, "ab", d, "cd")): keep(p) then keep(q)
//     leaves only q pending, so p is lost;
//   - p and q both hold a whole block: block2 loads the same state into both lanes and stores
//     lane a then lane b, so p's blocks are lost (the state is that of q's blocks alone);
//   - p holds a block and a tail, q a tail only: a.keep(p's tail) then b.keep(q) overwrites the
//     pending bytes, so p's tail is lost;
//   - the count d.len has both pieces, so the padding is for a length the state never saw.
//
// crypto/sha256 (the fallback) gets it right, so the same call gives a different hash on a CPU
// without SHA-NI. Fix proposed: at WritePair's top, `if a == b { a.Write(p); a.Write(q); return }`
// (or document a != b and refuse it with a panic in both modes).
func TestHostile5SameDigestBothSides(t *testing.T) {
	modes5(t, func(t *testing.T) {
		m := msg5(20, 400)
		for _, c := range []struct{ lp, lq int }{{64, 64}, {200, 130}, {100, 10}, {10, 100}, {0, 70}, {70, 0}, {3, 5}} {
			p, q := m[:c.lp], m[c.lp:c.lp+c.lq]
			d := New()
			WritePair(d, p, d, q)
			if d.Sum256() != want5(p, q) {
				t.Errorf("WritePair(d, %d bytes, d, %d bytes): sum is not SHA-256(p || q)", c.lp, c.lq)
			}
		}
	})
}

// GODEBUG=cpu.sha=off (or cpu.avx=off, cpu.all=off) turns the SHA extensions off for the whole Go
// program (internal/cpu; crypto/sha256 then leaves its SHA-NI blocks alone): the switch an
// operator reaches for on a CPU or hypervisor with an erratum. hasSHA reads CPUID itself and
// never sees it, so this package keeps running SHA256RNDS2. Fix proposed: at init, read the
// GODEBUG cpu.* settings as internal/cpu does (comma-separated, the last word for a name wins:
// cpu.all, cpu.sha, cpu.avx; cpu.ssse3 and cpu.sse41 where GOAMD64 is v1) and leave paired false
// when one of them is off.
func TestHostile5HonoursGODEBUGCPU(t *testing.T) {
	if os.Getenv("SHA256PAIR_HOSTILE5_CHILD") != "" {
		os.Stdout.WriteString(map[bool]string{true: "PAIRED=true\n", false: "PAIRED=false\n"}[paired])
		return
	}
	if !paired {
		t.Skip("no paired blocks on this machine: nothing to switch off")
	}
	for _, setting := range []string{"cpu.sha=off", "cpu.avx=off", "cpu.all=off"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHostile5HonoursGODEBUGCPU$", "-test.count=1")
		cmd.Env = append(os.Environ(), "GODEBUG="+setting, "SHA256PAIR_HOSTILE5_CHILD=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: child: %v\n%s", setting, err, out)
		}
		if !strings.Contains(string(out), "PAIRED=false") {
			t.Errorf("GODEBUG=%s: the child still runs the paired SHA-NI blocks (%s)", setting, strings.TrimSpace(string(out)))
		}
	}
}

// "Its zero value is not ready: use New" — but what a zero Digest does depends on the CPU: with
// SHA-NI it hashes from an all-zero state and returns a value that is not SHA-256 of anything,
// silently; without, it dereferences its nil crypto/sha256 digest and panics. A Digest embedded
// by value in a struct (a reset-by-assignment, a forgotten New) is then wrong on one machine and
// crashing on the other. Expected: the zero value either works (as crypto/sha256's zero-value-free
// API and most of Go's hashes would have it) or fails the same way everywhere. Fix proposed: treat
// len == 0 && h == [8]uint32{} as the initial state in fill/blocks (or let the zero value mean
// "not started" and set h and std on the first Write).
func TestHostile5ZeroDigestNeverWrong(t *testing.T) {
	modes5(t, func(t *testing.T) {
		var sum [32]byte
		panicked := func() (p bool) {
			defer func() { p = recover() != nil }()
			var d Digest
			d.Write([]byte("abc"))
			sum = d.Sum256()
			return false
		}()
		if !panicked && sum != sha256.Sum256([]byte("abc")) {
			t.Errorf("a zero Digest gave %x for \"abc\": neither SHA-256 nor a refusal", sum)
		}
		if panicked && paired {
			t.Error("a zero Digest panicked in paired mode")
		}
	})
}

// Sum256 allocates its 72-byte padding on every call, and Write moves the caller's slice to the
// heap (a []byte{','} literal costs an allocation: blitz's runningHash.sum writes two per anchor,
// own one per exchange). Both leak through the one interface call in WritePair, a.std.Write(p):
// escape analysis is per parameter, not per path, so the paired path pays for the fallback's
// interface although its std is nil (Sum256's pad goes through c.Write to WritePair). crypto/sha256
// called on its concrete digest allocates for neither. Fix proposed: Sum256 pads through an internal
// write that never touches std (the paired half of WritePair, split out); for Write, a fallback of
// a concrete type (crypto/sha256 exports none: a pure-Go block function, as crypto/sha256's
// blockGeneric) instead of a hash.Hash, or blitz writing its separators from package-level arrays.
func TestHostile5NoAllocs(t *testing.T) {
	modes5(t, func(t *testing.T) {
		d := New()
		d.Write(msg5(21, 100))
		if n := testing.AllocsPerRun(100, func() { _ = d.Sum256() }); n != 0 {
			t.Errorf("Sum256 allocates %v times a call (crypto/sha256's Sum into an array: 0)", n)
		}
		if n := testing.AllocsPerRun(100, func() { d.Write([]byte{','}) }); n != 0 {
			t.Errorf("Write of a one-byte literal allocates %v times a call (crypto/sha256's: 0)", n)
		}
	})
}
