package join

import (
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"arena/storage"
	"arena/transport/door"
)

// mountDurable (re)builds the server with its sessions on the env's store, as `arena serve`
// wires it: a second call is a restart.
func (v *env) mountDurable(t *testing.T) {
	t.Helper()
	s, err := NewSessions(v.db, func() time.Time { return v.now })
	if err != nil {
		t.Fatal(err)
	}
	v.sessions = s
	v.mount(t)
}

// doFrom is do from the caller address addr (host:port, the TCP peer).
func (v *env) doFrom(addr, path string, body []byte, hdr map[string]string) (int, map[string]any, string) {
	req := httptest.NewRequest("POST", path, strings.NewReader(string(body)))
	req.RemoteAddr = addr
	req.Header.Set("Content-Type", "application/json")
	for k, val := range hdr {
		req.Header.Set(k, val)
	}
	rec := httptest.NewRecorder()
	v.e.ServeHTTP(rec, req)
	var m map[string]any
	_ = json.Unmarshal(rec.Body.Bytes(), &m)
	return rec.Code, m, rec.Header().Get("Retry-After")
}

func (v *env) challengeFor(t *testing.T, addr, agent string) string {
	t.Helper()
	code, body, _ := v.doFrom(addr, "/v1/session/challenge", []byte(`{"agent":"`+agent+`"}`), nil)
	ch, _ := body["challenge"].(string)
	if code != 200 || !strings.HasPrefix(ch, "c_") {
		t.Fatalf("challenge for %s from %s: %d %v", agent, addr, code, body)
	}
	return ch
}

func (v *env) sessionWith(t *testing.T, key ed25519.PrivateKey, agent, ch string) (int, map[string]any, string) {
	t.Helper()
	return v.doFrom("192.0.2.1:1234", "/v1/session", signed(t, key, map[string]any{"agent": agent, "challenge": ch,
		"issued_at": v.now.Format(time.RFC3339)}), nil)
}

func (v *env) leverWith(tok string) int {
	code, _, _ := v.doFrom("192.0.2.1:1234", "/v1/rounds/T-5/call", []byte(`{"text":"still here"}`), map[string]string{"Authorization": "Bearer " + tok})
	return code
}

// A restart signs nobody out: the session opened before it still pulls its levers, and a
// challenge issued before it still opens a session. Only the hashes of both are stored.
func TestSessionsSurviveRestart(t *testing.T) {
	v := newEnv(t)
	v.mountDurable(t)
	code, body, _ := v.sessionWith(t, v.key, agentID, v.challengeFor(t, "192.0.2.1:1234", agentID))
	tok, _ := body["session"].(string)
	if code != 200 || tok == "" {
		t.Fatalf("session: %d %v", code, body)
	}
	pending := v.challengeFor(t, "192.0.2.1:1234", agentID)

	v.mountDurable(t) // the restart: a new door on the same store
	v.now = v.now.Add(time.Minute)
	if code := v.leverWith(tok); code != 200 {
		t.Fatalf("lever over the session opened before the restart: %d", code)
	}
	code, body, _ = v.sessionWith(t, v.key, agentID, pending)
	if code != 200 || body["session"] == nil {
		t.Fatalf("session from the challenge issued before the restart: %d %v", code, body)
	}
	var rows []string
	if err := v.db.OwnerSessions(v.now, func(kind, hash string, _ storage.OwnerSession) error {
		rows = append(rows, kind+"/"+hash)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || strings.Contains(strings.Join(rows, " "), tok) {
		t.Fatalf("stored rows %v: want the two sessions, by hash (the challenge was used)", rows)
	}
	// Expired, the session is gone, restart or not.
	v.now = v.now.Add(SessionTTL)
	v.mountDurable(t)
	if code := v.leverWith(tok); code != 401 {
		t.Fatalf("lever over an expired session after a restart: %d, want 401", code)
	}
}

// 20,000 anonymous challenges from one address, then 20,000 from as many addresses, leave an
// owner's pending challenge alone: the one address gets its bound and then rate_limited (retry,
// after its oldest challenge expires); the others each get theirs.
func TestChallengeFloodKeepsOwnersChallenge(t *testing.T) {
	now := t0
	s, err := NewSessions(nil, func() time.Time { return now })
	if err != nil {
		t.Fatal(err)
	}
	owner, _, err := s.challenge("198.51.100.7", agentID)
	if err != nil {
		t.Fatal(err)
	}
	issued := 0
	for i := range 20_000 {
		_, _, err := s.challenge("203.0.113.66", agentID)
		var r *door.Refusal
		switch {
		case err == nil:
			issued++
		case errors.As(err, &r) && r.Code == door.CodeRateLimited && r.Retry && r.RetryAfter == ChallengeTTL:
		default:
			t.Fatalf("challenge %d from one address: %v", i+1, err)
		}
	}
	if issued != MaxChallengesPerAddr {
		t.Fatalf("%d challenges issued to one address, want %d", issued, MaxChallengesPerAddr)
	}
	for i := range 20_000 {
		if _, _, err := s.challenge(fmt.Sprintf("10.%d.%d.%d", i>>16, i>>8&255, i&255), agentID); err != nil {
			t.Fatalf("challenge from address %d: %v", i, err)
		}
	}
	if ok, err := s.take(owner, agentID); !ok || err != nil {
		t.Fatalf("the owner's challenge after the flood: %v %v", ok, err)
	}
}

// Over the door: the challenge past an address's bound is 429 with Retry-After and issues
// nothing; another address still gets one, and the owner's opens a session.
func TestChallengeBoundOverTheDoor(t *testing.T) {
	v := newEnv(t)
	v.mountDurable(t)
	owner := v.challengeFor(t, "198.51.100.7:4000", agentID)
	for range MaxChallengesPerAddr {
		v.challengeFor(t, "203.0.113.66:5000", agentID)
	}
	code, body, after := v.doFrom("203.0.113.66:5001", "/v1/session/challenge", []byte(`{"agent":"`+agentID+`"}`), nil)
	if code != 429 || body["code"] != door.CodeRateLimited || body["retry"] != true || body["challenge"] != nil ||
		after != strconv.Itoa(int(ChallengeTTL/time.Second)) {
		t.Fatalf("the challenge past the bound: %d %v Retry-After %q", code, body, after)
	}
	v.challengeFor(t, "203.0.113.67:5000", agentID)
	if code, body, _ := v.sessionWith(t, v.key, agentID, owner); code != 200 || body["session"] == nil {
		t.Fatalf("the owner's challenge: %d %v", code, body)
	}
}

// Full, the instance refuses new challenges (rate_limited until the soonest expires) and never
// drops a live one to make room; expired ones make room again.
func TestChallengesFullRefuseNotEvict(t *testing.T) {
	v := newEnv(t)
	v.mountDurable(t)
	v.sessions.challenges.max = 3
	owner := v.challengeFor(t, "198.51.100.7:4000", agentID)
	v.now = v.now.Add(30 * time.Second)
	v.challengeFor(t, "198.51.100.8:4000", agentID)
	v.challengeFor(t, "198.51.100.9:4000", agentID)
	code, body, after := v.doFrom("198.51.100.10:4000", "/v1/session/challenge", []byte(`{"agent":"`+agentID+`"}`), nil)
	if code != 429 || body["code"] != door.CodeRateLimited || after != "90" {
		t.Fatalf("a challenge past the instance's bound: %d %v Retry-After %q, want 429 after 90 s (the owner's expires first)", code, body, after)
	}
	if code, body, _ := v.sessionWith(t, v.key, agentID, owner); code != 200 {
		t.Fatalf("the owner's challenge was dropped: %d %v", code, body)
	}
	v.challengeFor(t, "198.51.100.10:4000", agentID) // the owner's, used, made room
}

// One Badge opening 24,000 sessions gets its bound and then rate_limited; another Badge's session
// stays open throughout.
func TestSessionFloodKeepsOtherBadgesSession(t *testing.T) {
	now := t0
	s, err := NewSessions(nil, func() time.Time { return now })
	if err != nil {
		t.Fatal(err)
	}
	const other = "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:JyP9Tvb9uLCEWi25LAz2Q" // registry token 2
	theirs, _, err := s.open(other)
	if err != nil {
		t.Fatal(err)
	}
	opened := 0
	for i := range 24_000 {
		_, _, err := s.open(agentID)
		var r *door.Refusal
		switch {
		case err == nil:
			opened++
		case errors.As(err, &r) && r.Code == door.CodeRateLimited && r.Retry && r.RetryAfter == SessionTTL:
		default:
			t.Fatalf("session %d: %v", i+1, err)
		}
	}
	if opened != MaxSessionsPerAgent {
		t.Fatalf("%d sessions opened for one Badge, want %d", opened, MaxSessionsPerAgent)
	}
	if a, ok := s.agentOf(theirs); !ok || a != other {
		t.Fatalf("the other Badge's session after the flood: %q %v", a, ok)
	}
	// Once the first ones expire, the Badge may open sessions again.
	now = now.Add(SessionTTL)
	if _, _, err := s.open(agentID); err != nil {
		t.Fatalf("a session after the old ones expired: %v", err)
	}
}

// Over the door: the session past a Badge's bound is 429 with Retry-After, and it does not
// touch another Badge's session.
func TestSessionBoundOverTheDoor(t *testing.T) {
	v := newEnv(t)
	bobKey := ed25519.NewKeyFromSeed([]byte("bob's key, thirty-two bytes long"))
	const bob = "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:JyP9Tvb9uLCEWi25LAz2Q" // registry token 2
	v.res.agents[bob] = Agent{ID: bob, Name: "Bob", Kind: "player", SigningKey: bobKey.Public().(ed25519.PublicKey)}
	v.mountDurable(t)
	_, body, _ := v.sessionWith(t, bobKey, bob, v.challengeFor(t, "192.0.2.9:1", bob))
	bobs, _ := body["session"].(string)
	for i := range MaxSessionsPerAgent {
		if code, body, _ := v.sessionWith(t, v.key, agentID, v.challengeFor(t, "192.0.2.1:1", agentID)); code != 200 {
			t.Fatalf("session %d: %d %v", i+1, code, body)
		}
	}
	code, body, after := v.sessionWith(t, v.key, agentID, v.challengeFor(t, "192.0.2.1:1", agentID))
	if code != 429 || body["code"] != door.CodeRateLimited || after != strconv.Itoa(int(SessionTTL/time.Second)) || body["session"] != nil {
		t.Fatalf("the session past the bound: %d %v Retry-After %q", code, body, after)
	}
	if code := v.leverWith(bobs); code != 200 {
		t.Fatalf("the other Badge's lever: %d", code)
	}
}
