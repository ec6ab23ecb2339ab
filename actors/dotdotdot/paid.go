package dotdotdot

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"log/slog"
	"sort"
	"sync"
	"time"

	"arena/actors"
	"arena/games"
)

// Paid tables (§5.7): POST /v1/join {"table":"open"} holds a seat for the agent's Badge owner on
// the table filling now; the entry must reach the escrow from one of the pay_from accounts
// before starts_at; the arena reads the chain, never a claim; the seat's payout goes to
// paid_by. PaidTables keeps the holds of the gathering table in memory (a restart drops them:
// deposits stay on chain, keyed by seat token) and opens the table at starts_at with the seats
// that paid, topped up with house seats.

// EscrowDeposit is one escrow.deposit as the chain records it.
type EscrowDeposit struct {
	Payer     string // the paying account, base58 (the address part of a CAIP-10 account)
	Amount    int64  // microCCD
	At        time.Time
	Finalized bool
}

// DepositReader reads the escrow's deposits for a seat token (the devchain stand-in's
// view_deposits in `arena serve`), oldest first.
type DepositReader interface {
	Deposits(ctx context.Context, seatToken string) ([]EscrowDeposit, error)
}

// PaidOptions configure PaidTables. Deposits is required.
type PaidOptions struct {
	Deposits DepositReader
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
	// OnOpen, when set, is called (on the timer's goroutine) once the table opened or failed.
	OnOpen func(table, round string, err error)
	Logger *slog.Logger
}

// PaidHold answers a paid join: the seat token, when the table starts, who may pay, and what.
type PaidHold struct {
	Hold      string    // public id of the hold (the check URL's last segment)
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
}

// PaidPayout is one seat's payout routed to its paid_by account.
type PaidPayout struct {
	Seat    int
	Account string // CAIP-10 paid_by
	Amount  int64  // microCCD
}

type paidHold struct {
	PaidHold
	tokenHash [32]byte
	join      AgentJoin
	accounts  map[string]string // base58 address → CAIP-10 account
	check     PaidCheck
}

type paidTable struct {
	id       string
	startsAt time.Time
	holds    []*paidHold
	round    string
	paidBy   map[int]string // seat → CAIP-10 paid_by
}

// PaidTables is the paid table filling now and the tables it opened. Safe for concurrent use.
type PaidTables struct {
	a   *Arena
	o   PaidOptions
	log *slog.Logger

	mu      sync.Mutex
	filling *paidTable
	holds   map[string]*paidHold  // hold id → hold
	tables  map[string]*paidTable // round → table (after opening)
	ids     map[string]bool       // table ids of every paid table opened or opening
}

// NewPaidTables serves paid joins on a.
func NewPaidTables(a *Arena, o PaidOptions) *PaidTables {
	if o.Entry <= 0 {
		o.Entry = 100_000_000
	}
	if o.Gather <= 0 {
		o.Gather = 2 * time.Minute
	}
	if o.Format == "" {
		o.Format = "blitz"
	}
	log := o.Logger
	if log == nil {
		log = a.Logger()
	}
	return &PaidTables{a: a, o: o, log: log, holds: map[string]*paidHold{}, tables: map[string]*paidTable{},
		ids: map[string]bool{}}
}

// Hold holds a seat for j's Badge owner on the table filling now (the first hold starts the
// table's clock: starts_at = now + Gather). payFrom are the CAIP-10 accounts whose deposits
// count. Refusals: in_a_round (the Badge holds a live seat or a hold already), bad_table when
// the table is full, bad_request without pay_from or endpoint.
func (p *PaidTables) Hold(ctx context.Context, j AgentJoin, payFrom []string) (PaidHold, error) {
	if j.Endpoint == "" {
		return PaidHold{}, games.Errorf(games.CodeBadRequest, "the agent's card names no endpoint: a registered agent is called there (§4)")
	}
	accounts := map[string]string{}
	for _, acc := range payFrom {
		if i := lastColon(acc); i >= 0 && i+1 < len(acc) {
			accounts[acc[i+1:]] = acc
		}
	}
	if len(accounts) == 0 {
		return PaidHold{}, games.Errorf(games.CodeBadRequest, "no account to pay from (the registry names no owner)")
	}
	if live, err := p.a.liveSeatOf(ctx, j.Agent); err != nil {
		return PaidHold{}, err
	} else if live != nil {
		return PaidHold{}, games.Errorf(CodeInARound, "%s already holds seat %d of %s", j.Agent, live.seat, live.round)
	}
	now := p.a.Clock().Now()
	p.mu.Lock()
	defer p.mu.Unlock()
	t := p.filling
	if t == nil || !now.Before(t.startsAt) {
		id, err := newTableID("o")
		if err != nil {
			return PaidHold{}, err
		}
		t = &paidTable{id: id, startsAt: now.Add(p.o.Gather).Truncate(time.Second)}
		p.filling = t
		p.a.Clock().AfterFunc(t.startsAt.Sub(now), func() { p.open(t) })
	}
	for _, h := range t.holds {
		if h.join.Agent == j.Agent {
			return PaidHold{}, games.Errorf(CodeInARound, "%s already holds a seat at %s (its hold %s)", j.Agent, t.id, h.Hold)
		}
	}
	if len(t.holds) >= p.a.seatsOf(p.o.Format) {
		return PaidHold{}, games.Errorf(CodeBadTable, "the paid table filling now is full; the next opens at %s", t.startsAt.UTC().Format(time.RFC3339))
	}
	var hb [12]byte
	_, _ = rand.Read(hb[:])
	h := &paidHold{join: j, accounts: accounts}
	h.Hold = "h_" + hex.EncodeToString(hb[:])
	h.SeatToken = randomSeatToken()
	h.tokenHash = sha256.Sum256([]byte(h.SeatToken))
	h.StartsAt, h.PayFrom, h.Entry, h.Table, h.Escrow = t.startsAt, append([]string(nil), payFrom...), p.o.Entry, t.id, p.o.Escrow
	sort.Strings(h.PayFrom)
	h.check = PaidCheck{StartsAt: t.startsAt, Status: "holding", Table: t.id}
	t.holds = append(t.holds, h)
	p.holds[h.Hold] = h
	return h.PaidHold, nil
}

func randomSeatToken() string {
	var b [24]byte
	_, _ = rand.Read(b[:])
	return "st_" + base64.RawURLEncoding.EncodeToString(b[:])
}

func lastColon(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == ':' {
			return i
		}
	}
	return -1
}

// Entry is every seat's entry at these tables, microCCD.
func (p *PaidTables) Entry() int64 { return p.o.Entry }

// Check is GET {check} with x-seat-token: paid and paid_by as the chain has them now (before
// starts_at), or as they stood when the table opened. A wrong token is forbidden; an unknown
// hold unknown_table.
func (p *PaidTables) Check(ctx context.Context, hold, token string) (PaidCheck, error) {
	p.mu.Lock()
	h, ok := p.holds[hold]
	p.mu.Unlock()
	if !ok {
		return PaidCheck{}, games.Errorf("unknown_table", "no such hold")
	}
	th := sha256.Sum256([]byte(token))
	if subtle.ConstantTimeCompare(th[:], h.tokenHash[:]) != 1 {
		return PaidCheck{}, games.Errorf("forbidden", "x-seat-token is not this hold's seat token")
	}
	p.mu.Lock()
	c := h.check
	p.mu.Unlock()
	if c.Status != "holding" {
		return c, nil
	}
	if err := p.read(ctx, h, &c); err != nil {
		return PaidCheck{}, err
	}
	return c, nil
}

// read fills c's paid fields from the chain: the first finalized deposit for the seat token
// from a pay_from account, of at least the entry, made before starts_at, counts; its payer is
// paid_by. Deposits from other accounts are summed in Foreign and never count.
func (p *PaidTables) read(ctx context.Context, h *paidHold, c *PaidCheck) error {
	deps, err := p.o.Deposits.Deposits(ctx, h.SeatToken)
	if err != nil {
		return &games.Error{Code: "busy", Msg: "the chain could not be read: " + err.Error(), Retry: true}
	}
	c.Paid, c.PaidBy, c.Amount, c.Pending, c.Foreign = false, "", 0, false, 0
	for _, d := range deps {
		acc, ok := h.accounts[d.Payer]
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

// open runs at starts_at: every hold is read from the chain one last time; the paid ones are
// seated (seats 1.. in hold order, on the a2a channel), the rest dropped; house seats fill the
// format. With no paid seat nothing opens.
func (p *PaidTables) open(t *paidTable) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p.mu.Lock()
	if p.filling == t {
		p.filling = nil
	}
	holds := append([]*paidHold(nil), t.holds...)
	p.ids[t.id] = true // before the table opens: its first anchor (opened) comes at once
	p.mu.Unlock()

	var paid []*paidHold
	checks := make([]PaidCheck, len(holds))
	for i, h := range holds {
		p.mu.Lock()
		checks[i] = h.check
		p.mu.Unlock()
		if err := p.read(ctx, h, &checks[i]); err != nil {
			p.log.Warn("paid table: deposits unreadable at starts_at: the seat is dropped", "table", t.id, "hold", h.Hold, "err", err)
			continue
		}
		if checks[i].Paid {
			paid = append(paid, h)
		}
	}
	finish := func(round string, err error) {
		p.mu.Lock()
		for i, h := range holds {
			c := checks[i]
			switch {
			case err != nil && c.Paid:
				c.Status = "failed"
			case c.Paid:
				c.Status, c.Round = "seated", round
				for s, hh := range paid {
					if hh == h {
						c.Seat = s + 1
					}
				}
			default:
				c.Status = "dropped"
			}
			h.check = c
		}
		if round != "" {
			t.round = round
			p.tables[round] = t
		}
		p.mu.Unlock()
		if p.o.OnOpen != nil {
			p.o.OnOpen(t.id, round, err)
		}
	}
	if len(paid) == 0 {
		finish("", nil)
		return
	}
	// The paid agents' names are passed so that no house seat shares one (§9 names seats by name).
	named := make([]lobbyWalkin, len(paid))
	for i, h := range paid {
		named[i].Name = h.join.Name
	}
	spec, _ := walkinTableSpec(t.id, "open", p.o.Format, p.a.seatsOf(p.o.Format), "agent", named, nil)
	spec.Pace = p.a.pace("agent")
	if !paceZero(p.o.Pace) {
		spec.Pace = p.o.Pace
	}
	t.paidBy = map[int]string{}
	for i, h := range paid {
		s := &spec.Seats[i]
		kind := h.join.Kind
		if kind == "" {
			kind = "byo"
		}
		s.Seat.Agent, s.Seat.Name, s.Seat.Kind, s.Seat.Walkin, s.Seat.Human = h.join.Agent, h.join.Name, kind, false, h.join.Human
		s.Seat.Entry = p.o.Entry
		s.Seat.Collateral = p.o.Entry * 60 / 100
		s.Channel, s.Endpoint = ChannelA2A, h.join.Endpoint
		for j, hh := range holds {
			if hh == h {
				t.paidBy[i+1] = checks[j].PaidBy
			}
		}
	}
	for i := len(paid); i < len(spec.Seats); i++ { // house seats at the same stakes
		spec.Seats[i].Seat.Entry, spec.Seats[i].Seat.Collateral = p.o.Entry, p.o.Entry*60/100
	}
	round, err := p.a.OpenTable(ctx, spec)
	if err != nil {
		p.log.Error("paid table did not open", "table", t.id, "err", err)
	}
	finish(round, err)
}

// IsPaidTable reports whether id is a paid table this lobby opened or is opening: its round is
// held on the escrow, so its opened and mid-round anchors go there too (§5.5).
func (p *PaidTables) IsPaidTable(id string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.ids[id]
}

// Format is the paid tables' format ("blitz" or "short").
func (p *PaidTables) Format() string { return p.o.Format }

// Payouts routes a finished paid round's payouts (Result.Payouts, microCCD by seat) to the
// paid_by account of each paid seat, in seat order (§5.7: "at settle the seat's payout goes to
// paid_by"). House seats are not listed. ok is false for a round this lobby did not open.
func (p *PaidTables) Payouts(round string, res games.Result) (out []PaidPayout, ok bool) {
	p.mu.Lock()
	t, ok := p.tables[round]
	p.mu.Unlock()
	if !ok {
		return nil, false
	}
	for seat, acc := range t.paidBy {
		out = append(out, PaidPayout{Seat: seat, Account: acc, Amount: res.Payouts[seat]})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seat < out[j].Seat })
	return out, true
}

// PaidSettlement is what a finished paid round owes (§5.7, §11.5): the paid seats' payouts to
// their paid_by accounts, and the house seats' payouts (their entries were the house's).
type PaidSettlement struct {
	Table, Round string
	Result       games.Result
	Paid         []PaidPayout  // paid seats, seat order
	House        map[int]int64 // house seat → payout, microCCD
	Entry        int64         // every seat's entry, microCCD
	Seats        int
}

// Finished is the settlement of tableID once it is a finished table this lobby opened (ok false
// otherwise: not ours, or not finished).
func (p *PaidTables) Finished(tableID string) (PaidSettlement, bool) {
	p.mu.Lock()
	var t *paidTable
	for _, tt := range p.tables {
		if tt.id == tableID {
			t = tt
		}
	}
	p.mu.Unlock()
	if t == nil {
		return PaidSettlement{}, false
	}
	rec, err := p.a.Stored(tableID)
	if err != nil || rec.Status != actors.StatusFinished || rec.Result == nil {
		return PaidSettlement{}, false
	}
	out := PaidSettlement{Table: tableID, Round: t.round, Result: *rec.Result, House: map[int]int64{}, Entry: p.o.Entry,
		Seats: p.a.seatsOf(p.o.Format)}
	out.Paid, _ = p.Payouts(t.round, *rec.Result)
	for seat := 1; seat <= out.Seats; seat++ {
		if _, paid := t.paidBy[seat]; !paid {
			out.House[seat] = rec.Result.Payouts[seat]
		}
	}
	return out, true
}

// String is for logs.
func (h PaidHold) String() string { return fmt.Sprintf("hold %s at %s", h.Hold, h.Table) }
