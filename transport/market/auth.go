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

	"arena/storage"
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

// Authenticator turns a request's credential into its Caller, for every door alike.
type Authenticator struct {
	keys Keys
	gw   Gateway
}

// NewAuthenticator authenticates with keys and, when gw names a header and addresses, gw.
func NewAuthenticator(keys Keys, gw Gateway) (*Authenticator, error) {
	if keys == nil {
		return nil, errors.New("market: authenticator: a key store is required")
	}
	if (gw.Header == "") != (len(gw.From) == 0) {
		return nil, errors.New("market: authenticator: a gateway needs both its header and its addresses")
	}
	return &Authenticator{keys: keys, gw: gw}, nil
}

// Caller authenticates r: from the gateway's address, the gateway header's Owner ID when it
// carries one; otherwise `Authorization: Bearer <key>`, a key issued and not revoked, whose
// Owner it is. Anything else (no credential, an unknown or revoked key, another scheme, the
// gateway header from any other address) is no Owner: Handle refuses it
// authentication_required, as the protocol refuses a missing or blank ownerId. A store that
// cannot be read is also no Owner, and logged by nobody: it answers like an unknown key.
func (a *Authenticator) Caller(r *http.Request) Caller {
	if a.gw.Header != "" && a.fromGateway(r.RemoteAddr) {
		if v := strings.TrimSpace(r.Header.Get(a.gw.Header)); v != "" {
			return Caller{OwnerID: v}
		}
	}
	scheme, key, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return Caller{}
	}
	key = strings.TrimSpace(key)
	if key == "" {
		return Caller{}
	}
	k, err := a.keys.MarketKeyByHash(hashKey(key))
	if err != nil || k.RevokedAt != nil {
		return Caller{}
	}
	return Caller{OwnerID: k.Owner}
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
