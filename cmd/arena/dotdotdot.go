package main

import (
	"time"

	"arena/actors/dotdotdot"
	"arena/config"
	"arena/games"
	"arena/transport/dotdotdot/chatseat"
	"arena/transport/dotdotdot/desk"
	"arena/transport/dotdotdot/pages"
)

// DOTDOTDOT's wiring: *dotdotdot.Arena is every DOTDOTDOT door's backend. The desk door finds
// the hosted tables by a type assertion, so their absence would drop routes silently: these
// checks make it a build error.
var (
	_ desk.Desk     = (*dotdotdot.Arena)(nil)
	_ desk.Hosted   = (*dotdotdot.Arena)(nil)
	_ chatseat.Desk = (*dotdotdot.Arena)(nil)
	_ pages.Source  = (*dotdotdot.Arena)(nil)
)

// pacesOf maps the configured clock overrides onto the actors' (§4.4, §4.5, §5.3): on the chat
// clock scouting, each talk exchange and the commit are each one move (chat_move); the agent
// clock takes scouting, agent_talk and agent_commit. What is not set, settle included, stays
// zero: dotdotdot.Paces.WithDefaults fills it with the spec's (dotdotdot.DefaultPaces).
func pacesOf(p config.Pace) dotdotdot.Paces {
	chat := games.Pace{Name: "chat", CloseEarly: true, Steps: map[string]time.Duration{}}
	agent := games.Pace{Name: "agent", Steps: map[string]time.Duration{}}
	set := func(pace games.Pace, step string, d *config.Duration) {
		if d != nil {
			pace.Steps[step] = time.Duration(*d)
		}
	}
	set(chat, "scouting", p.ChatMove)
	set(chat, "talk", p.ChatMove)
	set(chat, "commit", p.ChatMove)
	set(agent, "scouting", p.Scouting)
	set(agent, "talk", p.AgentTalk)
	set(agent, "commit", p.AgentCommit)
	out := dotdotdot.Paces{Chat: chat, Agent: agent}
	if p.WalkinTopUp != nil {
		out.WalkinTopUp = time.Duration(*p.WalkinTopUp)
	}
	if p.HostedStart != nil {
		out.HostedStart = time.Duration(*p.HostedStart)
	}
	return out
}
