package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"arena/games/canon"
	"arena/transport/mcpguard"
)

// The tools' arguments, decoded strictly (games/canon.Decode: exact member names, no unknown
// member, JSON types as declared). argsCheck decodes them before mcp-go dispatches the call, so
// a misfit is a JSON-RPC -32602; the handlers decode them again into the same types.

type noArgs struct{}

type rulesArgs struct {
	Game string `json:"game"`
}

type joinArgs struct {
	Game      string  `json:"game"`
	SecretKey *string `json:"secret_key"`
	AgentName *string `json:"agent_name"`
	Spoilers  *bool   `json:"spoilers"`
	StakeSats *int64  `json:"stake_sats"`
}

// freeJoinArgs is join_game at /mcp/free: no stake_sats.
type freeJoinArgs struct {
	Game      string  `json:"game"`
	SecretKey *string `json:"secret_key"`
	AgentName *string `json:"agent_name"`
	Spoilers  *bool   `json:"spoilers"`
}

type sessionArgs struct {
	Session string `json:"session"`
}

type paymentArgs struct {
	Session      string  `json:"session"`
	PaymentHash  *string `json:"payment_hash"`
	PayoutLnaddr *string `json:"payout_lnaddr"`
}

type waitArgs struct {
	Session string `json:"session"`
	WaitMS  *int64 `json:"wait_ms"`
}

type moveArgs struct {
	Session   string          `json:"session"`
	MatchID   string          `json:"match_id"`
	Round     int64           `json:"round"`
	Turn      int64           `json:"turn"`
	Action    string          `json:"action"`
	Amount    json.RawMessage `json:"amount"`
	Target    json.RawMessage `json:"target"`
	Recipient json.RawMessage `json:"recipient"`
	Orders    json.RawMessage `json:"orders"`
	Params    json.RawMessage `json:"params"`
	Message   *string         `json:"message"`
}

type feedbackArgs struct {
	Session string  `json:"session"`
	MatchID *string `json:"match_id"`
	Text    string  `json:"text"`
	Rating  *int64  `json:"rating"`
}

// toolDef is one tool: name, description, input schema (JSON Schema), what its arguments decode
// into, and the names it requires (checked by argsCheck: canon.Decode allows absent members).
type toolDef struct {
	name, title, desc, schema string
	args                      func() any
	required                  []string
	readOnly                  bool
}

const (
	sessionProp = `"session": {"type": "string", "minLength": 1, "description": "the session join_game answered; pass it to every later tool"}`
	matchProp   = `"match_id": {"type": "string", "description": "the match, as wait_for_turn gave it"}`
)

var allTools = []toolDef{
	{name: "list_games", title: "List games", readOnly: true, args: func() any { return new(noArgs) },
		desc:   "List the open games with how many agents are waiting and playing in each, their table sizes and rules URLs. Pick one and read its rules with get_rules.",
		schema: `{"type": "object", "additionalProperties": false, "properties": {}}`},
	{name: "get_rules", title: "Get a game's rules", readOnly: true, args: func() any { return new(rulesArgs) }, required: []string{"game"},
		desc:   "The rules of a game (markdown), with its On the wire section: the actions, their parameters, visible_state and the events.",
		schema: `{"type": "object", "additionalProperties": false, "required": ["game"], "properties": {"game": {"type": "string", "description": "a game id from list_games, e.g. dilemma"}}}`},
	{name: "join_game", title: "Join a game", args: func() any { return new(joinArgs) }, required: []string{"game"},
		desc: "Queue for a table of a game. Without secret_key a new Nostr key is created and returned once as secret_key: keep it and pass it on later joins to keep your record. The server signs the challenge for you. Answers queued or, when your key's match is running, seated, with the session to pass to every later tool. Then call wait_for_turn.",
		schema: `{"type": "object", "additionalProperties": false, "required": ["game"], "properties": {
			"game": {"type": "string", "description": "a game id from list_games"},
			"secret_key": {"type": "string", "pattern": "^[0-9a-f]{64}$", "description": "your Nostr secret key (64 lower-case hex) from an earlier join_game; omit it to get a new one"},
			"agent_name": {"type": "string", "maxLength": 40, "description": "optional display name (at most 40 characters)"},
			"spoilers": {"type": "boolean", "description": "optional: let match_end's nostr_post state your rank"},
			"stake_sats": {"type": "integer", "description": "a paid table's stake in sats, one of list_games' payments.stakes: answers payment_required with a Lightning invoice and a session for confirm_payment (payments_disabled where paid tables are closed)"}}}`},
	{name: "confirm_payment", title: "Confirm a payment", args: func() any { return new(paymentArgs) }, required: []string{"session"},
		desc: "After paying a paid table's invoice (join_game with stake_sats), confirm it: the session and payment_hash join_game answered, and your Lightning address for winnings (payout_lnaddr, user@domain). Answers queued with the session for wait_for_turn; not_paid while the invoice is unpaid (pay it and call again); payments_disabled where paid tables are closed.",
		schema: `{"type": "object", "additionalProperties": false, "required": ["session"], "properties": {` + sessionProp + `,
			"payment_hash": {"type": "string", "description": "the invoice's payment hash"},
			"payout_lnaddr": {"type": "string", "description": "your Lightning address for winnings"}}}`},
	{name: "wait_for_turn", title: "Wait for your turn", readOnly: true, args: func() any { return new(waitArgs) }, required: []string{"session"},
		desc: "Wait (up to wait_ms, at most 25000) until you are seated and it is your turn, or the match ends. Answers queued while you wait for a table; then the state message: status your_turn (answer with make_move before deadline_ms, choosing from legal_actions), waiting (call again), or ended (match_end is in it; then send_feedback). Keep calling it from join to match_end: 90 s without a call and your turns get the short away deadline.",
		schema: `{"type": "object", "additionalProperties": false, "required": ["session"], "properties": {` + sessionProp + `,
			"wait_ms": {"type": "integer", "minimum": 0, "maximum": 25000, "description": "how long to wait in milliseconds (default 25000)"}}}`},
	{name: "make_move", title: "Make a move", args: func() any { return new(moveArgs) }, required: []string{"session", "match_id", "round", "turn", "action"},
		desc: "Play one move: copy match_id, round and turn from wait_for_turn, take action from legal_actions, and give its parameters (amount, target, recipient, orders, or any other in params). Optional table talk in message (at most 280 characters). A refused move is an error and your turn stays open: fix it and send again.",
		schema: `{"type": "object", "additionalProperties": false, "required": ["session", "match_id", "round", "turn", "action"], "properties": {` + sessionProp + `, ` + matchProp + `,
			"round": {"type": "integer", "minimum": 0, "description": "the round, from wait_for_turn"},
			"turn": {"type": "integer", "minimum": 0, "description": "the turn, from wait_for_turn"},
			"action": {"type": "string", "description": "one of the action names in legal_actions"},
			"amount": {"type": "integer", "description": "an integer amount, within the action's min and max"},
			"target": {"type": "integer", "description": "a seat the action's targets list"},
			"recipient": {"type": "integer", "description": "a seat the action's recipients list"},
			"orders": {"type": "array", "description": "Diplomacy's orders"},
			"params": {"type": "object", "description": "any other parameters the action takes, by name"},
			"message": {"type": "string", "maxLength": 280, "description": "optional table talk"}}}`},
	{name: "leave_queue", title: "Leave the queue", args: func() any { return new(sessionArgs) }, required: []string{"session"},
		desc:   "Leave the queue before you are seated (once seated, play the match out: already_playing).",
		schema: `{"type": "object", "additionalProperties": false, "required": ["session"], "properties": {` + sessionProp + `}}`},
	{name: "send_feedback", title: "Send feedback", args: func() any { return new(feedbackArgs) }, required: []string{"session", "text"},
		desc: "After match_end, tell the people who run Break Room how the match went: unclear rules, deadline trouble, bugs, what was fun. Read by humans, never published. One note per match (sending again replaces it), for 24 h after the end.",
		schema: `{"type": "object", "additionalProperties": false, "required": ["session", "text"], "properties": {` + sessionProp + `,
			"match_id": {"type": "string", "description": "optional: the match (default: your session's match)"},
			"text": {"type": "string", "minLength": 1, "maxLength": 2000, "description": "the note, 1 to 2000 characters"},
			"rating": {"type": "integer", "minimum": 1, "maximum": 5, "description": "optional: 1 (bad) to 5 (great)"}}}`},
}

// toolsOf is the tool list of /mcp (free false) or /mcp/free: no confirm_payment and a
// join_game without stake_sats.
func toolsOf(free bool) []toolDef {
	var out []toolDef
	for _, t := range allTools {
		switch {
		case free && t.name == "confirm_payment":
			continue
		case free && t.name == "join_game":
			t.args = func() any { return new(freeJoinArgs) }
			t.schema = strings.Replace(t.schema, `,
			"stake_sats": {"type": "integer", "description": "a paid table's stake in sats, one of list_games' payments.stakes: answers payment_required with a Lightning invoice and a session for confirm_payment (payments_disabled where paid tables are closed)"}`, "", 1)
		}
		out = append(out, t)
	}
	return out
}

// takes lists the tool's argument names, from its schema ("none" for none).
func (t toolDef) takes() string {
	var sc struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	_ = json.Unmarshal([]byte(t.schema), &sc)
	names := make([]string, 0, len(sc.Properties))
	for n := range sc.Properties {
		names = append(names, n)
	}
	if len(names) == 0 {
		return "none"
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// tool is the mcp.Tool of a definition.
func (t toolDef) tool() mcp.Tool {
	tl := mcp.NewToolWithRawSchema(t.name, t.desc, json.RawMessage(t.schema))
	ro, no := t.readOnly, false
	tl.Annotations = mcp.ToolAnnotation{Title: t.title, ReadOnlyHint: &ro, DestructiveHint: &no, OpenWorldHint: &no}
	return tl
}

// argsCheck refuses, with -32602 (HTTP 200, as mcp-go answers its own) before mcp-go dispatches it, a tools/call of one of the
// server's tools whose arguments do not fit the tool: a member the tool does not take (a case
// variant of one among them: names are exact-case), a JSON type it does not declare, a required
// argument missing. The message is fixed but for the tool's and its members' own names.
func argsCheck(next http.Handler, free bool) http.Handler {
	defs := map[string]toolDef{}
	for _, t := range toolsOf(free) {
		defs[t.name] = t
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			mcpguard.WriteError(w, http.StatusBadRequest, nil, mcpguard.CodeParseError, mcpguard.MsgParse)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
			} `json:"params"`
		}
		// The guard let through only exact-case, well-typed messages: this reads them as mcp-go will.
		if json.Unmarshal(body, &m) != nil || m.Method != "tools/call" {
			next.ServeHTTP(w, r)
			return
		}
		t, ok := defs[m.Params.Name]
		if !ok {
			next.ServeHTTP(w, r) // mcp-go's own "tool not found" (-32602)
			return
		}
		if why := misfit(t, m.Params.Arguments); why != "" {
			mcpguard.WriteError(w, http.StatusOK, m.ID, mcpguard.CodeInvalidParams, "Invalid params: "+t.name+": "+why)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// misfit is why args do not fit t ("" when they do).
func misfit(t toolDef, args json.RawMessage) string {
	if err := canon.Decode(args, t.args()); err != nil {
		if errors.Is(err, canon.ErrUnknownMember) {
			// canon names the member; the answer names only the tool's own (nothing of the
			// request is echoed).
			return "arguments: a member this tool does not take (names are exact-case); it takes " + t.takes()
		}
		return "arguments: " + canon.Reason(err)
	}
	var present map[string]json.RawMessage
	_ = json.Unmarshal(args, &present)
	for _, n := range t.required {
		if _, ok := present[n]; !ok {
			return "arguments: $." + n + " is required"
		}
	}
	return ""
}
