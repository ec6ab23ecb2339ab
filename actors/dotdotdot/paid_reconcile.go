package dotdotdot

import (
	"context"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"arena/actors/anchors"
	"arena/actors/ledger"
	ccdaddr "arena/chain/ccd"
	"arena/chain/escrow"
	"arena/storage"
)

// The reconciliation: the ledger says where the paid tables' money is; the escrow holds it. A
// call the escrow refuses in its block (open_round sent while the arena's account could not pay
// the house seats' entries, a settle of a round the escrow never opened, a refund) is final to
// the chain actor, so without this the ledger could show money as staked, paid out or refunded
// that the escrow still holds. Every sweep holds each open or settled round of the ledger
// against view_round, and each payer's money under each seat token against view_unspent (the
// refunds, paid_refund.go), and:
//
//   - reports every disagreement (EscrowMismatch: logged when it appears, counted in
//     arena_paid_escrow_mismatches, listed by PaidTables.Reconcile, `arena ops check paid`);
//   - sends again what is safe to send again, once the call that should have made the escrow
//     agree was refused in its block: open_round (the escrow refuses a second one for a round it
//     holds), the mid-round anchor (one per turn), settle (refused once settled), refund (it names
//     the payer's total under the token: sent twice, it pays once). Each is the same call as the
//     first, signed anew (anchors.CallJob.Retry), retried after SweepEvery and then at doubling
//     intervals up to an hour, so a refusal that repeats costs little;
//   - says what needs a person: a round settled on the escrow otherwise than in the ledger (never
//     retried), a call that landed yet the escrow disagrees, a deposit the ledger counts more of
//     than the escrow holds.
//
// A round is left alone once the escrow was read settled as the ledger settled it (stored:
// PaidTable.Reconciled). A call still pending on the chain is not a disagreement yet.

// Mismatch kinds (EscrowMismatch.Kind).
const (
	MismatchOpenRound = "open_round" // the ledger staked the round's pot; the escrow has no round
	MismatchAnchor    = "anchor"     // the escrow lacks the round's mid-round anchor
	MismatchSettle    = "settle"     // the ledger settled the round; the escrow has not
	MismatchPayouts   = "payouts"    // the escrow settled the round otherwise than the ledger
	MismatchRefund    = "refund"     // the ledger refunded more to a payer than the escrow has
	MismatchDeposit   = "deposit"    // the ledger counts more of a deposit than the escrow holds
)

// EscrowMismatch is one place where the ledger and the escrow disagree.
type EscrowMismatch struct {
	Kind   string `json:"kind"` // Mismatch*
	Table  string `json:"table,omitempty"`
	Round  string `json:"round,omitempty"`
	Payer  string `json:"payer,omitempty"`             // CAIP-10 (refund, deposit)
	Token  string `json:"seat_token_sha256,omitempty"` // refund, deposit
	Detail string `json:"detail"`
	// Retry says the call that would settle it is sent again (after a refusal in its block);
	// Retries counts the transactions refused before the one now standing.
	Retry   bool      `json:"retry"`
	Retries int       `json:"retries,omitempty"`
	Since   time.Time `json:"since"` // first seen by this process
}

// key identifies a mismatch across sweeps.
func (m EscrowMismatch) key() string {
	return m.Kind + "\x00" + m.Table + "\x00" + m.Round + "\x00" + m.Token + "\x00" + m.Payer
}

// Reconcile runs a sweep (PaidTables.Sweep: the tables driven on, the refunds, the
// reconciliation) and lists what the ledger and the escrow disagree on after it, oldest first;
// empty when they agree. err is why the sweep could not finish (the list is then the last
// complete one's).
func (p *PaidTables) Reconcile(ctx context.Context) ([]EscrowMismatch, error) {
	serr := p.Sweep(ctx)
	r, err := paidAsk[*paidMismatches](ctx, p, &paidMismatchesReq{})
	if err != nil {
		return nil, err
	}
	return r.List, serr
}

type (
	paidMismatchesReq struct{}
	paidMismatches    struct{ List []EscrowMismatch }
)

// paidMetrics are the paid tables' collectors (registered when PaidOptions.Metrics is set).
type paidMetrics struct {
	mismatches prometheus.Gauge
	retries    prometheus.Counter
	unfunded   prometheus.Counter
}

func newPaidMetrics(reg prometheus.Registerer) (paidMetrics, error) {
	m := paidMetrics{
		mismatches: prometheus.NewGauge(prometheus.GaugeOpts{Name: "arena_paid_escrow_mismatches",
			Help: "Places where the paid tables' ledger and the escrow disagree, at the last reconciliation."}),
		retries: prometheus.NewCounter(prometheus.CounterOpts{Name: "arena_paid_escrow_retries_total",
			Help: "Escrow calls refused in their block and sent again by the reconciliation."}),
		unfunded: prometheus.NewCounter(prometheus.CounterOpts{Name: "arena_paid_unfunded_total",
			Help: "Paid holds refused and paid tables not opened because the arena's account could not fund the house seats."}),
	}
	if reg != nil {
		for _, c := range []prometheus.Collector{m.mismatches, m.retries, m.unfunded} {
			if err := reg.Register(c); err != nil {
				return m, fmt.Errorf("dotdotdot: paid tables: metrics: %w", err)
			}
		}
	}
	return m, nil
}

// reconRound is what the reconciliation knows of one round of the ledger when a sweep starts.
type reconRound struct {
	table, round string
	settled      bool // the ledger settled its pot (storage.PaidSettled)
	paidBy       map[int]string
	void         paidVoid
	open, mid    *anchors.CallJob // the open_round and mid-round anchor calls, once due
}

// reconState is the reconciliation's memory across sweeps: written by a sweep's goroutine and
// its continuation on the actor, and sweeps run one at a time (each starts after the last one's
// continuation).
type reconState struct {
	due   map[string]time.Time // call key → when it may be sent again
	since map[string]time.Time // mismatch key → first seen
}

// sweepOut is what one sweep found, applied on the actor.
type sweepOut struct {
	err        error
	onEscrow   []string // tables whose round the escrow holds
	reconciled []string // tables whose round the escrow settled as the ledger did
	mismatches []EscrowMismatch
}

// rounds lists the rounds to reconcile (on the actor).
func (a *paidActor) rounds() []reconRound {
	var out []reconRound
	for _, t := range a.byID {
		if (t.status != storage.PaidOpen && t.status != storage.PaidSettled) || !t.staked || t.reconciled || t.round == "" {
			continue
		}
		r := reconRound{table: t.id, round: t.round, settled: t.status == storage.PaidSettled, paidBy: maps.Clone(t.paidBy), void: t.void}
		if job, err := a.openRoundJob(t); err == nil {
			r.open = &job
		}
		if job, err := a.anchorJob(t); err == nil {
			r.mid = &job
		}
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].table < out[j].table })
	return out
}

// reconcileRounds holds each round against view_round (off the actor).
func (a *paidActor) reconcileRounds(ctx context.Context, rr RoundReader, st *ledger.State, rounds []reconRound, out *sweepOut) []error {
	var errs []error
	for _, r := range rounds {
		if err := a.reconcileRound(ctx, rr, st, r, out); err != nil {
			errs = append(errs, fmt.Errorf("round %s: %w", r.round, err))
		}
	}
	return errs
}

func (a *paidActor) reconcileRound(ctx context.Context, rr RoundReader, st *ledger.State, r reconRound, out *sweepOut) error {
	n, err := escrow.Round(r.round)
	if err != nil {
		return err
	}
	v, found, err := rr.Round(ctx, n)
	if err != nil {
		return err
	}
	base := EscrowMismatch{Table: r.table, Round: r.round}
	if !found {
		if r.open != nil {
			base.Kind, base.Detail = MismatchOpenRound, "the ledger staked the round's pot; the escrow holds no such round"
			return a.chase(*r.open, base, out)
		}
		return nil // open_round is not due yet: the open-round anchor is not known
	}
	out.onEscrow = append(out.onEscrow, r.table)
	if r.mid != nil && !slices.ContainsFunc(v.Turns, func(ta escrow.TurnAnchor) bool { return ta.Turn == escrow.MidRoundTurn(a.turns) }) && !v.Settled {
		base.Kind, base.Detail = MismatchAnchor, "the escrow holds the round without its mid-round anchor"
		if err := a.chase(*r.mid, base, out); err != nil {
			return err
		}
	}
	if !r.settled {
		return nil
	}
	set, ok := a.p.settlement(r.table, r.round, r.paidBy, r.void)
	if !ok {
		return fmt.Errorf("the table's record has no result")
	}
	if !v.Settled {
		_, house := set.ledgerSettle()
		job, err := a.p.settleJob(set, house)
		if err != nil {
			return err
		}
		base.Kind, base.Detail = MismatchSettle, "the ledger settled the round; the escrow has not"
		return a.chase(job, base, out)
	}
	// Settled on both sides: the escrow must have paid what the ledger settled.
	pot := st.Pots[r.round]
	want := map[ccdaddr.Address]uint64{}
	for _, py := range pot.Payouts {
		acc := py.Account
		if acc == SeasonPoolAccount { // §11.3: paid on chain to the season pool's account
			acc = a.p.o.SeasonPool
			if acc == "" {
				acc = a.p.o.House
			}
		}
		to, err := escrow.Account(acc)
		if err != nil {
			return err
		}
		if py.Amount > 0 {
			want[to] += uint64(py.Amount)
		}
	}
	if house, err := escrow.Account(a.p.o.House); err == nil && pot.House > 0 {
		want[house] += uint64(pot.House)
	}
	got := map[ccdaddr.Address]uint64{}
	for _, py := range v.Payouts {
		if py.Amount > 0 {
			got[py.To] += py.Amount
		}
	}
	th, err := escrow.TranscriptHash(set.Result.TranscriptHash)
	switch {
	case pot.Settled == 0:
		base.Kind, base.Detail = MismatchPayouts, "the escrow settled the round; the ledger has not settled its pot"
	case !maps.Equal(want, got):
		base.Kind, base.Detail = MismatchPayouts, "the escrow paid "+payoutsText(got)+"; the ledger settled "+payoutsText(want)
	case err != nil || th != v.TranscriptHash:
		base.Kind, base.Detail = MismatchPayouts, "the escrow settled the round under transcript hash "+hex.EncodeToString(v.TranscriptHash[:])+
			", the round's is "+set.Result.TranscriptHash
	default:
		out.reconciled = append(out.reconciled, r.table)
		return nil
	}
	a.report(base, out)
	return nil
}

// chase makes the escrow hear job, whose effect it lacks (m says what is missing): a call never
// asked for is asked now (it was lost before it was written: no disagreement yet); one in flight
// is waited for (a mismatch still when it is a retry); one refused in its block is a mismatch,
// sent again when its back-off allows; one that landed while the escrow still disagrees is a
// mismatch for a person.
func (a *paidActor) chase(job anchors.CallJob, m EscrowMismatch, out *sweepOut) error {
	o := a.p.o
	key, err := anchors.CallKey(job.Call)
	if err != nil {
		return err
	}
	land, ok, err := anchors.LookupCall(a.p.a.Store(), job.Call)
	switch {
	case err != nil:
		return err
	case !ok:
		o.Chain.Call(job)
		return nil
	case !land.Final && land.Retried == 0:
		return nil
	case !land.Final: // a retry in flight: the disagreement stands until it lands
		m.Detail += fmt.Sprintf("; the escrow refused %s %d times: sent again (%s), pending", job.Name, land.Retried, land.Tx)
		m.Retry, m.Retries = true, land.Retried
		a.report(m, out)
		return nil
	case land.Rejected == "":
		m.Detail += "; its " + job.Name + " landed (" + land.Tx + ") yet the escrow disagrees"
		a.report(m, out)
		return nil
	}
	m.Detail += "; the escrow refused " + job.Name + " (" + land.Tx + "): " + land.Rejected
	m.Retry, m.Retries = true, land.Retried
	a.report(m, out)
	now := a.p.a.Clock().Now()
	k := hex.EncodeToString(key)
	if now.Before(a.recon.due[k]) {
		return nil
	}
	job.Retry, job.ReplyTo = true, nil
	o.Chain.Call(job)
	a.p.metrics.retries.Inc()
	a.recon.due[k] = now.Add(retryDelay(o.SweepEvery, land.Retried))
	a.p.log.Warn("paid tables: a call the escrow refused is sent again", "call", job.Name, "table", job.Table, "round", job.Round,
		"refused", land.Rejected, "retries", land.Retried)
	return nil
}

// retryDelay is how long after its n-th retry (from 0) a refused call waits before the next:
// every doubling from every, at most an hour.
func retryDelay(every time.Duration, n int) time.Duration {
	d := every
	for i := 0; i < n && d < time.Hour; i++ {
		d *= 2
	}
	return min(d, time.Hour)
}

// report adds m to the sweep's mismatches, stamped with when this process first saw it.
func (a *paidActor) report(m EscrowMismatch, out *sweepOut) {
	k := m.key()
	since, ok := a.recon.since[k]
	if !ok {
		since = a.p.a.Clock().Now()
	}
	m.Since = since
	out.mismatches = append(out.mismatches, m)
}

// applyMismatches keeps the sweep's list (on the actor): each new one is logged, the gauge set,
// and the first-seen times of those gone forgotten.
func (a *paidActor) applyMismatches(list []EscrowMismatch) {
	sort.Slice(list, func(i, j int) bool {
		if !list[i].Since.Equal(list[j].Since) {
			return list[i].Since.Before(list[j].Since)
		}
		return list[i].key() < list[j].key()
	})
	seen := map[string]time.Time{}
	for _, m := range list {
		k := m.key()
		if _, old := a.recon.since[k]; !old {
			a.p.log.Error("paid tables: the ledger and the escrow disagree", "kind", m.Kind, "table", m.Table, "round", m.Round,
				"payer", m.Payer, "detail", m.Detail, "retry", m.Retry)
		}
		seen[k] = m.Since
	}
	for k := range a.recon.since {
		if _, ok := seen[k]; !ok {
			a.p.log.Info("paid tables: the ledger and the escrow agree again", "mismatch", strings.ReplaceAll(k, "\x00", " "))
		}
	}
	a.recon.since = seen
	a.mismatches = list
	a.p.metrics.mismatches.Set(float64(len(list)))
}

// payoutsText lists payouts for a mismatch's detail: "<account> <CCD> CCD, …" by account.
func payoutsText(m map[ccdaddr.Address]uint64) string {
	if len(m) == 0 {
		return "nothing"
	}
	keys := slices.Collect(maps.Keys(m))
	sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k.String() + " " + ccdText(int64(m[k])) + " CCD"
	}
	return strings.Join(parts, ", ")
}
