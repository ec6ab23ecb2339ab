package wire

import (
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf8"

	"arena/games"
	"arena/games/canon"
)

// Kind is an inbound message's "type" (breakroom-protocol-v0.md, "Agent → Server").
type Kind string

// The kinds an agent sends.
const (
	KindJoin     Kind = "join"
	KindMove     Kind = "move"
	KindState    Kind = "state"
	KindFeedback Kind = "feedback"
	KindPaid     Kind = "paid"
)

// kinds lists the inbound kinds in the spec's order, for the unknown-type refusal's detail.
var kinds = []Kind{KindJoin, KindMove, KindState, KindFeedback, KindPaid}

// Limits the decoder holds (breakroom-protocol-v0.md "Agent → Server", "Feedback").
const (
	MaxAgentName    = 40   // agent_name, in Unicode code points
	MaxFeedbackText = 2000 // feedback text, in code points (1 at least)
)

// Inbound is one decoded agent message: *Join, *Move, *StateRequest, *Feedback or *Paid.
type Inbound interface {
	Kind() Kind
}

// Join asks for a seat at game (or, while the key has a running match of that game, re-seats it:
// "Reconnecting"). The door checks the signature and the nonce (transport/breakroom/auth); the
// decoder checks only that the members are there with their JSON types, and that agent_name is at
// most MaxAgentName code points with no control character.
type Join struct {
	Game         string `json:"game"`
	AuthorPubkey string `json:"author_pubkey"` // x-only key, 64 lower-case hex (checked by auth)
	Nonce        string `json:"nonce"`
	Sig          string `json:"sig"`                  // BIP-340 over sha256(utf8(nonce)), 128 hex
	AgentName    string `json:"agent_name,omitempty"` // "" when absent
	Spoilers     bool   `json:"spoilers,omitempty"`
	// StakeSats asks for a paid table ("Paid tables"); nil at a free one. Its value is the
	// product's to judge (bad_stake, payments_disabled).
	StakeSats *int64 `json:"stake_sats,omitempty"`
}

// Kind is "join".
func (*Join) Kind() Kind { return KindJoin }

// Move is a move's envelope and body (breakroom-protocol-v0.md "Agent → Server": "type, v,
// match_id, round and turn are the envelope; everything else is passed to the game"). Body is a
// JSON object of every other member, in the order sent, each value's bytes as received (so a game
// can still refuse 1e2 as an amount that is no integer); action and message are in it. A body
// without action is the game's to refuse (illegal_move, breakroom-games.md §1.3).
type Move struct {
	MatchID string
	Round   int64 // ≥ 0
	Turn    int64 // ≥ 0
	Body    json.RawMessage
}

// Kind is "move".
func (*Move) Kind() Kind { return KindMove }

// Action is the body's action member when it is a string, else "".
func (m *Move) Action() string {
	v, err := canon.Parse(m.Body)
	if err != nil {
		return ""
	}
	for i := 0; i < v.Len(); i++ {
		if name, val := v.Member(i); name == "action" {
			s, _ := val.Str()
			return s
		}
	}
	return ""
}

// StateRequest asks for the match's state message.
type StateRequest struct {
	MatchID string `json:"match_id"`
}

// Kind is "state".
func (*StateRequest) Kind() Kind { return KindState }

// Feedback is a note on a finished match ("Feedback"): Text 1..MaxFeedbackText code points,
// Rating 1..5 or 0 when absent.
type Feedback struct {
	MatchID string `json:"match_id"`
	Text    string `json:"text"`
	Rating  int    `json:"rating,omitempty"`
}

// Kind is "feedback".
func (*Feedback) Kind() Kind { return KindFeedback }

// Paid tells the server an invoice is paid ("Paid tables"). On the WebSocket the socket's join
// is the identity; over HTTP (POST /v0/paid) the message is signed like a join, so AuthorPubkey,
// Nonce and Sig are required there.
type Paid struct {
	PaymentHash  string `json:"payment_hash"`
	PayoutLnaddr string `json:"payout_lnaddr"`
	AuthorPubkey string `json:"author_pubkey,omitempty"`
	Nonce        string `json:"nonce,omitempty"`
	Sig          string `json:"sig,omitempty"`
}

// Kind is "paid".
func (*Paid) Kind() Kind { return KindPaid }

// refuse is a decoder refusal: a *games.Error with the protocol's code (transport/door.AsRefusal
// writes it as is).
func refuse(code, format string, args ...any) error { return games.Errorf(code, format, args...) }

// Decode reads one WebSocket frame. In order, the first failure answering:
//   - more than MaxFrame bytes → too_large;
//   - not one strict JSON value (canon: malformed, invalid UTF-8, trailing data, a duplicate or
//     case-folded member name, an integer beyond ±(2^53−1)) → bad_request;
//   - not an object, no "type", a type that is not a string → bad_request;
//   - no "v" → bad_request; a "v" other than the number 0 → bad_version;
//   - a type that is not an inbound kind → bad_request naming the kinds;
//   - the kind's own members (missing, wrong JSON type, unknown, out of bounds) → bad_request
//     naming the member.
func Decode(raw []byte) (Inbound, error) {
	obj, err := object(raw)
	if err != nil {
		return nil, err
	}
	tv, ok := obj.get("type")
	if !ok {
		return nil, refuse(CodeBadRequest, "missing member \"type\"")
	}
	t, ok := tv.Str()
	if !ok {
		return nil, refuse(CodeBadRequest, "$.type: want a string")
	}
	vv, ok := obj.get("v")
	if !ok {
		return nil, refuse(CodeBadRequest, "missing member \"v\" (the protocol version, 0)")
	}
	if err := version(vv); err != nil {
		return nil, err
	}
	return decodeKind(Kind(t), obj, false, "")
}

// DecodeHTTP reads one HTTP body of the kind the route names (POST /v0/join: KindJoin; POST
// /v0/matches/{id}/move: KindMove with matchID the path's id; …/feedback: KindFeedback; POST
// /v0/paid: KindPaid). As the spec's "HTTP fallback" says, "v" is optional in requests and so is
// "type"; when present, v must be 0 (bad_version) and type must be kind (bad_request). A move's
// or feedback's match_id is the path's: a body may repeat it but not name another (bad_request).
// Everything else is refused exactly as Decode refuses it, with the same codes and details.
func DecodeHTTP(kind Kind, matchID string, raw []byte) (Inbound, error) {
	obj, err := object(raw)
	if err != nil {
		return nil, err
	}
	if tv, ok := obj.get("type"); ok {
		if t, ok := tv.Str(); !ok || Kind(t) != kind {
			return nil, refuse(CodeBadRequest, "$.type: this route takes %q (or no type)", kind)
		}
	}
	if vv, ok := obj.get("v"); ok {
		if err := version(vv); err != nil {
			return nil, err
		}
	}
	return decodeKind(kind, obj, true, matchID)
}

// members is a parsed object with its members by name (canon refused duplicates already).
type members struct {
	raw   []byte
	val   canon.Value
	names []string
	vals  []canon.Value
}

func (m members) get(name string) (canon.Value, bool) {
	for i, n := range m.names {
		if n == name {
			return m.vals[i], true
		}
	}
	return canon.Value{}, false
}

// object checks the frame cap and strict JSON and returns the object's members.
func object(raw []byte) (members, error) {
	if len(raw) > MaxFrame {
		return members{}, refuse(CodeTooLarge, "message of %d bytes; frames over %d bytes are refused", len(raw), MaxFrame)
	}
	v, err := canon.Parse(raw)
	if err != nil {
		return members{}, refuse(CodeBadRequest, "%s", canon.Reason(err))
	}
	if v.Kind() != canon.Object {
		return members{}, refuse(CodeBadRequest, "a message is one JSON object with \"type\" and \"v\"")
	}
	m := members{raw: raw, val: v, names: make([]string, v.Len()), vals: make([]canon.Value, v.Len())}
	for i := range m.names {
		m.names[i], m.vals[i] = v.Member(i)
	}
	return m, nil
}

// CheckVersion is nil when raw, a message's "v" member as sent, is the integer 0, else the
// bad_version refusal Decode and DecodeHTTP give, for a door that reads its own body (POST
// /v0/handle) but must refuse a wrong v as the playing doors do.
func CheckVersion(raw []byte) error {
	v, err := canon.Parse(raw)
	if err != nil {
		return refuse(CodeBadVersion, "this server speaks protocol version 0; got v %s", clip(raw))
	}
	return version(v)
}

// version refuses any v but the integer 0.
func version(v canon.Value) error {
	if n, ok := v.Int(); ok && n == V && string(v.Raw()) == "0" {
		return nil
	}
	return refuse(CodeBadVersion, "this server speaks protocol version 0; got v %s", clip(v.Raw()))
}

// clip is a value's bytes for a detail, cut to 32 bytes.
func clip(b []byte) string {
	if len(b) > 32 {
		return string(b[:32]) + "…"
	}
	return string(b)
}

func decodeKind(kind Kind, obj members, http bool, pathMatch string) (Inbound, error) {
	switch kind {
	case KindJoin:
		return decodeJoin(obj)
	case KindMove:
		return decodeMove(obj, http, pathMatch)
	case KindState:
		var s StateRequest
		if err := strict(obj, &wrapState{StateRequest: &s}, need(!http, "match_id")); err != nil {
			return nil, err
		}
		if err := matchIn(&s.MatchID, http, pathMatch); err != nil {
			return nil, err
		}
		return &s, nil
	case KindFeedback:
		return decodeFeedback(obj, http, pathMatch)
	case KindPaid:
		var p Paid
		req := []string{"payment_hash", "payout_lnaddr"}
		if http {
			req = append(req, "author_pubkey", "nonce", "sig")
		}
		if err := strict(obj, &wrapPaid{Paid: &p}, req); err != nil {
			return nil, err
		}
		return &p, nil
	}
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = string(k)
	}
	return nil, refuse(CodeBadRequest, "unknown type %q; an agent sends one of %s", clip([]byte(kind)), strings.Join(names, ", "))
}

// need is names when cond holds, else none.
func need(cond bool, names ...string) []string {
	if cond {
		return names
	}
	return nil
}

// strict checks that every name in required is present, then decodes the object into v, a
// pointer to one of the wrap* structs (the message beside its type and v), with canon.Decode:
// exact names, no unknown members, JSON types.
func strict(obj members, v any, required []string) error {
	for _, name := range required {
		if _, ok := obj.get(name); !ok {
			return refuse(CodeBadRequest, "missing member %q", name)
		}
	}
	if err := canon.Decode(obj.raw, v); err != nil {
		return refuse(CodeBadRequest, "%s", canon.Reason(err))
	}
	return nil
}

// head is the members every message has beside its own: type and v, checked before.
type head struct {
	Type json.RawMessage `json:"type"`
	V    json.RawMessage `json:"v"`
}

type (
	wrapJoin struct {
		head
		*Join
	}
	wrapState struct {
		head
		*StateRequest
	}
	wrapFeedback struct {
		head
		*Feedback
	}
	wrapPaid struct {
		head
		*Paid
	}
)

// matchIn fills a message's match_id from the path over HTTP (a body may repeat it, not change it)
// and refuses an empty one.
func matchIn(id *string, http bool, pathMatch string) error {
	if http {
		if *id != "" && *id != pathMatch {
			return refuse(CodeBadRequest, "$.match_id: %q is not the match of this path", clip([]byte(*id)))
		}
		*id = pathMatch
	}
	if *id == "" {
		return refuse(CodeBadRequest, "$.match_id: empty")
	}
	return nil
}

func decodeJoin(obj members) (Inbound, error) {
	var j Join
	if err := strict(obj, &wrapJoin{Join: &j}, []string{"game", "author_pubkey", "nonce", "sig"}); err != nil {
		return nil, err
	}
	if n := utf8.RuneCountInString(j.AgentName); n > MaxAgentName {
		return nil, refuse(CodeBadRequest, "$.agent_name: %d characters; at most %d", n, MaxAgentName)
	}
	for _, r := range j.AgentName {
		if unicode.IsControl(r) {
			return nil, refuse(CodeBadRequest, "$.agent_name: control characters are refused")
		}
	}
	return &j, nil
}

func decodeFeedback(obj members, http bool, pathMatch string) (Inbound, error) {
	var f Feedback
	if err := strict(obj, &wrapFeedback{Feedback: &f}, append(need(!http, "match_id"), "text")); err != nil {
		return nil, err
	}
	if err := matchIn(&f.MatchID, http, pathMatch); err != nil {
		return nil, err
	}
	if n := utf8.RuneCountInString(f.Text); n < 1 || n > MaxFeedbackText {
		return nil, refuse(CodeBadRequest, "$.text: %d characters; 1 to %d", n, MaxFeedbackText)
	}
	if rv, ok := obj.get("rating"); ok {
		if n, _ := rv.Int(); n < 1 || n > 5 {
			return nil, refuse(CodeBadRequest, "$.rating: a whole number from 1 to 5")
		}
	}
	return &f, nil
}

func decodeMove(obj members, http bool, pathMatch string) (Inbound, error) {
	m := &Move{}
	var haveRound, haveTurn, haveMatch bool
	body := make([]byte, 0, len(obj.raw))
	body = append(body, '{')
	first := true
	for i, name := range obj.names {
		v := obj.vals[i]
		switch name {
		case "type", "v":
		case "match_id":
			s, ok := v.Str()
			if !ok {
				return nil, refuse(CodeBadRequest, "$.match_id: want a string")
			}
			m.MatchID, haveMatch = s, true
		case "round", "turn":
			n, ok := v.Int()
			if !ok || n < 0 || string(v.Raw()) == "-0" {
				return nil, refuse(CodeBadRequest, "$.%s: want a whole number ≥ 0", name)
			}
			if name == "round" {
				m.Round, haveRound = n, true
			} else {
				m.Turn, haveTurn = n, true
			}
		default:
			if !first {
				body = append(body, ',')
			}
			first = false
			key, _ := json.Marshal(name)
			body = append(body, key...)
			body = append(body, ':')
			body = append(body, v.Raw()...)
		}
	}
	switch {
	case !haveMatch && !http:
		return nil, refuse(CodeBadRequest, "missing member \"match_id\"")
	case !haveRound:
		return nil, refuse(CodeBadRequest, "missing member \"round\"")
	case !haveTurn:
		return nil, refuse(CodeBadRequest, "missing member \"turn\"")
	}
	if err := matchIn(&m.MatchID, http, pathMatch); err != nil {
		return nil, err
	}
	m.Body = append(body, '}')
	return m, nil
}
