// Package dotdotdot is the DOTDOTDOT walk-in product on the generic actor tree (package actors):
// the desk (walk-in tokens, the lobby, hosted tables, the weekly board), a walk-in actor per
// token and a mailbox actor per walk-in seat, the joins of verified agents, paid tables and the
// walk-in records. Tables, rounds, seats and the commit pipeline are actors'; this package opens
// tables on them and reads what they deliver.
package dotdotdot

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"

	"github.com/asynkron/protoactor-go/actor"

	"arena/actors"
	"arena/games"
	"arena/games/blitz"
)

// Options wire the DOTDOTDOT product; every zero value works.
type Options struct {
	// Paces are the clocks of the tables the desk and the joins open (pace.go); zero fields are
	// the spec's values.
	Paces Paces
	// Agents calls BYO agents over A2A for the seats of ChannelA2A (nil: they stay silent).
	Agents AgentCaller
	// Resolver resolves BYO seats' keys when their table opens (nil: BYO seats have no key).
	Resolver KeyResolver
	// OnStatus hears the status changes of DOTDOTDOT's tables (actors.Product.OnStatus; `arena
	// serve`: the paid tables settle a finished one). It must not block.
	OnStatus func(table, status string)
	// Anchorer hears the anchor requests of DOTDOTDOT's tables once the chain actor has taken
	// them (actors.Product.Anchorer; `arena serve`: the paid tables send a paid table's to the
	// escrow). It must return at once.
	Anchorer actors.Anchorer
	// HouseOwner is the house identity account as CAIP-10 (ccd:<chain>:<address>): the owner
	// of every lent house Badge (§3), named in their seats' seat.taken (§15). Empty: unknown,
	// and those seats' owner is null.
	HouseOwner string
	// Fees are the house fees every Blitz table it opens charges, in microCCD (§14 "arena
	// config"), written into the table's options so that a table keeps what it opened with. Nil:
	// §14's (blitz.DefaultFees).
	Fees *blitz.Fees
	// Model is the house model off-the-shelf seats think on (ChannelOTS, ots.go). Nil: every
	// off-the-shelf seat answers every move from the fallback policy, and the game says so each
	// time (§15 agent.scripted).
	Model HouseModel
	// Mint, when set, mints the lent Badges of the tables it opens (minter.go, §15
	// badge.minted). Nil: lent Badges stay unregistered and no transcript carries badge.minted.
	Mint *MintOptions
	// Replays takes the replay anchor of every showing of a recorded round when it starts (§5.5
	// kind replay; showing.go): the chain actor, which answers the showings actor with the
	// transaction. Nil: showings register nothing (tests without a chain).
	Replays actors.Anchorer
}

// Arena is the DOTDOTDOT product on a running arena: the arena's own façade (embedded) and the
// desk's, joins' and walk-ins' calls. Its methods are safe for concurrent use, once the runtime
// it is attached to has started (New).
type Arena struct {
	*actors.Arena // the runtime, set when the product attaches (Product's BeforeRecover)
	opts          Options
	keys          *Keys // DOTDOTDOT's key provider on the runtime's instance key (productKeys)
	// formats are the seat counts of the walk-in game's formats, from its manifest.
	formats formatSeats
	// joining holds the Badges whose JoinAgent is between its in_a_round check and its table's
	// opening (join.go), so concurrent joins of one Badge seat it once.
	joining sync.Map
	// paid are the paid tables serving this arena (the last NewPaidTables on it; nil: none),
	// whose holds count as seats (badgeBusy).
	paid atomic.Pointer[PaidTables]
	// minter is the minter actor (minter.go), nil without Options.Mint.
	minter *actor.PID
	// gathering is the gathering actor (gathering.go): the free, rated and badge-gated tables.
	gathering *actor.PID
	// showings is the showings actor (showing.go).
	showings *actor.PID
	// rate rates a finished table (rateTable; a test's stand-in stands for a crash before it).
	rate func(table string) error
}

// New is the DOTDOTDOT product, not yet on a runtime: register its Product in
// actors.Options.Products, beside the other protocols' products; once actors.Start has returned
// the product runs on that runtime and its methods (the embedded *actors.Arena's too) may be
// called, and none before.
func New(o Options) *Arena { return &Arena{opts: o} }

// Product is DOTDOTDOT's part of a runtime: the walk-in game's tables (Blitz's) are its own, with
// its A2A channel (ChannelA2A), its keys (Keys: lent house Badges, Options.Resolver for BYO
// seats), Options.OnStatus and Options.Anchorer; its BeforeRecover puts the product on the
// runtime and spawns the A2A channel and the walk-in desk (startDesk) before boot recovery, so
// the prompts recovered tables redeliver find them and the walk-ins' mailboxes.
func (a *Arena) Product() actors.Product {
	return actors.Product{Name: "dotdotdot", Games: []string{walkinGame},
		Channels: map[string]string{ChannelA2A: a2aName, ChannelOTS: otsName}, Keys: productKeys{a},
		Anchorer: a.opts.Anchorer, OnStatus: a.onStatus, BeforeRecover: a.attach}
}

// onStatus is the product's OnStatus: a table gone live (opened, or restored) has its lent
// Badges minted (minter.go), then Options.OnStatus hears it.
func (a *Arena) onStatus(table, status string) {
	if status == actors.StatusLive && a.minter != nil {
		a.System().Root.Send(a.minter, &mintTable{table: table})
	}
	if status == actors.StatusFinished {
		// A finished rated table is rated (ratings.go) off the table's goroutine: the store's
		// write must not hold the hook. One that fails is rated at the next start.
		rate := a.rate
		if rate == nil {
			rate = a.rateTable
		}
		go func() {
			if err := rate(table); err != nil {
				a.Logger().Warn("ratings: a finished table could not be rated; tried again at the next start", "table", table, "err", err)
			}
		}()
	}
	if a.opts.OnStatus != nil {
		a.opts.OnStatus(table, status)
	}
}

// attach puts the product on rt (on) and spawns its channel and desk actors.
func (a *Arena) attach(rt *actors.Arena) error {
	if err := a.on(rt); err != nil {
		return err
	}
	if err := startA2A(a); err != nil {
		return err
	}
	if err := startOTS(a); err != nil {
		return err
	}
	if err := startMinter(a); err != nil {
		return err
	}
	if err := startGathering(a); err != nil {
		return err
	}
	if err := startShowings(a); err != nil {
		return err
	}
	go func() { // rate what a crash left unrated, once the tables are restored
		<-rt.Ready()
		a.rateFinished(context.Background())
	}()
	return startDesk(a)
}

// on puts the product on rt, which may still be starting: the runtime's façade, its keys on the
// instance key, the walk-in game's formats.
func (a *Arena) on(rt *actors.Arena) error {
	if a.Arena != nil {
		return errors.New("dotdotdot: the product is on a runtime already")
	}
	a.Arena = rt
	a.keys = &Keys{Instance: rt.InstanceKey(), Agent: rt.InstanceAgent(), Resolver: a.opts.Resolver}
	if eng, ok := rt.Bracket().Engine(walkinGame); ok {
		a.formats = formatSeatsOf(eng.Manifest())
	}
	return nil
}

// newArena is the product on rt, which may still be starting (a test's own BeforeRecover, which
// starts the desk itself or leaves it to its first use).
func newArena(rt *actors.Arena, o Options) *Arena {
	a := New(o)
	_ = a.on(rt)
	return a
}

// productKeys is the product's actors.KeyProvider: its Keys, made when it attaches (before any
// table opens or is restored).
type productKeys struct{ a *Arena }

func (k productKeys) Open(ctx context.Context, table string, seats []actors.SeatSpec) (games.Keyring, map[int]string, error) {
	return k.a.keys.Open(ctx, table, seats)
}

func (k productKeys) Keyring(table string, seats []actors.SeatSpec, resolved map[int]string) (games.Keyring, error) {
	return k.a.keys.Keyring(table, seats, resolved)
}

// seatsOf is the seat count of the walk-in game's format (0 if it has none such).
func (a *Arena) seatsOf(format string) int {
	n, _ := a.formats.of(format)
	return n
}

// Start starts a runtime (actors.Start) with DOTDOTDOT alone on it (New, Product): its A2A
// channel and desk are spawned before boot recovery, after opts.BeforeRecover. Alone, its keys
// are the runtime's (opts.Keys, unless set), so a table of any game the caller opens has them.
// `arena serve` instead starts the runtime itself with every protocol's product on it.
func Start(opts actors.Options, o Options) (*Arena, error) {
	a := New(o)
	p := a.Product()
	if opts.Keys == nil {
		opts.Keys = p.Keys
	}
	p.Keys = nil
	opts.Products = append(opts.Products[:len(opts.Products):len(opts.Products)], p)
	if _, err := actors.Start(opts); err != nil {
		return nil, err
	}
	return a, nil
}
