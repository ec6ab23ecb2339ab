package blitz

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// digit8 finds a digit in any lane, whatever the other seven bytes hold, and nothing else.
func TestDigit8EveryByteEveryLane(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for b := 0; b < 256; b++ {
		want := b >= '0' && b <= '9'
		for lane := 0; lane < 8; lane++ {
			for trial := 0; trial < 64; trial++ {
				var w [8]byte
				for i := range w {
					for { // a filler byte that is no digit, high bytes and controls included
						w[i] = byte(r.IntN(256))
						if w[i] < '0' || w[i] > '9' {
							break
						}
					}
				}
				w[lane] = byte(b)
				if got := digit8(binary.LittleEndian.Uint64(w[:])); got != want {
					t.Fatalf("digit8(% x) = %v, want %v", w, got, want)
				}
			}
		}
	}
}

// hasAmountBytes answers as hasAmount (the regexp over the whole text) for texts with and
// without amounts, digits at every offset and around the eight-byte words.
func TestHasAmountBytesMatchesHasAmount(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	pieces := []string{"x", "é", " ", "4", "12", "0", "9", " ccd", "CCD", "chips", "chip", ".5", ",5", "ccdx", "\x00", "\xff"}
	for n := 0; n < 20000; n++ {
		var b []byte
		for k := r.IntN(40); k > 0; k-- {
			b = append(b, pieces[r.IntN(len(pieces))]...)
		}
		if got, want := hasAmountBytes(b), hasAmount(string(b)); got != want {
			t.Fatalf("hasAmountBytes(%q) = %v, hasAmount = %v", b, got, want)
		}
	}
	for _, c := range []struct {
		text string
		want bool
	}{
		{"xxxxxxxxxxxxxxxxxxxxxxx", false},
		{"xxxxxxxxxxxxxxx40 CCD", true},
		{"xxxxxxx7 chips", true},
		{"xxxxxxxxxxxxxxxx9", false},
		{"12.5ccd", true},
	} {
		if got := hasAmountBytes([]byte(c.text)); got != c.want {
			t.Errorf("hasAmountBytes(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}
