package canon

import (
	"strings"
	"testing"
)

// ValidSig takes exactly what ParseSig reads.
func TestValidSigAgreesWithParseSig(t *testing.T) {
	good := "ed25519:" + strings.Repeat("0a", 64)
	cases := []string{good, "", "ed25519:", good[:len(good)-1], good + "0", strings.ToUpper(good),
		"ed25519:" + strings.Repeat("0A", 64), "ed25519:" + strings.Repeat("g0", 64), "ED25519:" + strings.Repeat("0a", 64),
		"ed25519:" + strings.Repeat("0a", 32), "x" + good[1:], "ed25519:" + strings.Repeat("é", 64)}
	for _, s := range cases {
		_, err := ParseSig(s)
		if ValidSig(s) != (err == nil) {
			t.Errorf("%q: ValidSig %v, ParseSig error %v", s, ValidSig(s), err)
		}
	}
	if !ValidSig(good) {
		t.Error("a well-formed signature refused")
	}
}
