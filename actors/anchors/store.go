package anchors

import (
	"crypto/sha256"

	"arena/chain/ccd"
	"arena/storage"
)

// record is one submission as persisted (storage's chain queue: chainq, chainidx, chainmeta).
type record = storage.ChainSubmission

// op is one queued change to the chain queue; ops are applied in order, many per storage
// transaction.
type op struct {
	put   *record // write chainq[put.ID] and chainidx[put.Data]
	final *record // delete chainq[final.ID], write chainidx[final.Data] with Final
	next  uint64  // when non-zero: chainmeta next_nonce
	it    *item   // for a put: the item made ready (and its tables answered) once committed
}

// applyOps writes ops, in order, in one storage transaction.
func applyOps(st *storage.Store, ops []op) error {
	changes := make([]storage.ChainChange, len(ops))
	for i, o := range ops {
		changes[i] = storage.ChainChange{Put: o.put, Final: o.final, NextNonce: o.next}
	}
	return st.ApplyChain(changes)
}

// loadQueue reads every pending record and the stored next nonce (0 when none is stored). A
// record that does not decode is skipped and its key returned in bad (the caller logs it); err is
// for a store that cannot be read at all.
func loadQueue(st *storage.Store) (recs []*record, next uint64, bad []string, err error) {
	pending, next, bad, err := st.ChainQueue()
	for i := range pending {
		recs = append(recs, &pending[i])
	}
	return recs, next, bad, err
}

// lookupIndex returns the record indexed under the registered bytes data, or nil.
func lookupIndex(st *storage.Store, data []byte) (*record, error) {
	r, ok, err := st.ChainLookup(data)
	if err != nil || !ok {
		return nil, err
	}
	return &r, nil
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
	// Retried is how many transactions for the same call were refused in their blocks before
	// Tx and signed again on a CallJob's Retry.
	Retried int
}

// Lookup reports where the registration of data (a 50-byte anchor) stands, from the chain
// queue of st; false when this arena never registered it. anchor-check uses it (on a store
// opened read-only) to follow a re-signed transaction from the hash in the transcript to the one
// on chain.
func Lookup(st *storage.Store, data []byte) (Landing, bool, error) {
	r, err := lookupIndex(st, data)
	if err != nil || r == nil {
		return Landing{}, false, err
	}
	return Landing{ID: r.ID, Tx: r.Tx, Final: r.Final, Block: r.Block, Rejected: r.Rejected, Retried: r.Retried}, true, nil
}

// LookupCall is Lookup for a contract call (by its CallKey): where the transaction made for it
// stands; false when this arena never asked for it.
func LookupCall(st *storage.Store, call ccd.ContractCall) (Landing, bool, error) {
	k, err := CallKey(call)
	if err != nil {
		return Landing{}, false, err
	}
	return Lookup(st, k)
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
