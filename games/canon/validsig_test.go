package canon

import (
	"bytes"
	"encoding/hex"
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

// refSig is the reference reading of a signature's text: the prefix, exactly 128 characters
// of lowercase hex, decoded by encoding/hex.
func refSig(s string) ([]byte, bool) {
	h, ok := strings.CutPrefix(s, "ed25519:")
	if !ok || len(h) != 128 || strings.Trim(h, "0123456789abcdef") != "" {
		return nil, false
	}
	b, err := hex.DecodeString(h)
	return b, err == nil
}

func checkDecodeSig(t *testing.T, s string) {
	t.Helper()
	var got [64]byte
	ok := DecodeSig(s, &got)
	want, wantOK := refSig(s)
	if ok != wantOK {
		t.Fatalf("%q: DecodeSig %v, reference %v", s, ok, wantOK)
	}
	if ok && !bytes.Equal(got[:], want) {
		t.Fatalf("%q: DecodeSig %x, reference %x", s, got, want)
	}
	if ValidSig(s) != ok {
		t.Fatalf("%q: ValidSig %v, DecodeSig %v", s, ValidSig(s), ok)
	}
	b, err := ParseSig(s)
	if (err == nil) != ok || (ok && !bytes.Equal(b, want)) {
		t.Fatalf("%q: ParseSig %x %v, DecodeSig %v", s, b, err, ok)
	}
}

// DecodeSig reads every digit value (each of 0-9a-f in every position) and refuses a single
// bad character anywhere, including bytes whose table entry would otherwise mix into a digit.
func TestDecodeSig(t *testing.T) {
	var all []byte
	for i := 0; i < 64; i++ {
		all = append(all, byte(i*4+3))
	}
	good := "ed25519:" + hex.EncodeToString(all)
	checkDecodeSig(t, good)
	checkDecodeSig(t, "ed25519:"+strings.Repeat("0123456789abcdef", 8))
	for pos := 8; pos < len(good); pos += 7 {
		for _, c := range []byte{'A', 'F', 'g', '/', ':', '`', 0, 0x80, 0xff, ' '} {
			b := []byte(good)
			b[pos] = c
			checkDecodeSig(t, string(b))
		}
	}
}

// Every byte value at every digit position, in a signature otherwise well formed: hex8 judges
// eight digits as one word, so a bad byte must be found wherever it sits in its word, and a
// good one decoded wherever it sits.
func TestDecodeSigEveryByte(t *testing.T) {
	var all []byte
	for i := 0; i < 64; i++ {
		all = append(all, byte(i*37+11))
	}
	good := []byte("ed25519:" + hex.EncodeToString(all))
	for pos := 8; pos < len(good); pos++ {
		for c := 0; c < 256; c++ {
			b := bytes.Clone(good)
			b[pos] = byte(c)
			checkDecodeSig(t, string(b))
		}
	}
}

func FuzzDecodeSig(f *testing.F) {
	f.Add("ed25519:" + strings.Repeat("0a", 64))
	f.Add("ed25519:" + strings.Repeat("0A", 64))
	f.Add("ed25519:" + strings.Repeat("f", 127) + "g")
	f.Fuzz(func(t *testing.T, s string) {
		checkDecodeSig(t, s)
		if len(s) > 8 {
			checkDecodeSig(t, "ed25519:"+s[8:])
		}
	})
}
