package anchors

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/prometheus/client_golang/prometheus"

	"arena/actors"
	"arena/actors/internal/ask"
	"arena/chain/ccd"
	"arena/storage"
)

// Node is what the chain actor needs of a Concordium node. *ccd.Client implements it; its
// errors follow ccd's contract (ccd.ErrDuplicate is success, ccd.ErrRejected triggers a
// re-sync, anything else is retried with back-off).
type Node interface {
	Send(ctx context.Context, tx *ccd.Tx) error
	NextNonce(ctx context.Context, addr ccd.Address) (next uint64, allFinal bool, err error)
	Status(ctx context.Context, hash [32]byte) (ccd.Status, error)
}

var _ Node = (*ccd.Client)(nil)

// Options tune the chain actor. The zero value works.
type Options struct {
	Clock  actors.Clock // nil: the wall clock
	Logger *slog.Logger // nil: discard
	// BatchSize is the most submissions one batch carries, and the most queue changes one bbolt
	// commit carries (0: 32). 1 writes and submits one anchor at a time.
	BatchSize int
	// Parallel is how many SendBlockItem calls of a batch run at once. 0 or 1 sends them one
	// after the other in nonce order, stopping at the first failure: a node (the devchain, and
	// concordium-node's NonceTooLarge) refuses a nonce beyond the account's next one, so
	// concurrent sends may arrive out of order and be refused. Use more only with a node that
	// queues future nonces.
	Parallel int
	// Expiry is how long after signing a transaction may still be included (0: 1 h). Items
	// that expire unlanded are re-signed.
	Expiry time.Duration
	// PollEvery is how often a submitted transaction's status is checked until it is
	// finalized (0: 2 s).
	PollEvery time.Duration
	// RetryMin and RetryMax bound the back-off after a failed call: it doubles from RetryMin
	// (0: 100 ms) up to RetryMax (0: 30 s).
	RetryMin, RetryMax time.Duration
	// CallTimeout bounds each node call (0: 10 s).
	CallTimeout time.Duration
	// Name is the actor's name (""; "chain").
	Name string
	// Metrics receives the arena_chain_* collectors (nil: not registered anywhere).
	Metrics prometheus.Registerer
}

func (o Options) withDefaults() Options {
	if o.Clock == nil {
		o.Clock = actors.RealClock()
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.BatchSize <= 0 {
		o.BatchSize = 32
	}
	if o.Parallel <= 0 {
		o.Parallel = 1
	}
	if o.Expiry <= 0 {
		o.Expiry = time.Hour
	}
	if o.PollEvery <= 0 {
		o.PollEvery = 2 * time.Second
	}
	if o.RetryMin <= 0 {
		o.RetryMin = 100 * time.Millisecond
	}
	if o.RetryMax <= 0 {
		o.RetryMax = 30 * time.Second
	}
	if o.CallTimeout <= 0 {
		o.CallTimeout = 10 * time.Second
	}
	if o.Name == "" {
		o.Name = "chain"
	}
	return o
}

// Chain is the arena's handle on the chain actor. It implements actors.Anchorer, so it can be
// handed to the arena before the actor system exists: jobs sent before Start are held and
// delivered at Start. Its methods are safe for concurrent use.
type Chain struct {
	st   *storage.Store
	key  *ccd.Key
	node Node
	opts Options

	mu        sync.Mutex
	sys       *actor.ActorSystem
	pid       *actor.PID
	held      []actors.AnchorJob
	heldCalls []CallJob
	stopped   bool

	ctx         context.Context // cancelled by Stop: abandons node calls in flight
	cancel      context.CancelFunc
	incarnation atomic.Uint64
	gauges      gauges

	// writing is held by a bbolt write of the queue for its whole length, so that an actor
	// incarnation (after a restart) loads the queue only once the previous one's write is done.
	writing sync.Mutex
}

var _ actors.Anchorer = (*Chain)(nil)

// New prepares a chain actor that signs with key, submits to node and keeps its queue in st
// (the arena's store: its chain queue). Nothing runs until Start.
func New(st *storage.Store, key *ccd.Key, node Node, opts Options) (*Chain, error) {
	if st == nil || key == nil || node == nil {
		return nil, errors.New("anchors: new: store, key and node are required")
	}
	c := &Chain{st: st, key: key, node: node, opts: opts.withDefaults()}
	if opts.Metrics != nil {
		if err := c.gauges.register(opts.Metrics); err != nil {
			return nil, fmt.Errorf("anchors: register metrics: %w", err)
		}
	}
	c.ctx, c.cancel = context.WithCancel(context.Background())
	return c, nil
}

// firstNonceWait bounds how long Start waits for the node's nonce on a fresh data file.
const firstNonceWait = 3 * time.Second

// Start spawns the chain actor in sys (the arena's actor system, so that replies reach the
// tables' PIDs) and delivers the jobs held so far. The actor reloads the queue from bbolt and
// resubmits what is pending. When no next nonce is stored yet (a fresh data file), Start asks the
// node for it, waiting at most 3 s, and otherwise starts from 1 and re-syncs later.
func (c *Chain) Start(ctx context.Context, sys *actor.ActorSystem) error {
	_, next, _, err := loadQueue(c.st)
	if err != nil {
		return fmt.Errorf("anchors: load queue: %w", err)
	}
	if next == 0 {
		cctx, cancel := context.WithTimeout(ctx, min(c.opts.CallTimeout, firstNonceWait))
		n, _, err := c.node.NextNonce(cctx, c.key.Address())
		cancel()
		if err != nil || n == 0 {
			n = 1
			c.opts.Logger.Warn("chain: node unreachable at first start; assuming nonce 1, re-syncing later", "err", err)
		}
		if err := applyOps(c.st, []op{{next: n}}); err != nil {
			return fmt.Errorf("anchors: store first nonce: %w", err)
		}
	}
	props := actor.PropsFromProducer(func() actor.Actor { return &chainActor{c: c, o: c.opts} })
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pid != nil {
		return errors.New("anchors: start: already started")
	}
	pid, err := sys.Root.SpawnNamed(props, c.opts.Name)
	if err != nil {
		return fmt.Errorf("anchors: spawn: %w", err)
	}
	c.sys, c.pid = sys, pid
	for _, j := range c.held {
		sys.Root.Send(pid, &jobMsg{job: j})
	}
	for _, j := range c.heldCalls {
		sys.Root.Send(pid, &callMsg{job: j})
	}
	c.held, c.heldCalls = nil, nil
	return nil
}

// Anchor implements actors.Anchorer: it hands job to the chain actor and returns at once. The
// answer, *actors.Anchored with the transaction hash (or Err), goes to job.ReplyTo.
func (c *Chain) Anchor(job actors.AnchorJob) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopped {
		return
	}
	if c.pid == nil {
		c.held = append(c.held, job)
		return
	}
	c.sys.Root.Send(c.pid, &jobMsg{job: job})
}

// CallJob asks the chain actor to submit a contract update under the arena's account: the
// escrow's open_round, anchor and settle (§5.5, §11.5). Like an anchor it is signed at once,
// written to the queue, answered with its transaction hash (*CallSubmitted to ReplyTo), then
// submitted and watched to finality; the same call (same payload) asked again is the same
// transaction. A call the contract refuses in its block is final and not retried on its own;
// Lookup(CallKey) reports its reason. Asked again with Retry, such a call is signed anew under
// the next nonce (the caller says it is safe: the escrow's refund names a total, open_round and
// settle are refused a second time); a call still pending, or landed, is answered as it stands.
type CallJob struct {
	Table   string
	Round   string
	Name    string // required: what the call is ("open_round", "anchor", "settle", "refund")
	Call    ccd.ContractCall
	ReplyTo *actor.PID
	Retry   bool
	// Key, when set, is the call's index key instead of its CallKey: the call is made once per
	// Key whatever its parameter (a lent Badge's mint, whose agent_uri names an origin that may
	// change between runs); LookupCall does not find it, Lookup(Key) does.
	Key []byte
	// FinalTo, when set, is sent *CallFinal once the call's transaction is in a finalized block
	// (at once when it already is). Only the asker of this incarnation hears it: after a restart
	// the asker asks again (the same call is the same transaction) to hear it.
	FinalTo *actor.PID
}

// CallFinal tells a CallJob's FinalTo that its transaction is final: Tx is the transaction that
// carried the call (hex), Block its block (hex); Rejected is the contract's refusal when it
// failed there ("" when it took effect).
type CallFinal struct {
	Table, Round, Name string
	Tx, Block          string
	Rejected           string
}

// CallSubmitted answers a CallJob: Tx is the transaction hash (hex), or Err says why the job
// was refused.
type CallSubmitted struct {
	Table, Round, Name string
	Tx                 string
	Err                string
}

// Call hands job to the chain actor and returns at once (held until Start, like Anchor).
func (c *Chain) Call(job CallJob) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopped {
		return
	}
	if c.pid == nil {
		c.heldCalls = append(c.heldCalls, job)
		return
	}
	c.sys.Root.Send(c.pid, &callMsg{job: job})
}

// Stats are the chain actor's counters, for ops and tests.
type Stats struct {
	NextNonce  uint64 // the next nonce it will assign
	Pending    int    // submissions not yet finalized (unpersisted, ready, sent)
	Unwritten  int    // queue changes not yet committed to bbolt
	Sent       int    // accepted by the node, awaiting finality
	Landed     int    // finalized since start
	Resigned   int    // re-signed since start
	Batches    int    // submission batches since start
	Calls      int    // SendBlockItem calls since start
	Duplicates int    // ALREADY_EXISTS answers since start (counted as success)
	Rejected   int    // InvalidArgument answers since start
	Resyncs    int    // nonce re-syncs completed since start
	Failed     int    // finalized but failed, recorded as failed since start (see Landing.Rejected)
	Retried    int    // calls refused in their block signed again on a CallJob's Retry since start
}

// Stats asks the actor for its counters.
func (c *Chain) Stats(ctx context.Context) (Stats, error) {
	c.mu.Lock()
	sys, pid := c.sys, c.pid
	c.mu.Unlock()
	if pid == nil {
		return Stats{}, errors.New("anchors: not started")
	}
	res, err := sys.Root.RequestFuture(pid, &statsRequest{}, ask.Timeout(ctx, 5*time.Second)).Result()
	if err != nil {
		return Stats{}, fmt.Errorf("anchors: stats: %w", err)
	}
	s, ok := res.(*Stats)
	if !ok {
		return Stats{}, fmt.Errorf("anchors: stats: unexpected reply %T", res)
	}
	return *s, nil
}

// Stop stops the actor after the messages already queued, and waits (at most 10 s) for it.
// Node calls in flight are abandoned; bbolt writes in flight complete. Jobs sent after Stop are
// dropped. Stop does not close the DB.
func (c *Chain) Stop() error {
	c.mu.Lock()
	sys, pid := c.sys, c.pid
	c.stopped = true
	c.mu.Unlock()
	c.cancel()
	if pid == nil {
		return nil
	}
	return sys.Root.PoisonFuture(pid).Wait()
}
