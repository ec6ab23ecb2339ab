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

// Snapshot is everything Restore needs (JSON).
func (m *Match) Snapshot() ([]byte, error) {
	return json.Marshal(snapshotV1{V: 1, Fees: m.fees, Setup: m.setup, Log: m.log})
}
