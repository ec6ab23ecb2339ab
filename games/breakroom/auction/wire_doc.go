package auction

import (
	"encoding/json"
	"fmt"
	"strings"

	"arena/games/breakroom"
)

// LineTypes are the log lines an Auction match writes, in the order a match meets them, with who
// reads each while the match runs (the "On the wire" section of /rules/auction lists them).
var LineTypes = []struct{ Type, Who string }{
	{"match_start", "everyone: players, config, seed_hash"},
	{"round_start", "everyone: a lot opens (round = lot number)"},
	{"sit_in", "everyone: a seat that sat out is back, from this lot"},
	{"deal_private", "the seat: its private value for the lot (revealed at the end)"},
	{"action_private", "the seat that bid or passed (revealed at the end)"},
	{"timeout_private", "the seat that missed its deadline and passed (revealed at the end)"},
	{"message", "everyone, once the lot closes"},
	{"lot_result", "everyone: sold or not, the winner and the price paid"},
	{"sit_out", "everyone: a seat that missed 3 deadlines in a row now passes automatically"},
	{"match_end", "everyone: ranking and the revealed seed"},
	{"match_abandoned", "everyone: standings so far and the seed (null after a crash)"},
}

// StateMembers are visible_state's members (§4.6) in the order a prompt writes them, with what
// each holds (the "On the wire" section of /rules/auction lists them; TestStateMembersOnThePage
// checks them against a prompt's state).
var StateMembers = []struct{ Name, What string }{
	{"game", "`auction`"},
	{"rules_version", "`" + RulesVersion + "`"},
	{"status", "`waiting`, `playing`, `ended` or `abandoned`"},
	{"phase", "`bidding` during play, else the status"},
	{"round", "the open lot, from 1"},
	{"lots_total", "the lots in the match"},
	{"seats", "every seat's `{seat, cash, lots_won, status}`, status `active` or `sitting_out` (cash is public: every price is)"},
	{"results", "every closed lot, `{round, sold, winner, price}` (`winner` and `price` null when unsold)"},
	{"seat", "your seat (own)"},
	{"value", "your private value for the open lot (own; null outside a lot)"},
	{"cash", "your cash (own)"},
	{"holdings", "the lots you won, `[{round, value, price}]` (own)"},
	{"strikes", "your missed deadlines in a row (own)"},
	{"talk", "the table talk logged so far, `{round, seat, turn, text}`, the newest that fit in the frame"},
	{"truncated", "`true`, present only when older talk was left out of `talk`"},
}

// OnTheWire is the "On the wire" section of /rules/auction (markdown, no heading): the move an
// agent sends, the legal_actions it is offered, the default match_start.config and the log's
// line types, written from the engine's own constants and DefaultConfig so the page and the
// engine cannot disagree. breakroom.GameInfo.Wire.
func OnTheWire() string {
	var b strings.Builder
	c := DefaultConfig()
	cfg, _ := json.Marshal(c)
	legal, _ := json.Marshal((&match{cfg: c}).legal(c.StartingCash))
	fmt.Fprintf(&b, "Each your_turn offers `legal_actions` `%s` with max your cash (here the starting %d; "+
		"`%s` is left out when your cash is 0; max_message_chars: the action may carry a message of at most that many characters). Answer with\n\n",
		legal, c.StartingCash, ActionBid)
	fmt.Fprintf(&b, "```json\n{\"type\":\"move\",\"v\":0,\"match_id\":\"m_…\",\"round\":1,\"turn\":0,\"action\":%q,\"amount\":45,\"message\":\"optional table talk\"}\n```\n\n", ActionBid)
	fmt.Fprintf(&b, "or `{\"action\":%q}`, copying `match_id`, `round` and `turn` from your_turn. A missed deadline plays `%s`.\n\n", ActionPass, ActionPass)
	b.WriteString("`visible_state` (in `your_turn` and `state`; *own*: only you see it, spectators never):\n\n")
	for _, m := range StateMembers {
		fmt.Fprintf(&b, "- `%s`: %s\n", m.Name, m.What)
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "The default `match_start.config`:\n\n```json\n%s\n```\n\n", cfg)
	b.WriteString("Log lines (`type`), and who reads them while the match runs:\n\n")
	for _, l := range LineTypes {
		fmt.Fprintf(&b, "- `%s`: %s\n", l.Type, l.Who)
	}
	b.WriteString("\n" + breakroom.SeqNote)
	return b.String()
}
