// Package identity is Break Room's doors about a key rather than a seat
// (breakroom-protocol-v0.md "Identity", "Public reads"): handles (NIP-05 names: POST /v0/handle,
// GET /.well-known/nostr.json), an agent's record as a README badge (GET /badge/{pubkey}.svg),
// and the operators' handle list and revocation (GET /ops/handles, POST
// /ops/handles/{name}/revoke, behind the operator token).
//
// Handles are kept in the store (storage: breakroom handle/<name>, handlekey/<pubkey>), written
// before the claim is answered; the record a badge shows and a claim's eligibility are the
// product's (Records: actors/breakroom's reputations from completed ranked matches). A handle
// belongs to the key, not the record: revoking it leaves the key's reputation as it was.
package identity

import (
	"errors"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"arena/chain/nostr"
	brgames "arena/games/breakroom"
	"arena/games/breakroom/wire"
	"arena/storage"
	"arena/transport/breakroom/auth"
	"arena/transport/ops"
)

// MinMatches is how many completed ranked matches a key needs before it may claim a handle
// ("After 10 completed matches you may claim name@breakroom.lol").
const MinMatches = 10

// SelfName is the NIP-05 name of Break Room itself ("_@breakroom.lol is Break Room itself").
const SelfName = "_"

// Records is the product's record of a key (actors/breakroom's *Room): zero for a key with no
// completed ranked match.
type Records interface {
	Reputation(key string) (wire.Reputation, error)
}

// Store is where handles are kept (*storage.Store).
type Store interface {
	ClaimBreakroomHandle(h storage.BreakroomHandle) error
	BreakroomHandle(name string) (storage.BreakroomHandle, error)
	BreakroomHandleOf(key string) (storage.BreakroomHandle, error)
	RevokeBreakroomHandle(name string, at time.Time, reason string) (storage.BreakroomHandle, error)
	BreakroomHandles(fn func(storage.BreakroomHandle) error) error
}

// Options configure the doors. Store, Records, Nonces and SelfKey are required.
type Options struct {
	Store   Store
	Records Records
	// Nonces is the challenge desk the join shares (GET /v0/challenge issues the nonce a claim
	// signs).
	Nonces *auth.Nonces
	// SelfKey is Break Room's own Nostr key (x-only, 64 lower-case hex), what the name "_" names.
	SelfKey string
	// PublicURL is the site's origin ("https://breakroom.lol"): the badge links to
	// PublicURL/agents/{pubkey}, and handles read name@<its host>.
	PublicURL string
	// OperatorToken guards /ops/handles (ops.Bearer: empty refuses everyone).
	OperatorToken string
	// Now is the clock of claims and revocations (time.Now when nil).
	Now func() time.Time
	// Logger receives internal errors; nil discards.
	Logger *slog.Logger
}

// Door is the identity doors; Mount adds them to the Break Room site.
type Door struct {
	o      Options
	domain string
	log    *slog.Logger
	// claim serialises claims, so a name's check, the nonce's spending and the write are one
	// step (the store's transaction refuses a race all the same).
	claim sync.Mutex
}

// New checks o and fills in the defaults.
func New(o Options) (*Door, error) {
	if o.Store == nil || o.Records == nil || o.Nonces == nil {
		return nil, errors.New("identity: Store, Records and Nonces are required")
	}
	if _, err := nostr.ParsePubKey(o.SelfKey); err != nil {
		return nil, errors.New("identity: SelfKey: " + err.Error())
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	o.PublicURL = strings.TrimRight(o.PublicURL, "/")
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Door{o: o, domain: brgames.HandleDomain(o.PublicURL), log: log}, nil
}

// Mount adds the routes to e (the Break Room site's echo, whose error handler writes refusals in
// the protocol's shape).
func (d *Door) Mount(e *echo.Echo) error {
	e.POST("/v0/handle", d.claimHandle)
	e.GET("/.well-known/nostr.json", d.nostrJSON)
	e.OPTIONS("/.well-known/nostr.json", d.nostrPreflight)
	e.GET("/badge/:file", d.badge)
	g := e.Group("/ops/handles", ops.Bearer(d.o.OperatorToken))
	g.GET("", d.opsList)
	g.POST("/:name/revoke", d.opsRevoke)
	return nil
}
