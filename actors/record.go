package actors

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"arena/games"
)

// tableRecord is the value of storage tables/<id>: everything a table actor needs to come back
// after a crash or restart, plus what the ops list shows. Match is the engine's Snapshot as of
// the last committed step; it is written together with that step's events (CommitStep).
type tableRecord struct {
	ID     string         `json:"id"`
	Round  string         `json:"round"`
	Spec   TableSpec      `json:"spec"`
	Seed   string         `json:"seed"`          // hex of Setup.Seed: house answers are drawn from it
	BYO    map[int]string `json:"byo,omitempty"` // the keys KeyProvider.Open resolved (hex) by seat
	Status string         `json:"status"`
	Turn   int            `json:"turn"`
	Phase  string         `json:"phase"`
	Match  []byte         `json:"-"` // stored after the header, raw (encode)
	// Journal says the match is its input log (games.Logged entries under the store's inputs,
	// storage.Inputs), replayed by games.ReplayLog: the log's head (games.LogHead) is Match until
	// the first commit moves it into the log as its first entry; Match is empty after that. A
	// record without Journal was written before every table logged its inputs: Match is then an
	// event-sourced snapshot ({v, setup, log}).
	Journal bool `json:"journal,omitempty"`
	// headMoved: this record's commit moves the head into the log, so the record is written.
	headMoved bool
	Result    *games.Result `json:"result,omitempty"`
	// Unsettled: the round is finished, and its end may not have been announced (RoundEnded to the
	// walk-ins' mailboxes) or its anchors recorded yet. Set by every commit of a finished round and
	// cleared once the table stops with nothing outstanding; boot recovery starts a finished table
	// that still has it, to finish the job (a crash between the reveal's commit and its replies).
	Unsettled bool `json:"unsettled,omitempty"`
	// LastError is the last panic or failure; Restarts the panics survived since the last ops
	// restart; Poison the input that last panicked (isolation rule, supervisor.go).
	LastError string      `json:"last_error,omitempty"`
	Restarts  int         `json:"restarts"`
	Poison    *poisonMark `json:"poison,omitempty"`
	Created   time.Time   `json:"created"`
	Updated   time.Time   `json:"updated"`
}

// poisonMark names the input a table panicked on. If the restarted table panics on the same
// input again it is parked as failed.
type poisonMark struct {
	Input string    `json:"input"`
	At    time.Time `json:"at"`
}

// The stored form is the record's JSON header, a newline, then the engine's snapshot bytes as
// they are: the snapshot is neither base64-encoded nor escaped on every step. (json.Marshal
// never writes a raw newline, so the first one ends the header.)
func decodeRecord(id string, b []byte) (*tableRecord, error) {
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		return nil, fmt.Errorf("%w: table %s: no header", ErrDamaged, id)
	}
	var r tableRecord
	if err := json.Unmarshal(b[:i], &r); err != nil {
		return nil, fmt.Errorf("%w: table %s: %w", ErrDamaged, id, err)
	}
	r.Match = b[i+1:]
	return &r, nil
}

// game is the record's game (TableSpec.Game; "" for no record).
func (r *tableRecord) game() string {
	if r == nil {
		return ""
	}
	return r.Spec.Game
}

func (r *tableRecord) encode() []byte {
	b, err := json.Marshal(r)
	if err != nil { // only plain data: cannot fail
		panic(fmt.Sprintf("actors: encode table record %s: %v", r.ID, err))
	}
	out := make([]byte, 0, len(b)+1+len(r.Match))
	out = append(append(append(out, b...), '\n'), r.Match...)
	return out
}

func (r *tableRecord) info() TableInfo {
	ti := TableInfo{ID: r.ID, Game: r.Spec.Game, Format: r.Spec.Format, Kind: r.Spec.Kind, Round: r.Round,
		Turn: r.Turn, Phase: r.Phase, Status: r.Status, LastError: r.LastError, Restarts: r.Restarts,
		Created: r.Created, Updated: r.Updated, Seats: make([]SeatInfo, 0, len(r.Spec.Seats))}
	for _, s := range r.Spec.Seats {
		ti.Seats = append(ti.Seats, SeatInfo{Seat: s.Seat.Seat, Agent: s.Seat.Agent, Name: s.Seat.Name,
			Kind: s.Kind, Channel: s.Channel})
	}
	return ti
}
