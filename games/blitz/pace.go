package blitz

import (
	"time"

	"arena/games"
)

// The clocks of Blitz and Short, the one statement of their lengths: a table's Setup.Pace
// names the clock it runs on and overrides any of its steps, and a step it leaves unset runs
// the agent clock's length (clockOf). The DOTDOTDOT product (actors/dotdotdot) fills the
// paces it opens tables on from these, and `arena serve`'s pace settings override them.

// AgentPace is the agent clock (§5.3): scouting 90 s (§5.2), talk exchanges of 15 s, commit
// 25 s, settle 5 s, every phase its full length. A BYO agent answers a talk exchange within
// 13 s and the commit within 20 s (clockOf). A zero Pace runs on it.
func AgentPace() games.Pace {
	return games.Pace{Name: "agent", Steps: map[string]time.Duration{
		"scouting": 90 * time.Second, "talk": 15 * time.Second, "commit": 25 * time.Second, "settle": 5 * time.Second}}
}

// ChatPace is the chat clock (§4.5): three minutes a move (scouting, each talk exchange, the
// commit), settle 1 s, and a phase closes as soon as every live seat has answered it.
func ChatPace() games.Pace {
	return games.Pace{Name: "chat", CloseEarly: true, Steps: map[string]time.Duration{
		"scouting": 3 * time.Minute, "talk": 3 * time.Minute, "commit": 3 * time.Minute, "settle": time.Second}}
}
