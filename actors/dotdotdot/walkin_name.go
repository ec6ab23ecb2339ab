package dotdotdot

import (
	"strings"
	"unicode"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// Display names name one walk-in (GET /v1/walkin/name/{name}, §4.4) and one seat at a table (a
// call names a seat by its display name, §9), so two names that read the same must be the same
// name. canonicalName is the display form a walk-in is registered under; nameKey is the form two
// names are compared in.

// canonicalName is the display form of a name: NFC (so "Jose\u0301" and "Jos\u00e9" are stored
// alike), each run of white space one ASCII space, trimmed.
func canonicalName(s string) string {
	return strings.Join(strings.FieldsFunc(norm.NFC.String(s), unicode.IsSpace), " ")
}

// nameKey is the comparison form of a name: Unicode's compatibility caseless match
// (NFKC(fold(NFKC(s)))), white space collapsed. Canonically equivalent spellings (NFC/NFD),
// compatibility twins (full-width "Ａｄａ", the "ﬁ" ligature) and case variants ("BASIL",
// "ß"/"ss") have one key. It is the key of walkins/name/ and the test of a seat's name being
// free at a table.
func nameKey(s string) string {
	k := norm.NFKC.String(cases.Fold().String(norm.NFKC.String(s)))
	return strings.Join(strings.FieldsFunc(k, unicode.IsSpace), " ")
}
