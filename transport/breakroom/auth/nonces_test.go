package auth

import (
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/btcsuite/btcd/btcec/v2"
	"github.com/btcsuite/btcd/btcec/v2/schnorr"

	"arena/chain/nostr"
	"arena/transport/breakroom"
	"arena/transport/door"
)

// clock is a fake clock the tests move by hand.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// refusal fails unless err is a *door.Refusal with code whose message holds msg, and checks
// the Break Room site's status for it.
func refusal(t *testing.T, err error, code, msg string) *door.Refusal {
	t.Helper()
	var r *door.Refusal
	if !errors.As(err, &r) || r.Code != code || !strings.Contains(r.Msg, msg) {
		t.Fatalf("got %v, want %s containing %q", err, code, msg)
	}
	want := map[string]int{CodeAuthFailed: 401, door.CodeBadRequest: 400, door.CodeRateLimited: 429}[code]
	if st := breakroom.Statuses.Status(code); st != want {
		t.Fatalf("the site answers %s with %d, want %d", code, st, want)
	}
	return r
}

func mustIssue(t *testing.T, n *Nonces, caller string) string {
	t.Helper()
	nonce, err := n.Issue(caller)
	if err != nil {
		t.Fatalf("Issue(%s): %v", caller, err)
	}
	return nonce
}

// TestNonceShape: 43 characters of unpadded base64url, 32 bytes, never twice.
func TestNonceShape(t *testing.T) {
	n := New(Options{PerCaller: 2000})
	shape := regexp.MustCompile(`^[A-Za-z0-9_-]{43}$`)
	seen := map[string]bool{}
	for i := 0; i < 1000; i++ {
		nonce := mustIssue(t, n, "a")
		if len(nonce) != NonceLen || !shape.MatchString(nonce) {
			t.Fatalf("nonce %q", nonce)
		}
		if b, err := base64.RawURLEncoding.DecodeString(nonce); err != nil || len(b) != 32 {
			t.Fatalf("nonce %q decodes to %d bytes, %v", nonce, len(b), err)
		}
		if seen[nonce] {
			t.Fatalf("nonce %q twice", nonce)
		}
		seen[nonce] = true
	}
}

// TestNonceLifetime: a nonce is good until just before TTL, once; then it is refused as expired,
// used or unknown, each with auth_failed and its own message.
func TestNonceLifetime(t *testing.T) {
	c := newClock()
	n := New(Options{Now: c.Now})
	a, b, d := mustIssue(t, n, "x"), mustIssue(t, n, "x"), mustIssue(t, n, "x")
	c.Advance(TTL - time.Nanosecond)
	if err := n.Consume(a); err != nil {
		t.Fatalf("a nonce just under %s old: %v", TTL, err)
	}
	refusal(t, n.Consume(a), CodeAuthFailed, "already used")
	c.Advance(time.Nanosecond)
	refusal(t, n.Consume(b), CodeAuthFailed, "expired")
	mustIssue(t, n, "y") // sweeps: d is marked expired
	refusal(t, n.Consume(d), CodeAuthFailed, "expired")
	refusal(t, n.Consume("no-such-nonce"), CodeAuthFailed, "unknown")
	refusal(t, n.Consume(""), CodeAuthFailed, "unknown")
	refusal(t, n.Consume(a), CodeAuthFailed, "already used")
	// Twice TTL after their issue they are forgotten.
	c.Advance(TTL)
	mustIssue(t, n, "y")
	refusal(t, n.Consume(a), CodeAuthFailed, "unknown")
	refusal(t, n.Consume(b), CodeAuthFailed, "unknown")
	if len(n.mu.entries) != 2 { // the two y nonces; the second y one is live
		t.Fatalf("%d entries held", len(n.mu.entries))
	}
}

// TestPerCallerBound: a caller holds at most PerCaller live nonces; past that it is
// rate_limited until one is spent, discarded or expires, other callers are unaffected, and no
// nonce is ever taken away.
func TestPerCallerBound(t *testing.T) {
	c := newClock()
	n := New(Options{Now: c.Now, PerCaller: 3})
	var mine []string
	for i := 0; i < 3; i++ {
		mine = append(mine, mustIssue(t, n, "10.0.0.1"))
		c.Advance(time.Minute)
	}
	_, err := n.Issue("10.0.0.1")
	r := refusal(t, err, door.CodeRateLimited, "at most 3")
	if r.RetryAfter != 2*time.Minute || !r.Retry { // the oldest expires 5 min after its issue
		t.Fatalf("RetryAfter %s, retry %v", r.RetryAfter, r.Retry)
	}
	other := mustIssue(t, n, "10.0.0.2")
	if err := n.Consume(mine[1]); err != nil {
		t.Fatal(err)
	}
	fourth := mustIssue(t, n, "10.0.0.1")
	if _, err := n.Issue("10.0.0.1"); err == nil {
		t.Fatal("a fourth live nonce")
	}
	n.Discard(mine[2])
	refusal(t, n.Consume(mine[2]), CodeAuthFailed, "unknown")
	fifth := mustIssue(t, n, "10.0.0.1")
	c.Advance(2 * time.Minute) // mine[0] expires
	sixth := mustIssue(t, n, "10.0.0.1")
	for _, nonce := range []string{other, fourth, fifth, sixth} {
		if err := n.Consume(nonce); err != nil {
			t.Fatalf("a live nonce was lost: %v", err)
		}
	}
	refusal(t, n.Consume(mine[0]), CodeAuthFailed, "expired")
}

// TestGlobalBound: with Max nonces live the store refuses new ones (rate_limited) and keeps every
// live one; spent and expired nonces are forgotten first to make room.
func TestGlobalBound(t *testing.T) {
	c := newClock()
	n := New(Options{Now: c.Now, Max: 10})
	var live []string
	for i := 0; i < 10; i++ {
		live = append(live, mustIssue(t, n, fmt.Sprint("caller", i)))
	}
	c.Advance(time.Minute)
	_, err := n.Issue("newcomer")
	if r := refusal(t, err, door.CodeRateLimited, "too many"); r.RetryAfter != 4*time.Minute {
		t.Fatalf("RetryAfter %s", r.RetryAfter)
	}
	for _, nonce := range live[:5] {
		if err := n.Consume(nonce); err != nil {
			t.Fatalf("a live nonce was lost: %v", err)
		}
	}
	for i := 0; i < 5; i++ {
		live = append(live, mustIssue(t, n, "newcomer"))
	}
	refusal(t, n.Consume(live[0]), CodeAuthFailed, "unknown") // forgotten to make room
	for _, nonce := range live[5:] {
		if err := n.Consume(nonce); err != nil {
			t.Fatalf("a live nonce was lost: %v", err)
		}
	}
	if len(n.mu.entries) > 10 || len(n.mu.queue)-n.mu.head > 2*10+1024 {
		t.Fatalf("%d entries, queue %d", len(n.mu.entries), len(n.mu.queue)-n.mu.head)
	}
}

// TestDiscardKeepsQueueBounded: issuing and discarding forever (sockets closed before a join)
// keeps the store small.
func TestDiscardKeepsQueueBounded(t *testing.T) {
	c := newClock()
	n := New(Options{Now: c.Now, Max: 100})
	for i := 0; i < 20000; i++ {
		n.Discard(mustIssue(t, n, "churn"))
	}
	if len(n.mu.entries) != 0 || len(n.mu.callers) != 0 || len(n.mu.queue) > 2*1024 {
		t.Fatalf("%d entries, %d callers, queue %d", len(n.mu.entries), len(n.mu.callers), len(n.mu.queue))
	}
	// Discarding a spent nonce changes nothing.
	s := mustIssue(t, n, "x")
	if err := n.Consume(s); err != nil {
		t.Fatal(err)
	}
	n.Discard(s)
	refusal(t, n.Consume(s), CodeAuthFailed, "already used")
}

// signer is an agent's key, signing as a Nostr client does.
type signer struct{ sk *btcec.PrivateKey }

func newSigner(t *testing.T) signer {
	sk, err := btcec.NewPrivateKey()
	if err != nil {
		t.Fatal(err)
	}
	return signer{sk}
}

func (s signer) pub() string { return hex.EncodeToString(schnorr.SerializePubKey(s.sk.PubKey())) }

func (s signer) sign(t *testing.T, nonce string) string {
	msg := nostr.Challenge(nonce)
	sig, err := schnorr.Sign(s.sk, msg[:])
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(sig.Serialize())
}

// TestVerifyJoin: a signed join passes once; each malformed field is bad_request and a bad
// signature or nonce auth_failed, and none of those spends the nonce.
func TestVerifyJoin(t *testing.T) {
	c := newClock()
	n := New(Options{Now: c.Now})
	agent, other := newSigner(t), newSigner(t)
	nonce := mustIssue(t, n, "a")
	sig := agent.sign(t, nonce)

	refusal(t, errOf(n.VerifyJoin(strings.ToUpper(agent.pub()), nonce, sig)), door.CodeBadRequest, "author_pubkey")
	refusal(t, errOf(n.VerifyJoin(agent.pub()[:63], nonce, sig)), door.CodeBadRequest, "author_pubkey")
	refusal(t, errOf(n.VerifyJoin("eefdea4cdb677750a420fee807eacf21eb9898ae79b9768766e4faa04a2d4a34", nonce, sig)), door.CodeBadRequest, "not on the curve")
	refusal(t, errOf(n.VerifyJoin(agent.pub(), nonce, strings.ToUpper(sig))), door.CodeBadRequest, "sig")
	refusal(t, errOf(n.VerifyJoin(agent.pub(), nonce, sig+"00")), door.CodeBadRequest, "sig")
	refusal(t, errOf(n.VerifyJoin(other.pub(), nonce, sig)), CodeAuthFailed, "signature")
	refusal(t, errOf(n.VerifyJoin(agent.pub(), nonce, other.sign(t, nonce))), CodeAuthFailed, "signature")
	refusal(t, errOf(n.VerifyJoin(agent.pub(), nonce, agent.sign(t, nonce+"x"))), CodeAuthFailed, "signature")
	refusal(t, errOf(n.VerifyJoin(agent.pub(), "unknown", agent.sign(t, "unknown"))), CodeAuthFailed, "unknown")

	key, err := n.VerifyJoin(agent.pub(), nonce, sig)
	if err != nil {
		t.Fatalf("the refused joins spent the nonce: %v", err)
	}
	if key.String() != agent.pub() {
		t.Fatalf("key %s, want %s", key, agent.pub())
	}
	refusal(t, errOf(n.VerifyJoin(agent.pub(), nonce, sig)), CodeAuthFailed, "already used")

	late := mustIssue(t, n, "a")
	c.Advance(TTL)
	refusal(t, errOf(n.VerifyJoin(agent.pub(), late, agent.sign(t, late))), CodeAuthFailed, "expired")
}

func errOf(_ nostr.Key, err error) error { return err }

// TestCheckThenConsume: Check verifies without spending (a paid join checks again after its
// 402), and Consume spends when the seat is claimed.
func TestCheckThenConsume(t *testing.T) {
	n := New(Options{})
	agent := newSigner(t)
	nonce := mustIssue(t, n, "a")
	sig := agent.sign(t, nonce)
	for i := 0; i < 3; i++ {
		if key, err := n.Check(agent.pub(), nonce, sig); err != nil || key.String() != agent.pub() {
			t.Fatalf("Check %d: %s, %v", i, key, err)
		}
	}
	if err := n.Consume(nonce); err != nil {
		t.Fatal(err)
	}
	refusal(t, errOf(n.Check(agent.pub(), nonce, sig)), CodeAuthFailed, "already used")
}

// TestVerifyJoinRace: of joins racing with one nonce, exactly one passes.
func TestVerifyJoinRace(t *testing.T) {
	n := New(Options{})
	agent := newSigner(t)
	for round := 0; round < 20; round++ {
		nonce := mustIssue(t, n, "a")
		sig := agent.sign(t, nonce)
		var wg sync.WaitGroup
		var mu sync.Mutex
		won := 0
		for i := 0; i < 8; i++ {
			wg.Go(func() {
				_, err := n.VerifyJoin(agent.pub(), nonce, sig)
				mu.Lock()
				defer mu.Unlock()
				if err == nil {
					won++
				} else if r, ok := err.(*door.Refusal); !ok || r.Code != CodeAuthFailed || !strings.Contains(r.Msg, "already used") {
					t.Errorf("a losing join: %v", err)
				}
			})
		}
		wg.Wait()
		if won != 1 {
			t.Fatalf("%d joins passed with one nonce", won)
		}
	}
}
