package blitz

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// jcsPlainPrefix stops exactly at the first byte JCS escapes, wherever it is.
func TestJCSPlainPrefix(t *testing.T) {
	naive := func(s string) int {
		for i := 0; i < len(s); i++ {
			if c := s[i]; c < 0x20 || c == '"' || c == '\\' {
				return i
			}
		}
		return len(s)
	}
	r := rand.New(rand.NewPCG(4, 4))
	alphabet := []byte("ab \"\\\x00\x1f\x7f\xc3\xa9~/<&")
	for n := 0; n < 40; n++ {
		for k := 0; k < 2000; k++ {
			b := make([]byte, n)
			for i := range b {
				if r.IntN(6) == 0 {
					b[i] = alphabet[r.IntN(len(alphabet))]
				} else {
					b[i] = byte(r.IntN(256))
				}
			}
			if got, want := jcsPlainPrefix(string(b)), naive(string(b)); got != want {
				t.Fatalf("%q: %d, want %d", b, got, want)
			}
		}
	}
	if got := jcsPlainPrefix(strings.Repeat("é", 20) + "\n"); got != 40 {
		t.Fatalf("non-ASCII is plain: %d", got)
	}
}
