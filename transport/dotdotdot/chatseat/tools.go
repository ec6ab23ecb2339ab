package chatseat

import (
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"
)

// Instructions is the server's instructions to the assistant (§4.5): the person is the player;
// put two or three numbered moves to the human with the pick marked; play on alone only when
// told to.
const Instructions = `You are seating a person at DOTDOTDOT, a negotiation game of promises, chips and one hidden mole. The person you are talking with is the player; you are their hands at the table.

How to play:
1. Ask your human for a display name and call register. Keep the token it gives you and pass it as "token" to every other tool. Never put the token in a URL or show it on a page.
2. Call play_practice to sit at a Practice table (Short, three seats, is quickest), or join_table with a four-character code your human was given, or host_table to open a table for friends.
3. Call next_move. It waits up to 20 seconds and tells you your seat, your role (and the mole's task if you are the mole), your chips, the table, what was said and what this phase asks. If it says you are waiting, call it again.
4. For every move, tell your human briefly what the table looks like, then put two or three numbered moves to them, with your pick marked, for example "2. (my pick) Offer seat 3 a 10 CCD promise due turn 2". Wait for their choice, then answer with talk, commit or pass exactly as next_move says.
5. Play on alone only when your human tells you to; then keep choosing moves yourself until they say stop.
6. When the round is over next_move gives the result: tell your human, with the closing lines it ends with. my_record shows their record; feedback sends a note to Nell, who reads every one.

Units: chips are whole CCD; amounts are microCCD (1 CCD = 1,000,000 microCCD). The chat clock gives each move up to three minutes and closes a phase as soon as every seat has answered. A seat that misses two moves in a row is answered with silence until it asks for a move again, so keep calling next_move while the round is on.`

// Schema fragments shared by the tools.
const (
	tokenProp  = `"token": {"type": "string", "pattern": "^w_[A-Za-z0-9_-]{43}$", "description": "the walk-in token register gave (w_ and 43 base64url characters); a tool argument only, never in a URL"}`
	roundProp  = `"round": {"type": "string", "pattern": "^T-[0-9]+$", "description": "the round, as next_move gave it, e.g. T-12"}`
	turnProp   = `"turn": {"type": "integer", "minimum": 0, "maximum": 5, "description": "the turn, as next_move gave it (0 at scouting)"}`
	exchProp   = `"exchange": {"type": "integer", "minimum": 1, "maximum": 3, "description": "the talk exchange, as next_move gave it (1-based)"}`
	seatProp   = `{"type": "integer", "minimum": 1, "maximum": 8, "description": "a seat number at the table"}`
	accuseProp = `"accusation": {"type": "integer", "minimum": 1, "maximum": 8, "description": "optional: the seat you accuse of being the mole (§12); it may be moved once, and stands sealed until the reveal"}`
	formatProp = `"format": {"type": "string", "enum": ["blitz", "short"], "description": "blitz: 6 to 8 seats (6 unless seats says more), 5 turns, 3 talk exchanges a turn (default); short: 3 seats, 3 turns, 2 exchanges"}`
	seatsProp  = `"seats": {"type": "integer", "minimum": 3, "maximum": 8, "description": "optional: how many seats the table has, blitz 6 to 8, short 3; left out, the format's fewest"}`
)

// toolDef is one tool: its name, description and input schema (JSON Schema, draft 2020-12).
type toolDef struct {
	name, desc, schema string
}

// toolDefs are the thirteen tools of §4.5, in the order list_tools shows them.
var toolDefs = []toolDef{
	{"register", "Register your human as a walk-in with a display name; answers the walk-in token to pass to every other tool. Call once per person and keep the token.",
		`{"type": "object", "additionalProperties": false, "required": ["name"], "properties": {
			"name": {"type": "string", "minLength": 1, "maxLength": 32, "description": "the display name the table and the board show (1 to 32 characters, unique across walk-ins, case-insensitively)"},
			"model": {"type": "string", "maxLength": 64, "description": "optional: the assistant model playing, e.g. claude-sonnet-4"}}}`},
	{"list_tables", "List where your human can sit now: Practice (always open), the walk-in table (after three Practice rounds), and the hosted tables gathering, by code and display names.",
		`{"type": "object", "additionalProperties": false, "properties": {` + tokenProp + `}}`},
	{"play_practice", "Sit at a Practice table at once: your human in seat 1, house agents in the others. Unrated, nothing at stake. Three finished Practice rounds open the walk-in table.",
		`{"type": "object", "additionalProperties": false, "required": ["token"], "properties": {` + tokenProp + `, ` + formatProp + `,
			"pace": {"type": "string", "enum": ["chat", "agent"], "description": "chat (default): up to 3 minutes a move, a phase closes as soon as every seat answered; agent: the 20-second clock"},
			"mole": {"type": "integer", "minimum": 1, "maximum": 8, "description": "optional: the seat to be the mole (1 for your human); left out, the draw picks it"}, ` + seatsProp + `}}`},
	{"host_table", "Open a hosted table with a four-character code and a link (/t/<code>) to hand to friends. It starts when full, when you start it, or ten minutes after opening; house agents fill empty seats. Unrated, nothing at stake.",
		`{"type": "object", "additionalProperties": false, "required": ["token"], "properties": {` + tokenProp + `, ` + formatProp + `, ` + seatsProp + `}}`},
	{"join_table", "Join a hosted table by its four-character code, or (with table \"walkin\") queue for the walk-in table, which needs three finished Practice rounds and fills up with house seats two minutes after the first walk-in came, or (with table \"free\") wait at a Free play table beside registered agents, on the agent clock (20 seconds a commit), topped up with house seats two minutes after its first player came.",
		`{"type": "object", "additionalProperties": false, "required": ["token"], "properties": {` + tokenProp + `,
			"code": {"type": "string", "pattern": "^[A-Za-z0-9]{4}$", "description": "the hosted table's four-character code"},
			"table": {"type": "string", "enum": ["walkin", "free"], "description": "walkin: queue for the walk-in table; free: wait at a Free play table (instead of a code)"}}}`},
	{"start_table", "Start the hosted table you host now, with whoever came; house agents take the empty seats. The host only.",
		`{"type": "object", "additionalProperties": false, "required": ["token"], "properties": {` + tokenProp + `}}`},
	{"leave_table", "Leave the table you are waiting at (a hosted table, a Free play table or the walkin table's queue), before it starts.",
		`{"type": "object", "additionalProperties": false, "required": ["token"], "properties": {` + tokenProp + `}}`},
	{"next_move", "Wait up to 20 seconds for your seat's next move and answer it in words: your seat, role (and the mole's task if you are the mole), chips, the table, what was said, what the phase asks and exactly which tool answers it. After the reveal it gives the result. Call it again whenever it says you are waiting.",
		`{"type": "object", "additionalProperties": false, "required": ["token"], "properties": {` + tokenProp + `,
			"wait": {"type": "integer", "minimum": 0, "maximum": 20, "description": "seconds to wait for a move, 0 to 20 (default 20)"}}}`},
	{"talk", "Answer a talk exchange: up to 8 public and 8 private lines of at most 600 characters each. Lines bind nobody. Echo round, turn and exchange from next_move.",
		`{"type": "object", "additionalProperties": false, "required": ["token", "round", "turn", "exchange", "messages"], "properties": {` + tokenProp + `, ` + roundProp + `, ` + turnProp + `, ` + exchProp + `, ` + accuseProp + `,
			"messages": {"type": "array", "maxItems": 16, "description": "the lines to say; an empty list says nothing", "items": {"type": "object", "additionalProperties": false, "required": ["text"], "properties": {
				"text": {"type": "string", "minLength": 1, "maxLength": 600, "description": "the line, at most 600 characters"},
				"to": ` + seatProp + `,
				"tone": {"type": "string", "enum": ["ask", "offer", "accept", "decline", "neutral"], "description": "the stance you declare, public even on a private line (default neutral)"}}}}}}`},
	{"commit", "Answer a commit phase with up to 4 promises to pay another seat. Each seals at the end of the phase, locks half its amount from your unlocked collateral (the margin lock) and costs 5 CCD of action budget. Echo round and turn from next_move.",
		`{"type": "object", "additionalProperties": false, "required": ["token", "round", "turn", "commitments"], "properties": {` + tokenProp + `, ` + roundProp + `, ` + turnProp + `, ` + accuseProp + `,
			"commitments": {"type": "array", "maxItems": 4, "description": "the promises; an empty list promises nothing", "items": {"type": "object", "additionalProperties": false, "required": ["payee", "due", "condition"], "properties": {
				"payee": ` + seatProp + `,
				"chips": {"type": "integer", "minimum": 1, "description": "the amount in whole CCD (give chips or amount)"},
				"amount": {"type": "integer", "minimum": 1000000, "description": "the amount in microCCD, at least 1000000 (1 CCD) (give chips or amount)"},
				"due": {"type": "integer", "minimum": 1, "maximum": 5, "description": "the turn it is paid at settle: this turn up to the last"},
				"condition": {"type": "object", "description": "when it pays: {\"always\": true} for an unconditional promise, or {\"backs\": [payer seat, payee seat, min microCCD]}, {\"survives\": [seat, turn]}, {\"honoured\": commitment id}, {\"not\": c}, {\"and\": [c, c]}, {\"or\": [c, c]}"},
				"pair": {"type": "string", "maxLength": 64, "description": "optional: a nonce shared with the payee's commitment back to you; the two seal together or not at all"}}}}}}`},
	{"pass", "Stay silent for this move (say or promise nothing). Echo round, turn, phase and, on talk, exchange from next_move. Answering closes your part of the phase at once.",
		`{"type": "object", "additionalProperties": false, "required": ["token", "round", "turn", "phase"], "properties": {` + tokenProp + `, ` + roundProp + `, ` + turnProp + `, ` + exchProp + `,
			"phase": {"type": "string", "enum": ["scouting", "talk", "commit"], "description": "the phase, as next_move gave it"}}}`},
	{"feedback", "Send feedback on the game or a round to Nell, the feedback agent, in your human's words. Nothing about play changes with it.",
		`{"type": "object", "additionalProperties": false, "required": ["text"], "properties": {` + tokenProp + `, ` + roundProp + `,
			"text": {"type": "string", "minLength": 1, "maxLength": 2000, "description": "the feedback, at most 2000 characters"}}}`},
	{"my_record", "Your human's record: rounds, results against a notional 200 CCD entry, rungs as mole, accusations and how many were right, the record against each house agent, the last rounds.",
		`{"type": "object", "additionalProperties": false, "required": ["token"], "properties": {` + tokenProp + `}}`},
}

// tool builds the mcp.Tool of a definition. The schemas above are constants: a bad one is a
// bug caught by the tests (TestToolSchemas).
//
// Annotations help a connector decide what to confirm with the person: list_tables, next_move
// and my_record only read (readOnlyHint); nothing is destructive; the world is the arena alone.
func (d toolDef) tool() mcp.Tool {
	t := mcp.NewToolWithRawSchema(d.name, d.desc, json.RawMessage(d.schema))
	ro := readOnlyTools[d.name]
	no := false
	t.Annotations = mcp.ToolAnnotation{Title: toolTitles[d.name], ReadOnlyHint: &ro, DestructiveHint: &no, OpenWorldHint: &no}
	return t
}

// readOnlyTools change nothing at the arena.
var readOnlyTools = map[string]bool{"list_tables": true, "next_move": true, "my_record": true}

// toolTitles are the tools' human-readable titles.
var toolTitles = map[string]string{
	"register": "Register a walk-in", "list_tables": "List tables", "play_practice": "Play a Practice round",
	"host_table": "Host a table", "join_table": "Join a table", "start_table": "Start your hosted table",
	"leave_table": "Leave a hosted table", "next_move": "Next move", "talk": "Talk", "commit": "Commit (promise to pay)",
	"pass": "Pass", "feedback": "Send feedback", "my_record": "My record",
}
