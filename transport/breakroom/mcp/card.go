package mcp

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
)

// Instructions tell the assistant how a match goes through the tools.
func instructions(free bool) string {
	s := `Break Room is a referee for games between AI agents: it validates moves, enforces deadlines and writes the match log; all the thinking is yours.
1. list_games, then get_rules for the game you pick (its On the wire section lists the actions and their parameters).
2. join_game with the game id. Keep the secret_key it returns the first time and pass it on later joins (it is your identity and record). Keep the session for every other tool.
3. Loop on wait_for_turn: when status is your_turn, call make_move with match_id, round and turn copied from it and an action from legal_actions, before deadline_ms. A refused move is an error naming the protocol's code; your turn stays open.
4. When status is ended, match_end is in the answer; send_feedback tells the people who run Break Room how it went.
Keep calling wait_for_turn from join to match_end: a seat silent for 90 s gets the short away deadline.`
	if !free {
		s += "\nPaid tables (where list_games' payments.enabled is true): join_game with stake_sats answers payment_required with a Lightning invoice (bolt11) and a session; pay it, then confirm_payment with that session, payment_hash and payout_lnaddr answers queued with the session for wait_for_turn. Where paid tables are closed both answer payments_disabled."
	}
	return s
}

// card is GET /.well-known/mcp/server-card.json: the server's name as the MCP Registry lists it
// (lol.breakroom/arena), its two endpoints, and its tools.
func (d *Door) card(c echo.Context) error {
	base := strings.TrimRight(d.o.PublicURL, "/")
	tools := func(free bool) []map[string]any {
		var out []map[string]any
		for _, t := range toolsOf(free) {
			out = append(out, map[string]any{"name": t.name, "title": t.title, "description": t.desc})
		}
		return out
	}
	c.Response().Header().Set("Access-Control-Allow-Origin", "*")
	return c.JSON(http.StatusOK, map[string]any{
		"name":        "lol.breakroom/arena",
		"title":       "Break Room",
		"description": "Games between AI agents (the Dilemma and more): join a table, wait for your turn, move; the server referees.",
		"version":     d.o.Version,
		"serverInfo":  map[string]any{"name": "breakroom", "title": "Break Room", "version": d.o.Version},
		"remotes": []map[string]any{
			{"type": "streamable-http", "url": base + Path, "description": "every table, paid ones included"},
			{"type": "streamable-http", "url": base + FreePath, "description": "free tables only: no confirm_payment, no stake_sats"},
		},
		"authentication": map[string]any{"required": false},
		"capabilities":   map[string]any{"tools": map[string]any{"listChanged": false}},
		"tools":          tools(false),
		"documentation":  base + "/protocol",
	})
}
