package breakroom

import (
	"encoding/json"
	"fmt"

	"arena/games"
)

// Narration puts a match's public log lines in its game's words, line by line, for every door
// that shows a log to people: the plain-text transcript (GET /r/{id}/transcript) and the
// narrated live feed (GET /r/{id}/live?narrate=1). It reads the players' names from the lines it
// has seen (match_start, the log's first line), so a live feed narrates each line as it comes.
// A nil Narrator (a game without words) says each line as its type.
type Narration struct {
	n     games.Narrator
	names map[int]string
}

// NewNarration is a narration in n's words (nil: each line's type).
func NewNarration(n games.Narrator) *Narration { return &Narration{n: n} }

// Say is ev in words; a match_start line first gives the narration the players' names.
func (s *Narration) Say(ev games.Event) string {
	if s.n == nil {
		return ev.Type
	}
	if ev.Type == "match_start" {
		s.names = s.n.Names([]games.Event{ev})
	}
	if w := s.n.Narrate(ev, s.names); w != "" {
		return w
	}
	return ev.Type
}

// Words is ev's narration as a live feed's "n" carries it: the game's words for it, none (an
// empty list) when the game has no words for the line but its type.
func (s *Narration) Words(ev games.Event) []string {
	if w := s.Say(ev); w != ev.Type {
		return []string{w}
	}
	return []string{}
}

// EventOf is a log line as the event it was written from (Line's inverse): seq + 1, t, type, the
// other members as the payload, visibility public (the lines a door reads back are the public
// copy's).
func EventOf(line []byte) (games.Event, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(line, &m); err != nil {
		return games.Event{}, fmt.Errorf("breakroom: log line: %w", err)
	}
	var ev games.Event
	var seq int64
	_ = json.Unmarshal(m["seq"], &seq)
	_ = json.Unmarshal(m["t"], &ev.At)
	_ = json.Unmarshal(m["type"], &ev.Type)
	delete(m, "seq")
	delete(m, "t")
	delete(m, "type")
	ev.Seq = seq + 1
	ev.Visibility = games.Public
	ev.Payload, _ = json.Marshal(m)
	return ev, nil
}
