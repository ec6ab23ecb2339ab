package identity

import (
	"fmt"
	"testing"

	"arena/games/breakroom/wire"
)

// A key with 10 completed matches claims a handle: the answer names it, nostr.json serves it
// (with Access-Control-Allow-Origin: *, no redirect), "_" is Break Room's own key, and both
// outlive a restart.
func TestHandleClaimServedAndDurable(t *testing.T) {
	r := newRig(t)
	ada := newKey(1)
	r.recs.set(ada.pub, eligible)
	st, m := r.claim(ada, "ada_walker-1")
	if st != 200 || m["type"] != "handle" || m["v"] != float64(0) || m["handle"] != "ada_walker-1@breakroom.test" ||
		m["name"] != "ada_walker-1" || m["pubkey"] != ada.pub || m["claimed_at"] != "2026-03-04T05:06:07.000Z" ||
		m["nip05_url"] != testOrigin+"/.well-known/nostr.json?name=ada_walker-1" {
		t.Fatalf("claim: %d %v", st, m)
	}
	check := func(when string) {
		t.Helper()
		if n := r.names("?name=ada_walker-1"); len(n) != 1 || n["ada_walker-1"] != ada.pub {
			t.Fatalf("%s: names for ada_walker-1: %v", when, n)
		}
		if n := r.names("?name=_"); len(n) != 1 || n["_"] != selfKey.pub {
			t.Fatalf("%s: names for _: %v", when, n)
		}
		if n := r.names(""); len(n) != 1 || n["_"] != selfKey.pub {
			t.Fatalf("%s: names with no name: %v", when, n)
		}
		if n := r.names("?name=nobody"); len(n) != 0 {
			t.Fatalf("%s: names for nobody: %v", when, n)
		}
		if n := r.names("?name=ADA_WALKER-1"); len(n) != 0 {
			t.Fatalf("%s: names for the upper-case spelling: %v", when, n)
		}
	}
	check("before the restart")
	r.reopen()
	check("after the restart")
	if st, m := r.claim(ada, "ada2"); st != 409 || m["code"] != CodeHasHandle {
		t.Fatalf("second claim after the restart: %d %v", st, m)
	}
	if st, m := r.json("GET", "/.well-known/nostr.json?name=a&name=b", nil, nil); st != 400 || m["code"] != "bad_request" {
		t.Fatalf("repeated name: %d %v", st, m)
	}
}

// Each refusal of a claim has its own code, status and a detail, and changes nothing: the nonce
// stays good, so the corrected claim goes through with it.
func TestHandleRefusals(t *testing.T) {
	r := newRig(t)
	ada, bob, cy := newKey(1), newKey(2), newKey(3)
	r.recs.set(ada.pub, eligible)
	r.recs.set(bob.pub, eligible)
	r.recs.set(cy.pub, eligible)
	r.recs.set(newKey(4).pub, eligible)
	if st, m := r.claim(bob, "bob"); st != 200 {
		t.Fatalf("bob's claim: %d %v", st, m)
	}
	novice := newKey(9)
	r.recs.set(novice.pub, wireRep(MinMatches-1))
	cases := []struct {
		name   string
		body   func(nonce string) any
		status int
		code   string
	}{
		{"not_eligible", func(n string) any { return r.claimBody(novice, "novice", n) }, 403, CodeNotEligible},
		{"not_eligible_no_record", func(n string) any { return r.claimBody(newKey(8), "stranger", n) }, 403, CodeNotEligible},
		{"handle_invalid_short", func(n string) any { return r.claimBody(ada, "ab", n) }, 400, CodeInvalid},
		{"handle_invalid_long", func(n string) any { return r.claimBody(ada, "abcdefghijklmnopqrstu", n) }, 400, CodeInvalid},
		{"handle_invalid_upper", func(n string) any { return r.claimBody(ada, "Ada", n) }, 400, CodeInvalid},
		{"handle_invalid_dot", func(n string) any { return r.claimBody(ada, "ada.w", n) }, 400, CodeInvalid},
		{"handle_invalid_unicode", func(n string) any { return r.claimBody(ada, "adé", n) }, 400, CodeInvalid},
		{"handle_invalid_self", func(n string) any { return r.claimBody(ada, "_", n) }, 400, CodeInvalid},
		{"handle_reserved", func(n string) any { return r.claimBody(ada, "admin", n) }, 409, CodeReserved},
		{"handle_reserved_bartender", func(n string) any { return r.claimBody(ada, "bartender", n) }, 409, CodeReserved},
		{"handle_reserved_prefix", func(n string) any { return r.claimBody(ada, "house-bot", n) }, 409, CodeReserved},
		{"handle_taken", func(n string) any { return r.claimBody(ada, "bob", n) }, 409, CodeTaken},
		{"already_has_handle", func(n string) any { return r.claimBody(bob, "bob2", n) }, 409, CodeHasHandle},
		{"auth_failed_wrong_signer", func(n string) any {
			b := r.claimBody(ada, "ada", n)
			b["sig"] = cy.sign(t, n)
			return b
		}, 401, "auth_failed"},
		{"auth_failed_unknown_nonce", func(n string) any {
			b := r.claimBody(ada, "ada", n)
			other := "x" + n[1:] // one character changed: a nonce never issued
			if n[0] == 'x' {
				other = "y" + n[1:]
			}
			b["nonce"], b["sig"] = other, ada.sign(t, other)
			return b
		}, 401, "auth_failed"},
		{"bad_request_key", func(n string) any {
			b := r.claimBody(ada, "ada", n)
			b["pubkey"] = "ABCD"
			return b
		}, 400, "bad_request"},
		{"bad_request_sig", func(n string) any {
			b := r.claimBody(ada, "ada", n)
			b["sig"] = "00"
			return b
		}, 400, "bad_request"},
		{"bad_request_missing_name", func(n string) any {
			b := r.claimBody(ada, "ada", n)
			delete(b, "name")
			return b
		}, 400, "bad_request"},
		{"bad_request_unknown_member", func(n string) any {
			b := r.claimBody(ada, "ada", n)
			b["relays"] = []string{}
			return b
		}, 400, "bad_request"},
		{"bad_request_not_json", func(string) any { return `{"pubkey":` }, 400, "bad_request"},
		{"bad_version", func(n string) any {
			b := r.claimBody(ada, "ada", n)
			b["v"] = 1
			return b
		}, 400, "bad_version"},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			nonce := r.nonce()
			st, m := r.json("POST", "/v0/handle", nil, c.body(nonce))
			if st != c.status || m["code"] != c.code || m["type"] != "error" || m["v"] != float64(0) || m["detail"] == "" {
				t.Fatalf("%d %v, want %d %s", st, m, c.status, c.code)
			}
			// Nothing changed: the nonce still signs a good claim (a corrected one).
			k := newKey(byte(100 + i))
			r.recs.set(k.pub, eligible)
			name := fmt.Sprintf("fixed-%d", i)
			if st, m := r.json("POST", "/v0/handle", nil, r.claimBody(k, name, nonce)); st != 200 || m["pubkey"] != k.pub {
				t.Fatalf("the corrected claim with the same nonce: %d %v", st, m)
			}
			if st, m := r.json("POST", "/v0/handle", nil, r.claimBody(newKey(byte(200+i)), "again-"+name, nonce)); st != 401 || m["code"] != "auth_failed" {
				t.Fatalf("a nonce used twice: %d %v", st, m)
			}
		})
	}
	for _, n := range []string{"novice", "stranger", "ab", "ada", "admin", "bob2"} {
		if got := r.names("?name=" + n); len(got) != 0 {
			t.Fatalf("a refused claim left %s served: %v", n, got)
		}
	}
	if n := r.names("?name=bob"); n["bob"] != bob.pub {
		t.Fatalf("bob after the refusals: %v", n)
	}
}

// wireRep is a reputation of n completed matches.
func wireRep(n int) wire.Reputation { return wire.Reputation{Matches: n, Wins: 1, AvgRank: 2} }
