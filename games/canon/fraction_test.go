package canon

import (
	"bytes"
	"strings"
	"testing"
)

// A number with a fraction is written by JCS as the float64 it rounds to, an integer beyond
// ±(2^53−1) once the magnitude reaches 2^53 (or 2^53−0.5 rounding up). Were it accepted,
// Canonical would return bytes that Canonical itself refuses (ErrUnsafeInteger): a commitment or
// a payload carrying such a number would have a canonical form no reader accepts again, and two
// different inputs (…0.1 and …0.2) would share one canonical form. So scan.go (number) refuses a
// number whose float64 value, what JCS prints, is out of range or integral beyond ±(2^53−1)
// (ErrUnsafeInteger), fraction or not: whatever Canonical accepts, it accepts again.
func TestCanonicalFractionBeyondSafe(t *testing.T) {
	for _, n := range []string{
		"10000000000000000.1", "9007199254740992.5", "9007199254740991.5", "-9007199254740993.25",
		"123456789012345678.9", "9007199254740992.000001",
	} {
		out, err := Canonical([]byte(n))
		if err != nil {
			continue // refused: fine
		}
		if again, err := Canonical(out); err != nil || !bytes.Equal(again, out) {
			t.Errorf("%s: accepted as %s, which Canonical then refuses (%v)", n, out, err)
		}
	}
}

// A number with a fraction beyond float64's range (1.8e308 written out, then ".1") is refused
// by Parse as by Canonical (ErrSyntax, "Number out of range" from github.com/gowebpki/jcs):
// Parse's doc says it runs Canonical's checks with Canonical's errors, and a Value it accepted
// would have no canonical form.
func TestParseFractionBeyondFloat(t *testing.T) {
	for _, n := range []string{"18" + strings.Repeat("0", 307) + ".1", "-1" + strings.Repeat("9", 400) + ".5"} {
		_, cerr := Canonical([]byte(n))
		_, perr := Parse([]byte(n))
		if (cerr == nil) != (perr == nil) {
			t.Errorf("%.20s… (%d bytes): Canonical %v, Parse %v", n, len(n), cerr, perr)
		}
	}
}
