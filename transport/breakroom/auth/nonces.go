// Package auth is Break Room's challenge desk (breakroom-protocol-v0.md "Identity", "HTTP
// fallback": GET /v0/challenge → {nonce}, single use, 5 min; the WebSocket's challenge on open):
// it issues nonces, holds them five minutes on an injected clock, spends each once, and checks a
// join's key, nonce and signature together (VerifyJoin) on chain/nostr. Its refusals are
// *door.Refusal with the protocol's codes: auth_failed, bad_request, rate_limited.
package auth

import (
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"slices"
	"sync"
	"time"

	"arena/chain/nostr"
	"arena/transport/door"
)

// CodeAuthFailed is the protocol's auth_failed: a nonce that is unknown, expired or already
// used, or a signature that does not verify (401 on the HTTP site).
const CodeAuthFailed = "auth_failed"

// Defaults of Options.
const (
	// TTL is how long a nonce lives: it is refused from TTL after its issue on ("single use,
	// 5 min").
	TTL = 5 * time.Minute
	// DefaultPerCaller bounds the nonces one caller address holds unspent at once.
	DefaultPerCaller = 64
	// DefaultMax bounds the nonces held at once, unspent or remembered as spent or expired.
	DefaultMax = 100_000
)

// NonceLen is a nonce's length: 32 random bytes (crypto/rand) in unpadded base64url (RFC 4648
// §5), 43 characters of [A-Za-z0-9_-], safe in a URL and in JSON as is.
const NonceLen = 43

// Options configure Nonces. The zero value of each field selects its default.
type Options struct {
	// Now is the clock (time.Now when nil); it must not go backwards.
	Now func() time.Time
	// PerCaller bounds the live unspent nonces of one caller (DefaultPerCaller when ≤ 0).
	PerCaller int
	// Max bounds the nonces held at once (DefaultMax when ≤ 0).
	Max int
}

// state is where a nonce is in its life.
type state uint8

const (
	issued  state = iota // live, unspent: counts against its caller
	spent                // used by a verified join
	expired              // not used within TTL
)

// entry is one nonce held.
type entry struct {
	caller string
	at     time.Time // issued
	state  state
}

// Nonces issues and spends challenges. Safe for concurrent use.
//
// Bounds: a caller holds at most PerCaller live unspent nonces; past that Issue is rate_limited
// until one is used, discarded or expires, and never takes another caller's nonce away. Spent
// and expired nonces are remembered until twice TTL after their issue so that a replay is told
// "already used" and a late join "expired" rather than "unknown"; at most Max nonces are held in
// all, and when that is reached those memories are forgotten first (they only change the
// message); with Max live unspent nonces held, Issue is rate_limited for everyone.
type Nonces struct {
	now       func() time.Time
	perCaller int
	max       int
	mu        struct {
		sync.Mutex
		entries map[string]*entry   // nonce → its entry
		callers map[string][]string // caller → its live unspent nonces, oldest first
		queue   []string            // every nonce held or dropped since, in issue order
		head    int                 // queue[:head] are forgotten
		live    int                 // queue[head:live] are past TTL (expired or spent)
		past    int                 // entries spent or expired (remembered for their message)
	}
}

// New returns an empty Nonces.
func New(o Options) *Nonces {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.PerCaller <= 0 {
		o.PerCaller = DefaultPerCaller
	}
	if o.Max <= 0 {
		o.Max = DefaultMax
	}
	n := &Nonces{now: o.Now, perCaller: o.PerCaller, max: o.Max}
	n.mu.entries = map[string]*entry{}
	n.mu.callers = map[string][]string{}
	return n
}

// Issue makes a fresh nonce for caller (the client's address, door.ClientAddr) and holds it for
// TTL. Past the caller's bound, or the store's, it returns a rate_limited *door.Refusal whose
// RetryAfter is when the caller's (or the store's) oldest live nonce expires.
func (n *Nonces) Issue(caller string) (string, error) {
	now := n.now()
	n.mu.Lock()
	defer n.mu.Unlock()
	n.sweepLocked(now)
	if mine := n.mu.callers[caller]; len(mine) >= n.perCaller {
		wait := n.mu.entries[mine[0]].at.Add(TTL).Sub(now)
		return "", door.RateLimited(wait, fmt.Sprintf("at most %d unused challenges at once from one caller; sign one, or wait for one to expire (%s each)", n.perCaller, TTL))
	}
	if len(n.mu.entries) >= n.max && n.mu.past > 0 {
		n.forgetPastLocked()
	}
	if len(n.mu.entries) >= n.max {
		wait := TTL
		for _, nonce := range n.mu.queue[n.mu.live:] {
			if e := n.mu.entries[nonce]; e != nil && e.state == issued {
				wait = e.at.Add(TTL).Sub(now) // the oldest live nonce
				break
			}
		}
		return "", door.RateLimited(wait, "too many unused challenges at once; try again shortly")
	}
	var nonce string
	for {
		var b [32]byte
		rand.Read(b[:]) // never fails (crypto/rand)
		nonce = base64.RawURLEncoding.EncodeToString(b[:])
		if _, dup := n.mu.entries[nonce]; !dup {
			break
		}
	}
	n.mu.entries[nonce] = &entry{caller: caller, at: now}
	n.mu.callers[caller] = append(n.mu.callers[caller], nonce)
	n.mu.queue = append(n.mu.queue, nonce)
	return nonce, nil
}

// Consume spends nonce: nil when it was issued, is unspent and less than TTL old; else an
// auth_failed *door.Refusal saying which (unknown, expired, already used). Spending is final.
func (n *Nonces) Consume(nonce string) error {
	now := n.now()
	n.mu.Lock()
	defer n.mu.Unlock()
	if err := n.liveLocked(nonce, now); err != nil {
		return err
	}
	e := n.mu.entries[nonce]
	e.state = spent
	n.mu.past++
	n.dropCallerLocked(e.caller, nonce)
	return nil
}

// Discard forgets an unspent nonce whose connection closed without a join, freeing its caller's
// slot; it is then unknown. Anything else is left as it is.
func (n *Nonces) Discard(nonce string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if e := n.mu.entries[nonce]; e != nil && e.state == issued {
		n.dropCallerLocked(e.caller, nonce)
		delete(n.mu.entries, nonce)
	}
}

// VerifyJoin checks a join's author_pubkey, nonce and sig as Check does and, when they hold,
// spends the nonce, returning the key. A refused join spends nothing: the nonce stays good for a
// corrected join until it expires. Of two joins racing with one nonce, one wins and the other is
// auth_failed (already used). A door checks the rest of the join (its game, its members) first,
// so that a join refused for those keeps its nonce too.
func (n *Nonces) VerifyJoin(pubkeyHex, nonce, sigHex string) (nostr.Key, error) {
	key, err := n.Check(pubkeyHex, nonce, sigHex)
	if err != nil {
		return nostr.Key{}, err
	}
	if err := n.Consume(nonce); err != nil {
		return nostr.Key{}, err
	}
	return key, nil
}

// Check is VerifyJoin without the spending, for a door that spends the nonce later, when the
// seat is claimed (a paid join: "the nonce is spent only when the seat is claimed"), with
// Consume. Refusals, each a *door.Refusal, in this order: a malformed key or signature is
// bad_request (chain/nostr's rules; the detail names the field and the rule); a nonce not live
// (unknown, expired, used) or a signature that does not verify over sha256(utf8(nonce)) is
// auth_failed.
func (n *Nonces) Check(pubkeyHex, nonce, sigHex string) (nostr.Key, error) {
	key, err := nostr.ParsePubKey(pubkeyHex)
	if err != nil {
		return nostr.Key{}, door.Refuse(door.CodeBadRequest, "author_pubkey: "+err.Error())
	}
	sig, err := nostr.ParseSig(sigHex)
	if err != nil {
		return nostr.Key{}, door.Refuse(door.CodeBadRequest, "sig: "+err.Error())
	}
	n.mu.Lock()
	err = n.liveLocked(nonce, n.now())
	n.mu.Unlock()
	if err != nil {
		return nostr.Key{}, err
	}
	if !nostr.Verify(key, sig, nostr.Challenge(nonce)) {
		return nostr.Key{}, door.Refuse(CodeAuthFailed, "sig is not author_pubkey's BIP-340 signature of sha256(nonce)")
	}
	return key, nil
}

// liveLocked is nil when nonce is issued, unspent and younger than TTL at now, else its
// auth_failed refusal.
func (n *Nonces) liveLocked(nonce string, now time.Time) error {
	e := n.mu.entries[nonce]
	switch {
	case e == nil:
		return door.Refuse(CodeAuthFailed, "unknown nonce: get one from the challenge (GET /v0/challenge, or the socket's first message)")
	case e.state == spent:
		return door.Refuse(CodeAuthFailed, "nonce already used: each nonce signs one join; get a fresh one")
	case e.state == expired || !now.Before(e.at.Add(TTL)):
		return door.Refuse(CodeAuthFailed, fmt.Sprintf("nonce expired: a nonce lives %s; get a fresh one", TTL))
	}
	return nil
}

// dropCallerLocked removes nonce from caller's live unspent list.
func (n *Nonces) dropCallerLocked(caller, nonce string) {
	mine := n.mu.callers[caller]
	if i := slices.Index(mine, nonce); i >= 0 {
		mine = slices.Delete(mine, i, i+1)
	}
	if len(mine) == 0 {
		delete(n.mu.callers, caller)
	} else {
		n.mu.callers[caller] = mine
	}
}

// sweepLocked expires the unspent nonces TTL old at now (freeing their callers' slots) and
// forgets every nonce twice TTL old. The queue is in issue order, so both stop at the first
// nonce too young.
func (n *Nonces) sweepLocked(now time.Time) {
	q := n.mu.queue
	for ; n.mu.live < len(q); n.mu.live++ {
		e := n.mu.entries[q[n.mu.live]]
		if e == nil {
			continue // discarded or forgotten
		}
		if now.Before(e.at.Add(TTL)) {
			break
		}
		if e.state == issued {
			e.state = expired
			n.mu.past++
			n.dropCallerLocked(e.caller, q[n.mu.live])
		}
	}
	for ; n.mu.head < n.mu.live; n.mu.head++ {
		e := n.mu.entries[q[n.mu.head]]
		if e != nil {
			if now.Before(e.at.Add(2 * TTL)) {
				break
			}
			delete(n.mu.entries, q[n.mu.head])
			n.mu.past-- // past TTL, so spent or expired
		}
	}
	if n.mu.head > 1024 && n.mu.head > len(q)/2 || len(q)-n.mu.head > 2*len(n.mu.entries)+1024 {
		n.compactLocked()
	}
}

// compactLocked rebuilds the queue without the nonces forgotten or discarded (which would
// otherwise stay in it until twice TTL), so it holds at most about twice the entries; it runs
// when at least half the queue is such, so its cost is paid once per nonce.
func (n *Nonces) compactLocked() {
	q := make([]string, 0, len(n.mu.entries))
	live := 0
	for i, nonce := range n.mu.queue[n.mu.head:] {
		if n.mu.entries[nonce] == nil {
			continue
		}
		q = append(q, nonce)
		if n.mu.head+i < n.mu.live {
			live++
		}
	}
	n.mu.queue, n.mu.head, n.mu.live = q, 0, live
}

// forgetPastLocked forgets every spent and expired nonce (a replay of one is then "unknown"
// rather than "already used": auth_failed either way).
func (n *Nonces) forgetPastLocked() {
	for k, e := range n.mu.entries {
		if e.state != issued {
			delete(n.mu.entries, k)
		}
	}
	n.mu.past = 0
	n.compactLocked()
}
