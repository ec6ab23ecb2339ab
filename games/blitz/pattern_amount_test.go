package blitz

import (
	"math/rand/v2"
	"testing"
)

// TestHasAmount: the digit prefilter answers exactly as the regexp, on worked lines and on
// random lines made of the pattern's own tokens and its fold cases
// (K, ſ: Go's (?i) folds s to U+017F).
func TestHasAmount(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"I pay 40 CCD", true}, {"12.5ccd now", true}, {"3 chips", true}, {"1 chip.", true},
		{"no amount here", false}, {"40ccds", false}, {"40 CCD", true}, {"ccd 40", false},
		{"x9chipſ", true}, {"", false}, {"4,5 chips!", true}, {"40 ccd_x", false},
	} {
		if got := hasAmount(c.text); got != c.want || got != amountRE.MatchString(c.text) {
			t.Errorf("%q: hasAmount %v, want %v (regexp %v)", c.text, got, c.want, amountRE.MatchString(c.text))
		}
	}
	tokens := []string{"0", "7", "42", ".", ",", " ", "\t", "ccd", "CcD", "chip", "chips", "CHIPS", "chipſ",
		"ſ", "\u212a", "x", "_", "é", "d", "s", "h"}
	r := rand.New(rand.NewPCG(1, 2))
	matched := 0
	for n := 0; n < 20000; n++ {
		var b []byte
		for i := r.IntN(8); i >= 0; i-- {
			b = append(b, tokens[r.IntN(len(tokens))]...)
		}
		s := string(b)
		want := amountRE.MatchString(s)
		if hasAmount(s) != want {
			t.Fatalf("%q: hasAmount %v, regexp %v", s, !want, want)
		}
		if want {
			matched++
		}
	}
	if matched < 100 {
		t.Fatalf("only %d random lines matched: the alphabet does not exercise the pattern", matched)
	}
}
