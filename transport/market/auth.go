package market

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"arena/storage"
	"arena/transport/door"
)

// Keys is where the market's API keys are kept, hashed: *storage.Store (its market_keys bucket).
type Keys interface {
	PutMarketKey(k storage.MarketKey) error
	MarketKeyByHash(hash string) (storage.MarketKey, error)
	MarketKeys() ([]storage.MarketKey, error)
	RevokeMarketKey(id string, at time.Time) (storage.MarketKey, error)
}

// Gateway is a trusted gateway in front of the market (the platform that authenticates callers
// and hands over ownerId): Header names the header carrying the Owner ID, honoured only on a
// request whose peer address is one of From. A zero Gateway trusts no header.
type Gateway struct {
	Header string
	From   []netip.Prefix
}

// Authenticator turns a request's credential into its Caller, for every door alike. It keeps
// a limit on failed keys per client address (GuessRate); its methods are safe for concurrent use.
type Authenticator struct {
	keys    Keys
	gw      Gateway
	guesses *door.Limiter
}

// GuessRate is the limit on bearer keys that are not keys (unknown, revoked, malformed), per
// client address (door.ClientAddr: the connection's IP, an IPv6 address by its /64): 10 at
// once, then one every 6 s. Past it, every request from that address presenting a key is
// refused rate_limited (429, Retry-After) before the key is looked up, a right one included, so
// a guesser learns nothing until it waits; a key that works costs nothing, and a request with no
// key or a gateway header honoured from the gateway is never counted or held.
var GuessRate = door.Rate{Burst: 10, Every: 6 * time.Second}

// NewAuthenticator authenticates with keys and, when gw names a header and addresses, gw.
func NewAuthenticator(keys Keys, gw Gateway) (*Authenticator, error) {
	if keys == nil {
		return nil, errors.New("market: authenticator: a key store is required")
	}
	if (gw.Header == "") != (len(gw.From) == 0) {
		return nil, errors.New("market: authenticator: a gateway needs both its header and its addresses")
	}
	return &Authenticator{keys: keys, gw: gw, guesses: door.NewLimiter(GuessRate, door.LimiterOptions{})}, nil
}

// Caller authenticates r: from the gateway's address, the gateway header's Owner ID when it
// carries one (exactly one header line, at most MaxOwnerID bytes of UTF-8 without control
// characters; two lines, or a value that is not an Owner ID, is no credential at all, a key
// beside it not read); otherwise `Authorization: Bearer <key>` on exactly one Authorization
// header, a key issued and not revoked, whose Owner it is. Anything else (no credential, an unknown or revoked key, another scheme, the
// gateway header from any other address) is no Owner: Handle refuses it
// authentication_required, as the protocol refuses a missing or blank ownerId. A store that
// cannot be read is also no Owner, and logged by nobody: it answers like an unknown key.
func (a *Authenticator) Caller(r *http.Request) Caller {
	c, _ := a.Authenticate(r)
	return c
}

// Authenticate is Caller, counting a key that is not one against r's client address
// (GuessRate): past the limit it returns the rate_limited *door.Refusal and no Caller, without
// reading the key.
func (a *Authenticator) Authenticate(r *http.Request) (Caller, error) {
	addr := door.ClientAddr(r, false)
	c, bad, err := a.caller(r, addr)
	if bad {
		a.guesses.Allow(addr)
	}
	return c, err
}

// MaxOwnerID bounds the Owner ID a gateway header may carry, in bytes; MaxKey bounds a bearer
// key (the market's are 68 bytes). A longer value is no credential.
const (
	MaxOwnerID = 256
	MaxKey     = 256
)

// caller is Caller, and whether the request presented a bearer key that is not one (unknown,
// revoked, malformed): the failed guess a rate limit counts.
func (a *Authenticator) caller(r *http.Request, addr string) (c Caller, badKey bool, limited error) {
	if a.gw.Header != "" && a.fromGateway(r.RemoteAddr) {
		// Exactly one header line: a gateway that appends its own beside one the client sent
		// must not let the client's win (Header.Get would read the first), so two lines are
		// no credential at all, and neither is a key beside them.
		switch vs := r.Header.Values(a.gw.Header); {
		case len(vs) > 1:
			return Caller{}, false, nil
		case len(vs) == 1:
			if v := strings.TrimSpace(vs[0]); v != "" {
				if !validOwner(v) {
					return Caller{}, false, nil
				}
				return Caller{OwnerID: v}, false, nil
			}
		}
	}
	authz := r.Header.Values("Authorization")
	if len(authz) != 1 {
		return Caller{}, len(authz) > 1, nil
	}
	scheme, key, ok := strings.Cut(authz[0], " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return Caller{}, false, nil
	}
	key = strings.TrimSpace(key)
	if key == "" {
		return Caller{}, false, nil
	}
	if err := a.guesses.Exhausted(addr); err != nil {
		return Caller{}, false, err
	}
	if len(key) > MaxKey {
		return Caller{}, true, nil
	}
	k, err := a.keys.MarketKeyByHash(hashKey(key))
	if errors.Is(err, storage.ErrNotFound) || err == nil && k.RevokedAt != nil {
		return Caller{}, true, nil
	}
	if err != nil {
		return Caller{}, false, nil // the store, not the caller: no guess to count
	}
	return Caller{OwnerID: k.Owner}, false, nil
}

// validOwner is whether a gateway's Owner ID is one: at most MaxOwnerID bytes of valid UTF-8
// with no control character (the platform's ids are opaque printable strings; anything else is
// a header mangled or forged on its way, never a new Owner to enrol).
func validOwner(v string) bool {
	if len(v) > MaxOwnerID || !utf8.ValidString(v) {
		return false
	}
	for _, c := range v {
		if unicode.IsControl(c) {
			return false
		}
	}
	return true
}

// fromGateway is whether the peer address hostport is one of the gateway's.
func (a *Authenticator) fromGateway(hostport string) bool {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		host = hostport
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return false
	}
	ip = ip.Unmap()
	for _, p := range a.gw.From {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// keyPrefix starts every API key the market issues, so a leaked one is recognisable.
const keyPrefix = "gmk_"

// hashKey is the stored form of key: SHA-256, 64 lower-case hex.
func hashKey(key string) string {
	h := sha256.Sum256([]byte(key))
	return hex.EncodeToString(h[:])
}

// Issue makes a new API key for owner (a Delegate named name, "" none) and stores it hashed: the
// key is returned once and never kept. Owner ids are trimmed; an empty one is refused.
func (a *Authenticator) Issue(owner, name string, now time.Time) (key string, rec storage.MarketKey, err error) {
	owner = strings.TrimSpace(owner)
	if owner == "" {
		return "", storage.MarketKey{}, errors.New("market: issue key: empty owner id")
	}
	var b [32]byte
	rand.Read(b[:]) // never fails (crypto/rand)
	key = keyPrefix + hex.EncodeToString(b[:])
	h := hashKey(key)
	rec = storage.MarketKey{ID: "mk_" + h[:16], Hash: h, Owner: owner, Name: strings.TrimSpace(name), CreatedAt: now.UTC()}
	if err := a.keys.PutMarketKey(rec); err != nil {
		return "", storage.MarketKey{}, fmt.Errorf("market: issue key: %w", err)
	}
	return key, rec, nil
}
