// Package dotdotdot is the DOTDOTDOT walk-in product on the generic actor tree (package actors):
// the desk (walk-in tokens, the lobby, hosted tables, the weekly board), a walk-in actor per
// token and a mailbox actor per walk-in seat, the joins of verified agents, paid tables and the
// walk-in records. Tables, rounds, seats and the commit pipeline are actors'; this package opens
// tables on them and reads what they deliver.
package dotdotdot

import (
	"sync"

	"arena/actors"
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
	// HouseOwner is the house identity account as CAIP-10 (ccd:<chain>:<address>): the owner
	// of every lent house Badge (§3), named in their seats' seat.taken (§15). Empty: unknown,
	// and those seats' owner is null.
	HouseOwner string
}

// Arena is the DOTDOTDOT product on a running arena: the arena's own façade (embedded) and the
// desk's, joins' and walk-ins' calls. Its methods are safe for concurrent use.
type Arena struct {
	*actors.Arena
	opts Options
	// formats are the seat counts of the walk-in game's formats, from its manifest.
	formats formatSeats
	// joining holds the Badges whose JoinAgent is between its in_a_round check and its table's
	// opening (join.go), so concurrent joins of one Badge seat it once.
	joining sync.Map
}

// newArena puts the DOTDOTDOT product on a, which may still be starting (called from
// actors.Options.BeforeRecover, so that startDesk spawns the desk before boot recovery).
func newArena(a *actors.Arena, o Options) *Arena {
	d := &Arena{Arena: a, opts: o}
	if eng, ok := a.Bracket().Engine(walkinGame); ok {
		d.formats = formatSeatsOf(eng.Manifest())
	}
	return d
}

// seatsOf is the seat count of the walk-in game's format (0 if it has none such).
func (a *Arena) seatsOf(format string) int {
	n, _ := a.formats.of(format)
	return n
}

// Start starts an arena (actors.Start) with the DOTDOTDOT product on it: its A2A channel
// (ChannelA2A, registered in opts.Channels) and its desk (startDesk) are spawned before boot
// recovery, so the prompts recovered tables redeliver find them and the walk-ins' mailboxes.
// opts.BeforeRecover, when set, runs after them. Tables' keys are Keys (lent house Badges,
// o.Resolver for BYO seats) unless opts.Keys is set.
func Start(opts actors.Options, o Options) (*Arena, error) {
	var d *Arena
	if opts.Keys == nil {
		opts.Keys = &Keys{Instance: opts.InstanceKey, Agent: opts.InstanceAgent, Resolver: o.Resolver}
	}
	before := opts.BeforeRecover
	channels := map[string]string{ChannelA2A: a2aName}
	for k, v := range opts.Channels {
		channels[k] = v
	}
	opts.Channels = channels
	opts.BeforeRecover = func(a *actors.Arena) error {
		d = newArena(a, o)
		if err := startA2A(d); err != nil {
			return err
		}
		if err := startDesk(d); err != nil {
			return err
		}
		if before != nil {
			return before(a)
		}
		return nil
	}
	if _, err := actors.Start(opts); err != nil {
		return nil, err
	}
	return d, nil
}
