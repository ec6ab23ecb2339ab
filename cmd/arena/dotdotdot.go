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

// pacesOf maps the configured clocks onto the actors' (§4.4, §4.5, §5.3): on the chat clock
// scouting, each talk exchange and the commit are each one move (chat_move); the agent clock
// takes scouting, agent_talk and agent_commit. Settle stays the spec's (1 s chat, 5 s agent).
func pacesOf(p config.Pace) dotdotdot.Paces {
	move := time.Duration(p.ChatMove)
	return dotdotdot.Paces{
		Chat:        games.Pace{Name: "chat", CloseEarly: true, Steps: map[string]time.Duration{"scouting": move, "talk": move, "commit": move}},
		Agent:       games.Pace{Name: "agent", Steps: map[string]time.Duration{"scouting": time.Duration(p.Scouting), "talk": time.Duration(p.AgentTalk), "commit": time.Duration(p.AgentCommit)}},
		WalkinTopUp: time.Duration(p.WalkinTopUp),
		HostedStart: time.Duration(p.HostedStart),
	}
}
