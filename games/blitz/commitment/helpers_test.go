package commitment

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/json"
	"testing"

	"arena/games/canon"

	"github.com/gowebpki/jcs"
)

const (
	alice = "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:4dKzQp7"
	bob   = "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:9aBcLm2"
	carol = "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:7xYzRt5"
)

// testKey is a deterministic key from a label.
func testKey(label string) ed25519.PrivateKey {
	seed := sha256.Sum256([]byte(label))
	return ed25519.NewKeyFromSeed(seed[:])
}

// signed returns obj (a JSON object without sig) with "sig" set to the ed25519 signature of
// the digest of its canonical bytes under key.
func signed(t testing.TB, obj string, key ed25519.PrivateKey) []byte {
	t.Helper()
	cb, err := canon.Canonical([]byte(obj))
	if err != nil {
		t.Fatalf("canonical: %v", err)
	}
	d := canon.Digest(cb)
	sig := ed25519.Sign(key, d[:])
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(obj), &m); err != nil {
		t.Fatal(err)
	}
	m["sig"], _ = json.Marshal(canon.FormatSig(sig))
	out, _ := json.Marshal(m)
	return out
}

// facts is a table of Facts for tests.
type facts struct {
	backed   map[[2]string]int64 // payer,payee → largest amount sealed
	sealedAt map[[2]string]int   // payer,payee → turn sealed
	dead     map[string]int      // agent → turn eliminated (not alive at start of later turns)
	honoured map[string]bool
}

func (f facts) Backed(payer, payee string, min int64, upTo int) bool {
	k := [2]string{payer, payee}
	a, ok := f.backed[k]
	return ok && a >= min && f.sealedAt[k] <= upTo
}

func (f facts) Alive(agent string, at int) bool {
	t, dead := f.dead[agent]
	return !dead || at <= t
}

func (f facts) Honoured(id string) bool { return f.honoured[id] }

// signedLoose signs as an attacker would: plain JCS (github.com/gowebpki/jcs, no strict
// checks) of obj, the sig appended to the raw text.
func signedLoose(t testing.TB, obj string, key ed25519.PrivateKey) []byte {
	t.Helper()
	cb, err := jcs.Transform([]byte(obj))
	if err != nil {
		t.Fatalf("jcs: %v", err)
	}
	d := sha256.Sum256(cb)
	sig := ed25519.Sign(key, d[:])
	return []byte(obj[:len(obj)-1] + `,"sig":"` + canon.FormatSig(sig) + `"}`)
}
