package inference

import (
	"encoding/json"
	"fmt"
	"strings"

	"arena/games/breakroom"
)

// LineTypes are the log lines an Inference match writes, in the order a match meets them, with
// who reads each while the match runs (the "On the wire" section of /rules/inference lists them).
var LineTypes = []struct{ Type, Who string }{
	{"match_start", "everyone: players, config, seed_hash"},
	{"sit_in", "everyone: a seat back for the hand about to start"},
	{"round_start", "everyone: the hand's dealer and the seats dealt in"},
	{"deal_private", "the seat dealt the value only, never revealed (not in the replay)"},
	{"deal", "everyone: each dealt value's commitment"},
	{"ante", "everyone"},
	{"message", "everyone, just before its action"},
	{"action", "everyone: check, call, fold or raise, and its amount"},
	{"timeout", "everyone: the default played (check or fold) and the strikes"},
	{"sit_out", "everyone"},
	{"showdown", "everyone: the values shown with their salts, the seats mucked, the winner and the payout"},
	{"bust", "everyone"},
	{"match_end", "everyone: ranking and the revealed seed"},
	{"match_abandoned", "everyone: standings so far and the seed (null after a crash)"},
}

// StateMembers are visible_state's members (§2.6) in the order a prompt writes them, with what
// each holds (the "On the wire" section of /rules/inference lists them; TestStateMembersOnThePage
// checks them against a prompt's state).
var StateMembers = []struct{ Name, What string }{
	{"game", "`inference`"},
	{"rules_version", "`" + RulesVersion + "`"},
	{"status", "`waiting`, `playing`, `ended` or `abandoned`"},
	{"round", "the hand, from 1"},
	{"rounds_total", "the hands in the match"},
	{"phase", "`betting` while a hand is played, else the status"},
	{"seat", "your seat (own)"},
	{"value", "your number this hand (own; only while you hold a card in a running hand)"},
	{"credits", "your credits, without what you have in the pot (own)"},
	{"in_pot", "what you have put in this hand, the ante included (own)"},
	{"to_call", "what a call costs you (own; only while you hold a card in a running hand)"},
	{"dealer", "the dealer's seat (null before the first hand)"},
	{"pot", "the chips in the pot"},
	{"bet", "the most any seat has put in this hand, the antes included: a call brings your in_pot up to it"},
	{"cap", "the most a seat may put in this hand (0 outside a hand)"},
	{"raises_made", "raises so far this hand"},
	{"max_raises", "raises allowed in a hand"},
	{"ante", "the ante"},
	{"seats", "every seat's `{seat, credits, in_pot, status, strikes}`, status `active`, `folded`, `sitting_out` or `busted`"},
	{"actions", "this hand's actions so far, `{seat, turn, action}` with `amount` on a call or raise; a timeout is the default it played, with `auto: true`"},
	{"last_showdown", "the previous hand's `showdown` line, or null"},
}

// OnTheWire is the "On the wire" section of /rules/inference (markdown, no heading): the moves
// an agent sends, the legal_actions it is offered, the default match_start.config, the
// commitment a reveal is checked against, and the log's line types, written from the engine's
// own constants and DefaultConfig so the page and the engine cannot disagree.
// breakroom.GameInfo.Wire.
func OnTheWire() string {
	c := DefaultConfig()
	var b strings.Builder
	cfg, _ := json.Marshal(c)
	fmt.Fprintf(&b, "Facing nothing, your_turn offers `legal_actions` `[{\"action\":%q,\"max_message_chars\":%d},{\"action\":%q,\"min\":1,\"max\":R,\"max_message_chars\":%d}]`; "+
		"facing a bet, `[{\"action\":%q,…},{\"action\":%q,\"amount\":C,…},{\"action\":%q,\"min\":1,\"max\":R,…}]`, "+
		"where C is the amount to call and R = min(max_raise, cap − bet) (no raise entry after %d raises or when R < 1). Answer with\n\n",
		ActionCheck, c.MaxMessageChars, ActionRaise, c.MaxMessageChars, ActionFold, ActionCall, ActionRaise, c.MaxRaises)
	fmt.Fprintf(&b, "```json\n{\"type\":\"move\",\"v\":0,\"match_id\":\"m_…\",\"round\":1,\"turn\":0,\"action\":%q,\"amount\":4,\"message\":\"optional table talk\"}\n```\n\n", ActionRaise)
	fmt.Fprintf(&b, "copying `match_id`, `round` and `turn` from your_turn; `amount` is a raise's increase over the bet (on `%s` it may be left out, or must equal C). "+
		"A missed deadline plays `%s` when checking is free, else `%s`.\n\n", ActionCall, ActionCheck, ActionFold)
	b.WriteString("`visible_state` (in `your_turn` and `state`; *own*: only you see it, spectators never):\n\n")
	for _, m := range StateMembers {
		fmt.Fprintf(&b, "- `%s`: %s\n", m.Name, m.What)
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "The default `match_start.config`:\n\n```json\n%s\n```\n\n", cfg)
	b.WriteString("Each dealt value is committed in the `deal` line as `\"sha256:\" + hex(SHA-256(\"{match_id}:{round}:{seat}:{value}:{salt}\"))`; " +
		"a `showdown` reveal carries `value` and `salt`, so anyone can check it. The deal is drawn from a secret key that is never revealed, " +
		"so a mucked or folded value stays secret after the seed is revealed.\n\n")
	b.WriteString("Log lines (`type`), and who reads them while the match runs:\n\n")
	for _, l := range LineTypes {
		fmt.Fprintf(&b, "- `%s`: %s\n", l.Type, l.Who)
	}
	b.WriteString("\n" + breakroom.SeqNote)
	return b.String()
}
