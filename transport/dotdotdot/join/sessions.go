package join

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"slices"
	"sync"
	"time"

	"arena/storage"
	"arena/transport/door"
)

// The owner's challenges and sessions (lever.go has the routes). Each is kept in memory for the
// levers' lookups and, with a SessionStore, written to it before its secret is answered (storage
// keeps only the SHA-256 of the secret), so a restart signs nobody out and keeps every
// challenge outstanding. Both are bounded per caller, never by evicting someone else's:
//
//   - challenges per address (door.ClientAddr): at most MaxChallengesPerAddr outstanding;
//   - sessions per Badge: at most MaxSessionsPerAgent open;
//   - past either, or past the instance's total (maxChallenges, maxSessions), the request is
//     refused rate_limited (429) with Retry-After the time until the caller's (or, for the
//     total, anyone's) oldest entry expires. Nothing live is ever dropped to make room.

// Session limits.
const (
	ChallengeTTL = 2 * time.Minute
	SessionTTL   = 30 * time.Minute
	// MaxChallengesPerAddr bounds the challenges outstanding for one caller address.
	MaxChallengesPerAddr = 32
	// MaxSessionsPerAgent bounds the sessions open for one Badge.
	MaxSessionsPerAgent = 16
	maxChallenges       = 100_000 // outstanding on the instance
	maxSessions         = 100_000 // open on the instance
	// sessionSweepEvery spaces the sweeps of expired entries (memory and store).
	sessionSweepEvery = time.Minute
)

// SessionStore keeps the door's challenges and sessions across restarts (*storage.Store: its
// sessions bucket). Each write is durable when it returns.
type SessionStore interface {
	PutOwnerSession(kind, hash string, v storage.OwnerSession) error
	DeleteOwnerSession(kind, hash string) error
	OwnerSessions(now time.Time, fn func(kind, hash string, v storage.OwnerSession) error) error
	SweepOwnerSessions(now time.Time) (int, error)
}

// Sessions are the door's outstanding challenges and open sessions. Safe for concurrent use.
type Sessions struct {
	now   func() time.Time
	store SessionStore // nil: memory only

	mu         sync.Mutex
	challenges entries // guarded by mu
	tokens     entries // guarded by mu
	lastSweep  time.Time
}

// entries are one kind's live entries, by the hash of their secret, and each caller's hashes,
// oldest first (a challenge's caller is its address, a session's its Badge).
type entries struct {
	kind     string // storage.SessionChallenge | storage.SessionBearer
	per, max int    // one caller's bound, the instance's
	what     string // the bound's words in a refusal
	byHash   map[string]entry
	byCaller map[string][]string
}

type entry struct {
	agent, caller string
	expires       time.Time
}

// NewSessions loads st's live challenges and sessions (st nil: memory only, a restart signs
// everyone out). now is the clock (nil: time.Now).
func NewSessions(st SessionStore, now func() time.Time) (*Sessions, error) {
	if now == nil {
		now = time.Now
	}
	s := &Sessions{now: now, store: st,
		challenges: newEntries(storage.SessionChallenge, MaxChallengesPerAddr, maxChallenges, "outstanding sign-in challenges from one address"),
		tokens:     newEntries(storage.SessionBearer, MaxSessionsPerAgent, maxSessions, "open sessions for one Badge")}
	if st == nil {
		return s, nil
	}
	err := st.OwnerSessions(now(), func(kind, hash string, v storage.OwnerSession) error {
		e := &s.tokens
		caller := v.Agent
		if kind == storage.SessionChallenge {
			e, caller = &s.challenges, v.Addr
		}
		e.add(hash, entry{agent: v.Agent, caller: caller, expires: v.Expires})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("join: load sessions: %w", err)
	}
	for _, e := range []*entries{&s.challenges, &s.tokens} {
		for _, hs := range e.byCaller {
			slices.SortFunc(hs, func(a, b string) int { return e.byHash[a].expires.Compare(e.byHash[b].expires) })
		}
	}
	return s, nil
}

func newEntries(kind string, per, max int, what string) entries {
	return entries{kind: kind, per: per, max: max, what: what, byHash: map[string]entry{}, byCaller: map[string][]string{}}
}

func (e *entries) add(hash string, v entry) {
	e.byHash[hash] = v
	e.byCaller[v.caller] = append(e.byCaller[v.caller], hash)
}

func (e *entries) remove(hash string) {
	v, ok := e.byHash[hash]
	if !ok {
		return
	}
	delete(e.byHash, hash)
	hs := slices.DeleteFunc(e.byCaller[v.caller], func(h string) bool { return h == hash })
	if len(hs) == 0 {
		delete(e.byCaller, v.caller)
	} else {
		e.byCaller[v.caller] = hs
	}
}

// pruneCaller drops caller's expired entries and returns how many live ones it has and when its
// oldest expires.
func (e *entries) pruneCaller(caller string, now time.Time) (int, time.Time) {
	for _, h := range slices.Clone(e.byCaller[caller]) {
		if !now.Before(e.byHash[h].expires) {
			e.remove(h)
		}
	}
	hs := e.byCaller[caller]
	if len(hs) == 0 {
		return 0, time.Time{}
	}
	return len(hs), e.byHash[hs[0]].expires
}

// sweep drops every expired entry and returns when the soonest live one expires.
func (e *entries) sweep(now time.Time) time.Time {
	var soonest time.Time
	for h, v := range e.byHash {
		switch {
		case !now.Before(v.expires):
			e.remove(h)
		case soonest.IsZero() || v.expires.Before(soonest):
			soonest = v.expires
		}
	}
	return soonest
}

// secretHash is the key a challenge or session is kept under: SHA-256 of its secret, hex.
func secretHash(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

func randomToken(prefix string) string {
	var b [32]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24+)
	return prefix + base64.RawURLEncoding.EncodeToString(b[:])
}

// issue makes a fresh secret (prefix + 43 base64url characters) for agent, counted against
// caller's bound, durable (with a store) before it returns. Refusals: rate_limited past a
// bound (nothing issued), busy when the store fails (nothing kept).
func (s *Sessions) issue(e *entries, prefix, caller, agent string, ttl time.Duration) (string, time.Time, error) {
	now := s.now()
	exp := now.Add(ttl)
	s.mu.Lock()
	sweep := s.sweepLocked(now)
	if n, oldest := e.pruneCaller(caller, now); n >= e.per {
		s.mu.Unlock()
		return "", time.Time{}, door.RateLimited(oldest.Sub(now), fmt.Sprintf("at most %d %s; the oldest expires at %s",
			e.per, e.what, oldest.UTC().Format(time.RFC3339)))
	}
	if len(e.byHash) >= e.max {
		if soonest := e.sweep(now); len(e.byHash) >= e.max {
			s.mu.Unlock()
			return "", time.Time{}, door.RateLimited(soonest.Sub(now), "the arena holds as many sign-ins as it can; try again shortly")
		}
	}
	secret := randomToken(prefix)
	hash := secretHash(secret)
	e.add(hash, entry{agent: agent, caller: caller, expires: exp})
	s.mu.Unlock()
	if s.store == nil {
		return secret, exp, nil
	}
	if sweep {
		_, _ = s.store.SweepOwnerSessions(now) // expired rows only; a failure leaves them for the next sweep
	}
	v := storage.OwnerSession{Agent: agent, Expires: exp}
	if e.kind == storage.SessionChallenge {
		v.Addr = caller
	}
	if err := s.store.PutOwnerSession(e.kind, hash, v); err != nil {
		s.mu.Lock()
		e.remove(hash)
		s.mu.Unlock()
		return "", time.Time{}, &door.Refusal{Code: door.CodeBusy, Msg: "the sign-in could not be recorded; try again", Retry: true}
	}
	return secret, exp, nil
}

// sweepLocked drops expired entries of both kinds, at most once every sessionSweepEvery, and
// reports whether it did (the store's rows are then swept too).
func (s *Sessions) sweepLocked(now time.Time) bool {
	if now.Sub(s.lastSweep) < sessionSweepEvery {
		return false
	}
	s.lastSweep = now
	s.challenges.sweep(now)
	s.tokens.sweep(now)
	return true
}

// challenge issues a challenge for agent to the caller at addr (ChallengeTTL).
func (s *Sessions) challenge(addr, agent string) (string, time.Time, error) {
	return s.issue(&s.challenges, "c_", addr, agent, ChallengeTTL)
}

// open opens a session for agent (SessionTTL), counted against agent's bound.
func (s *Sessions) open(agent string) (string, time.Time, error) {
	return s.issue(&s.tokens, "s_", agent, agent, SessionTTL)
}

// take removes a challenge (also from the store) and reports whether it was live and issued
// for agent. A challenge is single use whatever the answer.
func (s *Sessions) take(challenge, agent string) (bool, error) {
	hash := secretHash(challenge)
	s.mu.Lock()
	v, ok := s.challenges.byHash[hash]
	s.challenges.remove(hash)
	s.mu.Unlock()
	if !ok {
		return false, nil
	}
	if s.store != nil {
		if err := s.store.DeleteOwnerSession(storage.SessionChallenge, hash); err != nil {
			return false, &door.Refusal{Code: door.CodeBusy, Msg: "the sign-in could not be recorded; try again", Retry: true}
		}
	}
	return v.agent == agent && s.now().Before(v.expires), nil
}

// agentOf is the Badge of a live session token.
func (s *Sessions) agentOf(token string) (string, bool) {
	hash := secretHash(token)
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.tokens.byHash[hash]
	if !ok {
		return "", false
	}
	if !s.now().Before(v.expires) {
		s.tokens.remove(hash) // the store's row goes with the next sweep
		return "", false
	}
	return v.agent, true
}
