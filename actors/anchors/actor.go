package anchors

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"arena/actors"
	"arena/chain/anchor"
	"arena/chain/ccd"
)

type itemState int

const (
	stUnpersisted itemState = iota // signed, not yet in bbolt: never answered, never submitted
	stReady                        // in bbolt; to be submitted at due
	stInflight                     // in a send batch
	stSent                         // the node has it; status checked at due until finalized
	stPolling                      // in a status poll
	stDead                         // can never land; re-signed at the next re-sync
)

// item is one pending submission in memory.
type item struct {
	rec     *record
	tx      *ccd.Tx
	state   itemState
	due     time.Time
	tries   int
	replies []*reply     // tables waiting for the answer until the item is persisted
	finals  []*actor.PID // askers waiting for finality (CallJob.FinalTo)
}

type reply struct {
	to  *actor.PID
	msg any // *actors.Anchored or *CallSubmitted
}

// chainActor is one incarnation of the chain actor. All fields are touched only on the actor's
// goroutine.
type chainActor struct {
	c *Chain
	o Options

	inc    uint64
	items  map[string]*item // by record ID (the hash the table was given)
	byData map[string]*item // by registered bytes
	next   uint64           // next nonce to assign
	order  uint64

	pendingOps   []op
	persisting   bool
	persistTries int
	persistDue   time.Time

	ready []*item   // stReady items by nonce (queues.go)
	watch watchHeap // stSent items by next status check

	op          string // "", "send", "poll", "resync": at most one node operation at a time
	needResync  bool
	resyncDue   time.Time
	resyncTries int

	loadErr   error // the queue could not be read: jobs are refused until a reload succeeds
	loadTries int
	loadDue   time.Time

	timerStop func() bool
	timerGen  uint64

	stats Stats
}

func (a *chainActor) Receive(ctx actor.Context) {
	defer a.c.gauges.publish(a)
	switch m := ctx.Message().(type) {
	case *actor.Started:
		a.start(ctx)
	case *actor.Stopping, *actor.Restarting:
		if a.timerStop != nil {
			a.timerStop()
		}
	case *jobMsg:
		a.onJob(ctx, m.job)
	case *callMsg:
		a.onCall(ctx, m.job)
	case *persistDone:
		if m.inc == a.inc {
			a.onPersisted(ctx, m)
		}
	case *sendDone:
		if m.inc == a.inc {
			a.onSent(ctx, m)
		}
	case *pollDone:
		if m.inc == a.inc {
			a.onPolled(ctx, m)
		}
	case *resyncDone:
		if m.inc == a.inc {
			a.onResynced(ctx, m)
		}
	case *wake:
		if m.inc == a.inc && m.gen == a.timerGen {
			a.timerStop = nil
			if a.loadErr != nil {
				if !a.o.Clock.Now().Before(a.loadDue) {
					a.load(ctx)
				} else {
					a.arm(ctx)
				}
				return
			}
			a.kickPersist(ctx)
			a.kick(ctx)
		}
	case *statsRequest:
		s := a.stats
		s.NextNonce, s.Pending, s.Unwritten = a.next, len(a.items), len(a.pendingOps)
		if a.persisting {
			s.Unwritten++
		}
		for _, it := range a.items {
			if it.state == stSent || it.state == stPolling {
				s.Sent++
			}
		}
		ctx.Respond(&s)
	}
}

// start loads the queue (after any write of a previous incarnation) and re-syncs with the node
// before submitting: whatever was pending when the arena stopped is resubmitted or re-signed.
func (a *chainActor) start(ctx actor.Context) {
	a.inc = a.c.incarnation.Add(1)
	a.load(ctx)
}

// load reads the queue (after any write of a previous incarnation) into memory. A store that
// cannot be read leaves the actor refusing jobs (Anchored.Err) and retrying with back-off;
// records that do not decode are logged and left in place for an operator.
func (a *chainActor) load(ctx actor.Context) {
	a.items, a.byData = map[string]*item{}, map[string]*item{}
	a.c.writing.Lock()
	recs, next, bad, err := loadQueue(a.c.st)
	a.c.writing.Unlock()
	now := a.o.Clock.Now()
	if err != nil {
		a.loadTries++
		a.loadErr = fmt.Errorf("anchors: chain queue unreadable: %w", err)
		a.o.Logger.Error("chain: load queue", "err", err)
		a.loadDue = now.Add(a.backoff(a.loadTries))
		a.arm(ctx)
		return
	}
	a.loadErr, a.loadTries = nil, 0
	for _, k := range bad {
		a.o.Logger.Error("chain: queue record does not decode; left for an operator", "key", k)
	}
	a.next = next
	for _, r := range recs {
		b, err1 := hex.DecodeString(r.BlockItem)
		tx, err2 := ccd.ParseBlockItem(b)
		if err1 != nil || err2 != nil || tx.HashHex() != r.Tx {
			a.o.Logger.Error("chain: skipping a corrupt queue record; left for an operator", "id", r.ID)
			continue
		}
		if tx.Sender != a.c.key.Address() {
			// Signed for another account (the key file was changed with items pending): its
			// nonces are not ours to count or re-sign. It stays in chainq for an operator.
			a.o.Logger.Error("chain: queue record of another account; left for an operator", "id", r.ID, "sender", tx.Sender.String())
			continue
		}
		it := &item{rec: r, tx: tx, state: stReady, due: now}
		a.items[r.ID] = it
		a.byData[string(mustHex(r.Data))] = it
		a.next = max(a.next, tx.Nonce+1)
		a.order = max(a.order, r.Order+1)
	}
	a.rebuild()
	a.needResync, a.resyncDue = true, now
	a.kick(ctx)
}

func mustHex(s string) []byte {
	b, _ := hex.DecodeString(s)
	return b
}

// onJob signs the anchor under the next nonce and queues it for bbolt; the table is answered
// once it is written (write before you speak). A repeated anchor is answered with the
// transaction already made for it.
func (a *chainActor) onJob(ctx actor.Context, j actors.AnchorJob) {
	answer := &actors.Anchored{Table: j.Table, Round: j.Round, Request: j.Request}
	send := func() {
		if j.ReplyTo != nil {
			ctx.Send(j.ReplyTo, answer)
		}
	}
	refuse := func(err error) {
		answer.Err = err.Error()
		send()
	}
	if a.loadErr != nil {
		refuse(a.loadErr)
		return
	}
	kind, err := anchor.ParseKind(j.Request.Kind)
	if err != nil {
		refuse(err)
		return
	}
	round, err := anchor.ParseRound(j.Round)
	if err != nil {
		refuse(err)
		return
	}
	data, err := anchor.Anchor{Kind: kind, Round: round, Seq: j.Request.Seq, Hash: j.Request.Hash}.Encode()
	if err != nil {
		refuse(err)
		return
	}
	a.submit(ctx, data, func(nonce, expiry uint64) (*ccd.Tx, error) {
		return ccd.RegisterData(a.c.key, nonce, expiry, data)
	}, false, nil, record{Table: j.Table, Round: j.Round, Kind: j.Request.Kind, Seq: j.Request.Seq}, j.ReplyTo, answer,
		func(tx string, err error) {
			answer.Tx = tx
			if err != nil {
				answer.Err = err.Error()
			}
		})
}

// onCall queues a contract update (the escrow's open_round, anchor, settle) like an anchor:
// signed under the next nonce, written, answered with its hash. The same call (same payload)
// asked again is the same transaction, unless it was refused in its block and the job says
// Retry: then it is signed anew.
func (a *chainActor) onCall(ctx actor.Context, j CallJob) {
	answer := &CallSubmitted{Table: j.Table, Round: j.Round, Name: j.Name}
	set := func(tx string, err error) {
		answer.Tx = tx
		if err != nil {
			answer.Err = err.Error()
		}
	}
	if a.loadErr != nil || j.Name == "" {
		err := a.loadErr
		if err == nil {
			err = errors.New("anchors: call without a name")
		}
		set("", err)
		if j.ReplyTo != nil {
			ctx.Send(j.ReplyTo, answer)
		}
		return
	}
	key, err := j.Key, error(nil)
	if key == nil {
		key, err = CallKey(j.Call)
	}
	if err != nil {
		set("", err)
		if j.ReplyTo != nil {
			ctx.Send(j.ReplyTo, answer)
		}
		return
	}
	a.submit(ctx, key, func(nonce, expiry uint64) (*ccd.Tx, error) {
		return ccd.UpdateContract(a.c.key, nonce, expiry, j.Call)
	}, j.Retry, j.FinalTo, record{Table: j.Table, Round: j.Round, Name: j.Name}, j.ReplyTo, answer, set)
}

// submit answers a repeated key with its transaction, else signs a new one under the next nonce
// and queues it for bbolt; the answer goes out once it is written. With retry, a key whose
// transaction failed in its finalized block is signed anew (the index then names the new one).
// finalTo, when set, hears *CallFinal once the transaction is final (at once when it is).
func (a *chainActor) submit(ctx actor.Context, key []byte, sign func(nonce, expiry uint64) (*ccd.Tx, error),
	retry bool, finalTo *actor.PID, base record, to *actor.PID, answer any, set func(tx string, err error)) {
	send := func() {
		if to != nil {
			ctx.Send(to, answer)
		}
	}
	if it := a.byData[string(key)]; it != nil {
		set(it.rec.Tx, nil)
		if finalTo != nil {
			it.finals = append(it.finals, finalTo)
		}
		if it.state == stUnpersisted {
			it.replies = append(it.replies, &reply{to, answer})
			return
		}
		send()
		return
	}
	if r, err := lookupIndex(a.c.st, key); err != nil {
		set("", err)
		send()
		return
	} else if r != nil && !(retry && r.Final && r.Rejected != "") {
		set(r.Tx, nil)
		send()
		if finalTo != nil && r.Final {
			ctx.Send(finalTo, finalOf(r))
		}
		return
	} else if r != nil {
		base.Retried = r.Retried + 1
		a.stats.Retried++
		a.o.Logger.Info("chain: a call refused in its block is signed again", "call", base.Name, "refused_tx", r.Tx,
			"reason", r.Rejected, "retry", base.Retried)
	}
	now := a.o.Clock.Now()
	tx, err := sign(a.next, uint64(now.Add(a.o.Expiry).Unix()))
	if err != nil {
		set("", err)
		send()
		return
	}
	a.next++
	rec := base
	rec.ID, rec.Data, rec.BlockItem, rec.Tx = tx.HashHex(), hex.EncodeToString(key), hex.EncodeToString(tx.BlockItem), tx.HashHex()
	rec.Nonce, rec.Order, rec.Created = tx.Nonce, a.order, now
	a.order++
	set(rec.Tx, nil)
	it := &item{rec: &rec, tx: tx, state: stUnpersisted, replies: []*reply{{to, answer}}}
	if finalTo != nil {
		it.finals = []*actor.PID{finalTo}
	}
	a.items[rec.ID] = it
	a.byData[string(key)] = it
	a.persist(ctx, it)
}

// persist queues the item's record (and the next nonce) for the next group commit.
func (a *chainActor) persist(ctx actor.Context, it *item) {
	r := *it.rec
	a.pendingOps = append(a.pendingOps, op{put: &r, next: a.next, it: it})
	a.kickPersist(ctx)
}

// kickPersist writes what is queued (up to BatchSize changes) in one bbolt transaction on a
// goroutine, unless a write is already running: the next one then takes what queued meanwhile
// (group commit: one fsync for many anchors).
func (a *chainActor) kickPersist(ctx actor.Context) {
	if a.persisting || len(a.pendingOps) == 0 || a.o.Clock.Now().Before(a.persistDue) {
		return
	}
	k := min(len(a.pendingOps), a.o.BatchSize)
	b := &persistBatch{ops: a.pendingOps[:k:k]}
	a.pendingOps = append([]op(nil), a.pendingOps[k:]...)
	a.persisting = true
	self, root, inc, c := ctx.Self(), ctx.ActorSystem().Root, a.inc, a.c
	go func() {
		c.writing.Lock()
		err := applyOps(c.st, b.ops)
		c.writing.Unlock()
		root.Send(self, &persistDone{inc: inc, batch: b, err: err})
	}()
}

func (a *chainActor) onPersisted(ctx actor.Context, m *persistDone) {
	a.persisting = false
	now := a.o.Clock.Now()
	if m.err != nil {
		a.persistTries++
		a.persistDue = now.Add(a.backoff(a.persistTries))
		a.o.Logger.Error("chain: write queue", "err", m.err, "retry_in", a.persistDue.Sub(now))
		a.pendingOps = append(m.batch.ops, a.pendingOps...)
		a.arm(ctx)
		return
	}
	a.persistTries = 0
	for _, o := range m.batch.ops {
		it := o.it
		if it == nil {
			continue
		}
		if o.final != nil {
			// Final and written: whoever waits for finality hears it now.
			for _, to := range it.finals {
				ctx.Send(to, finalOf(o.final))
			}
			it.finals = nil
			continue
		}
		if it.state == stUnpersisted && a.items[it.rec.ID] == it {
			a.setReady(it, now)
		}
		for _, r := range it.replies {
			if r.to != nil {
				ctx.Send(r.to, r.msg)
			}
		}
		it.replies = nil
	}
	a.kickPersist(ctx)
	a.kick(ctx)
}

// kick starts the next node operation if none is running: a due re-sync first, then a batch
// of due submissions (lowest nonces first), then due status polls; otherwise it arms the timer
// for the earliest due instant.
func (a *chainActor) kick(ctx actor.Context) {
	if a.op != "" {
		a.arm(ctx)
		return
	}
	now := a.o.Clock.Now()
	if a.needResync && !now.Before(a.resyncDue) {
		a.startResync(ctx)
		return
	}
	if batch := a.takeReady(now, a.o.BatchSize); len(batch) > 0 {
		a.startSend(ctx, batch)
		return
	}
	if polls := a.takeWatch(now, pollBatch); len(polls) > 0 {
		a.startPoll(ctx, polls)
		return
	}
	a.arm(ctx)
}

// pollBatch is the most status checks one poll carries.
const pollBatch = 256

// arm sets the one-shot timer for the earliest instant something becomes due. Each arming
// bumps the generation, so a tick from an older arming is ignored.
func (a *chainActor) arm(ctx actor.Context) {
	var at time.Time
	consider := func(t time.Time) {
		if at.IsZero() || t.Before(at) {
			at = t
		}
	}
	if a.op == "" {
		if it := a.readyHead(); it != nil {
			consider(it.due)
		}
		if it := a.watchHead(); it != nil {
			consider(it.due)
		}
		if a.needResync {
			consider(a.resyncDue)
		}
	}
	if !a.persisting && len(a.pendingOps) > 0 {
		consider(a.persistDue)
	}
	if a.loadErr != nil {
		consider(a.loadDue)
	}
	if a.timerStop != nil {
		a.timerStop()
		a.timerStop = nil
	}
	if at.IsZero() {
		return
	}
	a.timerGen++
	self, root, inc, gen := ctx.Self(), ctx.ActorSystem().Root, a.inc, a.timerGen
	a.timerStop = a.o.Clock.AfterFunc(at.Sub(a.o.Clock.Now()), func() { root.Send(self, &wake{inc: inc, gen: gen}) })
}

func (a *chainActor) backoff(tries int) time.Duration {
	d := a.o.RetryMin
	for i := 1; i < tries && d < a.o.RetryMax; i++ {
		d *= 2
	}
	return min(d, a.o.RetryMax)
}

// each runs f for every index 0..n-1 on up to par goroutines and waits.
func each(n, par int, f func(i int)) {
	sem := make(chan struct{}, max(par, 1))
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			f(i)
		}()
	}
	wg.Wait()
}

func (a *chainActor) startSend(ctx actor.Context, batch []*item) {
	a.op = "send"
	txs := make([]*ccd.Tx, len(batch))
	ids := make([]string, len(batch))
	for i, it := range batch {
		it.state = stInflight
		txs[i], ids[i] = it.tx, it.rec.ID
	}
	self, root, inc, c, o := ctx.Self(), ctx.ActorSystem().Root, a.inc, a.c, a.o
	go func() {
		res := make([]callResult, len(txs))
		for i := range txs {
			res[i] = callResult{id: ids[i], hash: txs[i].Hash, err: errSkipped}
		}
		send := func(i int) error {
			cctx, cancel := context.WithTimeout(c.ctx, o.CallTimeout)
			defer cancel()
			err := c.node.Send(cctx, txs[i])
			res[i].err = err
			return err
		}
		if o.Parallel > 1 {
			each(len(txs), o.Parallel, func(i int) { send(i) })
		} else {
			// In nonce order, one at a time; after a failure the rest wait (a node refuses a
			// nonce beyond the account's next one).
			for i := range txs {
				if err := send(i); err != nil && !errors.Is(err, ccd.ErrDuplicate) {
					break
				}
			}
		}
		root.Send(self, &sendDone{inc: inc, results: res})
	}()
}

// statusParallel is how many GetBlockItemStatus calls run at once (reads: order is free).
const statusParallel = 8

// errSkipped marks a submission of a batch that was not attempted because an earlier one failed.
var errSkipped = errors.New("anchors: not sent: an earlier nonce failed")

func (a *chainActor) onSent(ctx actor.Context, m *sendDone) {
	a.op = ""
	a.stats.Batches++
	now := a.o.Clock.Now()
	for _, r := range m.results {
		it := a.items[r.id]
		if r.err == errSkipped {
			if it != nil && it.state == stInflight {
				a.setReady(it, now)
			}
			continue
		}
		a.stats.Calls++
		if it == nil || it.tx.Hash != r.hash || it.state != stInflight {
			continue
		}
		switch {
		case r.err == nil || errors.Is(r.err, ccd.ErrDuplicate):
			if r.err != nil {
				a.stats.Duplicates++
			}
			it.tries = 0
			a.setSent(it, now.Add(a.o.PollEvery))
		case errors.Is(r.err, ccd.ErrRejected), errors.Is(r.err, ccd.ErrHashMismatch):
			a.stats.Rejected++
			a.o.Logger.Warn("chain: node refused a submission; re-syncing", "tx", it.rec.Tx, "nonce", it.tx.Nonce, "err", r.err)
			it.tries++
			a.setReady(it, now.Add(a.backoff(it.tries)))
			a.needResync = true
		default:
			it.tries++
			a.setReady(it, now.Add(a.backoff(it.tries)))
			a.o.Logger.Debug("chain: submission failed; retrying", "tx", it.rec.Tx, "err", r.err, "retry_in", it.due.Sub(now))
		}
	}
	a.kick(ctx)
}

func (a *chainActor) startPoll(ctx actor.Context, polls []*item) {
	a.op = "poll"
	for _, it := range polls {
		it.state = stPolling
	}
	a.statusOf(ctx, polls, false)
}

// statusOf asks the node for the status of every item on a goroutine and sends back a
// *pollDone or, for a re-sync, a *resyncDone (then asking first for the account's next nonce).
func (a *chainActor) statusOf(ctx actor.Context, items []*item, resync bool) {
	hashes := make([][32]byte, len(items))
	ids := make([]string, len(items))
	for i, it := range items {
		hashes[i], ids[i] = it.tx.Hash, it.rec.ID
	}
	self, root, inc, c, o := ctx.Self(), ctx.ActorSystem().Root, a.inc, a.c, a.o
	go func() {
		var nodeNext uint64
		if resync {
			cctx, cancel := context.WithTimeout(c.ctx, o.CallTimeout)
			n, _, err := c.node.NextNonce(cctx, c.key.Address())
			cancel()
			if err != nil {
				root.Send(self, &resyncDone{inc: inc, err: err})
				return
			}
			nodeNext = n
		}
		res := make([]callResult, len(hashes))
		each(len(hashes), statusParallel, func(i int) {
			cctx, cancel := context.WithTimeout(c.ctx, o.CallTimeout)
			defer cancel()
			st, err := c.node.Status(cctx, hashes[i])
			res[i] = callResult{id: ids[i], hash: hashes[i], st: st, err: err}
		})
		if resync {
			root.Send(self, &resyncDone{inc: inc, nodeNext: nodeNext, results: res})
			return
		}
		root.Send(self, &pollDone{inc: inc, results: res})
	}()
}

func (a *chainActor) onPolled(ctx actor.Context, m *pollDone) {
	a.op = ""
	now := a.o.Clock.Now()
	for _, r := range m.results {
		it := a.items[r.id]
		if it == nil || it.tx.Hash != r.hash || it.state != stPolling {
			continue
		}
		if r.err != nil {
			it.tries++
			a.setSent(it, now.Add(a.backoff(it.tries)))
			continue
		}
		it.tries = 0
		switch st := r.st; {
		case st.State == ccd.Finalized && !st.Rejected:
			a.finalize(ctx, it, st.Block)
		case st.State == ccd.Finalized:
			a.failedInBlock(ctx, it, st)
		case st.State == ccd.Absent && a.expired(it, now):
			it.state = stDead
			a.needResync = true
		case st.State == ccd.Absent:
			// The node lost it (a restart, a dropped pool): the same bytes go again.
			a.setReady(it, now)
		default:
			a.setSent(it, now.Add(a.o.PollEvery))
		}
	}
	a.kick(ctx)
}

// maxInBlockRetries is how often an anchor that failed in a finalized block is re-signed before
// it is recorded as failed (a failure that repeats is not the chain's accident).
const maxInBlockRetries = 3

// failedInBlock handles a transaction that is in a finalized block but failed (its nonce is
// spent, it had no effect). A contract call's failure is the contract's answer (round already
// open, settled...): final, recorded with its reason, never retried. An anchor is re-signed, at
// most maxInBlockRetries times.
func (a *chainActor) failedInBlock(ctx actor.Context, it *item, st ccd.Status) {
	if it.rec.Name != "" || it.rec.Resigned >= maxInBlockRetries {
		a.o.Logger.Error("chain: transaction failed in a finalized block; recorded as failed", "tx", it.rec.Tx,
			"call", it.rec.Name, "reason", st.Reason)
		it.rec.Rejected = st.Reason
		if it.rec.Rejected == "" {
			it.rec.Rejected = "rejected"
		}
		a.finalize(ctx, it, st.Block)
		a.stats.Landed--
		a.stats.Failed++
		return
	}
	a.o.Logger.Warn("chain: transaction failed in a finalized block; re-signing", "tx", it.rec.Tx, "reason", st.Reason)
	it.state = stDead
	a.needResync = true
}

func (a *chainActor) expired(it *item, now time.Time) bool {
	return uint64(now.Unix()) >= it.tx.Expiry
}

// finalize drops a landed item from the queue and marks its index record final.
func (a *chainActor) finalize(ctx actor.Context, it *item, block [32]byte) {
	delete(a.items, it.rec.ID)
	delete(a.byData, string(mustHex(it.rec.Data)))
	r := *it.rec
	r.Final, r.Block = true, hex.EncodeToString(block[:])
	a.pendingOps = append(a.pendingOps, op{final: &r, it: it})
	a.stats.Landed++
	a.kickPersist(ctx)
}

// finalOf is the CallFinal of a final record.
func finalOf(r *record) *CallFinal {
	return &CallFinal{Table: r.Table, Round: r.Round, Name: r.Name, Tx: r.Tx, Block: r.Block, Rejected: r.Rejected}
}

func (a *chainActor) startResync(ctx actor.Context) {
	a.op = "resync"
	var items []*item
	for _, it := range a.items {
		if it.state == stReady || it.state == stSent || it.state == stDead {
			items = append(items, it)
		}
	}
	a.statusOf(ctx, items, true)
}

// onResynced applies the node's view: landed items are finalized, items the node holds are
// watched, items that can never land (nonce consumed by another transaction, expired, failed in
// a finalized block) are re-signed under the lowest nonces from the node's next nonce up that no
// live item holds; the rest are resubmitted unchanged.
func (a *chainActor) onResynced(ctx actor.Context, m *resyncDone) {
	a.op = ""
	now := a.o.Clock.Now()
	if m.err != nil {
		a.resyncTries++
		a.resyncDue = now.Add(a.backoff(a.resyncTries))
		a.o.Logger.Warn("chain: re-sync failed", "err", m.err, "retry_in", a.resyncDue.Sub(now))
		a.kick(ctx)
		return
	}
	a.needResync, a.resyncTries = false, 0
	a.stats.Resyncs++
	for _, r := range m.results {
		it := a.items[r.id]
		if it == nil || it.tx.Hash != r.hash || it.state == stUnpersisted {
			continue
		}
		if r.err != nil {
			continue // unknown: leave it as it is
		}
		switch st := r.st; {
		case st.State == ccd.Finalized && !st.Rejected:
			a.finalize(ctx, it, st.Block)
		case st.State == ccd.Finalized:
			a.failedInBlock(ctx, it, st)
		case st.State == ccd.Committed || st.State == ccd.Received:
			it.state, it.due = stSent, now.Add(a.o.PollEvery)
		case it.tx.Nonce < m.nodeNext || a.expired(it, now):
			it.state = stDead
		default:
			// Live: the same bytes go again, after a back-off if the node refused them before
			// (a refusal re-sync cannot explain, such as too little balance, must not spin).
			it.state, it.due = stReady, now
			if it.tries > 0 {
				it.due = now.Add(a.backoff(it.tries))
			}
		}
	}
	a.resign(ctx, m.nodeNext, now)
	a.rebuild()
	a.kick(ctx)
}

// resign gives every dead item a fresh nonce and signature; see onResynced.
func (a *chainActor) resign(ctx actor.Context, nodeNext uint64, now time.Time) {
	used := map[uint64]bool{}
	var dead []*item
	for _, it := range a.items {
		if it.state == stDead {
			dead = append(dead, it)
		} else {
			used[it.tx.Nonce] = true
		}
	}
	a.next = max(a.next, nodeNext)
	sort.Slice(dead, func(i, j int) bool { return dead[i].rec.Order < dead[j].rec.Order })
	n := nodeNext
	for _, it := range dead {
		for used[n] {
			n++
		}
		tx, err := it.tx.Resign(a.c.key, n, uint64(now.Add(a.o.Expiry).Unix()))
		if err != nil {
			a.o.Logger.Error("chain: re-sign", "tx", it.rec.Tx, "err", err)
			continue
		}
		used[n] = true
		a.next = max(a.next, n+1)
		a.o.Logger.Info("chain: re-signed", "id", it.rec.ID, "old", it.rec.Tx, "new", tx.HashHex(), "nonce", n)
		it.tx = tx
		it.rec.Tx, it.rec.BlockItem, it.rec.Nonce = tx.HashHex(), hex.EncodeToString(tx.BlockItem), tx.Nonce
		it.rec.Resigned++
		it.state, it.tries = stUnpersisted, 0
		a.stats.Resigned++
		a.persist(ctx, it)
	}
	for k := nodeNext; k < a.next; k++ {
		if !used[k] {
			a.o.Logger.Error("chain: nonce gap no pending item can fill; later submissions wait", "nonce", k)
			break
		}
	}
}
