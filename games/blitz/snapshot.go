package blitz

import (
	"encoding/json"
	"time"

	"arena/games"
)

// A snapshot is event-sourced: the setup, the fees and every input that changed the match,
// with its instant. Restore replays them, so Restore(Snapshot()) followed by the same inputs
// gives byte-identical events.
type snapshotV1 struct {
	V     int         `json:"v"`
	Fees  Fees        `json:"fees"`
	Setup games.Setup `json:"setup"`
	Log   []logOp     `json:"log"`
}

type logOp struct {
	Op    string      `json:"op"` // "advance" or "act"
	At    time.Time   `json:"at"`
	Input games.Input `json:"input,omitzero"`
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
func (m *Match) Snapshot() ([]byte, error) {
	for i := range m.log {
		b, err := json.Marshal(m.log[i])
		if err != nil {
			m.log = m.log[:copy(m.log, m.log[i:])]
			return nil, err
		}
		m.logJSON.add(b)
	}
	clear(m.log)
	m.log = m.log[:0]
	head, err := json.Marshal(snapshotHead{V: 1, Fees: m.fees, Setup: m.setup})
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(head)+len(`,"log":[]`)+m.logJSON.size)
	out = append(append(out, head[:len(head)-1]...), `,"log":[`...)
	return append(m.logJSON.appendTo(out), "]}"...), nil
}
