package anchors

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"arena/chain/ccd"
)

// Buckets of the chain queue, in the arena's one bbolt file.
const (
	// BucketQueue holds every submission not yet finalized, keyed by the 32-byte transaction hash
	// the table was answered with; the value is a JSON record.
	BucketQueue = "chainq"
	// BucketIndex maps the registered bytes (the 50-byte anchor) to the submission's record
	// (pending or final), so that an anchor is registered once however often it is requested.
	BucketIndex = "chainidx"
	// BucketMeta holds "next_nonce" (u64 BE): the next nonce the actor will assign.
	BucketMeta = "chainmeta"
)

var keyNextNonce = []byte("next_nonce")

// record is one submission as persisted. BlockItem is the current signed transaction (hex);
// Tx is its hash; ID (the chainq key) is the hash the table was answered with, which differs
// from Tx only after a re-sign.
type record struct {
	ID        string    `json:"id"`
	Table     string    `json:"table,omitempty"`
	Round     string    `json:"round,omitempty"`
	Kind      string    `json:"kind,omitempty"` // an anchor's kind
	Seq       uint32    `json:"seq,omitempty"`
	Name      string    `json:"name,omitempty"` // a contract call's name (CallJob.Name)
	Data      string    `json:"data"`           // the index key, hex: an anchor's 50 bytes, or "call:" || SHA-256(payload)
	BlockItem string    `json:"block_item"`
	Tx        string    `json:"tx"`
	Nonce     uint64    `json:"nonce"`
	Order     uint64    `json:"order"` // creation order, for re-signing in the order requested
	Resigned  int       `json:"resigned,omitempty"`
	Created   time.Time `json:"created"`
	// Final is set in the index once the transaction is in a finalized block; Rejected then
	// carries the node's reject reason when it failed there (and was not retried).
	Final    bool   `json:"final,omitempty"`
	Block    string `json:"block,omitempty"`
	Rejected string `json:"rejected,omitempty"`
}

// op is one queued change to the chain buckets; ops are applied in order, many per bbolt
// transaction.
type op struct {
	put   *record // write chainq[put.ID] and chainidx[put.Data]
	final *record // delete chainq[final.ID], write chainidx[final.Data] with Final
	next  uint64  // when non-zero: chainmeta next_nonce
	it    *item   // for a put: the item made ready (and its tables answered) once committed
}

func createBuckets(db *bolt.DB) error {
	return db.Update(func(tx *bolt.Tx) error {
		for _, b := range []string{BucketQueue, BucketIndex, BucketMeta} {
			if _, err := tx.CreateBucketIfNotExists([]byte(b)); err != nil {
				return err
			}
		}
		return nil
	})
}

func applyOps(db *bolt.DB, ops []op) error {
	return db.Update(func(tx *bolt.Tx) error {
		q, idx, meta := tx.Bucket([]byte(BucketQueue)), tx.Bucket([]byte(BucketIndex)), tx.Bucket([]byte(BucketMeta))
		for _, o := range ops {
			for _, r := range []*record{o.put, o.final} {
				if r == nil {
					continue
				}
				id, err1 := hex.DecodeString(r.ID)
				data, err2 := hex.DecodeString(r.Data)
				if err1 != nil || err2 != nil {
					return fmt.Errorf("record %s: bad hex", r.ID)
				}
				v, _ := json.Marshal(r)
				if r == o.final {
					if err := q.Delete(id); err != nil {
						return err
					}
				} else if err := q.Put(id, v); err != nil {
					return err
				}
				if err := idx.Put(data, v); err != nil {
					return err
				}
			}
			if o.next != 0 {
				if err := meta.Put(keyNextNonce, binary.BigEndian.AppendUint64(nil, o.next)); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// loadQueue reads every pending record and the stored next nonce (0 when none is stored). A
// record that does not decode is skipped and its key returned in bad (the caller logs it); err is
// for a store that cannot be read at all.
func loadQueue(db *bolt.DB) (recs []*record, next uint64, bad []string, err error) {
	err = db.View(func(tx *bolt.Tx) error {
		q, meta := tx.Bucket([]byte(BucketQueue)), tx.Bucket([]byte(BucketMeta))
		if q == nil || meta == nil {
			return fmt.Errorf("chain buckets missing")
		}
		if v := meta.Get(keyNextNonce); len(v) == 8 {
			next = binary.BigEndian.Uint64(v)
		}
		return q.ForEach(func(k, v []byte) error {
			var r record
			if err := json.Unmarshal(v, &r); err != nil || r.ID != hex.EncodeToString(k) {
				bad = append(bad, hex.EncodeToString(k))
				return nil
			}
			recs = append(recs, &r)
			return nil
		})
	})
	return recs, next, bad, err
}

// lookupIndex returns the record indexed under the registered bytes data, or nil.
func lookupIndex(db *bolt.DB, data []byte) (*record, error) {
	var r *record
	err := db.View(func(tx *bolt.Tx) error {
		v := tx.Bucket([]byte(BucketIndex)).Get(data)
		if v == nil {
			return nil
		}
		r = new(record)
		return json.Unmarshal(v, r)
	})
	return r, err
}

// Landing is where one registration stands, as Lookup reports it.
type Landing struct {
	ID    string // the transaction hash the table was answered with (hex)
	Tx    string // the transaction that carries (or will carry) the bytes; differs from ID after a re-sign
	Final bool   // Tx is in a finalized block
	Block string // that block's hash (hex), when Final
	// Rejected is the reject reason when Tx failed in its block and was not retried (a
	// contract call the contract refused; an anchor that failed maxInBlockRetries times).
	Rejected string
}

// Lookup reports where the registration of data (a 50-byte anchor) stands, from the chain
// buckets of db; false when this arena never registered it. anchor-check uses it to follow a
// re-signed transaction from the hash in the transcript to the one on chain.
func Lookup(db *bolt.DB, data []byte) (Landing, bool, error) {
	r, err := lookupIndex(db, data)
	if err != nil || r == nil {
		return Landing{}, false, err
	}
	return Landing{ID: r.ID, Tx: r.Tx, Final: r.Final, Block: r.Block, Rejected: r.Rejected}, true, nil
}

// CallKey is the index key of a contract call (for LookupCall): "call:" || SHA-256 of the
// Update Contract payload (amount, contract, entrypoint, parameter).
func CallKey(call ccd.ContractCall) ([]byte, error) {
	p, err := ccd.ContractPayload(call)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(p)
	return append([]byte("call:"), sum[:]...), nil
}
