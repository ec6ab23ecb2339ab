package actors

import (
	"context"
	"fmt"

	"arena/games"
)

// Product is one protocol's product on the runtime (the DOTDOTDOT walk-in desk and joins:
// actors/dotdotdot; Break Room's, the Warden's and the market's beside it). Several products
// share one runtime, so one table tree, one store, one ledger (Arena.Ledger) and one chain actor
// (Options.Anchorer): each names the games whose tables are its own and gives its hooks, and the
// runtime hands a table's status, anchors and keys to the product that owns its game
// (TableSpec.Game) and to no other. Every hook may be nil. Register products in
// Options.Products; their order is the order their BeforeRecover steps run in.
type Product struct {
	// Name names the product in Start's errors ("dotdotdot").
	Name string
	// Games are the ids (games.Manifest ID, TableSpec.Game) of the games whose tables are this
	// product's. A game is at most one product's (Start refuses two claims); a table whose game
	// no product claims has only Options' hooks. A game need not be in the Bracket.
	Games []string
	// Channels names the actor (its PID Id) of each of this product's channels that has one
	// actor for all its seats, by channel name, as Options.Channels (joined to it: a channel
	// name is one product's, Start refuses a second).
	Channels map[string]string
	// Keys gives this product's tables their seats' keyring (nil: Options.Keys).
	Keys KeyProvider
	// Anchorer hears the anchor requests of this product's tables once Options.Anchorer (the
	// chain actor, which answers them) has taken them: it only listens, must return at once, and
	// never answers the table (nil: nothing more).
	Anchorer Anchorer
	// OnStatus hears the status changes of this product's tables, after Options.OnStatus, from
	// whichever goroutine changed it: it must not block.
	OnStatus func(table, status string)
	// OnEvents hears each committed step's events of this product's tables, after
	// Options.OnEvents, on the table's goroutine once the commit has landed: it must not block
	// (hand the events to an actor). A product that delivers a match's log lines to its players
	// as they happen (Break Room's event messages) reads them here.
	OnEvents func(table, round string, events []games.Event)
	// BeforeRecover runs once the actor system and the ledger exist, after Options.BeforeRecover
	// and the BeforeRecover of the products before this one, and before any table is spawned:
	// spawn here the actors this product's seats deliver to (its channels, its seats' own
	// actors), so the open moves recovered tables redeliver at once find them. An error aborts
	// Start.
	BeforeRecover func(a *Arena) error
	// AbandonOnStop, when set, is the reason an ops stop (Arena.StopTable) of one of this
	// product's running tables abandons its match with (games.Match.Abandon, logged as
	// games.OpAbandon; Break Room: "server_shutdown", the protocol's match_abandoned): the
	// table commits the abandon's lines and its result (Result.Abandoned set) before anything
	// leaves, hands the lines to OnEvents, announces the end (RoundEnded) and ends finished, so
	// boot recovery leaves it alone. Empty: an ops stop parks the table as stopped, to be
	// restarted (DOTDOTDOT). A table whose actor is not running is parked as stopped either way.
	AbandonOnStop string
}

// products routes a table's hooks by its game: Options.Products, checked.
type products struct {
	list   []*Product
	byGame map[string]*Product
}

// productsOf checks opts.Products (a name for each, no game or channel claimed twice) and joins
// their channels to opts.Channels.
func productsOf(opts Options) (*products, map[string]string, error) {
	ps := &products{byGame: map[string]*Product{}}
	channels := map[string]string{}
	owner := map[string]string{}
	for name, id := range opts.Channels {
		channels[name], owner[name] = id, "Options.Channels"
	}
	names := map[string]bool{}
	for i := range opts.Products {
		p := &opts.Products[i]
		if p.Name == "" || names[p.Name] {
			return nil, nil, fmt.Errorf("product %d: a name of its own is required (%q)", i+1, p.Name)
		}
		names[p.Name] = true
		for _, g := range p.Games {
			if q, ok := ps.byGame[g]; ok {
				return nil, nil, fmt.Errorf("game %q is claimed twice (products %s and %s)", g, q.Name, p.Name)
			}
			ps.byGame[g] = p
		}
		for name, id := range p.Channels {
			if o, ok := owner[name]; ok {
				return nil, nil, fmt.Errorf("channel %q is claimed twice (%s and product %s)", name, o, p.Name)
			}
			channels[name], owner[name] = id, "product "+p.Name
		}
		ps.list = append(ps.list, p)
	}
	return ps, channels, nil
}

// of is the product that owns game (nil: none).
func (ps *products) of(game string) *Product {
	if ps == nil {
		return nil
	}
	return ps.byGame[game]
}

// beforeRecover runs every product's BeforeRecover in order.
func (ps *products) beforeRecover(a *Arena) error {
	for _, p := range ps.list {
		if p.BeforeRecover == nil {
			continue
		}
		if err := p.BeforeRecover(a); err != nil {
			return fmt.Errorf("product %s: %w", p.Name, err)
		}
	}
	return nil
}

// abandonOnStop is the reason an ops stop abandons game's running tables with ("" : none).
func (ps *products) abandonOnStop(game string) string {
	if p := ps.of(game); p != nil {
		return p.AbandonOnStop
	}
	return ""
}

// status hands a table's new status to Options.OnStatus, then to its game's product.
func (e *env) status(table, game, status string) {
	if e.onStatus != nil {
		e.onStatus(table, status)
	}
	if p := e.products.of(game); p != nil && p.OnStatus != nil {
		p.OnStatus(table, status)
	}
}

// events hands a table's committed events to Options.OnEvents, then to its game's product.
func (e *env) events(table, game, round string, events []games.Event) {
	if e.onEvents != nil {
		e.onEvents(table, round, events)
	}
	if p := e.products.of(game); p != nil && p.OnEvents != nil {
		p.OnEvents(table, round, events)
	}
}

// anchor hands a table's anchor request to Options.Anchorer (the chain actor), then to its
// game's product.
func (e *env) anchor(game string, job AnchorJob) {
	e.anchorer.Anchor(job)
	if p := e.products.of(game); p != nil && p.Anchorer != nil {
		p.Anchorer.Anchor(job)
	}
}

// keysOf is the key provider of game's tables: its product's, else Options.Keys (nil: none).
func (e *env) keysOf(game string) KeyProvider {
	if p := e.products.of(game); p != nil && p.Keys != nil {
		return p.Keys
	}
	return e.keys
}

// openKeys is a new table's keyring and recorded keys (KeyProvider.Open), seats' Agents filled.
func (e *env) openKeys(ctx context.Context, game, table string, seats []SeatSpec) (games.Keyring, map[int]string, error) {
	k := e.keysOf(game)
	if k == nil {
		return noKeys{}, nil, nil
	}
	return k.Open(ctx, table, seats)
}

// keyring is a recorded table's keyring (KeyProvider.Keyring).
func (e *env) keyring(game, table string, seats []SeatSpec, resolved map[int]string) (games.Keyring, error) {
	k := e.keysOf(game)
	if k == nil {
		return noKeys{}, nil
	}
	return k.Keyring(table, seats, resolved)
}
