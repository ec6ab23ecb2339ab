package storage

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

// The walkin table's queues (bucket walkin_queue), DOTDOTDOT's walk-ins waiting for the walkin
// table of one format and pace (§4.4), and the tables filled from a queue while they are being
// opened, so a restart keeps every place in the queue and seats a filled table's walk-ins:
//
//	walkin_queue  <format> "/" <pace>   WalkinQueue JSON
//
// The desk actor (actors/dotdotdot/lobby.go) is the only writer.

// WalkinQueue is one queue as stored. Since is when the first walk-in now waiting came (the
// two-minute top-up runs from it; zero when none waits). Opening are the tables filled from the
// queue that are being opened, each with its walk-ins in seat order.
type WalkinQueue struct {
	Format  string         `json:"format"`
	Pace    string         `json:"pace"`
	Since   time.Time      `json:"since,omitzero"`
	Waiting []QueuedWalkin `json:"waiting"`
	Opening []QueuedTable  `json:"opening,omitempty"`
}

// QueuedWalkin is one walk-in in a queue: its record key (sha256 of its token, hex) and name.
type QueuedWalkin struct {
	Hash string `json:"hash"`
	Name string `json:"name"`
}

// QueuedTable is a table filled from a queue, being opened: its id and its walk-ins in seat
// order.
type QueuedTable struct {
	Table   string         `json:"table"`
	Walkins []QueuedWalkin `json:"walkins"`
}

// Key is the queue's key, format "/" pace.
func (q WalkinQueue) Key() string { return q.Format + "/" + q.Pace }

// PutWalkinQueue stores q under its key, or deletes the key when q has nobody waiting and no
// table opening (one transaction, coalesced with concurrent writers): durable when it returns
// nil. ErrBadKey for an empty format or pace, or one holding '/'.
func (s *Store) PutWalkinQueue(q WalkinQueue) error {
	if checkQueueKey(q.Format, q.Pace) != nil {
		return fmt.Errorf("storage: put walkin queue %q: %w", q.Key(), ErrBadKey)
	}
	if len(q.Waiting) == 0 && len(q.Opening) == 0 {
		return s.del(BucketWalkinQueue, q.Key())
	}
	b, err := json.Marshal(&q)
	if err != nil {
		return fmt.Errorf("storage: put walkin queue %s: %w", q.Key(), err)
	}
	return s.put(BucketWalkinQueue, q.Key(), b)
}

// WalkinQueues returns every stored queue, in key order.
func (s *Store) WalkinQueues() ([]WalkinQueue, error) {
	var out []WalkinQueue
	err := s.scan(BucketWalkinQueue, "", func(k string, v []byte) error {
		var q WalkinQueue
		if err := json.Unmarshal(v, &q); err != nil {
			return fmt.Errorf("walkin queue %s: %w", k, err)
		}
		out = append(out, q)
		return nil
	})
	return out, err
}

func checkQueueKey(format, pace string) error {
	if format == "" || pace == "" || strings.Contains(format, "/") || strings.Contains(pace, "/") {
		return ErrBadKey
	}
	return nil
}

// checkWalkinQueue is Check's reading of one queue: under its own key, not empty, every walk-in
// a record key, every opening table an id.
func checkWalkinQueue(k, v []byte, _ *bolt.Bucket) error {
	var q WalkinQueue
	if err := json.Unmarshal(v, &q); err != nil {
		return fmt.Errorf("walkin queue does not decode: %v", err)
	}
	switch {
	case checkQueueKey(q.Format, q.Pace) != nil || q.Key() != string(k):
		return fmt.Errorf("walkin queue %q under another key", q.Key())
	case len(q.Waiting) == 0 && len(q.Opening) == 0:
		return errors.New("an empty queue")
	}
	ws := q.Waiting
	for _, t := range q.Opening {
		if checkID(t.Table) != nil || len(t.Walkins) == 0 {
			return fmt.Errorf("opening table %q with %d walk-ins", t.Table, len(t.Walkins))
		}
		ws = append(ws[:len(ws):len(ws)], t.Walkins...)
	}
	for _, w := range ws {
		if !isHexHash(w.Hash) {
			return fmt.Errorf("walk-in %q is not a record key", w.Hash)
		}
	}
	return nil
}
