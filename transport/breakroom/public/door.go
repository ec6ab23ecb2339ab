// Package public is Break Room's public reads (breakroom-protocol-v0.md "Public reads"): the start
// page (GET /, /llms.txt), how to play (/start, and /play where match_end.nostr_post links),
// the paid tables' page (/payments), the protocol (/protocol), each game's rules (/rules/{game}), the match
// list and results (/matches, /v0/matches, /v0/matches/{id}), a match's page (/r/{id}: live, then
// its replay; replay.go, mounted by play's /r/{file} route) and its plain-text transcript
// (/r/{id}/transcript), leaderboards (/leaderboard/{game}, /v0/leaderboard/{game}), an agent's page
// (/agents/{pubkey}), robots.txt, sitemap.xml and the usage counters (/v0/stats, /stats). JSON for
// agents, server-rendered HTML for browsers where the protocol says so; it plays nothing and
// decides no rule: everything it shows is the product's (Backend), and nothing sealed leaves
// before its reveal (a running match shows its public log only, never its ranking or seed).
//
// An agent's record is one answer: /agents/{pubkey} for agents and /v0/agents/{pubkey}. The
// playing doors and /v0/games and /r/{id}.jsonl are
// transport/breakroom/play's.
package public

import (
	"context"
	_ "embed"
	"errors"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"arena/games"
	brgames "arena/games/breakroom"
	"arena/games/breakroom/wire"
	"arena/transport/door"
)

// ProtocolText is GET /protocol: a copy of breakroom-protocol-v0.md (the project's specs,
// shared/specs/breakroom-protocol-v0.md), kept with the package so a clone serves it alone.
//
//go:embed protocol.md
var ProtocolText string

// Match states (Match.Status).
const (
	StatusRunning   = "running"
	StatusFinished  = "finished"
	StatusAbandoned = "abandoned"
)

// Player is one seat of a match (Seat: the wire seat, 0-based).
type Player struct {
	Seat   int
	Pubkey string
	Name   string
	House  bool
	Staff  bool
}

// Match is one match as the product keeps it. Ranking is set only once the match is over.
type Match struct {
	ID      string
	Game    string
	Tier    string
	Ranked  bool
	Status  string
	Started time.Time
	Ended   time.Time
	Players []Player
	Ranking []wire.Rank
}

// Backend is what the reads show: Break Room's product (actors/breakroom's *Room, adapted in
// cmd/arena). Refusals are *games.Error with the protocol's code.
type Backend interface {
	// Games is the catalogue (each game's row, rules and On the wire section), in a stable order.
	Games() []brgames.GameInfo
	// Matches is every match, newest first.
	Matches(ctx context.Context) ([]Match, error)
	// Match is one match; unknown_match.
	Match(ctx context.Context, id string) (Match, error)
	// Log is the match's public log (play.Backend.Log): public lines, and the lines revealed at
	// the end once it has ended; unknown_match.
	Log(ctx context.Context, id string) ([][]byte, error)
	// Reputation is key's record from its completed ranked matches.
	Reputation(key string) (wire.Reputation, error)
	// Narrator is game's words for its log lines (nil: the transcript names each line's type).
	Narrator(game string) games.Narrator
}

// Defaults and bounds.
const (
	// DefaultLimit and MaxLimit bound GET /v0/matches's limit (the protocol's sample asks 50).
	DefaultLimit = 50
	MaxLimit     = 200
	// LeaderboardRows is the most rows a leaderboard lists.
	LeaderboardRows = 100
	// SitemapMatches is how many recent finished matches sitemap.xml lists.
	SitemapMatches = 100
	// DefaultCallTimeout bounds one call of the product.
	DefaultCallTimeout = 5 * time.Second
)

// Options configure the reads. Backend is required.
type Options struct {
	Backend Backend
	// PublicURL is the site's origin as clients reach it, without a trailing slash; the links
	// and sitemap.xml name it ("" writes site-relative links).
	PublicURL string
	// Stats keeps the usage counters (nil: /v0/stats and /stats serve zeros and nothing is counted).
	Stats *Stats
	// Now is the clock of /v0/stats's days (time.Now when nil).
	Now         func() time.Time
	CallTimeout time.Duration
	// Handle is a key's live handle as name@domain, "" for none (the agent record's handle;
	// "Identity": NIP-05 handles); nil: no key has one.
	Handle func(key string) string
	// Payments are the paid tables' terms where they run (GET /payments serves them); nil: the
	// page says paid tables are not enabled.
	Payments *Payments
}

// Payments are the paid tables' terms as /payments states them.
type Payments struct {
	RakeBps  int
	Stakes   []int64
	Rules    string // the flow, the payout rule, payouts, refunds (text; actors/breakroom/cashier.RulesText)
	TestSats bool   // the development wallet: every sat is a test sat
	// Ledger is a key's money ledger, the agent record's "ledger" (nil: none).
	Ledger func(ctx context.Context, key string) (any, error)
}

// Door is the public reads; Mount adds their routes.
type Door struct {
	o Options
}

// New checks o and fills in the defaults.
func New(o Options) (*Door, error) {
	if o.Backend == nil {
		return nil, errors.New("public: Backend is required")
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.CallTimeout <= 0 {
		o.CallTimeout = DefaultCallTimeout
	}
	o.PublicURL = strings.TrimRight(o.PublicURL, "/")
	return &Door{o: o}, nil
}

// Mount adds the reads' routes to e (the Break Room site's echo, whose error handler writes
// refusals in the protocol's shape).
func (d *Door) Mount(e *echo.Echo) error {
	e.GET("/", d.home)
	e.GET("/llms.txt", d.llms)
	e.GET("/start", d.start)
	e.GET("/play", d.start)
	e.GET("/payments", d.payments)
	e.GET("/protocol", d.protocol)
	e.GET("/rules/:game", d.rules)
	e.GET("/matches", d.matchesPage)
	e.GET("/v0/matches", d.matchesJSON)
	e.GET("/v0/matches/:id", d.matchJSON)
	e.GET("/r/:file/transcript", d.transcript)
	e.GET("/leaderboard/:game", d.leaderboardPage)
	e.GET("/v0/leaderboard/:game", d.leaderboardJSON)
	e.GET("/agents/:pubkey", d.agent)
	e.GET("/v0/agents/:pubkey", d.agentV0)
	e.GET("/robots.txt", d.robots)
	e.GET("/sitemap.xml", d.sitemap)
	e.GET("/v0/stats", d.statsJSON)
	e.GET("/stats", d.statsPage)
	return nil
}

func (d *Door) call(parent context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(parent, d.o.CallTimeout)
}

// refuse is err as the site writes it.
func refuse(err error) error {
	if r, ok := door.AsRefusal(err); ok {
		return r
	}
	return err
}

// wantsHTML: the request asks for text/html (a browser); every other request gets text or JSON.
func wantsHTML(c echo.Context) bool {
	return strings.Contains(c.Request().Header.Get("Accept"), "text/html")
}

// game is the catalogue row of id, or unknown_game (404) naming the games in its detail and its
// "games" member.
func (d *Door) game(id string) (brgames.GameInfo, error) {
	list := d.o.Backend.Games()
	ids := make([]string, len(list))
	for i, g := range list {
		if g.ID == id {
			return g, nil
		}
		ids[i] = g.ID
	}
	if len(id) > 40 {
		id = id[:40] + "…"
	}
	return brgames.GameInfo{}, &door.Refusal{Code: "unknown_game",
		Msg: "no game " + quote(id) + "; the games are " + strings.Join(ids, ", "), Extra: map[string]any{"games": ids}}
}

func quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

// noStore marks an answer that changes as matches play.
func noStore(c echo.Context) { c.Response().Header().Set("Cache-Control", "no-store") }
