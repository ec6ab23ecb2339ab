package commitment

import (
	"crypto/ed25519"
	"testing"

	"arena/games/canon"
)

// BenchmarkParse: the rules' cost per received commitment (raw checks, JCS, strict decode,
// schema, digest), for comparison with BenchmarkVerify (the signature check it cannot avoid).
func BenchmarkParse(b *testing.B) {
	raw := signed(b, exampleObj, testKey("alice"))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Parse(raw); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVerify: Verify alone (canon.Verify: point checks plus ed25519).
func BenchmarkVerify(b *testing.B) {
	key := testKey("alice")
	c, cb, _ := Parse(signed(b, exampleObj, key))
	pub := key.Public().(ed25519.PublicKey)
	b.ReportAllocs()
	for b.Loop() {
		if err := Verify(cb, c.Sig, pub); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStdVerify: crypto/ed25519.Verify alone, the floor.
func BenchmarkStdVerify(b *testing.B) {
	key := testKey("alice")
	c, cb, _ := Parse(signed(b, exampleObj, key))
	sig, _ := canon.ParseSig(c.Sig)
	pub := key.Public().(ed25519.PublicKey)
	for b.Loop() {
		if !ed25519.Verify(pub, cb.Digest[:], sig) {
			b.Fatal("no")
		}
	}
}
