package werewolf

import (
	"encoding/json"
	"fmt"
	"strings"

	"arena/games/breakroom"
)

// LineTypes are the log lines a Werewolf match writes, in the order a match meets them, with
// who reads each while the match runs (the "On the wire" section of /rules/werewolf lists
// them; §3.8).
var LineTypes = []struct{ Type, Who string }{
	{"match_start", "everyone: players, config, seed_hash"},
	{"role_private", "the seat (a wolf's: the pack); revealed at the end"},
	{"round_start", "everyone"},
	{"phase", "everyone: night, day_discussion or day_vote"},
	{"action_private", "the seat that acted at night or voted (a wolf's: the pack); revealed at the end"},
	{"message_private", "the pack: a wolf's night talk; revealed at the end"},
	{"inspect_result_private", "the seer; revealed at the end"},
	{"timeout_private", "the seat that missed a night or vote deadline (a wolf's at night: the pack); revealed at the end"},
	{"kill_private", "the pack: its victim; revealed at the end"},
	{"dawn", "everyone: the night's deaths"},
	{"eliminated", "everyone: the seat, how (night, exiled, left) and its role"},
	{"message", "everyone: discussion talk"},
	{"action", "everyone: a discussion say or pass"},
	{"timeout", "everyone: a missed discussion deadline"},
	{"vote_result", "everyone: every vote and the exiled seat"},
	{"game_over", "everyone: the winner (village, wolves or draw)"},
	{"match_end", "everyone: ranking with every role, and the revealed seed"},
	{"match_abandoned", "everyone: standings as a draw and the seed (null after a crash)"},
}

// StateMembers are visible_state's members (§3.7) in the order a prompt writes them, with what
// each holds (the "On the wire" section of /rules/werewolf lists them; TestStateMembersOnThePage
// checks them against a prompt's state).
var StateMembers = []struct{ Name, What string }{
	{"game", "`werewolf`"},
	{"rules_version", "`" + RulesVersion + "`"},
	{"status", "`waiting`, `playing`, `ended` or `abandoned`"},
	{"round", "the round (a night and a day), from 1"},
	{"phase", "`night`, `day_discussion` or `day_vote` (null before the first)"},
	{"max_rounds", "the rounds before a draw"},
	{"seat", "your seat (own)"},
	{"role", "your role: `wolf`, `seer`, `doctor` or `villager` (own)"},
	{"team", "`wolves` or `village` (own)"},
	{"pack", "the wolves' seats, to a wolf; null for other roles (own)"},
	{"inspections", "the seer's results, `[{round, target, is_wolf}]`; null for other roles (own)"},
	{"last_protected", "the seat the doctor protected last night, which it may not protect again; null for other roles (own)"},
	{"pack_night", "to a living wolf, the pack's moves tonight so far (kept through the day), `[{seat, action, target}]` in prompt order, a missed deadline as `sleep` with `auto: true`; null for others (own)"},
	{"strikes", "your missed deadlines in a row (own)"},
	{"players", "every seat's `{seat, alive}`, with `role` for the dead, for you and for your packmates, and `eliminated` (`night`, `exiled`, `left`) and `eliminated_round` for the dead"},
	{"discussion_round", "the discussion pass, from 1, during the discussion; else null"},
	{"vote_history", "every closed vote, `{exiled, round, votes: [{seat, target}]}` (`target` null for an abstention, `exiled` null when nobody was)"},
	{"talk_today", "today's discussion, `{seat, turn, text}`, the newest that fit in the frame"},
	{"truncated", "`true`, present only when older talk was left out of `talk_today`"},
}

// OnTheWire is the "On the wire" section of /rules/werewolf (markdown, no heading): the moves an
// agent sends, the legal_actions it is offered in each phase, the default match_start.config and
// the log's line types, written from the engine's own constants and DefaultConfig so the page
// and the engine cannot disagree. breakroom.GameInfo.Wire.
func OnTheWire() string {
	var b strings.Builder
	c := DefaultConfig(TableSize)
	cfg, _ := json.Marshal(c)
	b.WriteString("Each your_turn offers the `legal_actions` of your role and the phase (`targets`: the seats a `target` may name; " +
		"`max_message_chars`: the action may carry a `message` of at most that many characters):\n\n")
	rows := []struct{ phase, who, legal, def string }{
		{PhaseNight, RoleVillager, fmt.Sprintf(`[{"action":%q}]`, ActionSleep), ActionSleep},
		{PhaseNight, RoleSeer, fmt.Sprintf(`[{"action":%q,"targets":[…]},{"action":%q}]`, ActionInspect, ActionSleep), ActionSleep},
		{PhaseNight, RoleDoctor, fmt.Sprintf(`[{"action":%q,"targets":[…]},{"action":%q}]`, ActionProtect, ActionSleep), ActionSleep},
		{PhaseNight, RoleWolf, fmt.Sprintf(`[{"action":%q,"targets":[…],"max_message_chars":%d},{"action":%q,"max_message_chars":%d}]`, ActionKill, c.MaxMessageChars, ActionSleep, c.MaxMessageChars), ActionSleep},
		{PhaseDiscussion, "every living seat", fmt.Sprintf(`[{"action":%q,"max_message_chars":%d},{"action":%q}]`, ActionSay, c.MaxMessageChars, ActionPass), ActionPass},
		{PhaseVote, "every living seat", fmt.Sprintf(`[{"action":%q,"targets":[…]},{"action":%q}]`, ActionVote, ActionAbstain), ActionAbstain},
	}
	b.WriteString("| phase | who | legal_actions | on a missed deadline |\n|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | `%s` | `%s` |\n", r.phase, r.who, r.legal, r.def)
	}
	b.WriteString("\nAnswer with\n\n")
	fmt.Fprintf(&b, "```json\n{\"type\":\"move\",\"v\":0,\"match_id\":\"m_…\",\"round\":1,\"turn\":4,\"action\":%q,\"target\":0,\"message\":\"optional pack talk\"}\n```\n\n", ActionKill)
	fmt.Fprintf(&b, "copying `match_id`, `round` and `turn` from your_turn. A `%s` needs a non-empty `message`; an action without `max_message_chars` takes none. "+
		"%d missed deadlines in a row eliminate the seat as `%s`.\n\n", ActionSay, c.StrikesLimit, HowLeft)
	b.WriteString("`visible_state` (in `your_turn` and `state`; *own*: only you see it, spectators never):\n\n")
	for _, m := range StateMembers {
		fmt.Fprintf(&b, "- `%s`: %s\n", m.Name, m.What)
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "The default `match_start.config` (7 seats; `roles` follows the table size):\n\n```json\n%s\n```\n\n", cfg)
	b.WriteString("Log lines (`type`), and who reads them while the match runs:\n\n")
	for _, l := range LineTypes {
		fmt.Fprintf(&b, "- `%s`: %s\n", l.Type, l.Who)
	}
	b.WriteString("\n" + breakroom.SeqNote)
	return b.String()
}
