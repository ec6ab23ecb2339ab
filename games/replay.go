package games

import (
	"encoding/json"
	"fmt"
	"time"
)

// Logged is one call a table made into a match that changed it: its input log's entry. Op is
// "advance" (Advance(At) with a deadline due), "act" (Act(At, Input), accepted) or "abandon"
// (Abandon(At, Reason)). A refused Act changes nothing and is not logged; nor is an Advance
// before the deadline. The JSON form ({"op","at","input"}) is the entry as the store keeps it.
type Logged struct {
	Op     string    `json:"op"`
	At     time.Time `json:"at"`
	Input  Input     `json:"input,omitzero"`
	Reason string    `json:"reason,omitempty"`
}

// Ops of a Logged entry.
const (
	OpAdvance = "advance"
	OpAct     = "act"
	OpAbandon = "abandon"
)

// LogHead is the first entry of a table's input log: the Setup the match was made from, so the
// log alone rebuilds the match (Replay). V is 1.
type LogHead struct {
	V     int   `json:"v"`
	Setup Setup `json:"setup"`
}

// Apply makes the call l records on m and returns its step. An Act the match refuses is an
// error: replayed from a log, it means the log is not this match's.
func Apply(m Match, l Logged) (Step, error) {
	switch l.Op {
	case OpAdvance:
		return m.Advance(l.At), nil
	case OpAct:
		st, err := m.Act(l.At, l.Input)
		if err != nil {
			return Step{}, err
		}
		return st, nil
	case OpAbandon:
		return m.Abandon(l.At, l.Reason), nil
	}
	return Step{}, fmt.Errorf("games: log op %q", l.Op)
}

// Replay makes a new match of e from s and applies log to it in order: boot recovery of a table,
// verification of a published log, re-simulation from a revealed seed (Break Room verify-log).
// Rules are pure, so the match it returns is the live one's equal and the events are the live
// match's transcript, byte for byte. Errors: New's, and any entry refused or unknown (wrapped
// with its index).
func Replay(e Engine, s Setup, keys Keyring, log []Logged) (Match, []Event, error) {
	var evs []Event
	m, err := replay(e, s, keys, len(log), func(i int) (Logged, error) { return log[i], nil }, &evs)
	return m, evs, err
}

// ReplayLog is Replay of a log as the store keeps it, without the events (boot recovery): head
// is the LogHead's JSON, entries one Logged JSON each.
func ReplayLog(e Engine, head []byte, entries [][]byte, keys Keyring) (Match, error) {
	var h LogHead
	if err := json.Unmarshal(head, &h); err != nil {
		return nil, fmt.Errorf("games: log head: %w", err)
	}
	if h.V != 1 {
		return nil, fmt.Errorf("games: log head: version %d", h.V)
	}
	return replay(e, h.Setup, keys, len(entries), func(i int) (Logged, error) {
		var l Logged
		err := json.Unmarshal(entries[i], &l)
		return l, err
	}, nil)
}

func replay(e Engine, s Setup, keys Keyring, n int, entry func(int) (Logged, error), evs *[]Event) (Match, error) {
	m, err := e.New(s, keys)
	if err != nil {
		return nil, err
	}
	for i := range n {
		l, err := entry(i)
		if err != nil {
			return nil, fmt.Errorf("games: log entry %d: %w", i, err)
		}
		st, err := Apply(m, l)
		if err != nil {
			return nil, fmt.Errorf("games: replay entry %d (%s at %s): %w", i, l.Op, l.At.UTC().Format(time.RFC3339Nano), err)
		}
		if evs != nil {
			*evs = append(*evs, st.Events...)
		}
	}
	return m, nil
}
