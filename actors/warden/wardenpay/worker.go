package wardenpay

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"strings"
	"sync"
	"time"

	"arena/chain/evm"
	"arena/chain/x402"
	"arena/games/warden/feed"
	"arena/storage"
)

// Options configure a Worker.
type Options struct {
	Store  *storage.Store
	Client *evm.Client
	// Wallet is the Warden's wallet (warden-games §11): it holds the escrow (the stakes' payTo)
	// and signs every payout and refund. Nil: no job is sent (they wait in the queue); the
	// sweep and the SETTLED writes of matches that pay nothing still run.
	Wallet *evm.Wallet
	// Token is the stake token, whose transfer(to, amount) pays a job.
	Token x402.Address
	// StakeSettleWait is how long after a stake deadline a canceled match waits for a stake
	// that was being settled when the window closed (§17 stake_settle_wait, default 20 s)
	// before it may close.
	StakeSettleWait time.Duration
	// Poll is how often the Worker looks at its jobs and the matches' deadlines (default 1 s).
	Poll time.Duration
	Now  func() time.Time
	Log  *slog.Logger
	// EliteWinRatePct and EliteMinMatches are Standing's ELITE bar (§13.1, 0 takes 60 and 1)
	// for the standing_after of match_settled.
	EliteWinRatePct, EliteMinMatches int64
	// OnSettled, when set, is called after a match's SETTLED write with the rows as written
	// (the Gallery's match_settled, §11).
	OnSettled func(match string, rows []storage.WardenRow)
	// Published, when set, gives the events the SETTLED write appends after match_settled in
	// its own transaction (actors/warden.MessagesPublished: messages_published, §15.3); nil
	// for none. Its error fails the write (nothing is settled; the next pass tries again).
	Published func(tx storage.WardenTx, match string) (func(feed.Head) feed.Event, error)
	// hook, when set (tests), is called at each money step; an error there stops the pass as
	// a crash would.
	hook func(step string) error
}

// Worker pays the Warden's queued jobs and writes what follows from them (§11, §5.4, §12.2).
// One goroutine (Run) owns it: the jobs are paid one after another, so the wallet's nonces are
// handed out in order from one counter (warden_state wallet/<address>). Every step is written
// before the next is taken:
//
//   - a queued job is signed at the wallet's next nonce, and the signed bytes, the hash and the
//     counter's next value are stored in one write before the transaction is sent;
//   - a signed job is confirmed by a receipt with status 1 for one of its hashes; with no
//     receipt it is sent again (the same bytes), or, when the node dropped it and will not
//     take the bytes back (fees too low), signed again at the same nonce with fresh fees, the
//     old hash kept (either may be the one mined);
//   - a reverted transaction sends the job back to queued (a new nonce), MaxReverts times,
//     then the job is failed: payout_failed, logged at error level for the operator;
//   - when every payout job of a SETTLING match is confirmed (at once when it has none), one
//     write appends its Ledger rows with their payout_ref and settled_at, folds the
//     aggregates, and marks the match SETTLED; a payout confirmed for another amount than its
//     row's (or a refund in its place) blocks that write for good, and is logged once at
//     error level for the operator (Audit reports it too);
//   - the Sweeper's passes run in the same loop (sweep.go).
//
// A restart (a new Worker on the same store) picks every job up where its last write left it.
type Worker struct {
	o    Options
	kick chan struct{}
	// mu guards stuck: the matches whose confirmed payout does not match its row, logged once
	// per process each (settle).
	mu    sync.Mutex
	stuck map[string]bool
}

// New returns a Worker; Run starts it.
func New(o Options) *Worker {
	if o.Poll <= 0 {
		o.Poll = time.Second
	}
	if o.StakeSettleWait <= 0 {
		o.StakeSettleWait = 20 * time.Second
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	return &Worker{o: o, kick: make(chan struct{}, 1), stuck: map[string]bool{}}
}

// Kick asks for a pass now (a settlement was queued); it never blocks.
func (w *Worker) Kick() {
	select {
	case w.kick <- struct{}{}:
	default:
	}
}

// Run passes over the jobs and matches every Poll, or at once after a Kick, until ctx ends.
func (w *Worker) Run(ctx context.Context) {
	for {
		if err := w.Pass(ctx); err != nil && ctx.Err() == nil {
			w.o.Log.Warn("wardenpay: pass", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-w.kick:
		case <-time.After(w.o.Poll):
		}
	}
}

// Pass is one turn of the loop: the sweep (deadlines, refunds queued, matches closed), every
// open job moved one step or more, then the SETTLED writes of matches whose payouts are all
// confirmed. It returns the first error; a job's error does not stop the others.
func (w *Worker) Pass(ctx context.Context) error {
	var errs []error
	if err := w.sweep(); err != nil {
		errs = append(errs, err)
	}
	jobs, err := w.openJobs()
	if w.o.Wallet == nil {
		jobs = nil // no wallet: the jobs wait, durable, for one
	}
	if err != nil {
		return errors.Join(append(errs, err)...)
	}
	for _, j := range jobs {
		if err := w.step(ctx, j); err != nil {
			errs = append(errs, fmt.Errorf("job %s/%s: %w", j.Match, j.Seat, err))
			var h hookError
			if errors.As(err, &h) {
				return errors.Join(errs...) // the test's crash: nothing after it runs
			}
		}
	}
	if err := w.settleAll(); err != nil {
		errs = append(errs, err)
	}
	if err := w.closeAll(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// hookError is a test hook's stop, which ends the pass as a crash would.
type hookError struct{ error }

func (h hookError) Unwrap() error { return h.error }

func (w *Worker) step1(name string) error {
	if w.o.hook != nil {
		if err := w.o.hook(name); err != nil {
			return hookError{err}
		}
	}
	return nil
}

// openJobs are the queued and signed jobs, in key order.
func (w *Worker) openJobs() ([]Job, error) {
	var out []Job
	err := w.o.Store.WardenKeys("payoutq/", func(_ string, v []byte) error {
		var j Job
		if err := json.Unmarshal(v, &j); err != nil {
			return err
		}
		if j.Status == JobQueued || j.Status == JobSigned {
			out = append(out, j)
		}
		return nil
	})
	return out, err
}

// step takes one job as far as it goes now: queued → signed → sent → confirmed.
func (w *Worker) step(ctx context.Context, j Job) error {
	if j.Status == JobQueued {
		var err error
		if j, err = w.sign(ctx, j); err != nil {
			return err
		}
		if err := w.step1("signed"); err != nil {
			return err
		}
		if err := w.send(ctx, j); err != nil {
			return err
		}
		if err := w.step1("sent"); err != nil {
			return err
		}
	}
	return w.check(ctx, j)
}

// sign signs j's transfer at the wallet's next nonce and stores it, with the counter moved on,
// in one write; nothing is sent before that write is durable.
func (w *Worker) sign(ctx context.Context, j Job) (Job, error) {
	if err := w.step1("signing"); err != nil {
		return j, err
	}
	next, err := w.nextNonce(ctx)
	if err != nil {
		return j, err
	}
	to, ok := x402.ParseAddress(j.To)
	if !ok {
		return j, fmt.Errorf("job pays %q, not an address", j.To)
	}
	tx, err := w.o.Wallet.TokenTransfer(ctx, w.o.Client, w.o.Token, to, new(big.Int).SetUint64(j.Amount), next)
	if err != nil {
		return j, fmt.Errorf("sign at nonce %d: %w", next, err)
	}
	h := tx.Hash()
	j.Status, j.Nonce, j.Tx, j.Raw = JobSigned, next, lowerHex(h[:]), lowerHex(tx.Raw())
	j.Hashes = []string{j.Tx}
	err = w.o.Store.WardenUpdate(func(t storage.WardenTx) error {
		var cur Job
		if _, err := t.Get(jobKey(j.Match, j.Seat), &cur); err != nil {
			return err
		}
		if cur.Status != JobQueued {
			return fmt.Errorf("job is %s, not queued", cur.Status)
		}
		var n uint64
		if _, err := t.Get(walletKey(w.o.Wallet.Address), &n); err != nil {
			return err
		}
		if n > next {
			return fmt.Errorf("nonce %d was handed out meanwhile (counter at %d)", next, n)
		}
		if err := t.Put(walletKey(w.o.Wallet.Address), next+1); err != nil {
			return err
		}
		if err := t.Put(jobKey(j.Match, j.Seat), j); err != nil {
			return err
		}
		return w.publish(t, j.Match, sentEvent(j))
	})
	return j, err
}

// nextNonce is the wallet's next nonce: the stored counter, or the chain's pending count when
// that is higher (the wallet was used from elsewhere, or this is its first job).
func (w *Worker) nextNonce(ctx context.Context) (uint64, error) {
	var n uint64
	if err := w.o.Store.WardenView(func(t storage.WardenTx) error {
		_, err := t.Get(walletKey(w.o.Wallet.Address), &n)
		return err
	}); err != nil {
		return 0, err
	}
	chain, err := w.o.Client.NonceAt(ctx, w.o.Wallet.Address, "pending")
	if err != nil {
		return 0, err
	}
	return max(n, chain), nil
}

// send broadcasts j's stored bytes. A node that has them already, or has mined them, is fine.
func (w *Worker) send(ctx context.Context, j Job) error {
	raw, ok := parseHex(j.Raw)
	if !ok {
		return fmt.Errorf("stored transaction is not hex")
	}
	_, err := w.o.Client.SendRawTransaction(ctx, raw)
	return err
}

// check looks for a receipt of j's hashes and moves the job on: confirmed, re-queued after a
// revert (failed after MaxReverts), or, with no receipt, sent again or replaced at its nonce.
func (w *Worker) check(ctx context.Context, j Job) error {
	for _, h := range j.Hashes {
		hash, err := parseHash32(h)
		if err != nil {
			return err
		}
		r, ok, err := w.o.Client.TransactionReceipt(ctx, hash)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		if r.Success {
			j.Status, j.Tx = JobConfirmed, h
			var ev []func(feed.Head) feed.Event
			if j.Kind == KindPayout {
				ev = append(ev, feed.Payout{Seat: j.Seat, Amount: int64(j.Amount), Tx: h}.Confirmed)
			}
			if err := w.putJob(j, JobSigned, ev...); err != nil {
				return err
			}
			w.o.Log.Info("wardenpay: confirmed", "match", j.Match, "seat", j.Seat, "kind", j.Kind, "amount", j.Amount, "tx", h)
			return w.step1("confirmed")
		}
		j.Reverted = append(j.Reverted, h)
		j.Tx, j.Raw, j.Hashes, j.Nonce = "", "", nil, 0
		if len(j.Reverted)-j.Retried >= MaxReverts {
			j.Status, j.Reason = JobFailed, fmt.Sprintf("payout_failed: %d transactions reverted, the last %s", len(j.Reverted), h)
			w.o.Log.Error("wardenpay: payout_failed: the operator must look", "match", j.Match, "seat", j.Seat,
				"kind", j.Kind, "to", j.To, "amount", j.Amount, "reverted", strings.Join(j.Reverted, ","))
		} else {
			j.Status = JobQueued
			w.o.Log.Warn("wardenpay: reverted, queued again", "match", j.Match, "seat", j.Seat, "tx", h)
		}
		return w.putJob(j, JobSigned)
	}
	// No receipt: pending at the node (perhaps stuck below the base fee), or dropped.
	cur, err := parseHash32(j.Tx)
	if err != nil {
		return err
	}
	known, err := w.o.Client.HasTransaction(ctx, cur)
	if err != nil {
		return err
	}
	if known {
		return w.replaceIfStuck(ctx, j)
	}
	err = w.send(ctx, j)
	if err == nil {
		return nil
	}
	var rpcErr *evm.RPCError
	if !errors.As(err, &rpcErr) {
		return err
	}
	latest, nerr := w.o.Client.NonceAt(ctx, w.o.Wallet.Address, "latest")
	if nerr != nil {
		return nerr
	}
	if latest > j.Nonce {
		// The nonce is spent and none of this job's hashes has a receipt: the receipt may lag
		// the count on a node still indexing, so look once more before giving the nonce up.
		for _, h := range j.Hashes {
			hash, _ := parseHash32(h)
			if _, ok, err := w.o.Client.TransactionReceipt(ctx, hash); err != nil || ok {
				return err
			}
		}
		w.o.Log.Warn("wardenpay: the job's nonce was spent by another transaction; queued again", "match", j.Match, "seat", j.Seat, "nonce", j.Nonce)
		j.Status, j.Tx, j.Raw, j.Hashes, j.Nonce = JobQueued, "", "", nil, 0
		return w.putJob(j, JobSigned)
	}
	// Dropped, and refused as it is: signed again at its nonce with fresh fees.
	w.o.Log.Warn("wardenpay: the node dropped the transaction and refuses it again", "match", j.Match, "seat", j.Seat, "err", err)
	return w.replace(ctx, j)
}

// replaceIfStuck replaces j's pending transaction when its fee cap is below the latest base
// fee (it cannot be mined until fees fall).
func (w *Worker) replaceIfStuck(ctx context.Context, j Job) error {
	old, fees, err := w.pending(ctx, j)
	if err != nil {
		return err
	}
	if old.GasFeeCap.Cmp(fees.BaseFee) >= 0 {
		return nil // pending, minable: wait for its receipt
	}
	w.o.Log.Warn("wardenpay: the transaction is stuck below the base fee", "match", j.Match, "seat", j.Seat, "fee_cap", old.GasFeeCap, "base_fee", fees.BaseFee)
	return w.replaceWith(ctx, j, old, fees)
}

// pending decodes j's stored signed transaction and reads the node's fees now.
func (w *Worker) pending(ctx context.Context, j Job) (*evm.DynamicFeeTx, evm.Fees, error) {
	raw, _ := parseHex(j.Raw)
	old, err := evm.DecodeDynamicFeeTx(raw)
	if err != nil {
		return nil, evm.Fees{}, fmt.Errorf("stored transaction: %w", err)
	}
	fees, err := w.o.Client.SuggestFees(ctx)
	if err != nil {
		return nil, evm.Fees{}, err
	}
	return old, fees, nil
}

// replace signs j's transfer again at its nonce, the same call and gas, with the node's fees or
// a tenth more than the old ones, whichever is higher (a node takes a replacement only with
// both fees raised by at least a tenth), stores it beside the old hash, and sends it.
func (w *Worker) replace(ctx context.Context, j Job) error {
	old, fees, err := w.pending(ctx, j)
	if err != nil {
		return err
	}
	return w.replaceWith(ctx, j, old, fees)
}

// replaceWith is replace with j's decoded transaction and the node's fees already read.
func (w *Worker) replaceWith(ctx context.Context, j Job, old *evm.DynamicFeeTx, fees evm.Fees) error {
	bump := func(fresh, prev *big.Int) *big.Int {
		b := new(big.Int).Add(new(big.Int).Div(new(big.Int).Mul(prev, big.NewInt(11)), big.NewInt(10)), big.NewInt(1))
		if fresh.Cmp(b) > 0 {
			return fresh
		}
		return b
	}
	tx := &evm.DynamicFeeTx{Nonce: old.Nonce, GasTipCap: bump(fees.TipCap, old.GasTipCap), GasFeeCap: bump(fees.FeeCap, old.GasFeeCap),
		Gas: old.Gas, To: old.To, Value: old.Value, Data: old.Data}
	w.o.Wallet.Sign(tx)
	h := tx.Hash()
	j.Tx, j.Raw = lowerHex(h[:]), lowerHex(tx.Raw())
	j.Hashes = append(j.Hashes, j.Tx)
	if err := w.putJob(j, JobSigned, sentEvent(j)); err != nil {
		return err
	}
	w.o.Log.Warn("wardenpay: transaction replaced at its nonce", "match", j.Match, "seat", j.Seat, "nonce", j.Nonce, "tx", j.Tx)
	return w.send(ctx, j)
}

// putJob writes j if the stored job is still in status from, with the Gallery event ev makes
// (none when nil) in the same transaction.
func (w *Worker) putJob(j Job, from string, ev ...func(feed.Head) feed.Event) error {
	return w.o.Store.WardenUpdate(func(t storage.WardenTx) error {
		var cur Job
		found, err := t.Get(jobKey(j.Match, j.Seat), &cur)
		if err != nil {
			return err
		}
		if !found || cur.Status != from {
			return fmt.Errorf("job %s/%s is %q, not %s", j.Match, j.Seat, cur.Status, from)
		}
		if err := t.Put(jobKey(j.Match, j.Seat), j); err != nil {
			return err
		}
		for _, e := range ev {
			if err := w.publish(t, j.Match, e); err != nil {
				return err
			}
		}
		return nil
	})
}

// settleAll makes the SETTLED write of every queued settlement whose payouts are confirmed.
func (w *Worker) settleAll() error {
	var matches []string
	if err := w.o.Store.WardenKeys("settle/", func(k string, _ []byte) error {
		matches = append(matches, strings.TrimPrefix(k, "settle/"))
		return nil
	}); err != nil {
		return err
	}
	var errs []error
	for _, m := range matches {
		if err := w.settle(m); err != nil {
			errs = append(errs, fmt.Errorf("settle %s: %w", m, err))
		}
	}
	return errors.Join(errs...)
}

// errWaiting is settle's word for a match with a payout not yet confirmed.
var errWaiting = errors.New("payouts in flight")

// mismatch is settle's word for a payout job confirmed as something other than its row's
// payout (another amount, or a refund): the match can never settle by itself, and the
// operator must look (Audit reports it too).
type mismatch struct {
	seat, kind      string
	amount, paidOut int64
	tx              string
}

func (m mismatch) Error() string {
	return fmt.Sprintf("seat %s: %s job confirmed %d by %s, its Ledger row pays %d", m.seat, m.kind, m.amount, m.tx, m.paidOut)
}

// settle is the SETTLED write (§11, §12.2): in one transaction, both rows appended with each
// payout's confirmed hash and the settlement time, the aggregates folded, the match SETTLED,
// and the pending settlement removed. Nothing is written while a payout is unconfirmed.
func (w *Worker) settle(match string) error {
	var written []storage.WardenRow
	settledAt := w.o.Now().UTC().Format("2006-01-02T15:04:05.000Z")
	err := w.o.Store.WardenUpdate(func(t storage.WardenTx) error {
		written = nil
		var p pending
		if found, err := t.Get(settleKey(match), &p); err != nil || !found {
			return err
		}
		rows := p.Rows
		for _, seat := range p.Jobs {
			var j Job
			if _, err := t.Get(jobKey(match, seat), &j); err != nil {
				return err
			}
			i, ok := seatIndex(seat)
			if !ok {
				return fmt.Errorf("job seat %q", seat)
			}
			if j.Status != JobConfirmed {
				return errWaiting
			}
			if j.Kind != KindPayout || int64(j.Amount) != rows[i].PaidOut {
				return mismatch{seat: seat, kind: j.Kind, amount: int64(j.Amount), paidOut: rows[i].PaidOut, tx: j.Tx}
			}
			ref := j.Tx
			rows[i].PayoutRef = &ref
		}
		for i := range rows {
			if rows[i].PaidOut > 0 && rows[i].PayoutRef == nil {
				return fmt.Errorf("seat %s is paid %d with no payout job", rows[i].Seat, rows[i].PaidOut)
			}
			rows[i].SettledAt = settledAt
		}
		st, err := matchStatus(t, match)
		if err != nil {
			return err
		}
		if st != StatusSettling {
			return fmt.Errorf("the match is %s, not SETTLING", st)
		}
		out, err := t.AppendWardenMatch(rows[:])
		if err != nil {
			return err
		}
		if err := setMatchStatus(t, match, StatusSettled); err != nil {
			return err
		}
		ev, err := w.settledEvent(t, out)
		if err != nil {
			return err
		}
		if err := w.publish(t, match, ev); err != nil {
			return err
		}
		if w.o.Published != nil {
			more, err := w.o.Published(t, match)
			if err != nil {
				return err
			}
			if more != nil {
				if err := w.publish(t, match, more); err != nil {
					return err
				}
			}
		}
		written = out
		return t.Delete(settleKey(match))
	})
	if errors.Is(err, errWaiting) {
		return nil
	}
	if mm, ok := errors.AsType[mismatch](err); ok {
		w.mu.Lock()
		first := !w.stuck[match]
		w.stuck[match] = true
		w.mu.Unlock()
		if first {
			w.o.Log.Error("wardenpay: a confirmed payout differs from its Ledger row; the match stays SETTLING, the operator must look",
				"match", match, "seat", mm.seat, "kind", mm.kind, "amount", mm.amount, "paid_out", mm.paidOut, "tx", mm.tx)
		}
		return nil
	}
	if err != nil || written == nil {
		return err
	}
	w.o.Log.Info("wardenpay: settled", "match", match, "seq", written[1].Seq, "row_hash", written[1].RowHash)
	if w.o.OnSettled != nil {
		w.o.OnSettled(match, written)
	}
	return nil
}

func lowerHex(b []byte) string { return "0x" + hex.EncodeToString(b) }

func parseHex(s string) ([]byte, bool) {
	h, ok := strings.CutPrefix(s, "0x")
	if !ok {
		return nil, false
	}
	b, err := hex.DecodeString(h)
	return b, err == nil
}

func parseHash32(s string) ([32]byte, error) {
	var h [32]byte
	b, ok := parseHex(s)
	if !ok || len(b) != 32 {
		return h, fmt.Errorf("hash %q", s)
	}
	copy(h[:], b)
	return h, nil
}
