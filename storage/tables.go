package storage

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strings"

	bolt "go.etcd.io/bbolt"

	"arena/games"
)

// CommitStep writes a table's new snapshot and the step's events in one transaction
// (write-ahead: docs/design.md, "Write before you speak"). Each event is stored as JSON under
// events/<event.Round>/<event.Seq>, once: the same (round, seq) written again with the same
// bytes changes nothing (a write the committer runs again, a step written twice), and with other
// bytes fails the whole commit with ErrExists, so an engine that numbers two lines alike cannot
// silently replace a transcript line. The first event of a round also records rounds/<round> =
// tableID. Concurrent calls share one bbolt transaction (group commit, committer.go); the call returns
// once its data is durable (or, with Options.NoSync, written).
func (s *Store) CommitStep(tableID string, snapshot []byte, events []games.Event) error {
	return s.CommitInputs(tableID, snapshot, nil, events)
}

// CommitInputs is CommitStep for a table that logs its inputs: the record (unless nil: the
// stored one still holds), the new inputs and the step's events in one transaction. Inputs are
// appended to the table's input log (inputs.go) in the order given, after every input an earlier
// call stored, each under the next seq (from 1); Inputs and ScanInputs read them back.
func (s *Store) CommitInputs(tableID string, snapshot []byte, inputs [][]byte, events []games.Event) error {
	if err := checkID(tableID); err != nil {
		return fmt.Errorf("storage: commit step of table %q: %w", tableID, err)
	}
	if s.hook != nil {
		if err := s.hook(tableID); err != nil {
			return fmt.Errorf("storage: commit step of table %s: %w", tableID, err)
		}
	}
	type line struct {
		key, val []byte
		round    string
		seq      int64
	}
	lines := make([]line, 0, len(events))
	for i := range events {
		ev := &events[i]
		if err := checkID(ev.Round); err != nil {
			return fmt.Errorf("storage: commit step of table %s: event %d round %q: %w", tableID, ev.Seq, ev.Round, err)
		}
		val, err := json.Marshal(ev)
		if err != nil {
			return fmt.Errorf("storage: commit step of table %s: encode event %s/%d: %w", tableID, ev.Round, ev.Seq, err)
		}
		lines = append(lines, line{key: eventKey(ev.Round, ev.Seq), val: val, round: ev.Round, seq: ev.Seq})
	}
	err := s.write(func(tx *bolt.Tx) error {
		if snapshot != nil {
			if err := tx.Bucket([]byte(BucketTables)).Put([]byte(tableID), snapshot); err != nil {
				return err
			}
		}
		if err := appendInputs(tx, tableID, inputs); err != nil {
			return err
		}
		evb, rb := tx.Bucket([]byte(BucketEvents)), tx.Bucket([]byte(BucketRounds))
		last := ""
		for _, l := range lines {
			if old := evb.Get(l.key); old != nil {
				if bytes.Equal(old, l.val) {
					continue
				}
				return fmt.Errorf("event %s/%d is stored with other bytes: %w", l.round, l.seq, ErrExists)
			}
			if err := evb.Put(l.key, l.val); err != nil {
				return err
			}
			if l.round != last {
				last = l.round
				if rb.Get([]byte(l.round)) == nil {
					if err := rb.Put([]byte(l.round), []byte(tableID)); err != nil {
						return err
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("storage: commit step of table %s (%d events): %w", tableID, len(events), err)
	}
	return nil
}

// CreateTable creates table tableID in one transaction: it fails with ErrExists if the id is
// taken, else increments the meta counter (first value 1), calls build with the new value and
// stores what build returns as the table record, and (if round is not empty) rounds/<round> =
// tableID, so the round is known before its first event. Concurrent calls share a transaction, so
// build may run more than once and must be pure; an error from build aborts the creation and is
// returned wrapped. Round numbers ("T-<n>") come from here, so a round number is never reused.
func (s *Store) CreateTable(tableID, counter string, build func(n uint64) (record []byte, round string, err error)) (uint64, error) {
	if err := checkID(tableID); err != nil {
		return 0, fmt.Errorf("storage: create table %q: %w", tableID, err)
	}
	var n uint64
	err := s.write(func(tx *bolt.Tx) error {
		tb := tx.Bucket([]byte(BucketTables))
		if tb.Get([]byte(tableID)) != nil {
			return ErrExists
		}
		meta := tx.Bucket([]byte(BucketMeta))
		key := []byte("seq/" + counter)
		n = 0
		if v := meta.Get(key); len(v) == 8 {
			n = binary.BigEndian.Uint64(v)
		}
		n++
		if err := meta.Put(key, u64(n)); err != nil {
			return err
		}
		rec, round, err := build(n)
		if err != nil {
			return err
		}
		if round != "" {
			if err := checkID(round); err != nil {
				return fmt.Errorf("round %q: %w", round, err)
			}
			if err := tx.Bucket([]byte(BucketRounds)).Put([]byte(round), []byte(tableID)); err != nil {
				return err
			}
		}
		return tb.Put([]byte(tableID), rec)
	})
	if err != nil {
		return 0, fmt.Errorf("storage: create table %s: %w", tableID, err)
	}
	return n, nil
}

// PutTable writes a table record alone (status changes that carry no event).
func (s *Store) PutTable(tableID string, record []byte) error {
	if err := checkID(tableID); err != nil {
		return fmt.Errorf("storage: put table %q: %w", tableID, err)
	}
	if err := s.write(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(BucketTables)).Put([]byte(tableID), record)
	}); err != nil {
		return fmt.Errorf("storage: put table %s: %w", tableID, err)
	}
	return nil
}

// LoadTable returns a copy of the table record, or ErrNotFound.
func (s *Store) LoadTable(tableID string) ([]byte, error) {
	v, err := s.get(BucketTables, tableID)
	if err != nil {
		return nil, fmt.Errorf("storage: load table %s: %w", tableID, err)
	}
	return v, nil
}

// ListTables calls fn with every table id and a copy of its record, in id order, until fn returns
// an error (which ListTables returns).
func (s *Store) ListTables(fn func(id string, record []byte) error) error {
	return s.scan(BucketTables, "", func(k string, v []byte) error { return fn(k, v) })
}

// RoundTable returns the id of the table that plays round, or ErrNotFound.
func (s *Store) RoundTable(round string) (string, error) {
	v, err := s.get(BucketRounds, round)
	if err != nil {
		return "", fmt.Errorf("storage: round %s: %w", round, err)
	}
	return string(v), nil
}

// TableRounds returns the rounds table plays (rounds/<round> = table), in round order: the way
// back from a table to its transcript when its record cannot be read. It scans every round.
func (s *Store) TableRounds(table string) ([]string, error) {
	var out []string
	err := s.scan(BucketRounds, "", func(k string, v []byte) error {
		if string(v) == table {
			out = append(out, k)
		}
		return nil
	})
	return out, err
}

// Events returns the transcript of a round in seq order (empty, not an error, for an unknown
// round).
func (s *Store) Events(round string) ([]games.Event, error) {
	if err := checkID(round); err != nil {
		return nil, fmt.Errorf("storage: events of round %q: %w", round, err)
	}
	var out []games.Event
	prefix := []byte(round + "/")
	err := s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(BucketEvents))
		if b == nil {
			return nil // a read-only file with no rounds yet
		}
		c := b.Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			var ev games.Event
			if err := json.Unmarshal(v, &ev); err != nil {
				return fmt.Errorf("decode event %s/%d: %w", round, binary.BigEndian.Uint64(k[len(prefix):]), err)
			}
			out = append(out, ev)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("storage: events of round %s: %w", round, err)
	}
	return out, nil
}

// eventKey is <round>/<seq as 8 bytes big-endian>: prefix scans of "<round>/" come out in seq
// order, and the '/' keeps round "T-1" from matching "T-10".
func eventKey(round string, seq int64) []byte {
	k := make([]byte, 0, len(round)+9)
	k = append(k, round...)
	k = append(k, '/')
	return binary.BigEndian.AppendUint64(k, uint64(seq))
}

func checkID(id string) error {
	if id == "" || strings.ContainsRune(id, '/') {
		return ErrBadKey
	}
	return nil
}
