package play

import "testing"

// TestHTTPPaidIsPaymentsDisabled: POST /v0/paid is a route of the HTTP fallback; with paid tables
// not open, a well-formed body is payments_disabled (403), as the socket's paid is, and a
// malformed one is refused as its frame would be.
func TestHTTPPaidIsPaymentsDisabled(t *testing.T) {
	r := newRig(t, nil)
	k := newKey(t, 9)
	good := map[string]any{"payment_hash": "ab", "payout_lnaddr": "me@wallet.test", "author_pubkey": k.pub, "nonce": "n", "sig": "s"}
	if st, e := r.httpDo("POST", "/v0/paid", "", good); st != 403 || e["code"] != CodePaymentsDisabled {
		t.Fatalf("paid: %d %v", st, e)
	}
	if st, e := r.httpDo("POST", "/v0/paid", "", map[string]any{"payment_hash": "ab"}); st != 400 || e["code"] != "bad_request" {
		t.Fatalf("paid without payout_lnaddr: %d %v", st, e)
	}
	if st, e := r.httpDo("POST", "/v0/paid", "", map[string]any{"v": 1, "payment_hash": "ab"}); st != 400 || e["code"] != "bad_version" {
		t.Fatalf("paid with v 1: %d %v", st, e)
	}
	s := r.dial()
	s.joinAs(k, "coin")
	s.expect("queued")
	s.send(map[string]any{"type": "paid", "v": 0, "payment_hash": "ab", "payout_lnaddr": "me@wallet.test"})
	if e := s.expect("error"); e["code"] != CodePaymentsDisabled {
		t.Fatalf("socket paid: %v", e)
	}
}
