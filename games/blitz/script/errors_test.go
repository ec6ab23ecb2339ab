package script

import (
	"crypto/ed25519"
	"testing"
)

func TestErrorMessages(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{&Error{Path: "moves[3].answer.commitments[0].payee", Msg: "seat 9 is not seated (seats are 1 to 6)"},
			"script: moves[3].answer.commitments[0].payee: seat 9 is not seated (seats are 1 to 6)"},
		{&Error{Msg: "not valid UTF-8"}, "script: not valid UTF-8"},
		{&ConservationError{Entries: 1_200_000_000, Payouts: 1_169_999_999, House: 30_000_000},
			"script: money not conserved: payouts 1169999999 + house 30000000 = 1199999999, entries 1200000000 (off by -1 microCCD)"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
}

// TestSeatKeysDeterministic pins the seat key and Badge derivation documented in
// docs/protocol-notes.md "arena sim": same seed, same ids; different seats, different ids; ids
// in base58 after the testnet CAIP-19 prefix.
func TestSeatKeysDeterministic(t *testing.T) {
	var seed [32]byte
	for i := range seed {
		seed[i] = byte(i)
	}
	a1 := SeatAgent(SeatKey(seed, 1).Public().(ed25519.PublicKey))
	a1again := SeatAgent(SeatKey(seed, 1).Public().(ed25519.PublicKey))
	a2 := SeatAgent(SeatKey(seed, 2).Public().(ed25519.PublicKey))
	if a1 != a1again || a1 == a2 {
		t.Fatalf("seat ids: %s %s %s", a1, a1again, a2)
	}
	const prefix = "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:"
	for _, a := range []string{a1, a2, ArenaAgent(seed)} {
		if len(a) <= len(prefix) || a[:len(prefix)] != prefix {
			t.Fatalf("%s lacks the testnet prefix", a)
		}
		for _, c := range a[len(prefix):] {
			if c == '0' || c == 'O' || c == 'I' || c == 'l' {
				t.Fatalf("%s has %q, not base58", a, c)
			}
		}
	}
	k := newKeyring(seed, 2)
	sig, err := k.Sign(2, []byte("digest"))
	if err != nil {
		t.Fatal(err)
	}
	pub, ok := k.PublicKey(2)
	if !ok || !ed25519.Verify(pub, []byte("digest"), sig) {
		t.Fatalf("keyring: seat 2's signature does not verify under its key (ok %v)", ok)
	}
	if _, ok := k.PublicKey(3); ok {
		t.Error("keyring has a key for seat 3 of 2")
	}
	if _, err := k.Sign(0, nil); err == nil {
		t.Error("keyring signed for seat 0")
	}
}
