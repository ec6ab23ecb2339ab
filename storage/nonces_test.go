package storage

import (
	"testing"
	"time"
)

// A nonce is fresh once, refused until it expires (also after a reopen), fresh again after;
// SweepNonces drops only the expired ones.
func TestUseNonceUntilExpiry(t *testing.T) {
	s, path := openTest(t, Options{NoSync: true})
	t0 := time.Unix(1_800_000_000, 0)
	use := func(s *Store, key string, now, until time.Time) bool {
		t.Helper()
		fresh, err := s.UseNonce(key, now, until)
		if err != nil {
			t.Fatal(err)
		}
		return fresh
	}
	if !use(s, "k1", t0, t0.Add(time.Minute)) || !use(s, "k2", t0, t0.Add(time.Hour)) {
		t.Fatal("new nonces not fresh")
	}
	if use(s, "k1", t0.Add(30*time.Second), t0.Add(2*time.Minute)) {
		t.Fatal("a used nonce was fresh again before its expiry")
	}
	_ = s.Close()
	s, err := Open(path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if use(s, "k1", t0.Add(time.Minute), t0.Add(2*time.Minute)) {
		t.Fatal("a used nonce was fresh after a reopen, at its expiry second")
	}
	if n, err := s.SweepNonces(t0.Add(time.Minute)); err != nil || n != 0 {
		t.Fatalf("sweep at k1's expiry second: %d %v, want none", n, err)
	}
	if n, err := s.SweepNonces(t0.Add(61 * time.Second)); err != nil || n != 1 {
		t.Fatalf("sweep after k1's expiry: %d %v, want k1 only", n, err)
	}
	if !use(s, "k1", t0.Add(61*time.Second), t0.Add(2*time.Minute)) {
		t.Fatal("an expired nonce was not fresh")
	}
	if use(s, "k2", t0.Add(3*time.Minute), t0.Add(4*time.Hour)) {
		t.Fatal("the sweep dropped a live nonce")
	}
}
