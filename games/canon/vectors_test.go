package canon

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// testdata holds the published JCS and ed25519 vectors, copied unedited (testdata/README.md).
const testdata = "testdata"

func td(t testing.TB, parts ...string) string {
	t.Helper()
	p := filepath.Join(append([]string{testdata}, parts...)...)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("test vectors missing: %v", err)
	}
	return p
}

// strictRefusals are the JCS vectors Canonical refuses on purpose: values.json holds 1E30, an
// integer beyond 2^53−1; structures.json has members "f" and "F" in one object.
var strictRefusals = map[string]error{"values.json": ErrUnsafeInteger, "structures.json": ErrFoldedMember}

// TestJCSVectors runs the cyberphone JCS vectors: each input canonicalises to output (and to
// outhex). Where Canonical refuses on purpose (strictRefusals) the underlying transform must
// still match the vector.
func TestJCSVectors(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(td(t, "jcs", "input"), "*.json"))
	if len(files) != 6 {
		t.Fatalf("want 6 JCS input files, got %d", len(files))
	}
	for _, in := range files {
		name := filepath.Base(in)
		raw, _ := os.ReadFile(in)
		want, err := os.ReadFile(td(t, "jcs", "output", name))
		if err != nil {
			t.Fatal(err)
		}
		hexText, _ := os.ReadFile(td(t, "jcs", "outhex", strings.TrimSuffix(name, ".json")+".txt"))
		wantHex, err := hex.DecodeString(strings.Join(strings.Fields(string(hexText)), ""))
		if err != nil || !bytes.Equal(wantHex, want) {
			t.Fatalf("%s: outhex and output disagree (%v)", name, err)
		}
		got, err := Canonical(raw)
		if sentinel, refused := strictRefusals[name]; refused {
			if !errors.Is(err, sentinel) {
				t.Fatalf("%s: err = %v, want %v", name, err, sentinel)
			}
			got, err = transform(raw)
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%s:\n got %s\nwant %s", name, got, want)
		}
		again, err := transform(got)
		if err != nil || !bytes.Equal(again, got) {
			t.Fatalf("%s: not idempotent", name)
		}
	}
}

// TestES6Numbers runs the 100 000 ES6 number-formatting vectors (IEEE bits, expected text);
// every 7th under -race or -short.
// Canonical must print exactly the expected text, or refuse exactly the integer-valued numbers
// beyond ±(2^53−1).
func TestES6Numbers(t *testing.T) {
	f, err := os.Open(td(t, "jcs", "es6testfile100k.txt.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(zr)
	stride := 1
	if raceEnabled || testing.Short() {
		stride = 7
	}
	n, ran, refused := 0, 0, 0
	for sc.Scan() {
		n++
		if n%stride != 0 {
			continue
		}
		ran++
		bits, want, ok := strings.Cut(sc.Text(), ",")
		if !ok {
			t.Fatalf("line %d malformed", n)
		}
		u, err := strconv.ParseUint(bits, 16, 64)
		if err != nil {
			t.Fatal(err)
		}
		v := math.Float64frombits(u)
		in := strconv.FormatFloat(v, 'g', -1, 64)
		got, err := Canonical([]byte(in))
		unsafe := v == math.Trunc(v) && math.Abs(v) > maxSafe
		switch {
		case unsafe:
			if !errors.Is(err, ErrUnsafeInteger) {
				t.Fatalf("%s (%s): err = %v, want ErrUnsafeInteger", bits, in, err)
			}
			refused++
			if got, err = transform([]byte(in)); err != nil || string(got) != want {
				t.Fatalf("%s: transform %s, %v; want %s", bits, got, err, want)
			}
		case err != nil:
			t.Fatalf("%s (%s): %v", bits, in, err)
		case string(got) != want:
			t.Fatalf("%s (%s): got %s want %s", bits, in, got, want)
		}
	}
	if n != 100000 || ran != n/stride || refused == 0 {
		t.Fatalf("%d vectors, ran %d, %d refused", n, ran, refused)
	}
}

func TestRFC8032(t *testing.T) {
	raw, _ := os.ReadFile(td(t, "ed25519", "rfc8032_7.1_ed25519.json"))
	var doc struct {
		Vectors []struct{ Name, Secret, Public, Message, Signature string }
	}
	if err := json.Unmarshal(raw, &doc); err != nil || len(doc.Vectors) < 5 {
		t.Fatalf("rfc8032 vectors: %v (%d)", err, len(doc.Vectors))
	}
	for _, v := range doc.Vectors {
		pub, _ := hex.DecodeString(v.Public)
		msg, _ := hex.DecodeString(v.Message)
		sig, _ := hex.DecodeString(v.Signature)
		seed, _ := hex.DecodeString(v.Secret)
		if got := ed25519.NewKeyFromSeed(seed).Public().(ed25519.PublicKey); !bytes.Equal(got, pub) {
			t.Fatalf("%s: key mismatch", v.Name)
		}
		if !Verify(pub, msg, sig) {
			t.Fatalf("%s: does not verify", v.Name)
		}
		k, err := ParseKey(FormatKey(pub))
		if err != nil || !bytes.Equal(k, pub) {
			t.Fatalf("%s: ParseKey round trip: %v", v.Name, err)
		}
		s, err := ParseSig(FormatSig(sig))
		if err != nil || !bytes.Equal(s, sig) {
			t.Fatalf("%s: ParseSig round trip: %v", v.Name, err)
		}
		bad := append([]byte(nil), msg...)
		bad = append(bad, 0)
		if Verify(pub, bad, sig) {
			t.Fatalf("%s: verifies over another message", v.Name)
		}
	}
}

// TestWycheproof: every valid vector verifies and every invalid one does not.
func TestWycheproof(t *testing.T) {
	raw, _ := os.ReadFile(td(t, "ed25519", "wycheproof_ed25519_test.json"))
	var doc struct {
		NumberOfTests int
		TestGroups    []struct {
			PublicKey struct{ Pk string }
			Tests     []struct {
				TcID    int
				Comment string
				Msg     string
				Sig     string
				Result  string
			}
		}
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	valid, invalid := 0, 0
	for _, g := range doc.TestGroups {
		pub, _ := hex.DecodeString(g.PublicKey.Pk)
		for _, tc := range g.Tests {
			msg, _ := hex.DecodeString(tc.Msg)
			sig, _ := hex.DecodeString(tc.Sig)
			got := Verify(pub, msg, sig)
			switch tc.Result {
			case "valid":
				valid++
				if !got {
					t.Errorf("tc %d (%s): valid but refused", tc.TcID, tc.Comment)
				}
			case "invalid":
				invalid++
				if got {
					t.Errorf("tc %d (%s): invalid but accepted", tc.TcID, tc.Comment)
				}
			default:
				t.Fatalf("tc %d: result %q", tc.TcID, tc.Result)
			}
		}
	}
	if valid+invalid != doc.NumberOfTests || valid != 88 || invalid != 63 {
		t.Fatalf("ran %d valid, %d invalid of %d", valid, invalid, doc.NumberOfTests)
	}
}

// TestSupercop: the 128 SUPERCOP sign vectors (sk:pk:msg:sig+msg:) verify, and fail when the
// message is changed.
func TestSupercop(t *testing.T) {
	f, _ := os.Open(td(t, "ed25519", "supercop_sign.input.gz"))
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n := 0
	for sc.Scan() {
		parts := strings.Split(sc.Text(), ":")
		if len(parts) != 5 {
			t.Fatalf("line %d: %d parts", n+1, len(parts))
		}
		pub, _ := hex.DecodeString(parts[1])
		msg, _ := hex.DecodeString(parts[2])
		sm, _ := hex.DecodeString(parts[3])
		sig := sm[:64]
		if !Verify(pub, msg, sig) {
			t.Fatalf("line %d: does not verify", n+1)
		}
		if Verify(pub, append(msg, 1), sig) {
			t.Fatalf("line %d: verifies a changed message", n+1)
		}
		n++
	}
	if n != 128 {
		t.Fatalf("ran %d vectors, want 128", n)
	}
}
