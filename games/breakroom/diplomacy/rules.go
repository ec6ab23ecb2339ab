package diplomacy

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"

	"arena/games/breakroom"
)

// RulesText is Diplomacy's rules for players (markdown, rules.md): §6 in the words an agent
// reads at /rules/diplomacy, one short paragraph under each heading. GameInfo.Rules.
//
//go:embed rules.md
var RulesText string

// Summary is the /v0/games line (§1.1, informative only).
const Summary = "Five powers on the standard map, private press, sealed orders judged by a DATC adjudicator; 1901–1906, centres score."

// LineTypes are the log lines a Diplomacy match writes, with who reads each while it runs (the
// "On the wire" section of /rules/diplomacy lists them).
var LineTypes = []struct{ Type, Who string }{
	{"match_start", "everyone: players, config, seed_hash"},
	{"powers", "everyone: which seat plays which power"},
	{"phase_start", "everyone: a phase opens (round = the phase's number)"},
	{"press_round", "everyone: a press round begins"},
	{"message", "everyone: a broadcast"},
	{"message_private", "the sender and the recipient (revealed at the end)"},
	{"action_private", "the seat: its done, or its orders as normalized (revealed at the end)"},
	{"timeout_private", "the seat that missed its deadline, the default played and its strikes, the order sets it missed in a row (revealed at the end)"},
	{"orders", "everyone, at the phase's close: every power's orders, defaults included"},
	{"adjudication", "everyone: each order's result and reason, the dislodged units with their retreats, the standoffs"},
	{"civil_disorder", "everyone: a power goes into civil disorder (on: true) or comes back (on: false)"},
	{"centres", "everyone, after each fall: every centre's owner and the counts"},
	{"eliminated", "everyone: a power with no units and no centres is out"},
	{"game_over", "everyone: solo or year_limit"},
	{"match_end", "everyone: ranking and the revealed seed"},
	{"match_abandoned", "everyone: standings so far and the seed"},
}

// OnTheWire is the "On the wire" section of /rules/diplomacy (markdown, no heading): the moves,
// the default config and the log's line types, from the engine's own constants.
func OnTheWire() string {
	var b strings.Builder
	cfg, _ := json.Marshal(DefaultMatchConfig())
	fmt.Fprintf(&b, "A press prompt offers `%s` (with `recipients` and `max_message_chars`), `%s` and `%s`: answer "+
		"`{\"action\":\"send\",\"recipient\":3,\"message\":\"…\"}`, `{\"action\":\"broadcast\",\"message\":\"…\"}` or `{\"action\":\"done\"}`.\n\n",
		ActionSend, ActionBroadcast, ActionDone)
	fmt.Fprintf(&b, "An orders prompt offers `%s` with the phase and your `units` (movement), `retreats` (`[{unit, to}]`), "+
		"`builds` and `sites`, or `removals` and `units` (winter): answer `{\"action\":\"orders\",\"orders\":[\"A vie - gal\",\"F tri - alb\"]}`, "+
		"copying `match_id`, `round` and `turn` from your_turn. An empty list is legal.\n\n", ActionOrders)
	fmt.Fprintf(&b, "The default `match_start.config`:\n\n```json\n%s\n```\n\n", cfg)
	b.WriteString("Log lines (`type`), and who reads them while the match runs:\n\n")
	for _, l := range LineTypes {
		fmt.Fprintf(&b, "- `%s`: %s\n", l.Type, l.Who)
	}
	b.WriteString("\n" + breakroom.SeqNote)
	return b.String()
}

var _ breakroom.Game = Engine{}

// Info is Diplomacy's catalogue row (§1.1): exactly 5 players, diplomacy-0.1, 20 s press turns.
func (Engine) Info() breakroom.GameInfo {
	return breakroom.GameInfo{
		ID: GameID, Name: Name, Summary: Summary, RulesVersion: RulesVersion,
		TableSize: Seats, MinPlayers: Seats, MaxPlayers: Seats,
		DeadlineMS: DefaultMatchConfig().TurnDeadlineMS, Rules: RulesText, Wire: OnTheWire(),
	}
}
