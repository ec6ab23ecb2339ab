package auth

import (
	"encoding/hex"
	"testing"
	"time"

	"github.com/btcsuite/btcd/btcec/v2"
	"github.com/btcsuite/btcd/btcec/v2/schnorr"

	"arena/chain/nostr"
)

// BenchmarkCheckJoin is one join's signature check as the server does it (Nonces.Check, which
// VerifyJoin calls before spending the nonce): parse the x-only author_pubkey (lifting it onto
// the curve) and the 64-byte sig from hex, look the nonce up, and verify the BIP-340 signature
// over sha256(utf8(nonce)). Check spends nothing, so every op checks the same live nonce. The
// Break Room rules cost (docs/performance.md) compares a whole match with seats × this.
func BenchmarkCheckJoin(b *testing.B) {
	b.ReportAllocs()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	n := New(Options{Now: func() time.Time { return at }})
	sk, err := btcec.NewPrivateKey()
	if err != nil {
		b.Fatal(err)
	}
	pub := hex.EncodeToString(schnorr.SerializePubKey(sk.PubKey()))
	nonce, err := n.Issue("bench")
	if err != nil {
		b.Fatal(err)
	}
	msg := nostr.Challenge(nonce)
	sig, err := schnorr.Sign(sk, msg[:])
	if err != nil {
		b.Fatal(err)
	}
	sigHex := hex.EncodeToString(sig.Serialize())
	for b.Loop() {
		if _, err := n.Check(pub, nonce, sigHex); err != nil {
			b.Fatal(err)
		}
	}
}
