package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"time"

	"arena/actors"
	"arena/actors/breakroom"
	"arena/actors/breakroom/cashier"
	"arena/actors/cluster"
	"arena/chain/lightning/devwallet"
	"arena/config"
	"arena/games"
	brgames "arena/games/breakroom"
	brauction "arena/games/breakroom/auction"
	brdilemma "arena/games/breakroom/dilemma"
	brdiplomacy "arena/games/breakroom/diplomacy"
	brinference "arena/games/breakroom/inference"
	brwerewolf "arena/games/breakroom/werewolf"
	"arena/games/breakroom/wire"
	"arena/storage"
	"arena/transport/breakroom/auth"
	"arena/transport/breakroom/identity"
	"arena/transport/breakroom/live"
	brmcp "arena/transport/breakroom/mcp"
	"arena/transport/breakroom/notes"
	"arena/transport/breakroom/openapi"
	"arena/transport/breakroom/play"
	"arena/transport/breakroom/public"
)

// Break Room's wiring: the product (actors/breakroom's Room) with the games of breakroomGames, on
// the clocks config's breakroom section overrides; its doors (transport/breakroom/play) over it,
// through roomDoors; the site (transport/breakroom.Site) with those doors, placed by sitesOf.

// breakroomGames are the games Break Room plays, each engine stating its catalogue row (the
// Bracket registers the same engines: engines in serve.go).
func breakroomGames() []brgames.Game {
	return []brgames.Game{
		brdilemma.Engine{},
		brinference.Engine{},
		brauction.Engine{},
		brwerewolf.Engine{},
		brdiplomacy.Engine{},
	}
}

// breakroomSide is Break Room in `arena serve`: the product, its catalogue and public origin,
// the challenge desk its doors share.
type breakroomSide struct {
	room    *breakroom.Room
	catalog []brgames.GameInfo
	public  string
	nonces  *auth.Nonces
	log     *slog.Logger
	stats   *public.Stats     // the usage counters (doors makes them)
	wallet  holdWallet        // the paid tables' wallet; nil: none (payments_disabled)
	dev     *devwallet.Wallet // the development wallet when it is the wallet (its route is mounted)
	member  *cluster.Member   // the cluster joined (nil: alone): /v0/live shows every member's figures
}

// ownLive is this member's own live figures (live.Backend), without the other members'.
func (b *breakroomSide) ownLive() live.Backend {
	return roomLive{room: b.room, reads: roomReads{room: b.room, catalog: b.catalog}}
}

// breakroomOrigin is the origin Break Room's links name: breakroom.public_url when set; else,
// when the site has a listen address of its own (own, breakroom.site.addr), that address
// (http://HOST:PORT, an unspecified host as localhost: every request there is Break Room's, so a
// client that cannot send a Host header or resolve a .localhost name still follows the links);
// else http://<the site's first Host name>:<the main listen port> (localhost with no Host name).
func breakroomOrigin(cfg config.Config, listen, own net.Addr) (string, error) {
	return siteOrigin(cfg.Breakroom.PublicURL, cfg.Breakroom.Site.Hosts, listen, own)
}

// siteOrigin is the origin a site's links name: publicURL when set (without a trailing slash);
// else, when the site has a listen address of its own (own), that address (http://HOST:PORT, an
// unspecified host as localhost); else http://<its first Host name, or localhost>:<the main
// listen port>. Errors: a main listen address with no port.
func siteOrigin(publicURL string, hosts []string, listen, own net.Addr) (string, error) {
	if publicURL != "" {
		return strings.TrimRight(publicURL, "/"), nil
	}
	if own != nil {
		site, _, err := publicSite("", own)
		return site, err
	}
	_, port, err := net.SplitHostPort(listen.String())
	if err != nil {
		return "", fmt.Errorf("serve: listen address %q: %w", listen, err)
	}
	host := "localhost"
	if len(hosts) > 0 {
		host = hosts[0]
	}
	return "http://" + net.JoinHostPort(host, port), nil
}

// durOr is an override's duration, or 0 (the product's default) when unset.
func durOr(d *config.Duration) time.Duration {
	if d == nil {
		return 0
	}
	return time.Duration(*d)
}

// newBreakroom makes Break Room's product from config (its games with the configured turn and
// away deadlines, the lobby's and the house bots' clocks), registered with the runtime by serve.
func newBreakroom(cfg config.Config, listen, own net.Addr, log *slog.Logger) (*breakroomSide, error) {
	public, err := breakroomOrigin(cfg, listen, own)
	if err != nil {
		return nil, err
	}
	p := cfg.Breakroom.Pace
	var pace games.Pace
	if p.Turn != nil || p.Away != nil {
		pace.Steps = map[string]time.Duration{}
		if p.Turn != nil {
			pace.Steps["turn"] = durOr(p.Turn)
		}
		if p.Away != nil {
			pace.Steps["away"] = durOr(p.Away)
		}
	}
	side := &breakroomSide{public: public, nonces: auth.New(auth.Options{}), log: log}
	if side.wallet, side.dev, err = breakroomWallet(cfg.Breakroom.Lightning); err != nil {
		return nil, err
	}
	var gs []breakroom.Game
	for _, g := range breakroomGames() {
		info := g.Info()
		side.catalog = append(side.catalog, info)
		gs = append(gs, breakroom.Game{ID: info.ID, Name: info.Name, RulesVersion: info.RulesVersion,
			TableSize: info.TableSize, Min: info.MinPlayers, Rules: info.Rules, Pace: pace, DealKey: info.DealKey})
	}
	side.room, err = breakroom.New(breakroom.Options{Games: gs, PublicURL: public, HousePause: durOr(p.HousePause),
		LobbyWait: durOr(p.LobbyWait), HouseAfter: durOr(p.HouseAfter), Logger: log,
		Payments: paymentsOf(side.wallet, side.dev, cfg.Breakroom.Lightning)})
	if err != nil {
		return nil, err
	}
	return side, nil
}

// product is Break Room's part of the runtime, registered before it starts.
func (b *breakroomSide) product() actors.Product { return b.room.Product() }

// doors makes the site's doors over the product: the playing doors (long polls end when drain
// closes), the identity doors (handles, badges: transport/breakroom/identity, on the store,
// with Break Room's own key from the data directory and the operator token for /ops/handles),
// the public reads, with the usage counters kept in store, and GET /openapi.json
// (transport/breakroom/openapi), and the live reads (transport/breakroom/live: /v0/live, its
// stream, /r/{id}/live).
func (b *breakroomSide) doors(cfg config.Config, store *storage.Store, operatorToken string, drain <-chan struct{}) (doorSet, error) {
	b.stats = public.NewStats(store, nil)
	rd, err := public.New(public.Options{Backend: roomReads{room: b.room, catalog: b.catalog}, PublicURL: b.public, Stats: b.stats,
		Handle: b.room.Handle, Payments: b.paymentsPage()})
	if err != nil {
		return nil, err
	}
	pd, err := play.New(play.Options{Backend: roomDoors{room: b.room, catalog: b.catalog, public: b.public, stats: b.stats},
		Nonces: b.nonces, PublicURL: b.public, Forwarded: cfg.HTTP.Limits.ForwardedFor, Drain: drain, Logger: b.log,
		Page: rd.ReplayPage, OnGames: countGames(b.stats), Payments: b.terms()})
	if err != nil {
		return nil, err
	}
	self, err := breakroomKey(cfg)
	if err != nil {
		return nil, err
	}
	id, err := identity.New(identity.Options{Store: store, Records: b.room, Nonces: b.nonces, SelfKey: self,
		PublicURL: b.public, OperatorToken: operatorToken, Logger: b.log})
	if err != nil {
		return nil, err
	}
	api, err := openapi.New(b.public)
	if err != nil {
		return nil, err
	}
	md, err := brmcp.New(brmcp.Options{Door: pd, Rules: rulesOf(b.catalog), PublicURL: b.public,
		Forwarded: cfg.HTTP.Limits.ForwardedFor, TrustProxyHost: cfg.Dotdotdot.MCPBehindProxy, Drain: drain, Logger: b.log,
		OnCall: func(string) { b.stats.Count(public.CounterMCPCall) }})
	if err != nil {
		return nil, err
	}
	var lb live.Backend = b.ownLive()
	if b.member != nil {
		lb = clusterLive{local: lb, m: b.member}
	}
	lv, err := live.New(live.Options{Backend: lb,
		Forwarded: cfg.HTTP.Limits.ForwardedFor, Drain: drain})
	if err != nil {
		return nil, err
	}
	set := doorSet{pd, id, rd, api, md, notes.New(store, operatorToken), lv}
	if b.dev != nil {
		set = append(set, devRoute{b.dev})
	}
	return set, nil
}

// terms are the paid tables' terms for the doors (nil: no paid tables).
func (b *breakroomSide) terms() *play.Terms {
	c := b.room.Cashier()
	if c == nil {
		return nil
	}
	return &play.Terms{RakeBps: c.RakeBps(), Stakes: c.Stakes(), TestSats: c.TestSats()}
}

// paymentsPage is /payments' terms and rules (nil: no paid tables).
func (b *breakroomSide) paymentsPage() *public.Payments {
	c := b.room.Cashier()
	if c == nil {
		return nil
	}
	return &public.Payments{RakeBps: c.RakeBps(), Stakes: c.Stakes(), Rules: cashier.RulesText, TestSats: c.TestSats(),
		Ledger: func(ctx context.Context, key string) (any, error) { return c.Agent(ctx, key) }}
}

// countGames counts each GET /v0/games as a way in of the usage counters (public.CounterGames).
func countGames(s *public.Stats) func() { return func() { s.Count(public.CounterGames) } }

// rulesOf is the MCP door's get_rules source: each catalogued game's rules text.
func rulesOf(catalog []brgames.GameInfo) func(string) (string, bool) {
	return func(id string) (string, bool) {
		for _, g := range catalog {
			if g.ID == id && g.Rules != "" {
				return g.Rules, true
			}
		}
		return "", false
	}
}

// flush writes the usage counters still in memory (at shutdown, before the store closes).
func (b *breakroomSide) flush() {
	if err := b.stats.Flush(); err != nil {
		b.log.Error("breakroom stats not written", "err", err)
	}
}

// roomDoors is *breakroom.Room as the doors call it (play.Backend): the same calls in the door's
// own value types, the product's connection-ending errors mapped onto the door's, and the games
// list from the catalogue with the room's live counts.
type roomDoors struct {
	room    *breakroom.Room
	catalog []brgames.GameInfo
	public  string
	stats   *public.Stats // counts each join (nil: none)
}

var _ play.Backend = roomDoors{}

// Games lists the catalogue with each game's live counts (Room.Live: waiting, playing, tables).
func (d roomDoors) Games(ctx context.Context) ([]play.GameInfo, error) {
	live, err := d.room.Live(ctx)
	if err != nil {
		return nil, err
	}
	byID := map[string]breakroom.Live{}
	for _, l := range live {
		byID[l.Game.ID] = l
	}
	out := make([]play.GameInfo, 0, len(d.catalog))
	for _, g := range d.catalog {
		l := byID[g.ID]
		out = append(out, play.GameInfo{ID: g.ID, Name: g.Name, Summary: g.Summary, MinPlayers: g.MinPlayers,
			MaxPlayers: g.MaxPlayers, RulesVersion: g.RulesVersion, RulesURL: d.public + "/rules/" + g.ID,
			Waiting: l.Waiting, Playing: l.Playing, Tables: l.Tables, WaitingPaid: waitingPaid(l.WaitingPaid)})
	}
	return out, nil
}

// waitingPaid is /v0/games's waiting_paid: agents per stake, keyed by the stake in decimal (nil:
// none waiting at a paid queue).
func waitingPaid(by map[int64]int) map[string]int {
	if len(by) == 0 {
		return nil
	}
	out := make(map[string]int, len(by))
	for st, n := range by {
		out[strconv.FormatInt(st, 10)] = n
	}
	return out
}

func (d roomDoors) Join(ctx context.Context, j play.Join) (play.Joined, error) {
	via := j.Via
	if via == play.ViaMCP {
		via = breakroom.ViaHTTP // the MCP door plays as the HTTP fallback does; the stats count it apart
	}
	jd, err := d.room.Join(ctx, breakroom.JoinRequest{Game: j.Game, Key: j.Key, Name: j.Name, Spoilers: j.Spoilers,
		Via: via, StakeSats: j.StakeSats})
	if err == nil && j.StakeSats == nil {
		d.stats.Join(j.Via, j.Key) // a paid join counts once, when paid queues it (Paid)
	}
	return play.Joined{Conn: jd.Conn, First: jd.First}, err
}

func (d roomDoors) Next(ctx context.Context, conn string, after uint64) ([]play.Item, error) {
	items, err := d.room.Next(ctx, conn, after)
	switch {
	case err == nil:
	case errors.Is(err, breakroom.ErrReplaced):
		return nil, play.ErrReplaced
	case errors.Is(err, breakroom.ErrGone):
		return nil, play.ErrGone
	case errors.Is(err, breakroom.ErrSlow):
		return nil, play.ErrSlow
	case errors.Is(err, breakroom.ErrClosed):
		return nil, play.ErrClosed
	default:
		return nil, err
	}
	out := make([]play.Item, len(items))
	for i, it := range items {
		out[i] = play.Item{Seq: it.Seq, Msg: it.Msg}
	}
	return out, nil
}

func (d roomDoors) Drop(conn string) { d.room.Drop(conn) }

// Paid is the room's paid message (play.Payer).
func (d roomDoors) Paid(ctx context.Context, p play.PaidJoin) (play.Joined, error) {
	via := p.Via
	if via == play.ViaMCP {
		via = breakroom.ViaHTTP
	}
	jd, err := d.room.Paid(ctx, breakroom.PaidRequest{Key: p.Key, Name: p.Name, Spoilers: p.Spoilers, Via: via,
		PaymentHash: p.PaymentHash, Lnaddr: p.Lnaddr})
	if err == nil {
		d.stats.Join(p.Via, p.Key)
	}
	return play.Joined{Conn: jd.Conn, First: jd.First}, err
}

var _ play.Payer = roomDoors{}

func (d roomDoors) Move(ctx context.Context, conn string, m *wire.Move) error {
	return d.room.Move(ctx, conn, m)
}

func (d roomDoors) State(ctx context.Context, conn, match string, wait time.Duration) (wire.State, error) {
	return d.room.State(ctx, conn, match, wait)
}

func (d roomDoors) JoinStatus(ctx context.Context, conn string, wait time.Duration) (wire.Outbound, error) {
	return d.room.JoinStatus(ctx, conn, wait)
}

func (d roomDoors) Leave(ctx context.Context, conn string) (wire.Left, error) {
	return d.room.Leave(ctx, conn)
}

func (d roomDoors) Feedback(ctx context.Context, conn string, f *wire.Feedback) (wire.FeedbackReceived, error) {
	return d.room.Feedback(ctx, conn, f)
}

func (d roomDoors) Log(ctx context.Context, match string) ([][]byte, error) {
	return d.room.Log(ctx, match, breakroom.PublicViewer)
}

func (d roomDoors) Reputation(key string) (wire.Reputation, error) { return d.room.Reputation(key) }

// roomReads is *breakroom.Room as the public reads call it (public.Backend): its matches in the
// reads' value types, the catalogue, and each game's engine for its words.
type roomReads struct {
	room    *breakroom.Room
	catalog []brgames.GameInfo
}

var _ public.Backend = roomReads{}

func (d roomReads) Games() []brgames.GameInfo { return d.catalog }

func (d roomReads) Matches(ctx context.Context) ([]public.Match, error) {
	ms, err := d.room.Matches(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]public.Match, len(ms))
	for i, m := range ms {
		out[i] = readMatch(m)
	}
	return out, nil
}

func (d roomReads) Match(ctx context.Context, id string) (public.Match, error) {
	m, err := d.room.Match(ctx, id)
	return readMatch(m), err
}

func (d roomReads) Log(ctx context.Context, id string) ([][]byte, error) {
	return d.room.Log(ctx, id, breakroom.PublicViewer)
}

func (d roomReads) Reputation(key string) (wire.Reputation, error) { return d.room.Reputation(key) }

// Narrator is the game's engine's words (every Break Room engine is a games.Narrator or none).
func (d roomReads) Narrator(game string) games.Narrator {
	for _, g := range breakroomGames() {
		if n, ok := g.(games.Narrator); ok && g.Info().ID == game {
			return n
		}
	}
	return nil
}

// readMatch is a MatchInfo as the reads take it.
func readMatch(m breakroom.MatchInfo) public.Match {
	out := public.Match{ID: m.ID, Game: m.Game, Tier: m.Tier, Ranked: m.Ranked, Status: m.Status, Started: m.Started,
		Ended: m.Ended, Ranking: m.Ranking}
	for _, p := range m.Players {
		out.Players = append(out.Players, public.Player{Seat: p.Seat, Pubkey: p.Pubkey, Name: p.Name, House: p.House, Staff: p.Staff})
	}
	return out
}
