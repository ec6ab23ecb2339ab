package feed

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"arena/games/canon"
)

// Version is the envelope's v (§15.2).
const Version = 1

// Envelope is one Gallery feed message's data (§15.2): the version, the feed's sequence number
// (the global feed's own, or the match's counted from 0 on a match feed, §15.1), the event's
// instant (RFC 3339 UTC, milliseconds), the match and its game ("" for the lobby), the event type,
// its round (0, omitted, for events outside a round) and the type's public data (§15.3).
type Envelope struct {
	V       int             `json:"v"`
	Seq     uint64          `json:"seq"`
	T       string          `json:"t"`
	MatchID string          `json:"match_id,omitempty"`
	Game    string          `json:"game,omitempty"`
	Type    string          `json:"type"`
	Round   int             `json:"round,omitempty"`
	Data    json.RawMessage `json:"data"`
}

// Head is what every event of a match names: the instant it happened, the match and its game.
type Head struct {
	At      time.Time
	MatchID string
	Game    string
}

// Event is one public event ready to be appended to the feed: an Envelope without its seq. Only
// this package's constructors make one (its fields are unexported), so its data is always one of
// §15.3's types.
type Event struct {
	head  Head
	typ   string
	round int
	data  []byte // JCS of the type's data
	err   error  // why a constructor refused its fields (the Event is then empty)
}

// ErrEmpty is an Event made without a constructor (the zero Event), which no feed accepts.
var ErrEmpty = errors.New("feed: empty event")

// Type is the event's §15.3 type ("" for the zero Event).
func (e Event) Type() string { return e.typ }

// MatchID is the match the event belongs to ("" for the lobby).
func (e Event) MatchID() string { return e.head.MatchID }

// Round is the event's round, 0 for events outside one.
func (e Event) Round() int { return e.round }

// Err is why the constructor refused the event's fields (a seat other than A or B, a step,
// reason or word outside its closed list, a hash or salt that is not lowercase hex of its size):
// the Event is then empty. Nil for an Event a constructor made whole; ErrEmpty for the zero Event.
func (e Event) Err() error {
	switch {
	case e.err != nil:
		return e.err
	case e.typ == "":
		return ErrEmpty
	}
	return nil
}

// Envelope is e under sequence number seq. It fails with Err's error for an empty Event.
func (e Event) Envelope(seq uint64) (Envelope, error) {
	if err := e.Err(); err != nil {
		return Envelope{}, err
	}
	return Envelope{V: Version, Seq: seq, T: Stamp(e.head.At), MatchID: e.head.MatchID, Game: e.head.Game,
		Type: e.typ, Round: e.round, Data: json.RawMessage(e.data)}, nil
}

// Stamp is t as RFC 3339 UTC with milliseconds, the form of every instant in the feed (§0).
func Stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z07:00") }

// build makes an Event of typ from data, one of this package's data types. Only an integer
// beyond ±(2^53−1) fails to encode (no Warden amount comes near one, §0): build then returns the
// zero Event, which every feed refuses with ErrEmpty.
func build(h Head, typ string, round int, data any) Event {
	b, err := canon.Marshal(data)
	if err != nil {
		return Event{}
	}
	return Event{head: h, typ: typ, round: round, data: b}
}

// LogHash is the match's public log hash (§15.5): "sha256:" + hex(SHA-256) over JCS(envelope) ‖
// "\n" for each envelope in order, as the match feed numbers them (seq from 0). The caller passes
// the events from match_opened up to the one before match_finished. An envelope that does not
// encode (data that is not JSON) fails.
func LogHash(envs []Envelope) (string, error) {
	var all []byte
	for _, e := range envs {
		b, err := canon.Marshal(e)
		if err != nil {
			return "", fmt.Errorf("feed: log hash: envelope %d (%s): %w", e.Seq, e.Type, err)
		}
		all = append(append(all, b...), '\n')
	}
	return canon.ID(all), nil
}
