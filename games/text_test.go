package games

import "testing"

// TestHiddenRune: the first control, format or separator rune of a text, unless allowed.
func TestHiddenRune(t *testing.T) {
	for _, c := range []struct {
		s, allow string
		r        rune
		bad      bool
	}{
		{"plain text, 信用, émigré", "", 0, false},
		{"two\nlines", "", '\n', true},
		{"two\nlines\tand a tab", "\n\t", 0, false},
		{"a\rb", "\n\t", '\r', true},
		{"a\x00b", "", 0, true},
		{"a\x1bb", "", 0x1b, true},
		{"a\u0085b", "", 0x85, true},
		{"\u202ereversed", "", 0x202e, true},
		{"a\u2066b", "", 0x2066, true},
		{"zero\u200bwidth", "", 0x200b, true},
		{"\ufeffbom", "", 0xfeff, true},
		{"soft\u00adhyphen", "", 0xad, true},
		{"line\u2028sep", "", 0x2028, true},
		{"para\u2029sep", "", 0x2029, true},
	} {
		r, bad := HiddenRune(c.s, c.allow)
		if r != c.r || bad != c.bad {
			t.Errorf("HiddenRune(%q, %q) = %U %v, want %U %v", c.s, c.allow, r, bad, c.r, c.bad)
		}
	}
}
