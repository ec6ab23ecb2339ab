package canon

import "testing"

// Hostile tests of skipPlain's word paths: every byte value, not ten of them,
// and a slice whose neighbouring bytes (past its length, inside its capacity, or before its
// start) are all special, so a read outside the slice would change the answer.

// Every one of the 256 byte values at every offset of texts of 0 to 72 bytes (two 32-byte
// blocks, a 16-byte block and a word past them), from the start, from the byte itself and
// from just past it: skipPlain stops where the byte-at-a-time reference does. 0x7f/0x80 and
// 0xa2/0xdc (a quote or backslash with the high bit set) are where a word test could go wrong.
func TestSkipPlainEveryByte(t *testing.T) {
	data := make([]byte, 72)
	for n := 0; n <= len(data); n++ {
		d := data[:n]
		for pos := 0; pos < n; pos++ {
			for c := 0; c < 256; c++ {
				for i := range d {
					d[i] = 'A' + byte(i%26)
				}
				d[pos] = byte(c)
				for _, start := range [...]int{0, pos, pos + 1, n - 16, n - 17} {
					if start < 0 || start > n {
						continue
					}
					want := skipPlainRef(d, start)
					if got := skipPlain(d, start); got != want {
						t.Fatalf("len %d, %#x at %d, from %d: skipPlain %d, want %d", n, c, pos, start, got, want)
					}
				}
			}
		}
	}
}

// skipPlain reads nothing outside data[:len(data)]: a plain slice cut from a buffer of quotes
// (quotes before it, and after it inside its capacity) is plain to its end, from every start.
func TestSkipPlainNoReadOutside(t *testing.T) {
	buf := make([]byte, 256)
	for off := 0; off <= 33; off++ {
		for n := 0; n <= 130; n++ {
			for i := range buf {
				buf[i] = '"'
			}
			for i := off; i < off+n; i++ {
				buf[i] = 'p'
			}
			for _, d := range [][]byte{buf[off : off+n], buf[off : off+n : off+n]} {
				for start := 0; start <= n; start++ {
					if got := skipPlain(d, start); got != n {
						t.Fatalf("offset %d, len %d (cap %d), from %d: skipPlain %d, want %d", off, n, cap(d), start, got, n)
					}
				}
			}
		}
	}
}

// Two special bytes in one block: the first is found, whichever half of a 32-byte turn or
// which overlapping last 16 each sits in.
func TestSkipPlainFirstOfTwo(t *testing.T) {
	for n := 16; n <= 70; n++ {
		d := make([]byte, n)
		for a := 0; a < n; a++ {
			for b := a + 1; b < n; b++ {
				for i := range d {
					d[i] = 'x'
				}
				d[a], d[b] = 0x80, '"'
				if got := skipPlain(d, 0); got != a {
					t.Fatalf("len %d, specials at %d and %d: %d", n, a, b, got)
				}
				if got := skipPlain(d, a+1); got != b {
					t.Fatalf("len %d, specials at %d and %d, from %d: %d", n, a, b, a+1, got)
				}
			}
		}
	}
}
