package bolt11

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
)

// checkDecoded is the property every input shares: Decode never panics; what it refuses wraps
// exactly one sentinel and, in upper case, is refused for the same one; what it takes Encode
// writes back as the input in lower case, and that decodes to the same invoice.
func checkDecoded(t *testing.T, s string) {
	inv, err := Decode(s)
	if err != nil {
		checkOneSentinel(t, err)
		if inv != nil {
			t.Fatalf("refused %q with %v, and returned an invoice", s, err)
		}
		if up := strings.ToUpper(s); up != s && len(s) <= MaxLength && !errors.Is(err, ErrBech32) {
			if _, err2 := Decode(up); !errors.Is(err2, unwrapSentinel(err)) {
				t.Fatalf("%q: %v, upper case: %v", s, err, err2)
			}
		}
		return
	}
	enc := inv.Encode()
	if enc != strings.ToLower(s) {
		t.Fatalf("Decode(%q).Encode() = %q", s, enc)
	}
	back, err := Decode(enc)
	if err != nil {
		t.Fatalf("re-decode %q: %v", enc, err)
	}
	if back.Encode() != enc || !back.Payee.IsEqual(inv.Payee) || back.PaymentHash != inv.PaymentHash ||
		back.Msat != inv.Msat || back.Description != inv.Description || len(back.Fields()) != len(inv.Fields()) {
		t.Fatalf("%q decodes differently the second time", enc)
	}
	for i, f := range inv.Fields() {
		g := back.Fields()[i]
		if f.Type != g.Type || !bytes.Equal(f.Data, g.Data) {
			t.Fatalf("%q: field %d differs the second time", enc, i)
		}
	}
	if inv.Msat == 0 && inv.Amount != (Amount{}) {
		t.Fatalf("%q: amount %q of 0 msat", s, inv.Amount)
	}
}

// unwrapSentinel is the sentinel err wraps.
func unwrapSentinel(err error) error {
	for _, s := range sentinels {
		if errors.Is(err, s) {
			return s
		}
	}
	return nil
}

// seeds are the spec's vectors, read for the corpus.
func seeds(f *testing.F) []string {
	b, err := os.ReadFile("testdata/bolt11_vectors.json")
	if err != nil {
		f.Fatal(err)
	}
	var out []string
	for _, part := range strings.Split(string(b), "\"") {
		if strings.HasPrefix(part, "ln") || strings.HasPrefix(part, "LN") {
			out = append(out, part)
		}
	}
	return out
}

// FuzzDecode: checkDecoded on any string.
func FuzzDecode(f *testing.F) {
	for _, s := range seeds(f) {
		f.Add(s)
	}
	f.Add("lnbc1")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) { checkDecoded(t, s) })
}

// FuzzDataPart: checkDecoded on strings with a correct checksum, so that the fuzzer reaches the
// human-readable part, the fields and the signature: hrp as given (cut at the first '1'), data
// taken 5 bits per byte.
func FuzzDataPart(f *testing.F) {
	for _, s := range seeds(f) {
		hrp, data, err := decodeBech32(s)
		if err == nil {
			f.Add(hrp, data)
		}
	}
	f.Fuzz(func(t *testing.T, hrp string, data []byte) {
		if i := strings.IndexByte(hrp, '1'); i >= 0 {
			hrp = hrp[:i]
		}
		for i := 0; i < len(hrp); i++ {
			if hrp[i] < 33 || hrp[i] > 126 || ('A' <= hrp[i] && hrp[i] <= 'Z') {
				return
			}
		}
		vs := make([]byte, len(data))
		for i, b := range data {
			vs[i] = b & 31
		}
		checkDecoded(t, encodeBech32(hrp, vs))
	})
}
