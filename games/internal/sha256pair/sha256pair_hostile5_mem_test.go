//go:build linux && amd64 && !purego

package sha256pair

// Memory safety of block2 and the Digest around it (T5): inputs are laid against pages that
// fault on any access (PROT_NONE) on either side, and the input pages themselves are read-only,
// so a read one byte past either lane's slice, a read before it, or any write to an input
// faults; the two states block2 writes sit against guard pages too. debug.SetPanicOnFault turns
// such a fault into a panic this test reports instead of a crashed binary.

import (
	"os"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// guarded5 maps [guard][n pages][guard] and returns the n pages' bytes and a function that makes
// them read-only; the mapping is released at the test's end.
func guarded5(t *testing.T, n int) (mem []byte, readOnly func()) {
	t.Helper()
	ps := os.Getpagesize()
	all, err := syscall.Mmap(-1, 0, (n+2)*ps, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatalf("mmap: %v", err)
	}
	t.Cleanup(func() { syscall.Munmap(all) })
	if err := syscall.Mprotect(all[:ps], syscall.PROT_NONE); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mprotect(all[(n+1)*ps:], syscall.PROT_NONE); err != nil {
		t.Fatal(err)
	}
	mem = all[ps : (n+1)*ps : (n+1)*ps]
	return mem, func() {
		if err := syscall.Mprotect(mem, syscall.PROT_READ); err != nil {
			t.Fatal(err)
		}
	}
}

func noFault5(t *testing.T, what string, f func()) {
	t.Helper()
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("%s: %v", what, r)
		}
	}()
	f()
}

// block2 called directly: pa and pb end exactly at a guard page (and, in the second half, start
// exactly after one), their pages read-only; the states a and b lie at the very start and the very
// end of a page between guards. Lengths 0..8 blocks plus a tail; pb as long as pa or longer (the
// contract: len(pb) >= len(pa) rounded down). Each state must be the stdlib's afterwards.
func TestHostile5Block2Guarded(t *testing.T) {
	if !paired {
		t.Skip("no SHA-NI here: block2 never runs")
	}
	in, ro := guarded5(t, 4)
	copy(in, msg5(13, len(in)))
	ro()
	st, _ := guarded5(t, 1)
	ha := (*[8]uint32)(unsafe.Pointer(&st[0]))
	hb := (*[8]uint32)(unsafe.Pointer(&st[len(st)-32]))
	ref := func(p []byte) [8]uint32 { // the state after p's whole blocks, by Digest.Write alone
		d := New()
		d.Write(p[:len(p)&^63])
		return d.h
	}
	end := len(in)
	for blocks := 0; blocks <= 8; blocks++ {
		for _, tail := range []int{0, 1, 63} {
			for _, extra := range []int{0, 5, 64} {
				la := 64*blocks + tail
				lb := la&^63 + extra
				cases := []struct {
					name   string
					pa, pb []byte
				}{
					{"ending at the guard", in[end-la : end : end], in[end-lb-7 : end-7 : end-7]},
					{"b ending at the guard", in[end-la-3 : end-3 : end-3], in[end-lb : end : end]},
					{"starting after the guard", in[:la:la], in[100 : 100+lb : 100+lb]},
					{"b starting after the guard", in[200 : 200+la : 200+la], in[:lb:lb]},
					{"the same slice", in[end-la : end : end], in[end-la : end : end]},
				}
				for _, c := range cases {
					*ha, *hb = init0, init0
					noFault5(t, c.name, func() { block2(ha, c.pa, hb, c.pb) })
					if *ha != ref(c.pa) || *hb != ref(c.pb[:la&^63]) {
						t.Fatalf("%s, %d blocks + %d, pb +%d: states differ", c.name, blocks, tail, extra)
					}
				}
			}
		}
	}
}

// The Digest path over guarded input: Write and WritePair of slices that end at a guard page or
// start right after one, in every length 0..300, each stream already holding 0, 1 or 63 bytes;
// the partial-block copies (fill, keep) and the lone path (both lanes over one slice) stay inside.
func TestHostile5DigestGuarded(t *testing.T) {
	modes5(t, func(t *testing.T) {
		in, ro := guarded5(t, 2)
		copy(in, msg5(14, len(in)))
		ro()
		end := len(in)
		for _, pre := range []int{0, 1, 63} {
			for n := 0; n <= 300; n++ {
				p, q := in[end-n:end:end], in[:n:n]
				head := in[1000 : 1000+pre]
				noFault5(t, "WritePair", func() {
					a, b := New(), New()
					a.Write(head)
					b.Write(head)
					WritePair(a, p, b, q)
					if a.Sum256() != want5(head, p) || b.Sum256() != want5(head, q) {
						t.Fatalf("pre %d len %d: paired sums differ", pre, n)
					}
					c := New()
					c.Write(head)
					c.Write(p)
					c.Write(q)
					if c.Sum256() != want5(head, p, q) {
						t.Fatalf("pre %d len %d: lone sum differs", pre, n)
					}
				})
			}
		}
	})
}

// paired is true exactly where the kernel reports the CPU features block2 needs (sha_ni, avx,
// ssse3, sse4_1 in /proc/cpuinfo's flags; the kernel lists avx only when it saves the AVX state).
func TestHostile5HasSHAMatchesCPUInfo(t *testing.T) {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Skip("no /proc/cpuinfo")
	}
	var flags map[string]bool
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "flags" {
			flags = map[string]bool{}
			for _, f := range strings.Fields(v) {
				flags[f] = true
			}
			break
		}
	}
	if flags == nil {
		t.Skip("no flags line")
	}
	want := flags["sha_ni"] && flags["avx"] && flags["ssse3"] && flags["sse4_1"]
	if hasSHA() != want || paired != want {
		t.Fatalf("hasSHA %v, paired %v; /proc/cpuinfo says %v (sha_ni %v avx %v ssse3 %v sse4_1 %v)",
			hasSHA(), paired, want, flags["sha_ni"], flags["avx"], flags["ssse3"], flags["sse4_1"])
	}
}
