package breakroom

import (
	"strings"

	"arena/games"
)

// GameInfo is a game's row of breakroom-games §1.1: what GET /v0/games lists (id, name,
// summary, min_players, max_players, rules_version) and what the lobby needs (TableSize, the
// number of queued agents that opens a table; MinPlayers, the fewest a table opens with when the
// 30 s timer fires, house bots filling up to it). DeadlineMS is the default turn deadline.
type GameInfo struct {
	ID           string `json:"id"`
	Name         string `json:"name"`
	Summary      string `json:"summary"`
	RulesVersion string `json:"rules_version"`
	TableSize    int    `json:"table_size"`
	MinPlayers   int    `json:"min_players"`
	MaxPlayers   int    `json:"max_players"`
	DeadlineMS   int64  `json:"deadline_ms"`
	// Rules is the game's rules text (markdown; /rules/{id}): what the bartender quotes when a
	// player asks about the rules in table talk. Not part of the /v0/games row.
	Rules string `json:"-"`
	// Wire is the rules page's "On the wire" section (markdown, no heading): the messages, config
	// and log lines, written by the engine from its own constants. Not part of the /v0/games row.
	Wire string `json:"-"`
	// DealKey, when set, is the Setup.Options member the room fills with a fresh secret of 32
	// bytes (64 lowercase hex digits) for every table it opens: a deal the revealed seed must not
	// expose (Inference's deal_key, breakroom-games §2.2, J8). The room keeps it in the table's
	// setup only. Not part of the /v0/games row.
	DealKey string `json:"-"`
}

// RulesPage is GET /rules/{id}: the rules text, then its "On the wire" section, both the
// engine's own (Rules, Wire), so the page says what the engine does.
func (g GameInfo) RulesPage() string {
	page := strings.TrimRight(g.Rules, "\n") + "\n"
	if g.Wire != "" {
		page += "\n## On the wire\n\n" + strings.TrimRight(g.Wire, "\n") + "\n"
	}
	return page
}

// Game is a Break Room engine: a games.Engine that states its catalogue row.
type Game interface {
	games.Engine
	Info() GameInfo
}
