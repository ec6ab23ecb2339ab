package dotdotdot

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/prometheus/client_golang/prometheus"

	"arena/actors"
	"arena/actors/anchors"
	"arena/actors/internal/ask"
	"arena/actors/ledger"
	"arena/chain/escrow"
	"arena/games"
	"arena/storage"
)

// Paid tables (§5.7): POST /v1/join {"table":"open"} holds a seat for the agent's Badge owner on
// the table filling now; the entry must reach the escrow from one of the pay_from accounts
// before starts_at; the arena reads the chain, never a claim; the seat's payout goes to
// paid_by. One actor (paid_actor.go) owns the paid tables; its timers only send it messages.
// Its tables are in the store (storage.PaidTable, written before what rests on them is
// announced), so a restart at any step picks each up where it stood. The money is the ledger's
// (actors/ledger, unit microCCD): a hold is opened there before the join is answered, the
// counted entries are received into it at starts_at, staked into the round's pot when the table
// opens (the house seats' entries beside them), and the pot is settled when the round is over,
// each row committed before what rests on it is announced (a check's status, the escrow's calls).
// The escrow side (open_round with the round's stakes, the mid-round anchor, settle: §5.5,
// §11.5) goes to the chain actor through PaidOptions.Chain, encoded by chain/escrow; money on
// the escrow that does not play is refunded to its payer (paid_refund.go).

// PaidUnit is the ledger unit of paid tables: the escrow holds CCD.
const PaidUnit = "microCCD"

// EscrowDeposit is one escrow.deposit as the chain records it.
type EscrowDeposit = escrow.Deposit

// DepositReader reads the escrow's deposits for a seat token (escrow.Reader in `arena serve`),
// oldest first.
type DepositReader interface {
	Deposits(ctx context.Context, seatToken string) ([]EscrowDeposit, error)
}

// UnspentReader lists the escrow's unspent money by seat token and payer (escrow.Reader's
// view_unspent). A DepositReader that is one too lets the paid tables refund what does not play.
type UnspentReader interface {
	Unspent(ctx context.Context) ([]escrow.Unspent, error)
}

// RoundReader reads a round as the escrow holds it (escrow.Reader's view_round). A DepositReader
// that is one too lets the paid tables reconcile their ledger with the escrow (paid_reconcile.go).
type RoundReader interface {
	Round(ctx context.Context, round uint64) (escrow.RoundView, bool, error)
}

// FundsReader reads the available balance of the arena's account (PaidOptions.House), microCCD.
type FundsReader interface {
	Available(ctx context.Context) (int64, error)
}

// EscrowChain takes the escrow's contract calls (the chain actor's Call: signed at once, queued,
// submitted and watched to finality; it never blocks).
type EscrowChain interface{ Call(job anchors.CallJob) }

// PaidOptions configure PaidTables. Deposits is required.
type PaidOptions struct {
	Deposits DepositReader
	// Ledger keeps the money (nil: the runtime's one ledger on the store, actors.Arena.Ledger).
	Ledger *ledger.Ledger
	// Chain takes the escrow calls (nil: the escrow is only read, never called: no house
	// deposits, no open_round, anchor or settle).
	Chain EscrowChain
	// Contract is the escrow instance Chain calls.
	Contract escrow.Contract
	// House is the arena's account, CAIP-10: it deposits the house seats' entries and is paid
	// the house's part at settle ("": the ledger names it "house" and the escrow is not called).
	House string
	// SeasonPool is the account, CAIP-10, the escrow pays a round's season pool part to (§11.3:
	// the in-house seats' collateral gains). "": House receives it on chain, in a payout of its
	// own, while the ledger keeps it as SeasonPoolAccount's, never as the house's take.
	SeasonPool string
	// Funds reads House's available balance. Set (with the escrow called), no player is asked
	// for money the house could not match: a hold is refused (bad_table, retry) while the
	// account could not fund every house seat of a table beside what it already owes, and a
	// table whose house seats it cannot fund once its paid seats are known is not opened (it
	// fails: its entries go back). nil: not checked.
	Funds FundsReader
	// FeeReserve is what House keeps beyond the house seats' entries, for the fees of its
	// anchors and escrow calls, microCCD (0: nothing).
	FeeReserve int64
	// Metrics, when set, receives the escrow reconciliation's collectors (arena_paid_*).
	Metrics prometheus.Registerer
	// Entry is the entry in microCCD (0: 100 CCD; §14's minimum is 50).
	Entry int64
	// Gather is how long the table fills, from its first hold to starts_at (0: 2 minutes).
	Gather time.Duration
	// Format is the table's format (""/"blitz": 6 seats; "short": 3).
	Format string
	// Pace is the table's clock (zero: the agent clock of §5.3).
	Pace games.Pace
	// Escrow is the escrow contract, CAIP-10 ("ccd:<chain>:<index>.<subindex>"), named in the
	// deposit instruction.
	Escrow string
	// OnOpen, when set, is called (on its own goroutine) once the table opened, with its stakes
	// in the ledger, or failed (and again after a restart that finds it so).
	OnOpen func(table, round string, err error)
	// SweepEvery is how often every table is driven on and the escrow's unspent money that does
	// not play is refunded (0: 30 s). Each table's own steps start a sweep too.
	SweepEvery time.Duration
	// VoidAfter is how long the table of an open paid round may stay stopped or failed before
	// the round is settled void: every seat's entry back to whoever staked it, on the ledger and
	// the escrow (0: 1 hour). Counted from when this process first saw the table down.
	VoidAfter time.Duration
	// OnStep, when set, is called on the paid-table actor at each money step, with the table and
	// round: "staked" (the pot is in the ledger and the table written open, nothing sent to the
	// escrow yet), "open_round" and "anchor" (handed to the chain actor), "settled" (the pot is
	// settled in the ledger, the escrow's settle not yet sent), "paid" (the settle is queued),
	// "refund" (a sweep's refund is in the ledger, its escrow call not yet sent; called on the
	// sweep's goroutine, round ""). It must not block but to stop the process (the kill -9 tests
	// do).
	OnStep func(step, table, round string)
	Logger *slog.Logger
}

// PaidHold answers a paid join: the seat token, when the table starts, who may pay, and what.
type PaidHold struct {
	Hold      string    // public id of the hold (the check URL's last segment); the ledger's hold id
	SeatToken string    // the seat's proof, carried in x-seat-token; also the deposit's parameter
	StartsAt  time.Time // the entry must be on chain (finalized) before this instant
	PayFrom   []string  // CAIP-10 accounts: the owner and, when registered, the agent wallet
	Entry     int64     // microCCD
	Table     string    // the gathering table's id
	Escrow    string    // CAIP-10 contract
}

// PaidCheck is GET {check}: whether the entry reached the escrow from a pay_from account, and
// what became of the seat.
type PaidCheck struct {
	Paid     bool      `json:"paid"`
	PaidBy   string    `json:"paid_by,omitempty"` // CAIP-10: the payout goes here
	Amount   int64     `json:"amount"`            // microCCD of the counted deposit
	Pending  bool      `json:"pending"`           // a deposit is seen but not finalized yet
	Foreign  int64     `json:"foreign"`           // microCCD deposited from accounts not in pay_from (not counted)
	StartsAt time.Time `json:"starts_at"`
	Status   string    `json:"status"` // "holding", "seated", "dropped" (unpaid at starts_at), "failed"
	Table    string    `json:"table"`
	Round    string    `json:"round,omitempty"`
	Seat     int       `json:"seat,omitempty"`
	// PlaybookToken, for an off-the-shelf seat (kind ots) once its table is open and the seat
	// is in it, is the token its owner's human edits the seat's playbook with until scouting
	// ends (Arena.EditPlaybook, POST /v1/ots/playbook; §5.2), as JoinOTS's PlaybookTokens at
	// Practice. Secret: it is answered only to the seat token's holder, on a no-store answer.
	PlaybookToken string `json:"playbook_token,omitempty"`
	// Dropped says why a dropped hold was dropped, where that is more than "unpaid at
	// starts_at": a hold dropped while its table filled, to make room for a new one (paidEvicted).
	Dropped string `json:"dropped,omitempty"`
	// Outcome is what became of the entry once the ledger has it (paid_outcome.go): "settled"
	// (the seat's round is settled: Payout), "refunded" (the seat did not play and its money
	// went back: Refunds), "" while neither.
	Outcome string `json:"outcome,omitempty"`
	// Voided says why a settled round was settled void (every entry back to whoever staked it).
	Voided string `json:"voided,omitempty"`
	// Payout is the seat's payout to paid_by at settle, once settled.
	Payout *PaidTransfer `json:"payout,omitempty"`
	// Refunds is what went back under the seat token to each pay_from account (an unplayed
	// entry, the part above the entry, a second deposit), once the ledger has it.
	Refunds []PaidTransfer `json:"refunds,omitempty"`
}

// PaidTransfer is money the escrow sends to an account for a paid seat: a payout at settle or
// a refund, as the ledger recorded it, and the escrow call that carries it.
type PaidTransfer struct {
	To     string `json:"to"`     // CAIP-10
	Amount int64  `json:"amount"` // microCCD
	// Tx is the transaction hash (hex) of the escrow call (settle, refund) that pays it, once
	// the call is submitted ("": not yet, or the escrow is not called); Final says its block is
	// finalized, Rejected why the escrow refused it (it is sent again).
	Tx       string `json:"tx,omitempty"`
	Final    bool   `json:"final"`
	Rejected string `json:"rejected,omitempty"`
}

// PaidPayout is one seat's payout routed to its paid_by account.
type PaidPayout struct {
	Seat    int
	Account string // CAIP-10 paid_by
	Amount  int64  // microCCD
}

// PaidSettlement is what a finished paid round owes (§5.7, §11.5): the paid seats' payouts to
// their paid_by accounts, and the house seats' payouts (their entries were the house's).
type PaidSettlement struct {
	Table, Round string
	Result       games.Result
	Paid         []PaidPayout  // paid seats, seat order, less their season pool parts
	House        map[int]int64 // house seat → payout less its season pool part, microCCD
	// Pool is the in-house seats' collateral gains (games.Result.Pool), microCCD: it goes to
	// the season pool (§11.3), SeasonPoolAccount in the ledger, not to the house or a paid_by.
	Pool  int64
	Entry int64 // every seat's entry, microCCD
	Seats int
}

// SeasonPoolAccount is the ledger account of the season pool (§11.3: "Arena agents' collateral
// gains go to the season pool"): a settle pays the round's Pool to it, so the ledger holds
// what the pool was paid (ledger.State.PaidTo), apart from the house's take. On the escrow the
// same amount is paid to PaidOptions.SeasonPool.
const SeasonPoolAccount = "season-pool"

// PaidTables is the paid table filling now and the tables it opened: a handle on the paid-table
// actor. Safe for concurrent use.
type PaidTables struct {
	a     *Arena
	o     PaidOptions
	seats int // the format's seats
	log   *slog.Logger
	pid   *actor.PID
	root  *actor.RootContext
	// metrics are the reconciliation's and the funding check's collectors.
	metrics paidMetrics
	// openTable opens a paid table's round (Arena.OpenTable; a test's stand-in).
	openTable func(ctx context.Context, spec actors.TableSpec) (string, error)
	// putPaidTables writes paid tables' records (storage.Store.PutPaidTables; a test's stand-in).
	putPaidTables func(ts ...storage.PaidTable) error
}

// NewPaidTables serves paid joins on a: it spawns the paid-table actor, whose money is in
// PaidOptions.Ledger (nil: the runtime's, actors.Arena.Ledger).
func NewPaidTables(a *Arena, o PaidOptions) (*PaidTables, error) {
	if o.Deposits == nil {
		return nil, errors.New("dotdotdot: paid tables: a deposit reader is required")
	}
	if o.Entry <= 0 {
		o.Entry = 100_000_000
	}
	if o.Gather <= 0 {
		o.Gather = 2 * time.Minute
	}
	if o.Format == "" {
		o.Format = "blitz"
	}
	if o.SweepEvery <= 0 {
		o.SweepEvery = 30 * time.Second
	}
	if o.VoidAfter <= 0 {
		o.VoidAfter = time.Hour
	}
	seats := a.seatsOf(o.Format)
	if seats == 0 {
		return nil, fmt.Errorf("dotdotdot: paid tables: unknown format %q", o.Format)
	}
	log := o.Logger
	if log == nil {
		log = a.Logger()
	}
	if o.Ledger == nil {
		o.Ledger = a.Ledger()
	}
	turns := 0
	if eng, ok := a.Bracket().Engine(walkinGame); ok {
		if f, ok := games.FormatOf(eng.Manifest(), o.Format); ok {
			turns = f.Turns
		}
	}
	m, err := newPaidMetrics(o.Metrics)
	if err != nil {
		return nil, err
	}
	p := &PaidTables{a: a, o: o, log: log, root: a.System().Root, seats: seats, metrics: m, openTable: a.OpenTable,
		putPaidTables: a.Store().PutPaidTables}
	pa := &paidActor{p: p, seats: seats, turns: turns, byID: map[string]*paidTable{}, byRound: map[string]*paidTable{},
		holds: map[string]*paidHold{}, dirty: map[string]bool{},
		recon: reconState{due: map[string]time.Time{}, since: map[string]time.Time{}}}
	recs, err := a.Store().PaidTables()
	if err != nil {
		return nil, fmt.Errorf("dotdotdot: paid tables: %w", err)
	}
	if len(recs) > 0 {
		lctx, cancel := context.WithTimeout(context.Background(), a.AskTimeout())
		st, err := o.Ledger.State(lctx)
		cancel()
		if err != nil {
			return nil, fmt.Errorf("dotdotdot: paid tables: %w", err)
		}
		pa.load(recs, st)
	}
	p.pid = p.root.Spawn(actor.PropsFromProducer(func() actor.Actor { return pa }))
	a.paid.Store(p)
	return p, nil
}

// Sweep drives every paid table on and refunds the escrow's unspent money that does not play
// (what the actor does every PaidOptions.SweepEvery), returning once a sweep that started after
// the call has ended: nil, or why it could not finish (it is tried again at the next).
func (p *PaidTables) Sweep(ctx context.Context) error {
	r, err := paidAsk[*paidSwept](ctx, p, &paidSweepReq{})
	if err != nil {
		return err
	}
	return r.Err
}

// Ledger is the ledger the paid tables keep their money in.
func (p *PaidTables) Ledger() *ledger.Ledger { return p.o.Ledger }

// Entry is every seat's entry at these tables, microCCD.
func (p *PaidTables) Entry() int64 { return p.o.Entry }

// Format is the paid tables' format ("blitz" or "short").
func (p *PaidTables) Format() string { return p.o.Format }

// Hold holds a seat for j's Badge owner on the table filling now (the first hold starts the
// table's clock: starts_at = now + Gather), answered once the hold is in the ledger. payFrom
// are the CAIP-10 accounts whose deposits count. Refusals: in_a_round (the Badge holds a live
// seat, a place at a gathering table or a hold already: Arena.badgeBusy; or its owner a hold at
// this table), bad_table when the table has its
// seats paid, or its holds at their bound and every one's entry seen on chain (below that a
// hold past the bound drops the oldest hold whose entry the chain has not seen), or its hold
// there was dropped so, or (retry: true) while the arena's account could not fund the house
// seats (PaidOptions.Funds), bad_request without pay_from or endpoint, busy when the ledger
// could not write or the account or the chain could not be read.
func (p *PaidTables) Hold(ctx context.Context, j AgentJoin, payFrom []string) (PaidHold, error) {
	if err := p.fits(j.Format, j.Seats); err != nil {
		return PaidHold{}, err
	}
	switch {
	case j.Kind == "ots" && j.Playbook == nil, j.Kind != "ots" && j.Playbook != nil:
		return PaidHold{}, games.Errorf(games.CodeBadRequest, "an off-the-shelf seat (kind ots) and a playbook go together")
	case j.Kind == "ots" && !grantPattern.MatchString(j.OTSGrant):
		return PaidHold{}, games.Errorf(games.CodeBadRequest, "an off-the-shelf seat needs the grant of its owner's token: the key its card carries (OTSKey)")
	case j.Kind == "ots":
		if err := j.Playbook.Check(); err != nil {
			return PaidHold{}, err
		}
	case j.Endpoint == "":
		return PaidHold{}, games.Errorf(games.CodeBadRequest, "the agent's card names no endpoint: a registered agent is called there (§4)")
	}
	accounts := accountsOf(payFrom)
	if len(accounts) == 0 {
		return PaidHold{}, games.Errorf(games.CodeBadRequest, "no account to pay from (the registry names no owner)")
	}
	// One seat per Badge (badgeBusy), checked and held under Arena.joining as a join is, so a
	// hold and a join of one Badge arriving together do not both seat it.
	if _, busy := p.a.joining.LoadOrStore(j.Agent, struct{}{}); busy {
		return PaidHold{}, games.Errorf(CodeInARound, "%s is being seated by another join", j.Agent)
	}
	defer p.a.joining.Delete(j.Agent)
	if err := p.a.badgeBusy(ctx, j.Agent); err != nil {
		return PaidHold{}, err
	}
	payFrom = append([]string(nil), payFrom...)
	sort.Strings(payFrom)
	req := &paidHoldReq{Join: j, PayFrom: payFrom, Accounts: accounts, Funds: -1,
		Until: time.Now().Add(ask.Timeout(ctx, p.a.AskTimeout()) - holdAnswerMargin)}
	if err := p.roomFor(ctx, req); err != nil {
		return PaidHold{}, err
	}
	if p.o.Funds != nil && p.o.Chain != nil && p.o.House != "" {
		avail, err := p.o.Funds.Available(ctx)
		if err != nil {
			return PaidHold{}, &games.Error{Code: "busy", Msg: "the arena's account could not be read, so the house seats cannot be funded now: " + err.Error(), Retry: true}
		}
		req.Funds = avail
	}
	r, err := paidAsk[*paidHoldReply](ctx, p, req)
	if err != nil {
		return PaidHold{}, err
	}
	return r.Hold, r.Err
}

// roomFor refuses a hold (bad_table) when the table filling now has every seat paid already:
// holds cost nothing, so only those whose entry the chain has (final, or seen and not yet
// final) take its seats. It reads the chain only once the table has as many holds as seats; a
// read that fails refuses nothing (starts_at seats the paid holds in hold order, and refunds a
// paid hold past the seats). It fills req's Unseen with the holds read whose entry the chain has
// not seen, oldest first (the one a hold past the table's bound drops: paidActor.hold), and
// Read when every hold was read.
func (p *PaidTables) roomFor(ctx context.Context, req *paidHoldReq) error {
	v, err := paidAsk[*paidFillingView](ctx, p, &paidFillingGet{})
	if err != nil {
		return err
	}
	paid := 0
	req.Read = true
	for i, h := range v.Holds {
		var c PaidCheck
		if p.read(ctx, h, v.Accounts[i], &c) != nil {
			req.Read, req.Unseen = false, nil
			return nil
		}
		if c.Paid || c.Pending {
			paid++
		} else {
			req.Unseen = append(req.Unseen, h.Hold)
		}
	}
	if len(v.Holds) > 0 && paid >= p.seats {
		return games.Errorf(CodeBadTable, "the paid table filling now has its %d seats paid; the next opens after %s",
			p.seats, v.Holds[0].StartsAt.UTC().Format(time.RFC3339))
	}
	return nil
}

// fits refuses a join whose format or seats (AgentJoin.Format, Seats: "" and 0 leave them to
// the table) the paid table filling now does not have: one the arena plays nowhere as
// JoinAgent refuses it (bad_request: §5.6's formats and seat counts), one the paid tables do
// not play bad_table, naming what they play. A paid table is one format at one seat count
// (PaidOptions.Format), so a join is never seated at a table it did not ask for.
func (p *PaidTables) fits(format string, seats int) error {
	f := format
	if f == "" {
		f = p.o.Format
	}
	if _, ok := p.a.formats.of(f); !ok {
		return games.Errorf(games.CodeBadRequest, "format %q: %s", f, strings.ReplaceAll(p.a.formats.choices(), "\"", ""))
	}
	if _, err := p.a.formats.choose(f, seats); err != nil {
		return err
	}
	if f != p.o.Format || (seats != 0 && seats != p.seats) {
		return games.Errorf(CodeBadTable, "the paid table here is %s at %d seats (§5.7: the table filling now); leave format and seats out, or name those", p.o.Format, p.seats)
	}
	return nil
}

// holdAnswerMargin is how long before its asker stops waiting a hold must be in the ledger to be
// answered (paidHoldReq.Until): an answer later than that may reach nobody.
const holdAnswerMargin = 50 * time.Millisecond

// Check is GET {check} with x-seat-token: paid and paid_by as the chain has them now (before
// starts_at), or as they stood when the table opened, and once the ledger has it what became of
// the entry (settled with its payout, or refunded), with the escrow's transactions. A wrong
// token is forbidden; an unknown hold unknown_table; busy while the ledger cannot be read.
func (p *PaidTables) Check(ctx context.Context, hold, token string) (PaidCheck, error) {
	v, err := paidAsk[*paidHoldView](ctx, p, &paidHoldGet{Hold: hold})
	if err != nil {
		return PaidCheck{}, err
	}
	if !v.OK {
		return PaidCheck{}, games.Errorf("unknown_table", "no such hold")
	}
	th := sha256.Sum256([]byte(token))
	if subtle.ConstantTimeCompare(th[:], v.TokenHash[:]) != 1 {
		return PaidCheck{}, games.Errorf("forbidden", "x-seat-token is not this hold's seat token")
	}
	c := v.Check
	if c.Status != storage.PaidHolding {
		if err := p.outcome(ctx, v, &c); err != nil {
			return PaidCheck{}, err
		}
		return c, nil
	}
	if err := p.read(ctx, v.Hold, v.Accounts, &c); err != nil {
		return PaidCheck{}, err
	}
	return c, nil
}

// read fills c's paid fields from the chain: the first finalized deposit for the seat token
// from a pay_from account, of at least the entry, made before starts_at, counts; its payer is
// paid_by. Deposits from other accounts are summed in Foreign and never count.
func (p *PaidTables) read(ctx context.Context, h PaidHold, accounts map[string]string, c *PaidCheck) error {
	deps, err := p.o.Deposits.Deposits(ctx, h.SeatToken)
	if err != nil {
		return &games.Error{Code: "busy", Msg: "the chain could not be read: " + err.Error(), Retry: true}
	}
	c.Paid, c.PaidBy, c.Amount, c.Pending, c.Foreign = false, "", 0, false, 0
	for _, d := range deps {
		acc, ok := accounts[d.Payer]
		if !ok {
			c.Foreign += d.Amount
			continue
		}
		if c.Paid || d.Amount < h.Entry || d.At.After(h.StartsAt) {
			continue
		}
		if !d.Finalized {
			c.Pending = true
			continue
		}
		c.Paid, c.PaidBy, c.Amount = true, acc, d.Amount
	}
	return nil
}

// Payouts routes a finished paid round's payouts (Result.Payouts, microCCD by seat) to the
// paid_by account of each paid seat, in seat order (§5.7: "at settle the seat's payout goes to
// paid_by"). House seats are not listed. ok is false for a round this lobby did not open.
func (p *PaidTables) Payouts(round string, res games.Result) (out []PaidPayout, ok bool) {
	ctx, cancel := context.WithTimeout(context.Background(), p.a.AskTimeout())
	defer cancel()
	v, err := paidAsk[*paidTableView](ctx, p, &paidTableGet{Round: round})
	if err != nil || !v.OK {
		return nil, false
	}
	return payoutsOf(v.PaidBy, res), true
}

// payoutsOf is each paid seat's payout to its paid_by, less the part of it that goes to the
// season pool (an in-house agent's collateral gain, games.Result.Pool).
func payoutsOf(paidBy map[int]string, res games.Result) []PaidPayout {
	out := make([]PaidPayout, 0, len(paidBy))
	for seat, acc := range paidBy {
		out = append(out, PaidPayout{Seat: seat, Account: acc, Amount: res.Payouts[seat] - res.Pool[seat]})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seat < out[j].Seat })
	return out
}

// Finished is the settlement of tableID once it is a finished table this lobby opened (ok false
// otherwise: not ours, or not finished).
func (p *PaidTables) Finished(tableID string) (PaidSettlement, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), p.a.AskTimeout())
	defer cancel()
	v, err := paidAsk[*paidTableView](ctx, p, &paidTableGet{Table: tableID})
	if err != nil || !v.OK || v.Round == "" {
		return PaidSettlement{}, false
	}
	return p.settlement(tableID, v.Round, v.PaidBy, v.Void)
}

// paidVoid is why a round is settled void and the transcript hash its settle anchors (zero: the
// round is settled by its result).
type paidVoid struct{ why, hash string }

// settlement is tableID's settlement: void's when the round is voided, else from its record
// once it is finished.
func (p *PaidTables) settlement(tableID, round string, paidBy map[int]string, void paidVoid) (PaidSettlement, bool) {
	if void.hash != "" {
		return voidSettlementOf(tableID, round, void.hash, paidBy, p.o.Entry, p.seats), true
	}
	rec, err := p.a.Stored(tableID)
	if err != nil || rec.Status != actors.StatusFinished || rec.Result == nil {
		return PaidSettlement{}, false
	}
	return settlementOf(tableID, round, *rec.Result, paidBy, p.o.Entry, p.seats), true
}

// settlementOf is what a round of seats seats, each staked entry, whose Result is res owes:
// each paid seat (paidBy) its payout less its season pool part, each house seat likewise (to
// the house, which staked it), and the pool the sum of the parts (§11.3).
func settlementOf(table, round string, res games.Result, paidBy map[int]string, entry int64, seats int) PaidSettlement {
	out := PaidSettlement{Table: table, Round: round, Result: res, House: map[int]int64{}, Entry: entry, Seats: seats}
	out.Paid = payoutsOf(paidBy, res)
	for seat := 1; seat <= seats; seat++ {
		if _, paid := paidBy[seat]; !paid {
			out.House[seat] = res.Payouts[seat] - res.Pool[seat]
		}
		out.Pool += res.Pool[seat]
	}
	return out
}

// voidSettlementOf is the settlement of a round voided (its table stopped or failed and not
// restarted): every seat's entry back to whoever staked it, as games.Match.Abandon's result has
// it (Payouts the entries, House 0, nothing to the season pool), under transcript hash hash.
func voidSettlementOf(table, round, hash string, paidBy map[int]string, entry int64, seats int) PaidSettlement {
	res := games.Result{Unit: PaidUnit, Payouts: map[int]int64{}, TranscriptHash: hash}
	for seat := 1; seat <= seats; seat++ {
		res.Payouts[seat] = entry
	}
	return settlementOf(table, round, res, paidBy, entry, seats)
}

// ledgerSettle is the settlement's ledger settle: the paid seats' payouts to their paid_by,
// the season pool's part to SeasonPoolAccount, and the house's take: the game's (fees) and the
// house seats' payouts less their pool parts. They sum to every seat's entry, the pot.
func (st PaidSettlement) ledgerSettle() (pays []ledger.Payout, house int64) {
	pays = make([]ledger.Payout, 0, len(st.Paid)+1)
	for _, py := range st.Paid {
		pays = append(pays, ledger.Payout{Account: py.Account, Amount: py.Amount})
	}
	if st.Pool > 0 { // §11.3: the in-house seats' collateral gains, to the season pool
		pays = append(pays, ledger.Payout{Account: SeasonPoolAccount, Amount: st.Pool})
	}
	house = st.Result.House
	for _, amt := range st.House {
		house += amt
	}
	return pays, house
}

// TableStatus is actors.Options.OnStatus for paid tables: a paid table that finished is settled
// (the ledger first, then the escrow). It never blocks.
func (p *PaidTables) TableStatus(table, status string) {
	if status == actors.StatusFinished {
		p.root.Send(p.pid, &paidFinished{Table: table})
	}
}

// Anchor takes the anchor requests of every table (beside the Register Data anchors, which the
// caller sends itself): a paid table's opened and turn anchors go to the escrow as
// open_round(round, anchor) and anchor(round, turn, hash), in the order the table asks for them
// (§5.5). It never blocks.
func (p *PaidTables) Anchor(job actors.AnchorJob) {
	if job.Request.Kind == "opened" || job.Request.Kind == "turn" {
		p.root.Send(p.pid, &paidAnchor{Job: job})
	}
}

// paidAsk asks the paid-table actor, bounded by ctx and the arena's ask timeout.
func paidAsk[T any](ctx context.Context, p *PaidTables, msg any) (T, error) {
	var zero T
	res, err := p.root.RequestFuture(p.pid, msg, ask.Timeout(ctx, p.a.AskTimeout())).Result()
	if err != nil {
		return zero, &games.Error{Code: "busy", Msg: "the paid tables did not answer: " + err.Error(), Retry: true}
	}
	v, ok := res.(T)
	if !ok {
		return zero, fmt.Errorf("dotdotdot: paid tables: unexpected reply %T", res)
	}
	return v, nil
}

func randomSeatToken() string {
	var b [24]byte
	_, _ = rand.Read(b[:])
	return "st_" + base64.RawURLEncoding.EncodeToString(b[:])
}

func randomHoldID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return "h_" + hex.EncodeToString(b[:])
}

func lastColon(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == ':' {
			return i
		}
	}
	return -1
}

// String is for logs.
func (h PaidHold) String() string { return fmt.Sprintf("hold %s at %s", h.Hold, h.Table) }
