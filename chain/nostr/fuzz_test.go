package nostr

import (
	"errors"
	"strings"
	"testing"
)

// sentinels are the parsers' errors; a refusal wraps exactly one.
var sentinels = []error{ErrLength, ErrUpperHex, ErrNotHex, ErrKeyRange, ErrNotOnCurve, ErrSigR, ErrSigS}

// checkRefusal fails unless err wraps exactly one sentinel.
func checkRefusal(t *testing.T, what, in string, err error) {
	n := 0
	for _, s := range sentinels {
		if errors.Is(err, s) {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%s(%q): %v wraps %d sentinels, want 1", what, in, err, n)
	}
}

// lowerHexOnly reports whether s is only lower-case hex digits.
func lowerHexOnly(s string) bool {
	return strings.Trim(s, "0123456789abcdef") == ""
}

// FuzzParse: the parsers never panic; what they take is exactly KeyHexLen / SigHexLen
// lower-case hex (and a taken key prints back as given); what they refuse wraps exactly one
// sentinel; the upper-case form of a taken field is refused; Verify on anything taken does not
// panic and answers the same twice.
func FuzzParse(f *testing.F) {
	f.Add("dff1d77f2a671c5f36183726db2341be58feae1da2deced843240f7b502ba659",
		"6896bd60eeae296db48a229ff71dfe071bde413e6d43f917dc8dcf8c78de33418906d11ac976abccb20b091292bff4ea897efcb639ea871cfa95f6de339e4b0a", "n")
	f.Add("DFF1D77F2A671C5F36183726DB2341BE58FEAE1DA2DECED843240F7B502BA659", "", "")
	f.Add("eefdea4cdb677750a420fee807eacf21eb9898ae79b9768766e4faa04a2d4a34",
		"ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff", "é")
	f.Add(strings.Repeat("0", 64), strings.Repeat("0", 128), strings.Repeat("0", 64))
	f.Fuzz(func(t *testing.T, keyHex, sigHex, nonce string) {
		key, kerr := ParsePubKey(keyHex)
		if kerr != nil {
			checkRefusal(t, "ParsePubKey", keyHex, kerr)
		} else {
			if len(keyHex) != KeyHexLen || !lowerHexOnly(keyHex) || key.String() != keyHex {
				t.Fatalf("ParsePubKey took %q (String %q)", keyHex, key)
			}
			if up := strings.ToUpper(keyHex); up != keyHex {
				if _, err := ParsePubKey(up); !errors.Is(err, ErrUpperHex) {
					t.Fatalf("upper-case %q: %v", up, err)
				}
			}
		}
		sig, serr := ParseSig(sigHex)
		if serr != nil {
			checkRefusal(t, "ParseSig", sigHex, serr)
		} else {
			if len(sigHex) != SigHexLen || !lowerHexOnly(sigHex) {
				t.Fatalf("ParseSig took %q", sigHex)
			}
			if up := strings.ToUpper(sigHex); up != sigHex {
				if _, err := ParseSig(up); !errors.Is(err, ErrUpperHex) {
					t.Fatalf("upper-case %q: %v", up, err)
				}
			}
		}
		if kerr == nil && serr == nil {
			msg := Challenge(nonce)
			if Verify(key, sig, msg) != Verify(key, sig, msg) {
				t.Fatal("Verify answers differently twice")
			}
		}
	})
}
