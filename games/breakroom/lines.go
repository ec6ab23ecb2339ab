package breakroom

import (
	"time"

	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"

	"arena/games"
	"arena/games/canon"
)

// The protocol's error codes a game's refusals carry (breakroom-protocol-v0 "Error codes"), in
// the order breakroom-games §1.3 checks a move: the envelope (not_your_turn, stale_turn), then
// the action (illegal_move), its amount (bad_amount), its message (bad_message). match_over
// answers every move once the match has ended; not_seated a seat the match does not have;
// bad_request a body that is not a JSON object or holds a member of the wrong type.
const (
	CodeBadRequest  = "bad_request"
	CodeNotSeated   = "not_seated"
	CodeNotYourTurn = "not_your_turn"
	CodeStaleTurn   = "stale_turn"
	CodeIllegalMove = "illegal_move"
	CodeBadAmount   = "bad_amount"
	CodeBadMessage  = "bad_message"
	CodeMatchOver   = "match_over"
)

// Frame limits (protocol "Transport", §1.8, J31): a frame over MaxFrame bytes is refused in
// both directions, so a game keeps a prompt's visible_state within StateBudget bytes, leaving
// the rest of the frame for the your_turn envelope and legal_actions.
const (
	MaxFrame    = 8192
	StateBudget = 7168
)

// DefaultMessageChars is the table-talk limit in Unicode code points (protocol, §1.4).
const DefaultMessageChars = 280

// PhaseTurn is the Phase of every Break Room move (MoveOf): the round and turn name the move.
const PhaseTurn = "turn"

// StateID numbers one prompt by its round and turn (§1.2): round in the high 32 bits, turn in
// the low, so it is never zero for a round ≥ 1 (games.Move.StateID, the generic stale check).
func StateID(round, turn int) uint64 { return uint64(uint32(round))<<32 | uint64(uint32(turn)) }

// MoveOf is the games.Move of the prompt of round and turn: what a door builds from a move's
// envelope ({"round":…, "turn":…}) and hands the match, which answers stale_turn unless it is
// the open prompt's.
func MoveOf(round, turn int) games.Move {
	return games.Move{Turn: turn, Phase: PhaseTurn, StateID: StateID(round, turn)}
}

// RoundTurn reads MoveOf's round and turn back; false for a Move MoveOf did not make.
func RoundTurn(m games.Move) (round, turn int, ok bool) {
	round, turn = int(m.StateID>>32), int(uint32(m.StateID))
	return round, turn, m.Phase == PhaseTurn && m.Exchange == 0 && round >= 1 && m.Turn == turn
}

// WireSeat is the 0-based seat Break Room writes (payloads, visible_state, legal_actions) for the
// house's 1-based games.Seat.
func WireSeat(houseSeat int) int { return houseSeat - 1 }

// HouseSeat is the house's 1-based seat of a wire seat.
func HouseSeat(wireSeat int) int { return wireSeat + 1 }

// Body is a move's game part (protocol "Agent → Server": everything beside the envelope):
// its action, its message when one was sent (HasMessage), and every member as sent (Member), for
// a game to read its parameters (amount, target, recipient, orders) from. Envelope members (type,
// v, match_id, round, turn) and unknown parameters are ignored by every game (§1.3).
type Body struct {
	Action     string
	HasAction  bool
	Message    string
	HasMessage bool
	v          canon.Value // the parsed object, for Member
	messageErr error       // a message that is not a string: Talk's refusal, after the action's checks
}

// Member is the value of the body's member name as sent (a view of the raw move: read it before
// the move's bytes are reused); false when the body has no such member. The strict parse refused
// a name sent twice, so there is at most one. A move holds a handful of members: they are looked
// up in order rather than gathered into a map for every move.
func (b Body) Member(name string) (json.RawMessage, bool) {
	for i := range b.v.Len() {
		if n, val := b.v.Member(i); n == name {
			return val.Raw(), true
		}
	}
	return nil, false
}

// ParseBody reads a move's game part strictly (canon.Parse: no duplicate or case-folded
// members, no unsafe integers, valid UTF-8, one value): bad_request when it is not one JSON
// object or its action is not a string. A missing action is not an error here: the game answers
// it with illegal_move (§1.3 step 2); a message is judged by Talk, after the action (step 5). A
// null or empty message is no message. Member's values are views of raw (read them before raw
// is reused). Every game reads every move through it: the one parser of a move.
func ParseBody(raw []byte) (Body, error) {
	v, err := canon.Parse(raw)
	if err != nil {
		return Body{}, games.Errorf(CodeBadRequest, "the move is not a JSON object: %s", canon.Reason(err))
	}
	if v.Kind() != canon.Object {
		return Body{}, games.Errorf(CodeBadRequest, "the move is not a JSON object")
	}
	b := Body{v: v}
	for i := range v.Len() {
		name, val := v.Member(i)
		if val.Kind() == canon.Null {
			continue
		}
		switch name {
		case "action":
			s, ok := val.Str()
			if !ok {
				return Body{}, games.Errorf(CodeBadRequest, "action: want a string")
			}
			b.Action, b.HasAction = s, true
		case "message":
			s, ok := val.Str()
			if !ok {
				b.messageErr = games.Errorf(CodeBadMessage, "message: want a string")
				continue
			}
			b.Message, b.HasMessage = s, s != ""
		}
	}
	if b.messageErr != nil {
		b.Message, b.HasMessage = "", false
	}
	return b, nil
}

func isNull(raw json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(raw), []byte("null")) }

// Talk is the move's message checked by CheckMessage ("" for none): bad_message when it is not a
// string, too long, or holds a forbidden character. A game calls it after its action checks.
func (b Body) Talk(limit int) (string, error) {
	if b.messageErr != nil {
		return "", b.messageErr
	}
	if !b.HasMessage {
		return "", nil
	}
	if err := CheckMessage(b.Message, limit); err != nil {
		return "", err
	}
	return b.Message, nil
}

// CheckMessage is §1.4's table-talk rule: at most limit Unicode code points, valid UTF-8, and
// no control character (Unicode Cc: U+0000–U+001F, U+007F–U+009F) other than "\n". Its refusal
// is bad_message naming what is wrong.
func CheckMessage(text string, limit int) error {
	if !utf8.ValidString(text) {
		return games.Errorf(CodeBadMessage, "message: not valid UTF-8")
	}
	n := 0
	for i, r := range text {
		n++
		if r != '\n' && (r < 0x20 || 0x7f <= r && r <= 0x9f) {
			return games.Errorf(CodeBadMessage, "message: control character U+%04X at byte %d (only \\n is allowed)", r, i)
		}
	}
	if n > limit {
		return games.Errorf(CodeBadMessage, "message: %d characters, at most %d", n, limit)
	}
	return nil
}

// Line is one match-log line as the log writer writes it (protocol "Match log (JSONL)"):
// {"seq":…,"t":…,"type":…, then the event's payload members}. seq is the event's Seq − 1, so a
// match's first line (match_start) is seq 0 as in the protocol's sample; t is the event's At
// (RFC 3339 UTC, milliseconds). The payload must be a JSON object; an empty one is {}.
func Line(e games.Event) ([]byte, error) {
	return AppendLine(make([]byte, 0, len(e.Payload)+len(e.At)+len(e.Type)+40), e)
}

// AppendLine is Line appended to dst (a game's running transcript hash reuses one buffer for
// every line). On an error dst is returned unchanged.
func AppendLine(dst []byte, e games.Event) ([]byte, error) {
	p := bytes.TrimSpace(e.Payload)
	if len(p) == 0 {
		p = []byte("{}")
	}
	if p[0] != '{' || p[len(p)-1] != '}' {
		return dst, fmt.Errorf("breakroom: event %d (%s): payload is not a JSON object", e.Seq, e.Type)
	}
	out := append(dst, `{"seq":`...)
	out = strconv.AppendInt(out, e.Seq-1, 10)
	out = appendJSONString(append(out, `,"t":`...), e.At)
	out = appendJSONString(append(out, `,"type":`...), e.Type)
	if inner := bytes.TrimSpace(p[1 : len(p)-1]); len(inner) > 0 {
		out = append(append(out, ','), inner...)
	}
	return append(out, '}'), nil
}

// appendJSONString appends s as encoding/json writes it: quoted as it stands when it is
// printable ASCII that json escapes nowhere (no quote, backslash, <, > or &: timestamps and line
// types), else json.Marshal's bytes.
func appendJSONString(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			return append(dst, q...)
		}
	}
	return append(append(append(dst, '"'), s...), '"')
}

// LogLine is a log line read back (ParseLine): its seq, t and type, and Raw, the line itself.
type LogLine struct {
	Seq  int64
	T    string
	Type string
	Raw  []byte
}

// ParseLine reads one log line strictly (canon): a JSON object with an integer "seq", a string
// "t" and a string "type"; anything else is an error naming what is wrong.
func ParseLine(b []byte) (LogLine, error) {
	var m map[string]json.RawMessage
	if err := canon.Decode(b, &m); err != nil || m == nil {
		return LogLine{}, fmt.Errorf("not a JSON object: %s", canon.Reason(err))
	}
	l := LogLine{Raw: b}
	if err := json.Unmarshal(m["seq"], &l.Seq); err != nil {
		return LogLine{}, fmt.Errorf(`"seq" is not an integer`)
	}
	if err := json.Unmarshal(m["t"], &l.T); err != nil {
		return LogLine{}, fmt.Errorf(`"t" is not a string`)
	}
	if err := json.Unmarshal(m["type"], &l.Type); err != nil || l.Type == "" {
		return LogLine{}, fmt.Errorf(`"type" is not a string`)
	}
	return l, nil
}

// FitNewest is how many of the newest items (each one JSON value, oldest first) fit in budget
// bytes as a JSON array: the count n such that "[" + items[len−n:] joined by "," + "]" is at most
// budget bytes long (J31: a long list keeps its newest entries that fit).
func FitNewest(items [][]byte, budget int) int {
	used, n := 2, 0
	for i := len(items) - 1; i >= 0; i-- {
		add := len(items[i])
		if n > 0 {
			add++
		}
		if used+add > budget {
			break
		}
		used += add
		n++
	}
	return n
}

// PresenceReply is a game's reply (games.Step.Reply) to a presence input (breakroom-games §1.5)
// that moved the seat's open prompt's deadline: the deadline its redelivered prompt carries, so
// the room can write one your_turn with it whichever of the reply and the prompt comes first.
type PresenceReply struct {
	Deadline time.Time `json:"deadline"`
}

// SeqNote is the sentence every game's "On the wire" section ends with: how a copy of the log
// numbers its lines (the protocol's "Match log"; docs/protocol-notes.md "seq before the end"),
// so an agent that matches its events against the replay is not surprised by the numbers.
const SeqNote = "Once the match has ended, `/r/{id}.jsonl` carries the log's own `seq`. Before that, a seat's `event` lines, " +
	"a running match's `/r/{id}.jsonl` and `/r/{id}/live` number only the lines that copy holds (0, 1, 2, …), " +
	"so their `seq` differs from the finished log's.\n"
