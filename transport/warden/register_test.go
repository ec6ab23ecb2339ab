package warden

import (
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"arena/chain/evm/evmtest"
	"arena/storage"
)

// A rig without a chain: registration, open and join need none.
func newPlainRig(t *testing.T) *rig {
	s, err := storage.Open(filepath.Join(t.TempDir(), "arena.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{t: t, store: s}
	r.doors = &Doors{Store: s, Games: []string{"warden.dilemma"}, Now: time.Now}
	e := echo.New()
	e.HTTPErrorHandler = Answer.ErrorHandler(slog.New(slog.NewTextHandler(io.Discard, nil)))
	r.doors.mount(e)
	r.srv = httptest.NewServer(e)
	t.Cleanup(r.close)
	return r
}

// Registration refuses a wrong signer, a used challenge and an unknown temperament with §7.3's
// codes, and writes nothing for them; the challenge is single use.
func TestRegistrationRefusals(t *testing.T) {
	r := newPlainRig(t)
	key, wallet := evmtest.Key(0x21)
	otherKey, _ := evmtest.Key(0x22)
	body := func(ch, temperament string, signer byte) map[string]any {
		k := key
		if signer != 0x21 {
			k = otherKey
		}
		sig := evmtest.Sign(k, PersonalDigest(RegistrationText(wallet.String(), temperament, ch)))
		return map[string]any{"wallet": wallet.String(), "temperament": temperament, "challenge": ch,
			"signature": fmt.Sprintf("0x%x", sig)}
	}
	ch := r.do("GET", "/v1/warden/challenge", "", nil, nil).body["challenge"].(string)
	for _, c := range []struct {
		name, code string
		status     int
		body       map[string]any
	}{
		{"wrong signer", "bad_signature", 401, body(ch, "steadfast", 0x22)},
		{"unknown temperament", "unknown_temperament", 400, body(ch, "berserk", 0x21)},
		{"unknown challenge", "challenge_expired", 401, body("00", "steadfast", 0x21)},
	} {
		got := r.do("POST", "/v1/warden/contenders", "", c.body, nil)
		if got.status != c.status || got.body["error"] != c.code {
			t.Errorf("%s: %d %v, want %d %s", c.name, got.status, got.body, c.status, c.code)
		}
	}
	ok := r.do("POST", "/v1/warden/contenders", "", body(ch, "steadfast", 0x21), nil)
	if ok.status != 201 || ok.body["contender_id"] != wallet.String() {
		t.Fatalf("register: %d %v", ok.status, ok.body)
	}
	again := r.do("POST", "/v1/warden/contenders", "", body(ch, "steadfast", 0x21), nil)
	if again.status != 401 || again.body["error"] != "challenge_expired" {
		t.Fatalf("challenge reused: %d %v", again.status, again.body)
	}
	tok := ok.body["token"].(string)
	if got := r.do("POST", "/v1/warden/matches", "", map[string]any{"game": "warden.dilemma", "stake": 1}, nil); got.status != 401 {
		t.Fatalf("open without token: %d %v", got.status, got.body)
	}
	if got := r.do("POST", "/v1/warden/matches", tok, map[string]any{"game": "chess", "stake": 1}, nil); got.body["error"] != "unknown_game" || got.status != 404 {
		t.Fatalf("unknown game: %d %v", got.status, got.body)
	}
	if got := r.do("POST", "/v1/warden/matches", tok, map[string]any{"game": "warden.dilemma", "stake": 0}, nil); got.body["error"] != "bad_stake" {
		t.Fatalf("zero stake: %d %v", got.status, got.body)
	}
	// Idempotency-Key: the same request twice is one match; the key with another body is refused.
	idem := map[string]string{"Idempotency-Key": "k1"}
	o1 := r.do("POST", "/v1/warden/matches", tok, map[string]any{"game": "warden.dilemma", "stake": 5}, idem)
	o2 := r.do("POST", "/v1/warden/matches", tok, map[string]any{"game": "warden.dilemma", "stake": 5}, idem)
	if o1.status != 201 || o2.status != 201 || o1.body["match_id"] != o2.body["match_id"] {
		t.Fatalf("idempotent open: %v / %v", o1.body, o2.body)
	}
	if o3 := r.do("POST", "/v1/warden/matches", tok, map[string]any{"game": "warden.dilemma", "stake": 6}, idem); o3.status != 400 {
		t.Fatalf("key reused with another body: %d %v", o3.status, o3.body)
	}
	// The answer is stored in the write's own transaction: exactly one match and one answer.
	matches, answers := 0, 0
	if err := r.store.WardenKeys("match/", func(string, []byte) error { matches++; return nil }); err != nil {
		t.Fatal(err)
	}
	if err := r.store.WardenKeys("idem/", func(string, []byte) error { answers++; return nil }); err != nil {
		t.Fatal(err)
	}
	if matches != 1 || answers != 1 {
		t.Fatalf("%d matches and %d stored answers after an idempotent repeat, want 1 and 1", matches, answers)
	}
	if got := r.do("POST", "/v1/warden/matches/"+o1.body["match_id"].(string)+"/join", tok, nil, nil); got.body["error"] != "self_match" {
		t.Fatalf("self join: %d %v", got.status, got.body)
	}
	if got := r.do("POST", "/v1/warden/matches/wm_0000000000000000/join", tok, nil, nil); got.body["error"] != "unknown_match" || got.status != 404 {
		t.Fatalf("unknown match: %d %v", got.status, got.body)
	}
}
