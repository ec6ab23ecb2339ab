// Package verify holds the checks `arena anchor-check` runs on a revealed round's transcript
// (§5.5, §11.4, §11.5): it rebuilds, from the ordered event list and the game's plan
// (games.AnchorPlanner), every anchor the arena had to register (kind, seq, hash), finds each
// anchor.<kind> event's transaction on a Concordium node, decodes its 50 DataRegistered bytes
// (chain/anchor) and compares all four fields; it has the game recompute the commitment its
// reveal opens (games.Opener) and run its own checks (games.Verifier: Blitz's sealed
// commitments). The game is the engine in Options; the package knows no game's rules.
//
// The package does no I/O of its own: the node is an interface (Node, met by *ccd.Client), and
// the replacement of a re-signed transaction is a callback (Follow). Check never panics on any
// input; a malformed transcript yields FAIL lines, not errors.
package verify

import (
	"bytes"
	"crypto/sha256"
	"encoding"
	"encoding/json"
	"fmt"
	"hash"

	"arena/games/canon"
)

// Event is one transcript event as served (§15): its members and its raw bytes, whose JCS form
// is what the hashes run over.
type Event struct {
	Seq        int64           `json:"seq"`
	Round      string          `json:"round"`
	Turn       int             `json:"turn"`
	Phase      string          `json:"phase"`
	At         string          `json:"at"`
	Type       string          `json:"type"`
	Visibility string          `json:"visibility"`
	Payload    json.RawMessage `json:"payload"`
	raw        json.RawMessage
}

// Transcript is a round's ordered event list: the body of GET /v1/rounds/{round}/transcript,
// {"round": "T-<n>", "events": [...], "replays": [...]}. Replays are the showings of the
// recorded round (§5.5 kind replay), listed beside the events and not among them: a showing
// never changes the transcript it shows.
type Transcript struct {
	Round   string
	Events  []Event
	Replays []Replay
}

// Parse reads a transcript: {"round", "events", "replays"} as the server serves it, or a bare JSON array
// of events (the round is then the first event's). Errors: not JSON of either shape, an event
// that is not an object, no round id.
func Parse(raw []byte) (Transcript, error) {
	var t Transcript
	raw = bytes.TrimSpace(raw)
	var evs []json.RawMessage
	if len(raw) > 0 && raw[0] == '[' {
		if err := json.Unmarshal(raw, &evs); err != nil {
			return t, fmt.Errorf("verify: transcript: %w", err)
		}
	} else {
		var body struct {
			Round   string            `json:"round"`
			Events  []json.RawMessage `json:"events"`
			Replays []Replay          `json:"replays"`
		}
		if err := json.Unmarshal(raw, &body); err != nil {
			return t, fmt.Errorf("verify: transcript: %w", err)
		}
		t.Round, evs, t.Replays = body.Round, body.Events, body.Replays
	}
	for i, r := range evs {
		var e Event
		if err := json.Unmarshal(r, &e); err != nil {
			return Transcript{}, fmt.Errorf("verify: transcript event %d: %w", i, err)
		}
		e.raw = r
		t.Events = append(t.Events, e)
	}
	if t.Round == "" && len(t.Events) > 0 {
		t.Round = t.Events[0].Round
	}
	if t.Round == "" {
		return Transcript{}, fmt.Errorf("verify: transcript names no round")
	}
	return t, nil
}

// canonical is the JCS bytes of each event (nil where the event's bytes cannot be made
// canonical: a duplicate member, a number JCS refuses).
func canonical(evs []Event) [][]byte {
	out := make([][]byte, len(evs))
	for i, e := range evs {
		raw := e.raw
		if raw == nil { // built in memory (tests): marshal the members
			raw, _ = json.Marshal(map[string]any{"seq": e.Seq, "round": e.Round, "turn": e.Turn, "phase": e.Phase,
				"at": e.At, "type": e.Type, "visibility": e.Visibility, "payload": e.Payload})
		}
		if c, err := canon.Canonical(raw); err == nil {
			out[i] = c
		}
	}
	return out
}

// runningHash is SHA-256 over "[" e1 "," e2 ... "]" fed one canonical event at a time: the hash
// of JCS(list) (§11.5), since JCS of an array is its members' JCS joined by commas.
type runningHash struct {
	h hash.Hash
	n int
}

func newRunningHash() *runningHash { return &runningHash{h: sha256.New()} }

func (r *runningHash) add(c []byte) {
	if r.n == 0 {
		r.h.Write([]byte{'['})
	} else {
		r.h.Write([]byte{','})
	}
	r.h.Write(c)
	r.n++
}

// sum is the hash of the list so far, leaving the stream as it is.
func (r *runningHash) sum() [32]byte {
	st, _ := r.h.(encoding.BinaryMarshaler).MarshalBinary()
	h2 := sha256.New()
	_ = h2.(encoding.BinaryUnmarshaler).UnmarshalBinary(st) // sha256 digests always round-trip
	if r.n == 0 {
		h2.Write([]byte{'['})
	}
	h2.Write([]byte{']'})
	var out [32]byte
	copy(out[:], h2.Sum(nil))
	return out
}
