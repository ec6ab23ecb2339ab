package storage

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Showings (bucket showings): DOTDOTDOT's showings of recorded rounds, a revealed round's public
// transcript shown again on a page of its own at a chosen speed, each with the replay anchor
// registered when it started (§5.5 kind replay):
//
//	showings  <round> "/" <seq: the Unix second it started, 10 digits>  Showing JSON
//
// so that a round's showings are one prefix scan. The showings actor
// (actors/dotdotdot/showing.go) is the only writer.

// Showing is one showing. Seq is the Unix second it started (the replay anchor's seq), Started
// the instant itself; Hash the recorded transcript's hash (hex); Tx the replay anchor's Register
// Data transaction (hex), empty until the chain actor has taken it; Ended once every event has
// been shown.
type Showing struct {
	Round   string    `json:"round"`
	Table   string    `json:"table"`
	Seq     uint32    `json:"seq"`
	Speed   int       `json:"speed"`
	Started time.Time `json:"started"`
	Hash    string    `json:"hash"`
	Tx      string    `json:"tx,omitempty"`
	Ended   bool      `json:"ended,omitempty"`
}

// showingKey is <round>/<seq, 10 digits>.
func showingKey(round string, seq uint32) (string, error) {
	if round == "" || strings.Contains(round, "/") || len(round) > 64 || seq == 0 {
		return "", fmt.Errorf("%w: showing %q/%d", ErrBadKey, round, seq)
	}
	return fmt.Sprintf("%s/%010d", round, seq), nil
}

// PutShowing stores sh under its round and seq, replacing what was there: durable when it
// returns nil. Errors: ErrBadKey for an empty round, one holding '/', or seq 0.
func (s *Store) PutShowing(sh Showing) error {
	k, err := showingKey(sh.Round, sh.Seq)
	if err != nil {
		return fmt.Errorf("storage: put showing: %w", err)
	}
	b, err := json.Marshal(sh)
	if err != nil {
		return err
	}
	return s.put(BucketShowings, k, b)
}

// Showing is the showing of round that started at Unix second seq: ErrNotFound when none.
func (s *Store) Showing(round string, seq uint32) (Showing, error) {
	k, err := showingKey(round, seq)
	if err != nil {
		return Showing{}, fmt.Errorf("storage: showing: %w", err)
	}
	b, err := s.get(BucketShowings, k)
	if err != nil {
		return Showing{}, err
	}
	var sh Showing
	if err := json.Unmarshal(b, &sh); err != nil {
		return Showing{}, fmt.Errorf("%w: showing %s: %v", ErrCorrupt, k, err)
	}
	return sh, nil
}

// Showings is every showing of round ("" : of every round), in round then start order.
func (s *Store) Showings(round string) ([]Showing, error) {
	prefix := ""
	if round != "" {
		if strings.Contains(round, "/") {
			return nil, fmt.Errorf("storage: showings: %w: %q", ErrBadKey, round)
		}
		prefix = round + "/"
	}
	var out []Showing
	err := s.scan(BucketShowings, prefix, func(k string, v []byte) error {
		var sh Showing
		if err := json.Unmarshal(v, &sh); err != nil {
			return fmt.Errorf("%w: showing %s: %v", ErrCorrupt, k, err)
		}
		out = append(out, sh)
		return nil
	})
	return out, err
}

// checkShowing is Check's reading of one showing: its key is its own round and seq.
func checkShowing(k, v []byte, _ *bolt.Bucket) error {
	var sh Showing
	if err := json.Unmarshal(v, &sh); err != nil {
		return fmt.Errorf("showing does not decode: %v", err)
	}
	want, err := showingKey(sh.Round, sh.Seq)
	if err != nil {
		return err
	}
	if string(k) != want {
		return errors.New("key is not the showing's " + strconv.Quote(want))
	}
	return nil
}
