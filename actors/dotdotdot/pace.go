package dotdotdot

import (
	"time"

	"arena/games"
	"arena/games/blitz"
)

// Paces are the clocks of walk-in, practice and hosted tables (§4.4, §4.5, §5.3), set from the
// server's config (`arena serve` dotdotdot.pace.*). Every zero field, and every step a clock
// leaves unset, is DefaultPaces'.
type Paces struct {
	// Chat is the chat clock (Name "chat"): Scouting, Talk and Commit are each one move's
	// deadline (3 min), Settle 1 s. It always closes early once every seat answered (§4.5).
	Chat games.Pace
	// Agent is the agent clock (Name "agent"): Scouting 90 s, Talk 15 s a talk exchange, Commit
	// 25 s, Settle 5 s; every phase runs its full length.
	Agent games.Pace
	// WalkinTopUp is how long the walkin table waits for walk-ins before house seats fill it.
	WalkinTopUp time.Duration
	// HostedStart is how long a hosted table gathers before it starts with whoever came.
	HostedStart time.Duration
}

// DefaultPaces are the spec's clocks, stated once each: Blitz's chat and agent clocks
// (blitz.ChatPace, blitz.AgentPace: the game's own), the walkin table's top-up after two
// minutes (walkinTopUpAfter, §4.4) and a hosted table's start after ten (hostedStartAfter,
// §4.5).
func DefaultPaces() Paces {
	return Paces{Chat: blitz.ChatPace(), Agent: blitz.AgentPace(), WalkinTopUp: walkinTopUpAfter, HostedStart: hostedStartAfter}
}

// WithDefaults fills every zero field, and every step a clock leaves unset, with
// DefaultPaces'; the names and closeEarly are the clocks' own (chat closes early, agent does
// not) whatever was given.
func (p Paces) WithDefaults() Paces {
	def := DefaultPaces()
	fill := func(got, def games.Pace) games.Pace {
		steps := make(map[string]time.Duration, len(def.Steps))
		for name, d := range def.Steps {
			if g := got.Steps[name]; g > 0 {
				d = g
			}
			steps[name] = d
		}
		got.Steps, got.Name, got.CloseEarly = steps, def.Name, def.CloseEarly
		return got
	}
	p.Chat, p.Agent = fill(p.Chat, def.Chat), fill(p.Agent, def.Agent)
	if p.WalkinTopUp <= 0 {
		p.WalkinTopUp = def.WalkinTopUp
	}
	if p.HostedStart <= 0 {
		p.HostedStart = def.HostedStart
	}
	return p
}

// paces is the arena's clocks, the spec's where Options.Paces leaves a field zero.
func (a *Arena) paces() Paces { return a.opts.Paces.WithDefaults() }

// pace is the clock named name ("agent", else the chat clock), as configured.
func (a *Arena) pace(name string) games.Pace {
	p := a.paces()
	if name == "agent" {
		return p.Agent
	}
	return p.Chat
}
