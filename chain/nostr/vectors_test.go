package nostr

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/btcsuite/btcd/btcec/v2"
	"github.com/btcsuite/btcd/btcec/v2/schnorr"
)

// vector is one row of testdata/bip340-test-vectors.csv, its hex as the file writes it
// (upper case).
type vector struct {
	index                      int
	secret, key, aux, msg, sig string
	valid                      bool
	comment                    string
}

// vectorsFile is the file's sha256 (testdata/README.md): the copy is the BIP's, unedited.
const vectorsFile = "34c9d1d9c3a88d524bc80778540dc43f8306ec249a7485293063c376db851c2d"

func readVectors(t *testing.T) []vector {
	t.Helper()
	b, err := os.ReadFile("testdata/bip340-test-vectors.csv")
	if err != nil {
		t.Fatal(err)
	}
	if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != vectorsFile {
		t.Fatalf("testdata/bip340-test-vectors.csv is not the copy testdata/README.md names (sha256 %x)", sum)
	}
	rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"index", "secret key", "public key", "aux_rand", "message", "signature", "verification result", "comment"}; strings.Join(rows[0], ",") != strings.Join(want, ",") {
		t.Fatalf("header %q", rows[0])
	}
	var vs []vector
	for i, r := range rows[1:] {
		n, err := strconv.Atoi(r[0])
		if err != nil || n != i {
			t.Fatalf("row %d: index %q", i+1, r[0])
		}
		if r[6] != "TRUE" && r[6] != "FALSE" {
			t.Fatalf("vector %d: verification result %q", n, r[6])
		}
		vs = append(vs, vector{n, r[1], r[2], r[3], r[4], r[5], r[6] == "TRUE", r[7]})
	}
	return vs
}

// keyRefusals and sigRefusals are the vectors whose key or signature the parsers refuse, and
// why: each is a FALSE vector whose field no key or signature can have.
var (
	keyRefusals = map[int]error{5: ErrNotOnCurve, 14: ErrKeyRange}
	sigRefusals = map[int]error{12: ErrSigR, 13: ErrSigS}
)

// TestBIP340Vectors runs every vector of the BIP: its key and signature in lower case parse
// (or are refused with the error keyRefusals/sigRefusals name), in the file's upper case are
// refused with ErrUpperHex, and Verify gives the vector's result. Where the vector has a secret
// key, btcec derives its public key, and signing with the vector's aux_rand gives its signature
// byte for byte. Vectors 15–18 sign messages that are not 32 bytes; btcec v2.3.5 implements
// BIP-340 for 32-byte messages only (the protocol signs only sha256 digests), so for them the
// test checks that btcec still refuses such a message: a btcec that takes them fails here, and
// then they are to be verified too.
func TestBIP340Vectors(t *testing.T) {
	vs := readVectors(t)
	if len(vs) != 19 {
		t.Fatalf("%d vectors, want 19 (0–18)", len(vs))
	}
	verified := 0
	for _, v := range vs {
		t.Run(strconv.Itoa(v.index), func(t *testing.T) {
			if strings.ContainsAny(v.key, "ABCDEF") {
				if _, err := ParsePubKey(v.key); !errors.Is(err, ErrUpperHex) {
					t.Errorf("upper-case key %s: %v, want ErrUpperHex", v.key, err)
				}
			}
			if strings.ContainsAny(v.sig, "ABCDEF") {
				if _, err := ParseSig(v.sig); !errors.Is(err, ErrUpperHex) {
					t.Errorf("upper-case sig %s: %v, want ErrUpperHex", v.sig, err)
				}
			}
			key, kerr := ParsePubKey(strings.ToLower(v.key))
			sig, serr := ParseSig(strings.ToLower(v.sig))
			if want := keyRefusals[v.index]; want != nil {
				if !errors.Is(kerr, want) {
					t.Fatalf("key (%s): %v, want %v", v.comment, kerr, want)
				}
			} else if kerr != nil {
				t.Fatalf("key: %v", kerr)
			} else if key.String() != strings.ToLower(v.key) {
				t.Errorf("key.String() %s", key)
			}
			if want := sigRefusals[v.index]; want != nil {
				if !errors.Is(serr, want) {
					t.Fatalf("sig (%s): %v, want %v", v.comment, serr, want)
				}
			} else if serr != nil {
				t.Fatalf("sig: %v", serr)
			}
			if kerr != nil || serr != nil {
				if v.valid {
					t.Fatalf("a valid vector's field was refused")
				}
				return
			}

			msg, err := hex.DecodeString(v.msg)
			if err != nil {
				t.Fatal(err)
			}
			var sk *btcec.PrivateKey
			if v.secret != "" {
				b, err := hex.DecodeString(v.secret)
				if err != nil {
					t.Fatal(err)
				}
				var pub *btcec.PublicKey
				sk, pub = btcec.PrivKeyFromBytes(b)
				if got := hex.EncodeToString(schnorr.SerializePubKey(pub)); got != strings.ToLower(v.key) {
					t.Errorf("secret key gives public key %s, want %s", got, strings.ToLower(v.key))
				}
			}
			if len(msg) != 32 {
				if !v.valid || sk == nil {
					t.Fatalf("vector %d: a %d-byte message on a vector the test does not expect", v.index, len(msg))
				}
				if _, err := schnorr.Sign(sk, msg); err == nil {
					t.Fatalf("btcec now signs a %d-byte message: verify vectors 15–18 too", len(msg))
				}
				return
			}
			if got := Verify(key, sig, [32]byte(msg)); got != v.valid {
				t.Fatalf("Verify = %v, want %v (%s)", got, v.valid, v.comment)
			}
			verified++
			if sk != nil {
				aux, err := hex.DecodeString(v.aux)
				if err != nil || len(aux) != 32 {
					t.Fatalf("aux_rand %q", v.aux)
				}
				s, err := schnorr.Sign(sk, msg, schnorr.CustomNonce([32]byte(aux)))
				if err != nil {
					t.Fatal(err)
				}
				if got := hex.EncodeToString(s.Serialize()); got != strings.ToLower(v.sig) {
					t.Errorf("signing gives %s, want %s", got, strings.ToLower(v.sig))
				}
			}
		})
	}
	// 19 vectors: 4 refused at parse, 4 with messages of other lengths, 11 verified.
	if verified != 11 {
		t.Errorf("%d vectors went through Verify, want 11", verified)
	}
}
