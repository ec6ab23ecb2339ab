package storage

import (
	"errors"
	"testing"
)

func wardenPay(id string, keyByte byte) WardenPayment {
	k := replayKey(1337, keyByte)
	return WardenPayment{ID: id, Resource: "/v1/warden/matches/wm_0000000000000001/stake", Match: "wm_0000000000000001",
		Seat: "A", Payer: "0x1111111111111111111111111111111111111111", Amount: 1_000_000, Network: "eip155:1337",
		Key: k.String(), Version: 1, Payload: []byte(`{"x402Version":1}`), Status: WardenPaySettling, Created: 1}
}

// A claim writes the nonce and the record in one transaction; a second payment carrying the
// same authorization gets the first record back and writes nothing; the record then only moves
// forward, and everything survives a reopen.
func TestWardenPaymentClaimReplayAndSteps(t *testing.T) {
	s, path := openTest(t, Options{})
	k := replayKey(1337, 7)
	p := wardenPay("wp_0000000000000001", 7)
	got, claimed, err := s.ClaimWardenPayment(k, p)
	if err != nil || !claimed || got.ID != p.ID {
		t.Fatalf("first claim: %+v %v %v", got, claimed, err)
	}
	q := wardenPay("wp_0000000000000002", 7)
	q.Seat = "B"
	got, claimed, err = s.ClaimWardenPayment(k, q)
	if err != nil || claimed || got.ID != p.ID || got.Seat != "A" {
		t.Fatalf("replayed claim: %+v %v %v", got, claimed, err)
	}
	if _, err := s.WardenPayment(q.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("the replay wrote a record: %v", err)
	}
	holder, err := s.Replay().Holder(k)
	if err != nil || holder != p.ID {
		t.Fatalf("holder %q %v", holder, err)
	}

	sub := p
	sub.Status, sub.Tx = WardenPaySubmitted, "0xaa00000000000000000000000000000000000000000000000000000000000001"
	if err := s.PutWardenPayment(sub); err != nil {
		t.Fatalf("submitted: %v", err)
	}
	back := p
	if err := s.PutWardenPayment(back); !errors.Is(err, ErrBadKey) {
		t.Fatalf("submitted → settling: %v, want ErrBadKey", err)
	}
	changed := sub
	changed.Amount = 2
	if err := s.PutWardenPayment(changed); !errors.Is(err, ErrBadKey) {
		t.Fatalf("changed amount: %v, want ErrBadKey", err)
	}
	done := sub
	done.Status = WardenPaySettled
	if err := s.PutWardenPayment(done); err != nil {
		t.Fatalf("settled: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	got2, err := s2.WardenPayment(p.ID)
	if err != nil || got2.Status != WardenPaySettled || got2.Tx != sub.Tx || got2.Amount != 1_000_000 {
		t.Fatalf("after reopen: %+v %v", got2, err)
	}
	if err := s2.Check(); err != nil {
		t.Fatalf("check: %v", err)
	}
}

// A record that does not check is refused before anything is written, nonce included.
func TestWardenPaymentClaimRefusesBadRecord(t *testing.T) {
	s, _ := openTest(t, Options{})
	k := replayKey(1337, 9)
	p := wardenPay("wp_0000000000000003", 9)
	p.Amount = 0
	if _, _, err := s.ClaimWardenPayment(k, p); !errors.Is(err, ErrBadKey) {
		t.Fatalf("zero amount: %v", err)
	}
	p = wardenPay("wp_0000000000000003", 8) // key of another authorization
	if _, _, err := s.ClaimWardenPayment(k, p); !errors.Is(err, ErrBadKey) {
		t.Fatalf("other key: %v", err)
	}
	if _, err := s.Replay().Holder(k); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a refused claim holds the nonce: %v", err)
	}
}
