package site

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"arena/games"
	"arena/games/canon"
	"arena/transport/dotdotdot/chatseat"
	"arena/transport/dotdotdot/join"
)

const (
	claimAgent = "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:JyP9TuVfyJhJganGq2W8d"
	claimOwner = "ccd:4221332d34e1694168c2a0c0b3fd0f27:3kBx2bQuKBbmbvLdg8mWvymNmjW7M1bsZ3qHHzPxJzUbZzXafA"
)

type oneBadge struct{ key ed25519.PrivateKey }

func (b oneBadge) Resolve(_ context.Context, agent string) (join.Agent, error) {
	if agent != claimAgent {
		return join.Agent{}, games.Errorf("not_registered", "no such Badge")
	}
	return join.Agent{ID: agent, Owner: claimOwner, Name: "Owner's agent", Kind: "player", SigningKey: b.key.Public().(ed25519.PublicKey)}, nil
}

// claimSite is the DOTDOTDOT site on a real arena: the desk, the chat seat and the join door
// with one Badge (claimAgent, owned by claimOwner) and claims served.
func claimSite(t *testing.T) (*env, ed25519.PrivateKey) {
	t.Helper()
	a, db := realArena(t)
	key := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{3}, 32))
	e, err := New(Options{Desk: a, Chat: &chatseat.Options{Desk: a},
		Join: &join.Options{Seater: noSeater{}, Resolver: oneBadge{key}, Nonces: join.NewStoreNonces(db, nil), Claims: a}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return &env{t: t, srv: srv}, key
}

// A token a URL carried is revoked at once and its record handed to a new token, in the
// token_in_url refusal itself: the old token is refused on every door (token_revoked, 401; the
// chat seat says the same), the new one opens the same record. A second exposure of the old
// token hands nothing more out.
func TestTokenInURLIsRevokedAndReplaced(t *testing.T) {
	en, _ := claimSite(t)
	old := en.register("Mira")
	r := en.do("GET", "/v1/walkin/me?token="+old, "")
	refused(t, r, 400, "token_in_url")
	fresh, _ := r.body["token"].(string)
	if !strings.HasPrefix(fresh, "w_") || fresh == old || !strings.Contains(r.body["error"].(string), "revoked") {
		t.Fatalf("the refusal does not hand the record to a new token: %s", r.raw)
	}
	refused(t, en.do("GET", "/v1/walkin/me", "", "X-Walkin", old), 401, "token_revoked")
	refused(t, en.do("POST", "/v1/walkin/join", `{"table":"practice"}`, "X-Walkin", old), 401, "token_revoked")
	text, isErr := mcpCall(t, en.srv, "my_record", `{"token":"`+old+`"}`)
	if !isErr || !strings.Contains(text, "token_revoked") {
		t.Fatalf("the chat seat took the revoked token: %v %q", isErr, text)
	}
	me := en.do("GET", "/v1/walkin/me", "", "X-Walkin", fresh)
	if me.status != 200 || me.body["name"] != "Mira" {
		t.Fatalf("the new token's record: %d %s", me.status, me.raw)
	}
	r = en.do("GET", "/v1/walkin/name/"+old, "")
	refused(t, r, 400, "token_in_url")
	if _, again := r.body["token"]; again {
		t.Fatalf("a revoked token was replaced twice: %s", r.raw)
	}
	// The new token, exposed in a path in turn, hands the record on once more.
	r = en.do("GET", "/v1/rounds/T-1/transcript/"+fresh, "")
	refused(t, r, 400, "token_in_url")
	third, _ := r.body["token"].(string)
	if me := en.do("GET", "/v1/walkin/me", "", "X-Walkin", third); me.status != 200 || me.body["name"] != "Mira" {
		t.Fatalf("the third token's record: %d %s", me.status, me.raw)
	}
}

// POST /v1/walkin/claim (§4.4) merges a walk-in's record into the record of the account owning
// the Badge that signed it; the token is spent: 410 claimed on every route and on a second
// claim.
func TestClaimOverHTTP(t *testing.T) {
	en, key := claimSite(t)
	tok := en.register("Noor")
	claim := func(nonce string) reply {
		obj := map[string]any{"agent": claimAgent, "walkin": tok, "issued_at": time.Now().Add(-time.Second).UTC().Format(time.RFC3339), "nonce": nonce}
		unsigned, err := canon.Marshal(obj)
		if err != nil {
			t.Fatal(err)
		}
		d := canon.Digest(unsigned)
		obj["sig"] = canon.FormatSig(ed25519.Sign(key, d[:]))
		b, _ := json.Marshal(obj)
		return en.do("POST", "/v1/walkin/claim", string(b))
	}
	r := claim("claim-nonce-http-0001")
	rec, _ := r.body["record"].(map[string]any)
	if r.status != 200 || r.body["account"] != claimOwner || rec["account"] != claimOwner {
		t.Fatalf("claim: %d %s", r.status, r.raw)
	}
	if cl, _ := rec["claimed"].([]any); len(cl) != 1 {
		t.Fatalf("the account's record names no claimed walk-in: %s", r.raw)
	}
	refused(t, claim("claim-nonce-http-0002"), 410, "claimed")
	refused(t, en.do("GET", "/v1/walkin/me", "", "X-Walkin", tok), 410, "claimed")
	refused(t, en.do("POST", "/v1/walkin/join", `{"table":"practice"}`, "X-Walkin", tok), 410, "claimed")
	r = en.do("GET", "/v1/walkin/me?token="+tok, "")
	refused(t, r, 400, "token_in_url")
	if _, ok := r.body["token"]; ok {
		t.Fatalf("a claimed token was replaced: %s", r.raw)
	}
}
