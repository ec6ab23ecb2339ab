package breakroom

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"arena/actors/breakroom/cashier"
	"arena/actors/lobby"
	"arena/games"
	"arena/games/breakroom/wire"
)

// Paid tables ("Paid tables"): a join with stake_sats answers payment_required (the cashier's
// hold invoice) and makes no session; Paid takes the paid stake (escrow) and queues the key at the
// game's paid queue for that stake ("<game>.<stake>": a lobby queue of its own, no house bots, no
// staff). The table's stakes are locked in its pot before its seating is stored; match_end carries
// the settlement; a queued stake is refunded in full when its key leaves the queue, its socket
// closes, no table opens within NoTableAfter, or an HTTP key stops polling for PaidIdle.

// Paid tables' clocks ("Paid tables").
const (
	// DefaultNoTableAfter is how long a paid key waits for a table before its stake comes back
	// (left, no_table).
	DefaultNoTableAfter = 10 * time.Minute
	// DefaultPaidIdle is how long a paid HTTP key may go without polling while queued (left,
	// idle).
	DefaultPaidIdle = 5 * time.Minute
	// TierPaid is a paid match's tier.
	TierPaid = "paid"
)

// paidQueue is the lobby queue of game's paid tables at stake.
func paidQueue(game string, stake int64) string { return game + "." + strconv.FormatInt(stake, 10) }

// gameOf is the game of a lobby queue (a paid queue's "<game>.<stake>", or the game itself).
func gameOf(queue string) string {
	g, _, _ := strings.Cut(queue, ".")
	return g
}

// paidStake is a session's stake in escrow.
type paidStake struct {
	hash   string
	stake  int64
	lnaddr string
}

// PaidRequest is a paid message the door has checked (the socket's join, or POST /v0/paid's
// signature): Key the payer, PaymentHash the invoice's, Lnaddr the payout address; Name, Spoilers
// and Via as in JoinRequest.
type PaidRequest struct {
	Key, Name   string
	Spoilers    bool
	Via         string
	PaymentHash string
	Lnaddr      string
}

// invoice answers a paid join: payment_required, no session.
func (r *Room) invoice(ctx context.Context, j JoinRequest) (Joined, error) {
	c := r.cash
	if c == nil {
		return Joined{}, games.Errorf(cashier.CodePaymentsDisabled, "paid tables are not open on this server; join without stake_sats")
	}
	inv, err := c.Invoice(ctx, j.Key, j.Game, *j.StakeSats)
	if err != nil {
		return Joined{}, err
	}
	note := "pay the invoice, then send paid with its payment_hash and your payout_lnaddr"
	if c.TestSats() {
		note += " (test sats: this server's development wallet; POST /dev/lightning/pay {\"bolt11\"} pays it)"
	}
	return Joined{First: wire.PaymentRequired{Game: j.Game, StakeSats: *j.StakeSats, Bolt11: inv.Bolt11, PaymentHash: inv.PaymentHash,
		ExpiresInS: int64(inv.ExpiresIn / time.Second), RakeBps: inv.RakeBps, Note: note}}, nil
}

// Paid takes a paid stake and queues its key at the game's paid queue: queued (with waiting_here
// and min_players), or seated when the stake's match is already on. Refusals: the cashier's
// (unknown_payment, not_paid, payment_expired, bad_payout_address, wallet_error),
// payments_disabled, and Join's.
func (r *Room) Paid(ctx context.Context, p PaidRequest) (Joined, error) {
	c := r.cash
	if c == nil {
		return Joined{}, games.Errorf(cashier.CodePaymentsDisabled, "paid tables are not open on this server: there is no invoice to confirm")
	}
	held, err := c.Paid(ctx, p.Key, p.PaymentHash, p.Lnaddr)
	if err != nil {
		return Joined{}, err
	}
	if err := r.openPaidQueue(ctx, held.Game, held.Stake); err != nil {
		return Joined{}, err
	}
	j := JoinRequest{Game: held.Game, Key: p.Key, Name: p.Name, Spoilers: p.Spoilers, Via: p.Via,
		paid: &paidStake{hash: held.PaymentHash, stake: held.Stake, lnaddr: held.Lnaddr}}
	jd, err := r.join(ctx, j)
	if err != nil && held.Match == "" && !held.Dup {
		// Not queued: the stake goes back at once.
		if _, rerr := c.Refund(ctx, held.PaymentHash, "not_queued"); rerr != nil {
			r.log.Error("breakroom refund after a refused paid join", "payment_hash", held.PaymentHash, "err", rerr)
		}
	}
	return jd, err
}

// openPaidQueue opens game's paid queue at stake once: tables of the game's size, opened with its
// minimum by the lobby timer, never a house bot or the bartender.
func (r *Room) openPaidQueue(ctx context.Context, game string, stake int64) error {
	id := paidQueue(game, stake)
	r.mu.Lock()
	done := r.paidQueues[id]
	r.mu.Unlock()
	if done {
		return nil
	}
	g := r.games[game]
	cfg := lobby.Config{ID: id, TableSize: g.TableSize, Min: g.Min, Wait: r.opts.LobbyWait, HouseAfter: r.opts.HouseAfter,
		Playing: r.isPlaying(game), Completed: r.completed,
		OnTable:   func(tf *lobby.TableFormed) { r.onTable(tf) },
		OnDropped: func(q string, es []lobby.Entrant) { r.send(&queueDropped{game: q, entrants: es}); r.live.bump() },
	}
	if r.opts.LobbySeed != nil {
		cfg.Seed = *r.opts.LobbySeed
	}
	if err := r.lobby.Open(ctx, cfg); err != nil && !errors.Is(err, lobby.ErrQueueExists) {
		return &games.Error{Code: "busy", Msg: fmt.Sprintf("the paid queue did not open: %v", err), Retry: true}
	}
	r.mu.Lock()
	r.paidQueues[id] = true
	r.mu.Unlock()
	return nil
}

// refundStake gives a queued session's stake back (outside the room actor: the wallet and the
// ledger), after its lobby entry is gone; it answers the sats refunded.
func (r *Room) refundStake(ctx context.Context, p *paidStake, reason string) (int64, error) {
	if p == nil || r.cash == nil {
		return 0, nil
	}
	n, err := r.cash.Refund(ctx, p.hash, reason)
	if err != nil {
		r.log.Error("breakroom stake refund", "payment_hash", p.hash, "reason", reason, "err", err)
	}
	return n, err
}

// paidLeave takes a queued paid session out (no_table, idle) from outside the room actor: the
// lobby entry first (a key the lobby has just seated stays seated), then the refund, then left.
func (r *Room) paidLeave(s *session, queue string, p *paidStake, reason, note string) {
	go func() {
		ctx, cancel := contextFor(r)
		defer cancel()
		if _, err := r.lobby.Leave(ctx, queue, s.key); err != nil {
			return
		}
		n, err := r.refundStake(ctx, p, reason)
		if err != nil {
			return
		}
		game := gameOf(queue)
		r.send(&request{op: &opPaidLeft{s: s, left: wire.Left{Game: game, Reason: reason, RefundedSats: &n, Note: note}}, ch: make(chan result, 1)})
		r.live.bump()
	}()
}

// opPaidLeft is a paid session out of its queue with its stake refunded.
type opPaidLeft struct {
	s    *session
	left wire.Left
}

// paidTimers arms a queued paid session's no_table timer and, over HTTP, its idle check.
func (st *state) paidTimers(s *session) {
	if s.paid == nil {
		return
	}
	pid, root := st.r.pid, st.r.arena.System().Root
	s.paidGen++
	gen := s.paidGen
	st.r.opts.Clock.AfterFunc(st.r.noTableAfter(), func() { root.Send(pid, &paidDue{s: s, gen: gen, reason: "no_table"}) })
	if s.conn != nil && s.conn.via == ViaHTTP {
		st.r.opts.Clock.AfterFunc(st.r.paidIdle(), func() { root.Send(pid, &paidDue{s: s, gen: gen, reason: "idle"}) })
	}
}

// paidDue is a paid session's timer: no_table, or an idle check.
type paidDue struct {
	s      *session
	gen    uint64
	reason string
}

// due handles a paidDue in the room actor.
func (st *state) paidDueNow(d *paidDue) {
	s := d.s
	if s.paid == nil || s.paidGen != d.gen || (s.status != sQueued && s.status != sJoining) {
		return
	}
	switch d.reason {
	case "no_table":
		st.r.paidLeave(s, s.queue(), s.paid, "no_table", "no table opened at this stake within 10 minutes: your stake is refunded in full; join again any time")
	case "idle":
		idle := st.now().Sub(s.polled)
		if idle < st.r.paidIdle() {
			pid, root := st.r.pid, st.r.arena.System().Root
			st.r.opts.Clock.AfterFunc(st.r.paidIdle()-idle, func() { root.Send(pid, &paidDue{s: s, gen: d.gen, reason: "idle"}) })
			return
		}
		st.r.paidLeave(s, s.queue(), s.paid, "idle", "this token was not polled for 5 minutes: your stake is refunded in full")
	}
}

func (r *Room) noTableAfter() time.Duration {
	if r.opts.NoTableAfter > 0 {
		return r.opts.NoTableAfter
	}
	return DefaultNoTableAfter
}

func (r *Room) paidIdle() time.Duration {
	if r.opts.PaidIdle > 0 {
		return r.opts.PaidIdle
	}
	return DefaultPaidIdle
}

// queue is the session's lobby queue.
func (s *session) queue() string {
	if s.paid != nil {
		return paidQueue(s.game, s.paid.stake)
	}
	return s.game
}

// MoneyLines are a paid match's money lines (cashier.Lines) as log lines after match_end; none
// for a free match or without a cashier.
func (r *Room) MoneyLines(ctx context.Context, matchID string) ([]cashier.Line, error) {
	if r.cash == nil {
		return nil, nil
	}
	return r.cash.Lines(ctx, matchID)
}

// Cashier is the room's paid tables' money (nil: payments disabled).
func (r *Room) Cashier() *cashier.Cashier { return r.cash }
