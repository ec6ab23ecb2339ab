package storage

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// DOTDOTDOT's ratings (bucket ratings): each Badge's rating, and every rated round it rests on,
// in the order they were rated, so the ratings can be recomputed from the rounds alone:
//
//	ratings  agent/<agent id>    a Badge's rating (JSON; actors/dotdotdot owns the shape)
//	         round/<seq, 16 hex> a rated round's result as rated (JSON), seq from 1 in rating order
//	         table/<table id>    the seq its round was rated under (16 hex): a table is rated once
//
// actors/dotdotdot is the one writer.

const (
	rtAgent = "agent/"
	rtRound = "round/"
	rtTable = "table/"
)

func rtSeq(n uint64) string {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], n)
	return hex.EncodeToString(b[:])
}

// RateRound rates table's round once: in one transaction, unless the table was rated before,
// round (JSON) is kept as the next rated round and update is called once with agents' stored
// ratings (old[i] is agents[i]'s, nil for none), the ratings it answers (one per agent, JSON)
// stored. All of a round's ratings are read and written in one write, so rounds rated at once
// never rate from each other's stale ratings. rated is false, and nothing written, when the
// table was rated before. update runs inside the transaction: it must be quick and pure; an
// error from it aborts the whole write. Errors: ErrBadKey for an empty table or agent id.
func (s *Store) RateRound(table string, round []byte, agents []string, update func(old [][]byte) ([][]byte, error)) (rated bool, err error) {
	if table == "" {
		return false, fmt.Errorf("storage: rate round: %w: empty table id", ErrBadKey)
	}
	for _, a := range agents {
		if a == "" {
			return false, fmt.Errorf("storage: rate round %s: %w: empty agent id", table, ErrBadKey)
		}
	}
	if !json.Valid(round) {
		return false, fmt.Errorf("storage: rate round %s: the round is not JSON", table)
	}
	err = s.write(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(BucketRatings))
		if b.Get([]byte(rtTable+table)) != nil {
			return nil
		}
		seq, err := b.NextSequence()
		if err != nil {
			return err
		}
		old := make([][]byte, len(agents))
		for i, a := range agents {
			if v := b.Get([]byte(rtAgent + a)); v != nil {
				old[i] = append([]byte(nil), v...)
			}
		}
		nv, err := update(old)
		if err != nil {
			return err
		}
		if len(nv) != len(agents) {
			return fmt.Errorf("%d ratings for %d agents", len(nv), len(agents))
		}
		for i, a := range agents {
			if !json.Valid(nv[i]) {
				return errors.New("rating is not JSON")
			}
			if err := b.Put([]byte(rtAgent+a), nv[i]); err != nil {
				return err
			}
		}
		if err := b.Put([]byte(rtRound+rtSeq(seq)), round); err != nil {
			return err
		}
		rated = true
		return b.Put([]byte(rtTable+table), []byte(rtSeq(seq)))
	})
	if err != nil {
		return false, fmt.Errorf("storage: rate round %s: %w", table, err)
	}
	return rated, nil
}

// Rating is agent's rating as stored, or ErrNotFound for a Badge never rated.
func (s *Store) Rating(agent string) ([]byte, error) {
	if agent == "" {
		return nil, fmt.Errorf("storage: rating: %w: empty agent id", ErrBadKey)
	}
	return s.get(BucketRatings, rtAgent+agent)
}

// Ratings calls fn with every stored rating, by agent id in key order; fn's error stops the
// walk and is returned. The value is valid only during the call.
func (s *Store) Ratings(fn func(agent string, rating []byte) error) error {
	return s.scan(BucketRatings, rtAgent, func(k string, v []byte) error { return fn(k[len(rtAgent):], v) })
}

// RatedRounds calls fn with every rated round in the order it was rated (seq from 1); fn's
// error stops the walk and is returned. The value is valid only during the call.
func (s *Store) RatedRounds(fn func(seq uint64, round []byte) error) error {
	return s.scan(BucketRatings, rtRound, func(k string, v []byte) error {
		b, err := hex.DecodeString(k[len(rtRound):])
		if err != nil || len(b) != 8 {
			return fmt.Errorf("%w: rated round key %q", ErrCorrupt, k)
		}
		return fn(binary.BigEndian.Uint64(b), v)
	})
}
