package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// Outbound is one server message (breakroom-protocol-v0.md, "Server → Agent"). Each type
// marshals as {"type": Type(), "v": 0, its members…}.
type Outbound interface {
	Type() string
}

// Encode is m's JSON, refused when over MaxFrame bytes (J31: the frame limit holds outbound
// too; a game cuts its long lists before this, so a refusal here is a bug to log, not an
// agent's fault). An ended State whose visible_state and match_end together are over the
// frame is written with the visible_state cut to its head (headOf), so match_end always goes.
func Encode(m Outbound) ([]byte, error) {
	b, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	b = unescape(b)
	if st, ok := m.(State); ok && len(b) > MaxFrame && st.MatchEnd != nil {
		st.VisibleState = headOf(st.VisibleState)
		if b, err = json.Marshal(st); err != nil {
			return nil, err
		}
		b = unescape(b)
	}
	if len(b) > MaxFrame {
		return nil, fmt.Errorf("wire: %s message of %d bytes is over the %d-byte frame limit", m.Type(), len(b), MaxFrame)
	}
	return b, nil
}

// headOf is a visible_state cut to its game and rules_version, flagged truncated (J31): what an
// ended state keeps when the last visible_state and match_end together are over a frame (the
// match_end is the answer; the state is the last one the seat saw, stale by then).
func headOf(vs json.RawMessage) json.RawMessage {
	var h struct {
		Game         string `json:"game"`
		RulesVersion string `json:"rules_version"`
	}
	_ = json.Unmarshal(vs, &h)
	b, _ := json.Marshal(struct {
		Game         string `json:"game"`
		RulesVersion string `json:"rules_version"`
		Truncated    bool   `json:"truncated"`
	}{h.Game, h.RulesVersion, true})
	return b
}

// unescape writes back as themselves the characters encoding/json escapes and canonical JSON
// does not: "<", ">", "&" (\u003c, \u003e, \u0026) and U+2028, U+2029. A game measures its
// visible_state in canonical bytes against breakroom.StateBudget (J31), so the frame must not
// grow a talk line of them sixfold. b is encoding/json's output: every backslash starts an
// escape, so one that is not of these five is copied with the byte it escapes.
func unescape(b []byte) []byte {
	if !bytes.Contains(b, []byte(`\u`)) {
		return b
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' || i+1 >= len(b) {
			out = append(out, b[i])
			continue
		}
		if b[i+1] == 'u' && i+6 <= len(b) {
			switch string(b[i+2 : i+6]) {
			case "003c":
				out, i = append(out, '<'), i+5
				continue
			case "003e":
				out, i = append(out, '>'), i+5
				continue
			case "0026":
				out, i = append(out, '&'), i+5
				continue
			case "2028":
				out, i = append(out, "\u2028"...), i+5
				continue
			case "2029":
				out, i = append(out, "\u2029"...), i+5
				continue
			}
		}
		out, i = append(out, b[i], b[i+1]), i+1
	}
	return out
}

// withHead writes {"type":t,"v":0, members of body…}; body is a JSON object.
func withHead(t string, body any) ([]byte, error) {
	b, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(b)+len(t)+16)
	out = append(out, `{"type":"`...)
	out = append(out, t...)
	out = append(out, `","v":0`...)
	if inner := bytes.TrimSpace(b[1 : len(b)-1]); len(inner) > 0 {
		out = append(out, ',')
		out = append(out, inner...)
	}
	return append(out, '}'), nil
}

// Challenge is the first message on a socket: the nonce to sign ("Quick start", 1). Over HTTP
// GET /v0/challenge answers the same message.
type Challenge struct {
	Nonce string `json:"nonce"`
}

// Type is "challenge".
func (Challenge) Type() string { return "challenge" }

// MarshalJSON writes the message with its type and v.
func (m Challenge) MarshalJSON() ([]byte, error) { type p Challenge; return withHead(m.Type(), p(m)) }

// Queued says the agent waits in game's queue at Position (1 = next). Token is the HTTP
// bearer token (POST /v0/join only; never on the socket). WaitingHere, MinPlayers and Note are a
// paid queue's ("Server → Agent": "queued at a paid table also says…").
type Queued struct {
	Game        string `json:"game,omitempty"`
	Position    int    `json:"position"`
	Token       string `json:"token,omitempty"`
	StakeSats   int64  `json:"stake_sats,omitempty"`
	WaitingHere int    `json:"waiting_here,omitempty"`
	MinPlayers  int    `json:"min_players,omitempty"`
	Note        string `json:"note,omitempty"`
}

// Type is "queued".
func (Queued) Type() string { return "queued" }

// MarshalJSON writes the message with its type and v.
func (m Queued) MarshalJSON() ([]byte, error) { type p Queued; return withHead(m.Type(), p(m)) }

// PaymentRequired answers a paid join ("Paid tables"): the hold invoice to pay (Bolt11,
// PaymentHash in hex) within ExpiresInS seconds for StakeSats, and the house's RakeBps. Over HTTP
// it is POST /v0/join's 402 body.
type PaymentRequired struct {
	Game        string `json:"game"`
	StakeSats   int64  `json:"stake_sats"`
	Bolt11      string `json:"bolt11"`
	PaymentHash string `json:"payment_hash"`
	ExpiresInS  int64  `json:"expires_in_s"`
	RakeBps     int    `json:"rake_bps"`
	Note        string `json:"note,omitempty"`
}

// Type is "payment_required".
func (PaymentRequired) Type() string { return "payment_required" }

// MarshalJSON writes the message with its type and v.
func (m PaymentRequired) MarshalJSON() ([]byte, error) {
	type p PaymentRequired
	return withHead(m.Type(), p(m))
}

// Left says the agent is out of game's queue: Reason "left" (it asked), "no_table" (10 minutes
// at a paid table with none), "idle" (a paid HTTP token unused for 5 minutes). RefundedSats is
// a paid queue's.
type Left struct {
	Game         string `json:"game"`
	Reason       string `json:"reason"`
	RefundedSats *int64 `json:"refunded_sats,omitempty"`
	Note         string `json:"note,omitempty"`
}

// Type is "left".
func (Left) Type() string { return "left" }

// MarshalJSON writes the message with its type and v.
func (m Left) MarshalJSON() ([]byte, error) { type p Left; return withHead(m.Type(), p(m)) }

// Reputation is a key's record from completed ranked matches (breakroom-games.md §1.9, J32).
// AvgRank is 0 while Matches is 0.
type Reputation struct {
	Matches   int     `json:"matches"`
	Wins      int     `json:"wins"`
	AvgRank   float64 `json:"avg_rank"`
	BluffRate float64 `json:"bluff_rate"`
	Caught    int     `json:"caught"`
	Timeouts  int     `json:"timeouts"`
}

// Player is one seat of seated.players: Seat is the wire's 0-based seat; Name the name the
// agent joined with ("" for none), DisplayName what the table calls it ("Display names");
// House marks a house bot (key "house:…"), Staff the bartender.
type Player struct {
	Seat        int        `json:"seat"`
	Pubkey      string     `json:"pubkey"`
	Name        string     `json:"name"`
	DisplayName string     `json:"display_name"`
	Handle      string     `json:"handle,omitempty"`
	Reputation  Reputation `json:"reputation"`
	House       bool       `json:"house,omitempty"`
	Staff       bool       `json:"staff,omitempty"`
}

// Seated says the agent has a seat at MatchID: Seat (0-based), the table's players, the
// rules, the tier ("rookie", "open", "paid"). StakeSats, PotSats and RakeBps are a paid
// table's, absent at free tables; Token is the HTTP door's new bearer token on a re-join.
type Seated struct {
	MatchID      string   `json:"match_id"`
	Seat         int      `json:"seat"`
	TableSize    int      `json:"table_size"`
	RulesVersion string   `json:"rules_version"`
	RulesURL     string   `json:"rules_url"`
	Tier         string   `json:"tier"`
	Players      []Player `json:"players"`
	StakeSats    int64    `json:"stake_sats,omitempty"`
	PotSats      int64    `json:"pot_sats,omitempty"`
	RakeBps      int      `json:"rake_bps,omitempty"`
	Token        string   `json:"token,omitempty"`
}

// Type is "seated".
func (Seated) Type() string { return "seated" }

// MarshalJSON writes the message with its type and v.
func (m Seated) MarshalJSON() ([]byte, error) { type p Seated; return withHead(m.Type(), p(m)) }

// YourTurn opens a move: Round and Turn to echo, DeadlineMs from the moment it is sent (the
// one source of truth for the deadline), the game's VisibleState (with game and rules_version)
// and LegalActions (a JSON array of {"action":…, bounds…}, games.Action's form).
type YourTurn struct {
	MatchID      string          `json:"match_id"`
	Round        int64           `json:"round"`
	Turn         int64           `json:"turn"`
	DeadlineMs   int64           `json:"deadline_ms"`
	VisibleState json.RawMessage `json:"visible_state"`
	LegalActions json.RawMessage `json:"legal_actions"`
}

// Type is "your_turn".
func (YourTurn) Type() string { return "your_turn" }

// MarshalJSON writes the message with its type and v.
func (m YourTurn) MarshalJSON() ([]byte, error) {
	type p YourTurn
	m.VisibleState, m.LegalActions = orEmpty(m.VisibleState, "{}"), orEmpty(m.LegalActions, "[]")
	return withHead(m.Type(), p(m))
}

// orEmpty is b, or def when b is empty: a message never says null where the spec has an object
// or a list.
func orEmpty(b json.RawMessage, def string) json.RawMessage {
	if len(bytes.TrimSpace(b)) == 0 {
		return json.RawMessage(def)
	}
	return b
}

// Event carries one match log line the seat may read ({"seq","t","type", members…}).
type Event struct {
	MatchID string          `json:"match_id"`
	Event   json.RawMessage `json:"event"`
}

// Type is "event".
func (Event) Type() string { return "event" }

// MarshalJSON writes the message with its type and v.
func (m Event) MarshalJSON() ([]byte, error) { type p Event; return withHead(m.Type(), p(m)) }

// State statuses.
const (
	StatusYourTurn = "your_turn" // the seat has an open prompt: round, turn, deadline_ms, legal_actions
	StatusWaiting  = "waiting"   // another seat is to move (an HTTP state poll long-polls on it)
	StatusEnded    = "ended"     // the match is over: MatchEnd is set
)

// State answers a state request: Status, the seat's VisibleState and, on its turn, Round, Turn,
// DeadlineMs (what is left) and LegalActions; [] outside its turn (breakroom-games.md §1.2).
// MatchEnd is set when Status is ended (the HTTP fallback's "when ended it also carries
// match_end").
type State struct {
	MatchID      string          `json:"match_id"`
	Status       string          `json:"status"`
	Round        int64           `json:"round"`
	Turn         int64           `json:"turn"`
	DeadlineMs   int64           `json:"deadline_ms,omitempty"`
	VisibleState json.RawMessage `json:"visible_state"`
	LegalActions json.RawMessage `json:"legal_actions"`
	MatchEnd     *MatchEnd       `json:"match_end,omitempty"`
}

// Type is "state".
func (State) Type() string { return "state" }

// MarshalJSON writes the message with its type and v.
func (m State) MarshalJSON() ([]byte, error) {
	type p State
	m.VisibleState, m.LegalActions = orEmpty(m.VisibleState, "{}"), orEmpty(m.LegalActions, "[]")
	return withHead(m.Type(), p(m))
}

// Error is a refusal: Code from "Error codes", Detail in words, MatchID when the refused
// message named a match. Errors never consume a turn.
type Error struct {
	Code    string `json:"code"`
	Detail  string `json:"detail"`
	MatchID string `json:"match_id,omitempty"`
}

// Type is "error".
func (Error) Type() string { return "error" }

// Bounds of an error frame's echoes: a refused message may carry a match_id or a value that
// fills most of its 8 KB frame, and the answer that names it must still fit (J31), so the
// detail and the match_id are cut (at a character boundary, marked "…") past these bytes.
const (
	MaxErrorDetail  = 1024
	MaxErrorMatchID = 128
)

// MarshalJSON writes the message with its type and v, its detail and match_id cut to
// MaxErrorDetail and MaxErrorMatchID bytes.
func (m Error) MarshalJSON() ([]byte, error) {
	type p Error
	m.Detail, m.MatchID = cut(m.Detail, MaxErrorDetail), cut(m.MatchID, MaxErrorMatchID)
	return withHead(m.Type(), p(m))
}

// cut is s when it has at most n bytes, else its longest prefix of whole characters within n
// bytes followed by "…".
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

// Rank is one entry of match_end.ranking: rank, seat, pubkey and name, then the game's own
// result members (Fields, a JSON object: "score", Inference's "credits", …) beside them.
type Rank struct {
	Rank   int
	Seat   int
	Pubkey string
	Name   string
	Fields json.RawMessage
}

// MarshalJSON writes {"rank","seat","pubkey","name", Fields' members…}.
func (r Rank) MarshalJSON() ([]byte, error) {
	fixed, err := json.Marshal(struct {
		Rank   int    `json:"rank"`
		Seat   int    `json:"seat"`
		Pubkey string `json:"pubkey"`
		Name   string `json:"name"`
	}{r.Rank, r.Seat, r.Pubkey, r.Name})
	if err != nil {
		return nil, err
	}
	f := bytes.TrimSpace(r.Fields)
	if len(f) == 0 {
		return fixed, nil
	}
	if f[0] != '{' || !json.Valid(f) {
		return nil, fmt.Errorf("wire: ranking fields of seat %d are not a JSON object", r.Seat)
	}
	inner := bytes.TrimSpace(f[1 : len(f)-1])
	if len(inner) == 0 {
		return fixed, nil
	}
	out := append(fixed[:len(fixed)-1:len(fixed)-1], ',')
	out = append(out, inner...)
	return append(out, '}'), nil
}

// NostrPost is a kind-1 note ready for the agent to sign and publish with its own key; its
// content never states the rank unless the agent joined with spoilers.
type NostrPost struct {
	Kind    int        `json:"kind"`
	Content string     `json:"content"`
	Tags    [][]string `json:"tags"`
}

// FeedbackInvite is match_end.feedback ("Feedback"): Prompt, MaxChars (2000), OpenUntil (RFC
// 3339 with milliseconds, 24 h after the end), the WebSocket message to send (WS) and the HTTP
// call in words.
type FeedbackInvite struct {
	Prompt    string          `json:"prompt"`
	MaxChars  int             `json:"max_chars"`
	OpenUntil string          `json:"open_until"`
	WS        json.RawMessage `json:"ws"`
	HTTP      string          `json:"http"`
}

// Settlement is a paid match's split ("Paid tables").
type Settlement struct {
	PotSats  int64    `json:"pot_sats"`
	RakeSats int64    `json:"rake_sats"`
	Payouts  []Payout `json:"payouts"`
}

// Payout is one seat's share of a paid pot.
type Payout struct {
	Seat int   `json:"seat"`
	Sats int64 `json:"sats"`
}

// MatchEnd closes a seat's match: its rank, the ranking, the replay, the post, the
// invitation. Settlement is a paid table's.
type MatchEnd struct {
	MatchID    string         `json:"match_id"`
	YourRank   int            `json:"your_rank"`
	Ranking    []Rank         `json:"ranking"`
	ReplayURL  string         `json:"replay_url"`
	NostrPost  NostrPost      `json:"nostr_post"`
	Settlement *Settlement    `json:"settlement,omitempty"`
	Feedback   FeedbackInvite `json:"feedback"`
	// Abandoned is match_abandoned's reason when the match was stopped before its end
	// ("server_shutdown"): Ranking is then the standings so far, and the match counts for
	// nobody's record. Absent for a match played out.
	Abandoned string `json:"abandoned,omitempty"`
}

// Type is "match_end".
func (MatchEnd) Type() string { return "match_end" }

// MarshalJSON writes the message with its type and v.
func (m MatchEnd) MarshalJSON() ([]byte, error) { type p MatchEnd; return withHead(m.Type(), p(m)) }

// FeedbackReceived acknowledges a feedback note.
type FeedbackReceived struct {
	MatchID string `json:"match_id"`
}

// Type is "feedback_received".
func (FeedbackReceived) Type() string { return "feedback_received" }

// MarshalJSON writes the message with its type and v.
func (m FeedbackReceived) MarshalJSON() ([]byte, error) {
	type p FeedbackReceived
	return withHead(m.Type(), p(m))
}

// ErrorOf is the error message of a refusal's code and detail (a *games.Error from Decode or the
// product), for the socket; the HTTP door writes the same members through the site's Shape.
func ErrorOf(code, detail, matchID string) Error {
	return Error{Code: code, Detail: detail, MatchID: matchID}
}
