package games

import (
	"strings"
	"unicode"
)

// HiddenRune is the first rune of s that free text the arena shows to others must not carry,
// and whether there is one: a control character (C0, DEL, C1), a format character (Unicode Cf:
// bidi overrides and isolates, zero-width joiners, the byte-order mark, the soft hyphen) or a
// line or paragraph separator (U+2028, U+2029). Each could blank a text, reorder what is read
// after it, or pass for a line the arena writes. Runes in allow (say "\n\t" for a text of
// several lines) are not refused. Names, cards and playbooks are checked with it, each
// refusing with its own protocol's code.
func HiddenRune(s, allow string) (rune, bool) {
	for _, r := range s {
		if (unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029') && !strings.ContainsRune(allow, r) {
			return r, true
		}
	}
	return 0, false
}
