package storage

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// The chain queue, the chain actor's (actors/anchors) three buckets:
//
//	chainq    <answered tx hash: 32 bytes>    a submission not yet final (ChainSubmission JSON)
//	chainidx  <registered bytes>              every submission, pending or final, by the bytes it
//	                                          registers (an anchor's 50 bytes, or "call:" || SHA-256
//	                                          of a contract call's payload), so a registration is
//	                                          submitted once however often it is asked for
//	chainmeta "next_nonce"                    the next account nonce to sign with (u64 BE)

var keyNextNonce = []byte("next_nonce")

// ChainSubmission is one chain submission as stored. BlockItem is the current signed
// transaction (hex); Tx is its hash; ID (the chainq key, hex) is the hash the table was
// answered with, which differs from Tx only after a re-sign; Data (the chainidx key, hex) is what
// it registers.
type ChainSubmission struct {
	ID        string `json:"id"`
	Table     string `json:"table,omitempty"`
	Round     string `json:"round,omitempty"`
	Kind      string `json:"kind,omitempty"` // an anchor's kind
	Seq       uint32 `json:"seq,omitempty"`
	Name      string `json:"name,omitempty"` // a contract call's name
	Data      string `json:"data"`
	BlockItem string `json:"block_item"`
	Tx        string `json:"tx"`
	Nonce     uint64 `json:"nonce"`
	Order     uint64 `json:"order"` // creation order, for re-signing in the order requested
	Resigned  int    `json:"resigned,omitempty"`
	// Retried counts the transactions signed before this one for the same contract call, each
	// refused in its block and asked again (anchors.CallJob.Retry).
	Retried int       `json:"retried,omitempty"`
	Created time.Time `json:"created"`
	// Final is set in the index once the transaction is in a finalized block; Rejected then
	// carries the node's reject reason when it failed there (and was not retried).
	Final    bool   `json:"final,omitempty"`
	Block    string `json:"block,omitempty"`
	Rejected string `json:"rejected,omitempty"`
}

// ChainChange is one change to the chain queue. Put writes chainq[Put.ID] and
// chainidx[Put.Data]; Final deletes chainq[Final.ID] and writes chainidx[Final.Data]; NextNonce,
// when not zero, becomes the stored next nonce. Any of the three may be empty.
type ChainChange struct {
	Put       *ChainSubmission
	Final     *ChainSubmission
	NextNonce uint64
}

// ApplyChain applies changes in order in one transaction (shared with concurrent writers): all
// of them are durable when it returns nil, none when it fails. IDs and Data must be hex
// (ErrBadKey otherwise). Applying the same changes again leaves the same state.
func (s *Store) ApplyChain(changes []ChainChange) error {
	type row struct {
		id, data, val []byte
		final         bool
	}
	rows := make([]row, 0, len(changes))
	for _, c := range changes {
		for _, r := range []*ChainSubmission{c.Put, c.Final} {
			if r == nil {
				continue
			}
			id, err1 := hex.DecodeString(r.ID)
			data, err2 := hex.DecodeString(r.Data)
			if err1 != nil || err2 != nil || len(id) == 0 || len(data) == 0 {
				return fmt.Errorf("storage: chain submission %q (data %q): %w", r.ID, r.Data, ErrBadKey)
			}
			val, err := json.Marshal(r)
			if err != nil {
				return fmt.Errorf("storage: chain submission %s: %w", r.ID, err)
			}
			rows = append(rows, row{id: id, data: data, val: val, final: r == c.Final})
		}
	}
	err := s.write(func(tx *bolt.Tx) error {
		q, idx, meta := tx.Bucket([]byte(BucketChainQ)), tx.Bucket([]byte(BucketChainIdx)), tx.Bucket([]byte(BucketChainMeta))
		next := 0
		for _, c := range changes {
			for _, r := range []*ChainSubmission{c.Put, c.Final} {
				if r == nil {
					continue
				}
				w := rows[next]
				next++
				if w.final {
					if err := q.Delete(w.id); err != nil {
						return err
					}
				} else if err := q.Put(w.id, w.val); err != nil {
					return err
				}
				if err := idx.Put(w.data, w.val); err != nil {
					return err
				}
			}
			if c.NextNonce != 0 {
				if err := meta.Put(keyNextNonce, u64(c.NextNonce)); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("storage: apply %d chain changes: %w", len(changes), err)
	}
	return nil
}

// ChainQueue reads every pending submission (in chainq key order) and the stored next nonce (0
// when none is stored). A record that does not decode, or whose ID is not its key, is skipped
// and its key (hex) returned in bad, for the caller to report; err is for a store that cannot be
// read at all.
func (s *Store) ChainQueue() (pending []ChainSubmission, next uint64, bad []string, err error) {
	err = s.db.View(func(tx *bolt.Tx) error {
		if meta := tx.Bucket([]byte(BucketChainMeta)); meta != nil {
			if v := meta.Get(keyNextNonce); len(v) == 8 {
				next = bytesU64(v)
			}
		}
		q := tx.Bucket([]byte(BucketChainQ))
		if q == nil {
			return nil
		}
		return q.ForEach(func(k, v []byte) error {
			var r ChainSubmission
			if err := json.Unmarshal(v, &r); err != nil || r.ID != hex.EncodeToString(k) {
				bad = append(bad, hex.EncodeToString(k))
				return nil
			}
			pending = append(pending, r)
			return nil
		})
	})
	if err != nil {
		return nil, 0, nil, fmt.Errorf("storage: read chain queue: %w", err)
	}
	return pending, next, bad, nil
}

// ChainLookup returns the submission that registers data (pending or final), or ok false when
// none does.
func (s *Store) ChainLookup(data []byte) (sub ChainSubmission, ok bool, err error) {
	err = s.db.View(func(tx *bolt.Tx) error {
		idx := tx.Bucket([]byte(BucketChainIdx))
		if idx == nil {
			return nil
		}
		v := idx.Get(data)
		if v == nil {
			return nil
		}
		ok = true
		return json.Unmarshal(v, &sub)
	})
	if err != nil {
		return ChainSubmission{}, false, fmt.Errorf("storage: chain lookup %x: %w", data, err)
	}
	return sub, ok, nil
}
