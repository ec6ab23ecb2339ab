package identity

import (
	"testing"
)

// An operator revokes a handle: nostr.json stops naming it, the name stays taken, the key keeps
// its record (the badge reads the same numbers) and may claim another name; the list shows both,
// the revoked one with its reason; the revocation outlives a restart. Without the operator token
// the routes refuse.
func TestHandleRevokedByOperatorKeepsReputation(t *testing.T) {
	r := newRig(t)
	ada, bob := newKey(1), newKey(2)
	r.recs.set(ada.pub, eligible)
	r.recs.set(bob.pub, eligible)
	if st, m := r.claim(ada, "ada"); st != 200 {
		t.Fatalf("claim: %d %v", st, m)
	}
	before := r.badgeTexts(ada.pub)
	if before[0] != "ada@breakroom.test" || before[1] != "10 matches · 4 wins · avg rank 1.9" {
		t.Fatalf("badge before: %v", before)
	}
	if st, m := r.json("POST", "/ops/handles/ada/revoke", nil, map[string]any{"reason": "impersonation"}); st != 401 || m["code"] != "unauthorized" {
		t.Fatalf("revoke without a token: %d %v", st, m)
	}
	if st, m := r.json("POST", "/ops/handles/ada/revoke", map[string]string{"Authorization": "Bearer wrong"}, nil); st != 403 || m["code"] != "forbidden" {
		t.Fatalf("revoke with a wrong token: %d %v", st, m)
	}
	op := map[string]string{"Authorization": "Bearer " + testToken}
	r.now = r.now.Add(3600e9)
	st, m := r.json("POST", "/ops/handles/ada/revoke", op, map[string]any{"reason": "impersonation"})
	h, _ := m["handle"].(map[string]any)
	if st != 200 || h["name"] != "ada" || h["pubkey"] != ada.pub || h["reason"] != "impersonation" || h["revoked_at"] != "2026-03-04T06:06:07Z" {
		t.Fatalf("revoke: %d %v", st, m)
	}
	if st, m := r.json("POST", "/ops/handles/ada/revoke", op, nil); st != 404 || m["code"] != "not_found" {
		t.Fatalf("second revoke: %d %v", st, m)
	}
	r.reopen()
	if n := r.names("?name=ada"); len(n) != 0 {
		t.Fatalf("nostr.json still names the revoked handle: %v", n)
	}
	if after := r.badgeTexts(ada.pub); after[0] != "breakroom" || after[1] != before[1] {
		t.Fatalf("badge after the revocation: %v (before %v)", after, before)
	}
	if rep, _ := r.recs.Reputation(ada.pub); rep != eligible {
		t.Fatalf("reputation after the revocation: %+v", rep)
	}
	if st, m := r.claim(bob, "ada"); st != 409 || m["code"] != CodeTaken {
		t.Fatalf("another key claims the revoked name: %d %v", st, m)
	}
	if st, m := r.claim(ada, "ada-again"); st != 200 {
		t.Fatalf("the revoked key claims a new name: %d %v", st, m)
	}
	st, m = r.json("GET", "/ops/handles", op, nil)
	list, _ := m["handles"].([]any)
	if st != 200 || len(list) != 2 {
		t.Fatalf("list: %d %v", st, m)
	}
	first, second := list[0].(map[string]any), list[1].(map[string]any)
	if first["name"] != "ada" || first["reason"] != "impersonation" || second["name"] != "ada-again" || second["revoked_at"] != nil {
		t.Fatalf("list: %v", list)
	}
}
