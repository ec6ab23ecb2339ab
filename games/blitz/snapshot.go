package blitz

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"arena/games"
)

// A snapshot is event-sourced: the setup, the fees and every input that changed the match,
// with its instant. Restore replays them, so Restore(Snapshot()) followed by the same inputs
// gives byte-identical events. It is Blitz's own, not the games contract's: a table logs its
// inputs and comes back by games.Replay; Events (the round runner, arena sim) replays a
// snapshot, and it is the form of the records earlier builds wrote (which the table replays as
// an input log).
type snapshotV1 struct {
	V     int         `json:"v"`
	Fees  Fees        `json:"fees"`
	Setup games.Setup `json:"setup"`
	Log   []logOp     `json:"log"`
}

type logOp struct {
	Op     string      `json:"op"` // "advance", "act" or "abandon"
	At     time.Time   `json:"at"`
	Input  games.Input `json:"input,omitzero"`
	Reason string      `json:"reason,omitempty"` // abandon's
}

// snapshotHead is snapshotV1 less its log, which Snapshot writes from logJSON.
type snapshotHead struct {
	V     int         `json:"v"`
	Fees  Fees        `json:"fees"`
	Setup games.Setup `json:"setup"`
}

// Snapshot is everything Restore needs: snapshotV1 as JSON. The inputs are written to JSON once
// each, the first time a snapshot includes them, and kept only as that JSON (logJSON): a live
// table's snapshot, taken at every commit, costs its new inputs and one copy, and the match holds
// no decoded input longer than until the next commit.
func (m *Match) Snapshot() ([]byte, error) { return m.snapshot(true) }

// snapshot is Snapshot; keep moves the new inputs into logJSON (Snapshot), or else leaves the
// match as it was (Events: a later Snapshot still holds every input).
func (m *Match) snapshot(keep bool) ([]byte, error) {
	if m.journaled {
		return nil, errJournaled
	}
	var entries [][]byte
	var err error
	if keep {
		entries, err = m.takeLog()
	} else {
		entries, err = m.logEntries()
	}
	if err != nil {
		return nil, err
	}
	head, err := json.Marshal(snapshotHead{V: 1, Fees: m.fees, Setup: m.setup})
	if err != nil {
		return nil, err
	}
	size := len(head) + len(`,"log":[]`) + m.logJSON.size
	for _, b := range entries {
		size += len(b) + 1
	}
	out := make([]byte, 0, size)
	out = append(append(out, head[:len(head)-1]...), `,"log":[`...)
	if keep {
		for _, b := range entries {
			m.logJSON.add(b)
		}
		out = m.logJSON.appendTo(out)
	} else {
		out = m.logJSON.appendTo(out)
		for _, b := range entries {
			if len(out) > 0 && out[len(out)-1] != '[' {
				out = append(out, ',')
			}
			out = append(out, b...)
		}
	}
	return append(out, "]}"...), nil
}

// errJournaled is Snapshot's error once the match has let its inputs go to the table's log.
var errJournaled = errors.New("blitz: snapshot: the match's inputs are in the table's input log (DropInputs)")

// DropInputs lets go of the inputs the match holds (games.InputKeeper): a table logs them
// itself. Snapshot fails from now on.
func (m *Match) DropInputs() {
	m.journaled = true
	m.forgetLog()
}

// takeLog writes the inputs since the last Snapshot as JSON, one value each, and
// forgets them; on an error it keeps them all and returns nothing.
func (m *Match) takeLog() ([][]byte, error) {
	entries, err := m.logEntries()
	if err != nil {
		return nil, err
	}
	clear(m.log)
	m.log = m.log[:0]
	return entries, nil
}

// logEntries writes the inputs since the last Snapshot as JSON, one value each.
func (m *Match) logEntries() ([][]byte, error) {
	entries := make([][]byte, 0, len(m.log))
	for i := range m.log {
		b, err := json.Marshal(m.log[i])
		if err != nil {
			return nil, fmt.Errorf("blitz: snapshot input %d: %w", i, err)
		}
		entries = append(entries, b)
	}
	return entries, nil
}

// forgetLog empties the input log once its inputs are stored. A match that drops its inputs
// (DropInputs) has them stored by its table at every step, a few at a time: a log grown larger than that (the round-sized one a
// match starts with, logHint) is let go rather than held empty between steps, where it was
// 18 KiB of a live Blitz table's heap.
func (m *Match) forgetLog() {
	if m.journaled && cap(m.log) > journalLogRoom {
		m.log = nil
		return
	}
	clear(m.log)
	m.log = m.log[:0]
}

// journalLogRoom is the input log a match that drops its inputs keeps between steps: a step's inputs.
const journalLogRoom = 16
