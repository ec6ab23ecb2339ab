package sha256pair

// The hostile review's (T5) first findings, fixed in ec1687e: these failed on the paired path
// before it (WritePair(d, p, d, q) lost p; GODEBUG=cpu.sha=off was ignored; a zero Digest hashed
// from an all-zero state with SHA-NI and panicked without; Sum256 and Write allocated). They now
// guard the fixes, in both modes.

import (
	"crypto/sha256"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// WritePair(d, p, d, q) is d.Write(p) then d.Write(q): every size pair, short ones included
// (before the fix keep(q) overwrote p's pending bytes, and block2 ran one state in both lanes).
func TestHostile5SameDigestBothSides(t *testing.T) {
	modes5(t, func(t *testing.T) {
		m := msg5(20, 400)
		for _, c := range []struct{ lp, lq int }{{64, 64}, {200, 130}, {100, 10}, {10, 100}, {0, 70}, {70, 0}, {3, 5}, {0, 0}, {63, 1}} {
			p, q := m[:c.lp], m[c.lp:c.lp+c.lq]
			for _, pre := range []int{0, 1, 63} {
				d := New()
				d.Write(m[:pre])
				WritePair(d, p, d, q)
				if d.Sum256() != want5(m[:pre], p, q) {
					t.Errorf("pre %d: WritePair(d, %d bytes, d, %d bytes): sum is not SHA-256(p || q)", pre, c.lp, c.lq)
				}
			}
		}
	})
}

// GODEBUG=cpu.<feature>=off for a feature block2 needs (or cpu.all=off) turns the paired blocks
// off, as it turns off Go's own SHA-NI blocks; a later cpu.sha=on restores them. Each setting
// runs this test binary as a child that prints its paired (cpuOff's parsing has its own table
// test, TestCPUOffGODEBUG: this checks paired is wired to the real environment at init).
func TestHostile5HonoursGODEBUGCPU(t *testing.T) {
	if os.Getenv("SHA256PAIR_HOSTILE5_CHILD") != "" {
		os.Stdout.WriteString(map[bool]string{true: "PAIRED=true\n", false: "PAIRED=false\n"}[paired])
		return
	}
	if !paired {
		t.Skip("no paired blocks on this machine: nothing to switch off")
	}
	for _, c := range []struct {
		setting string
		paired  bool
	}{
		{"cpu.sha=off", false},
		{"gctrace=0,cpu.avx=off", false},
		{"cpu.all=off,cpu.avx2=on", false},
		{"cpu.sha=off,cpu.sha=on", true},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHostile5HonoursGODEBUGCPU$", "-test.count=1")
		cmd.Env = append(os.Environ(), "GODEBUG="+c.setting, "SHA256PAIR_HOSTILE5_CHILD=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: child: %v\n%s", c.setting, err, out)
		}
		if want := map[bool]string{true: "PAIRED=true", false: "PAIRED=false"}[c.paired]; !strings.Contains(string(out), want) {
			t.Errorf("GODEBUG=%s: child says %q, want %s", c.setting, strings.TrimSpace(string(out)), want)
		}
	}
}

// "The zero value is a Digest over no bytes, as New's is": in every role — written alone, either
// side of a pair, both sides, summed unwritten, cloned unwritten, embedded by value in a struct,
// after Reset — on both paths.
func TestHostile5ZeroDigest(t *testing.T) {
	modes5(t, func(t *testing.T) {
		empty := sha256.Sum256(nil)
		var z Digest
		if z.Sum256() != empty || z.Clone().Sum256() != empty {
			t.Fatal("zero Digest: sum of nothing differs")
		}
		m := msg5(22, 300)
		for _, n := range []int{0, 3, 64, 130} {
			var a, b Digest
			a.Write(m[:n])
			if a.Sum256() != want5(m[:n]) {
				t.Fatalf("zero Digest, Write %d: sum differs", n)
			}
			WritePair(&b, m[:n], &a, m[n:])
			if a.Sum256() != want5(m) || b.Sum256() != want5(m[:n]) {
				t.Fatalf("zero Digest as a pair's side, %d: sums differ", n)
			}
			var c Digest
			WritePair(&c, m[:n], &c, m[n:])
			if c.Sum256() != want5(m) {
				t.Fatalf("zero Digest on both sides, %d: sum differs", n)
			}
			var s struct {
				tag string
				h   Digest
			}
			WritePair(&s.h, m[:n], nil, nil)
			cl := s.h.Clone()
			cl.Write(m[n:])
			if s.h.Sum256() != want5(m[:n]) || cl.Sum256() != want5(m) {
				t.Fatalf("Digest embedded by value, %d: sums differ", n)
			}
			a.Reset()
			a.Write(m[:n])
			if a.Sum256() != want5(m[:n]) {
				t.Fatalf("after Reset, %d: sum differs", n)
			}
		}
	})
}

// Sum256, Sum into the caller's array and Write of a one-byte literal allocate nothing, as with
// crypto/sha256 on its concrete digest (blitz writes "[", "," and "]" so).
func TestHostile5NoAllocs(t *testing.T) {
	modes5(t, func(t *testing.T) {
		d := New()
		d.Write(msg5(21, 100))
		var out [Size]byte
		if n := testing.AllocsPerRun(100, func() { _ = d.Sum256() }); n != 0 {
			t.Errorf("Sum256 allocates %v times a call", n)
		}
		if n := testing.AllocsPerRun(100, func() { _ = d.Sum(out[:0]) }); n != 0 {
			t.Errorf("Sum(out[:0]) allocates %v times a call", n)
		}
		if n := testing.AllocsPerRun(100, func() { d.Write([]byte{','}) }); n != 0 {
			t.Errorf("Write of a one-byte literal allocates %v times a call", n)
		}
		e := New()
		if n := testing.AllocsPerRun(100, func() { WritePair(d, []byte{'['}, e, []byte{']'}) }); n != 0 {
			t.Errorf("WritePair of literals allocates %v times a call", n)
		}
	})
}
