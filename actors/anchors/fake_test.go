package anchors

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"time"

	"arena/chain/ccd"
)

var errDown = errors.New("fake node: unavailable")

// fakeNode is an in-process Concordium node for the chain actor's tests. It keeps one account's
// finalized transactions by nonce and a pool of received ones, finalizes the pool in nonce
// order (at once, or when Seal is called), and injects faults: latency per call, failing
// sends, replies lost after acceptance, an outage, nonces taken by another party, a lost pool.
type fakeNode struct {
	mu        sync.Mutex
	pub       ed25519.PublicKey
	nextFinal uint64
	final     map[uint64]*ccd.Tx
	finalByH  map[[32]byte]*ccd.Tx
	pool      map[[32]byte]*ccd.Tx
	hold      bool // when set, the pool is not finalized until Seal

	latency   time.Duration // per call
	sendLat   time.Duration // per SendBlockItem, on top of latency
	failSends int           // the next failSends sends fail (transient)
	loseReply int           // the next loseReply accepted sends answer with a transient error
	down      bool          // every call fails (transient)

	sends      int
	registered map[string]int // data hex -> times finalized
	now        func() time.Time
}

func newFakeNode(pub ed25519.PublicKey) *fakeNode {
	return &fakeNode{pub: pub, nextFinal: 1, final: map[uint64]*ccd.Tx{}, finalByH: map[[32]byte]*ccd.Tx{},
		pool: map[[32]byte]*ccd.Tx{}, registered: map[string]int{}, now: time.Now}
}

func (n *fakeNode) wait(ctx context.Context, send bool) error {
	n.mu.Lock()
	d := n.latency
	if send {
		d += n.sendLat
	}
	n.mu.Unlock()
	if d == 0 {
		return nil
	}
	select {
	case <-time.After(d):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (n *fakeNode) Send(ctx context.Context, tx *ccd.Tx) error {
	if err := n.wait(ctx, true); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.sends++
	if n.down {
		return errDown
	}
	if n.failSends > 0 {
		n.failSends--
		return errDown
	}
	if !ed25519.Verify(n.pub, tx.SignDigest[:], tx.Sigs[0].Value) {
		return fmt.Errorf("%w: bad signature", ccd.ErrRejected)
	}
	if n.finalByH[tx.Hash] != nil || n.pool[tx.Hash] != nil {
		return fmt.Errorf("%w: %s", ccd.ErrDuplicate, tx.HashHex())
	}
	if tx.Nonce < n.nextFinal {
		return fmt.Errorf("%w: DuplicateNonce", ccd.ErrRejected)
	}
	if uint64(n.now().Unix()) >= tx.Expiry {
		return fmt.Errorf("%w: expired", ccd.ErrRejected)
	}
	n.pool[tx.Hash] = tx
	if !n.hold {
		n.seal()
	}
	if n.loseReply > 0 {
		n.loseReply--
		return errDown
	}
	return nil
}

// seal finalizes pool transactions in nonce order from the account's next nonce; caller holds mu.
func (n *fakeNode) seal() {
	for {
		var pick *ccd.Tx
		for _, tx := range n.pool {
			if tx.Nonce == n.nextFinal && (pick == nil || tx.HashHex() < pick.HashHex()) {
				pick = tx
			}
		}
		if pick == nil {
			return
		}
		n.finalize(pick)
	}
}

func (n *fakeNode) finalize(tx *ccd.Tx) {
	n.final[tx.Nonce], n.finalByH[tx.Hash] = tx, tx
	for h, p := range n.pool {
		if p.Nonce == tx.Nonce {
			delete(n.pool, h)
		}
	}
	n.nextFinal++
	if d, ok := tx.RegisteredData(); ok {
		n.registered[hex.EncodeToString(d)]++
	}
}

// Seal finalizes what the pool holds (for a node in hold mode).
func (n *fakeNode) Seal() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.seal()
}

// External finalizes k transactions of another party signing for the same account.
func (n *fakeNode) External(k int) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for i := 0; i < k; i++ {
		n.finalize(&ccd.Tx{Nonce: n.nextFinal, Hash: [32]byte{0xee, byte(i), byte(n.nextFinal)}})
	}
}

// DropPool loses every received transaction (a node restart).
func (n *fakeNode) DropPool() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.pool = map[[32]byte]*ccd.Tx{}
}

func (n *fakeNode) set(f func(n *fakeNode)) {
	n.mu.Lock()
	defer n.mu.Unlock()
	f(n)
}

func (n *fakeNode) NextNonce(ctx context.Context, _ ccd.Address) (uint64, bool, error) {
	if err := n.wait(ctx, false); err != nil {
		return 0, false, err
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.down {
		return 0, false, errDown
	}
	next := n.nextFinal
	for {
		found := false
		for _, tx := range n.pool {
			if tx.Nonce == next {
				found = true
			}
		}
		if !found {
			break
		}
		next++
	}
	return next, len(n.pool) == 0, nil
}

func (n *fakeNode) Status(ctx context.Context, h [32]byte) (ccd.Status, error) {
	if err := n.wait(ctx, false); err != nil {
		return ccd.Status{}, err
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.down {
		return ccd.Status{}, errDown
	}
	if tx := n.finalByH[h]; tx != nil {
		d, ok := tx.RegisteredData()
		return ccd.Status{State: ccd.Finalized, Block: [32]byte{0xb1, byte(tx.Nonce)}, Registered: ok, Data: d}, nil
	}
	if n.pool[h] != nil {
		return ccd.Status{State: ccd.Received}, nil
	}
	return ccd.Status{State: ccd.Absent}, nil
}

// landed reports how many distinct data were registered and whether any was registered twice.
func (n *fakeNode) landed() (distinct int, twice []string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for d, c := range n.registered {
		distinct++
		if c > 1 {
			twice = append(twice, d)
		}
	}
	return distinct, twice
}
