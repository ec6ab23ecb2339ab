package canon

import (
	"bytes"
	"strings"
	"testing"
)

// Failed until 8d35aa5 (found by FuzzCanonical in 70 s; the rule predated this afternoon's changes):
// a number with a fraction is "left to JCS" by safeNumber however large it is, but JCS writes
// it as the float64 it rounds to, an integer beyond ±(2^53−1) once the magnitude reaches 2^53
// (or 2^53−0.5 rounding up). Canonical accepts the input and returns bytes that Canonical
// itself refuses (ErrUnsafeInteger): a commitment or a payload carrying such a number has a
// canonical form no reader accepts again, and two different inputs (…0.1 and …0.2) share one
// canonical form. Fixed in scan.go (number): a number whose float64 value, what JCS prints, is
// out of range or integral beyond ±(2^53−1) is refused (ErrUnsafeInteger), fraction or not.
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

// Failed until 8d35aa5 (found by FuzzCanonicalStrict in 135 s; same root as the test above): Parse
// accepts a number with a fraction beyond float64's range (1.8e308 written out, then ".1"), which
// Canonical refuses (ErrSyntax, "Number out of range" from github.com/gowebpki/jcs): Parse's doc
// says it runs Canonical's checks with Canonical's errors, and a Value it returns then has no
// canonical form. The same fix makes the two agree.
func TestParseFractionBeyondFloat(t *testing.T) {
	for _, n := range []string{"18" + strings.Repeat("0", 307) + ".1", "-1" + strings.Repeat("9", 400) + ".5"} {
		_, cerr := Canonical([]byte(n))
		_, perr := Parse([]byte(n))
		if (cerr == nil) != (perr == nil) {
			t.Errorf("%.20s… (%d bytes): Canonical %v, Parse %v", n, len(n), cerr, perr)
		}
	}
}
