package canon

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func plainByte(c byte) bool { return c >= 0x20 && c != '"' && c != '\\' && c < 0x80 }

// special8 finds exactly the words holding a quote, a backslash, a control character or a
// non-ASCII byte, wherever it sits.
func TestSpecial8(t *testing.T) {
	for c := 0; c < 256; c++ {
		want := !plainByte(byte(c))
		for pos := 0; pos < 8; pos++ {
			w := []byte("abcdefgh")
			w[pos] = byte(c)
			var x uint64
			for i := 7; i >= 0; i-- {
				x = x<<8 | uint64(w[i])
			}
			if got := special8(x); got != want {
				t.Fatalf("byte %#x at %d: special8 %v, want %v", c, pos, got, want)
			}
		}
	}
	if special8(0x7e7e7e7e20202020) {
		t.Fatal("spaces and tildes are plain")
	}
	r := rand.New(rand.NewPCG(8, 8))
	for i := 0; i < 200000; i++ {
		x := r.Uint64()
		if i%2 == 0 {
			x &= 0x7f7f7f7f7f7f7f7f // ASCII words, where the quote/backslash/control tests matter
		}
		want := false
		for k := 0; k < 8; k++ {
			want = want || !plainByte(byte(x>>(8*k)))
		}
		if special8(x) != want {
			t.Fatalf("%#x: special8 %v, want %v", x, !want, want)
		}
	}
}

// skipPlainRef is skipPlain one byte at a time.
func skipPlainRef(data []byte, i int) int {
	for i < len(data) && plainByte(data[i]) {
		i++
	}
	return i
}

// skipPlain stops where the byte-at-a-time reference does: every special byte at every
// offset of texts longer and shorter than a word, from every start.
func TestSkipPlain(t *testing.T) {
	for n := 0; n <= 100; n++ { // up to three blocks of 32 and a word past them
		for pos := 0; pos <= n; pos++ {
			for _, c := range []byte{'"', '\\', 0, 0x1f, 0x7f, 0x80, 0xc3, 0xff, ' ', '~'} {
				data := make([]byte, n)
				for i := range data {
					data[i] = 'a' + byte(i%26)
				}
				if pos < n {
					data[pos] = c
				}
				for start := 0; start <= n; start++ {
					want := skipPlainRef(data, start)
					if got := skipPlain(data, start); got != want {
						t.Fatalf("len %d, %#x at %d, from %d: %d, want %d", n, c, pos, start, got, want)
					}
				}
			}
		}
	}
}

func FuzzSkipPlain(f *testing.F) {
	f.Add([]byte(`"plain text, then a quote" and more`), 1)
	f.Add([]byte("héllo wörld \\ \x01"), 0)
	f.Fuzz(func(t *testing.T, data []byte, start int) {
		if start < 0 || start > len(data) {
			return
		}
		want := skipPlainRef(data, start)
		if got := skipPlain(data, start); got != want {
			t.Fatalf("%q from %d: %d, want %d", data, start, got, want)
		}
	})
}

// BenchmarkSkipPlain is a message text of the round benchmark's length (120 characters).
func BenchmarkSkipPlain(b *testing.B) {
	data := []byte(`"` + strings.Repeat("x", 120) + `"`)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if skipPlain(data, 1) != len(data)-1 {
			b.Fatal("wrong stop")
		}
	}
}
