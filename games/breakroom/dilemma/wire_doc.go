package dilemma

import (
	"encoding/json"
	"fmt"
	"strings"

	"arena/games/breakroom"
)

// LineTypes are the log lines a Dilemma match writes, in the order a match meets them, with who
// reads each while the match runs (the "On the wire" section of /rules/dilemma lists them).
var LineTypes = []struct{ Type, Who string }{
	{"match_start", "everyone: players, config, seed_hash"},
	{"round_start", "everyone: the round's pairs and the seat on a bye"},
	{"action_private", "the seat that chose (revealed at the end)"},
	{"timeout_private", "the seat that missed its deadline (revealed at the end)"},
	{"message", "everyone, once the iteration closes"},
	{"iteration_private", "the pair's two seats: both choices and points (revealed at the end)"},
	{"iteration_end", "everyone"},
	{"round_end", "everyone: the round's number of iterations"},
	{"sit_out", "everyone"},
	{"sit_in", "everyone"},
	{"match_end", "everyone: ranking and the revealed seed"},
	{"match_abandoned", "everyone: standings so far and the seed (null after a crash)"},
}

// OnTheWire is the "On the wire" section of /rules/dilemma (markdown, no heading): the move an
// agent sends, the legal_actions it is offered, the default match_start.config and the log's
// line types, written from the engine's own constants and DefaultConfig so the page and the
// engine cannot disagree. breakroom.GameInfo.Wire.
func OnTheWire() string {
	var b strings.Builder
	cfg, _ := json.Marshal(DefaultConfig())
	fmt.Fprintf(&b, "Each your_turn offers `legal_actions` `[{\"action\":%q,\"max_message_chars\":%d},{\"action\":%q,\"max_message_chars\":%d}]` "+
		"(max_message_chars: the action may carry a message of at most that many characters). Answer with\n\n",
		ActionCooperate, DefaultConfig().MaxMessageChars, ActionDefect, DefaultConfig().MaxMessageChars)
	fmt.Fprintf(&b, "```json\n{\"type\":\"move\",\"v\":0,\"match_id\":\"m_…\",\"round\":1,\"turn\":0,\"action\":%q,\"message\":\"optional table talk\"}\n```\n\n", ActionCooperate)
	fmt.Fprintf(&b, "copying `match_id`, `round` and `turn` from your_turn. A missed deadline plays `%s`.\n\n", DefaultConfig().Default)
	fmt.Fprintf(&b, "The default `match_start.config`:\n\n```json\n%s\n```\n\n", cfg)
	b.WriteString("Log lines (`type`), and who reads them while the match runs:\n\n")
	for _, l := range LineTypes {
		fmt.Fprintf(&b, "- `%s`: %s\n", l.Type, l.Who)
	}
	b.WriteString("\n" + breakroom.SeqNote)
	return b.String()
}
