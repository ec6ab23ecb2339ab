package dotdotdot

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"arena/actors"
	"arena/actors/anchors"
	"arena/actors/ledger"
	"arena/chain/escrow"
	"arena/games"
	"arena/games/blitz"
)

// The paid-table actor. It owns the table filling now and the tables it opened; nothing else
// touches them. Every wait (the ledger, the chain, opening the table) runs on a goroutine of its
// own whose continuation comes back as a message (paidDone) and runs here, so the actor never
// blocks. Its timer only sends it paidStartsAt. A table goes
//
//	filling → (starts_at) reading the deposits → receiving them in the ledger → opening the
//	table → staking the pot → open → (finished) settled in the ledger → settle on the escrow
//
// with no paid seat, or a table that failed to open, it closes instead. The actor's state is in
// memory (a restart of the process drops it); the ledger's rows carry what a durable rebuild
// needs: each hold's memo (agent, table, starts_at, pay_from, status, seat, paid_by) and each
// round pot's (table, paid_by by seat, house seats).

// Messages to the paid-table actor (from PaidTables, its timer and its own goroutines).
type (
	paidHoldReq struct {
		Join     AgentJoin
		PayFrom  []string          // sorted
		Accounts map[string]string // base58 address → CAIP-10 account
	}
	paidHoldReply struct {
		Hold PaidHold
		Err  error
	}
	paidHoldGet  struct{ Hold string }
	paidHoldView struct {
		OK        bool
		Hold      PaidHold
		TokenHash [32]byte
		Accounts  map[string]string // never written after the hold is made
		Check     PaidCheck
	}
	paidTableGet  struct{ Round, Table string } // by round, else by table id
	paidTableView struct {
		OK           bool
		Table, Round string
		PaidBy       map[int]string
	}
	paidStartsAt struct{ Table string }
	paidFinished struct{ Table string }
	paidAnchor   struct{ Job actors.AnchorJob }
	paidDone     struct{ then func() } // a goroutine's continuation, run on the actor
)

// Table states.
const (
	paidFilling = iota
	paidOpening // from starts_at until the pot is staked (or the table closed)
	paidOpen
	paidClosed // no paid seat, or the table failed to open
)

type paidHold struct {
	PaidHold
	tokenHash [32]byte
	join      AgentJoin
	accounts  map[string]string
	check     PaidCheck
	committed bool // the ledger has the hold: it may be answered, checked and seated
}

type paidTable struct {
	id       string
	startsAt time.Time
	holds    []*paidHold
	state    int
	due      bool // starts_at came while a hold was not yet in the ledger
	round    string
	paidBy   map[int]string // seat → CAIP-10 paid_by
	house    []int          // the house seats
	finished bool           // the round is over (perhaps before its stakes landed)
	settling bool
	// openAnchor and turnAnchor are the round's §5.5 hashes once the table asked for them;
	// sentOpen and sentTurn say open_round and anchor went to the escrow.
	openAnchor, turnAnchor *[32]byte
	sentOpen, sentTurn     bool
}

// holdMemo is a hold's memo in the ledger: what a rebuild of the paid tables needs.
type holdMemo struct {
	Agent    string    `json:"agent"`
	Name     string    `json:"name,omitempty"`
	Table    string    `json:"table"`
	StartsAt time.Time `json:"starts_at"`
	PayFrom  []string  `json:"pay_from,omitempty"`
	Token    string    `json:"seat_token_sha256,omitempty"`
	Status   string    `json:"status"`
	Round    string    `json:"round,omitempty"`
	Seat     int       `json:"seat,omitempty"`
	PaidBy   string    `json:"paid_by,omitempty"`
}

// potMemo is a round pot's memo: the round → table map and who is paid what at settle.
type potMemo struct {
	Table  string         `json:"table"`
	Format string         `json:"format"`
	Entry  int64          `json:"entry"`
	PaidBy map[int]string `json:"paid_by"`
	House  []int          `json:"house_seats"`
}

type paidActor struct {
	p     *PaidTables
	seats int // the format's seats
	turns int // the format's turns (0: unknown, no mid-round anchor on the escrow)

	filling *paidTable
	holds   map[string]*paidHold  // hold id → hold
	byID    map[string]*paidTable // every table filling, opening or opened
	byRound map[string]*paidTable // round → table, once its pot is staked
}

func (a *paidActor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *paidHoldReq:
		a.hold(ctx, m)
	case *paidHoldGet:
		h, ok := a.holds[m.Hold]
		if !ok || !h.committed {
			ctx.Respond(&paidHoldView{})
			return
		}
		ctx.Respond(&paidHoldView{OK: true, Hold: h.PaidHold, TokenHash: h.tokenHash, Accounts: h.accounts, Check: h.check})
	case *paidTableGet:
		t := a.byRound[m.Round]
		if m.Round == "" {
			if tt := a.byID[m.Table]; tt != nil && tt.state == paidOpen {
				t = tt
			}
		}
		if t == nil {
			ctx.Respond(&paidTableView{})
			return
		}
		ctx.Respond(&paidTableView{OK: true, Table: t.id, Round: t.round, PaidBy: maps.Clone(t.paidBy)})
	case *paidStartsAt:
		if t := a.byID[m.Table]; t != nil && t.state == paidFilling {
			if a.filling == t {
				a.filling = nil
			}
			t.state = paidOpening
			a.startsAt(ctx, t)
		}
	case *paidFinished:
		if t := a.byID[m.Table]; t != nil {
			t.finished = true
			a.settle(ctx, t)
		}
	case *paidAnchor:
		a.anchor(m.Job)
	case *paidDone:
		m.then()
	}
}

// run runs work on a goroutine of its own; the continuation it returns runs on the actor.
// work must not touch the actor's state: it takes copies.
func (a *paidActor) run(ctx actor.Context, work func() (then func())) {
	self, root := ctx.Self(), ctx.ActorSystem().Root
	go func() { root.Send(self, &paidDone{then: work()}) }()
}

// post writes rows to the ledger under key (on a goroutine), then runs then with the outcome on
// the actor. A post that could not be written is tried again, twice: under its key it is never
// applied twice.
func (a *paidActor) post(ctx actor.Context, key string, rows []ledger.Row, then func(err error)) {
	l := a.p.o.Ledger
	a.run(ctx, func() func() {
		var err error
		for try := 0; try < 3; try++ {
			pctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			_, err = l.Post(pctx, &ledger.Post{Key: key, Rows: rows})
			cancel()
			if !errors.Is(err, ledger.ErrUnavailable) {
				break
			}
		}
		return func() { then(err) }
	})
}

// hold makes a hold on the table filling now (opening a new one when none is, or the filling
// one's starts_at has passed), and answers once the ledger has it.
func (a *paidActor) hold(ctx actor.Context, m *paidHoldReq) {
	p := a.p
	now := p.a.Clock().Now()
	t := a.filling
	if t == nil || !now.Before(t.startsAt) {
		id, err := newTableID("o")
		if err != nil {
			ctx.Respond(&paidHoldReply{Err: err})
			return
		}
		t = &paidTable{id: id, startsAt: now.Add(p.o.Gather).Truncate(time.Second)}
		a.filling, a.byID[id] = t, t
		self, root := ctx.Self(), ctx.ActorSystem().Root
		p.a.Clock().AfterFunc(t.startsAt.Sub(now), func() { root.Send(self, &paidStartsAt{Table: id}) })
	}
	for _, h := range t.holds {
		if h.join.Agent == m.Join.Agent {
			ctx.Respond(&paidHoldReply{Err: games.Errorf(CodeInARound, "%s already holds a seat at %s (its hold %s)", m.Join.Agent, t.id, h.Hold)})
			return
		}
	}
	if len(t.holds) >= a.seats {
		ctx.Respond(&paidHoldReply{Err: games.Errorf(CodeBadTable, "the paid table filling now is full; the next opens at %s", t.startsAt.UTC().Format(time.RFC3339))})
		return
	}
	h := &paidHold{join: m.Join, accounts: m.Accounts}
	h.Hold = randomHoldID()
	h.SeatToken = randomSeatToken()
	h.tokenHash = sha256.Sum256([]byte(h.SeatToken))
	h.StartsAt, h.PayFrom, h.Entry, h.Table, h.Escrow = t.startsAt, m.PayFrom, p.o.Entry, t.id, p.o.Escrow
	h.check = PaidCheck{StartsAt: t.startsAt, Status: "holding", Table: t.id}
	t.holds = append(t.holds, h)
	a.holds[h.Hold] = h
	to := ctx.Sender()
	a.post(ctx, "paid/hold/"+h.Hold, []ledger.Row{ledger.OpenHold(h.Hold, PaidUnit, a.memo(h))}, func(err error) {
		if err != nil {
			p.log.Error("paid hold not written to the ledger: refused", "table", t.id, "err", err)
			delete(a.holds, h.Hold)
			for i, hh := range t.holds {
				if hh == h {
					t.holds = append(t.holds[:i:i], t.holds[i+1:]...)
				}
			}
			ctx.Send(to, &paidHoldReply{Err: &games.Error{Code: "busy", Msg: "the hold could not be recorded", Retry: true}})
		} else {
			h.committed = true
			ctx.Send(to, &paidHoldReply{Hold: h.PaidHold})
		}
		if t.due && t.state == paidOpening {
			a.startsAt(ctx, t)
		}
	})
}

// memo is h's memo as it stands.
func (a *paidActor) memo(h *paidHold) json.RawMessage {
	b, _ := json.Marshal(holdMemo{Agent: h.join.Agent, Name: h.join.Name, Table: h.Table, StartsAt: h.StartsAt, PayFrom: h.PayFrom,
		Token: hex.EncodeToString(h.tokenHash[:]), Status: h.check.Status, Round: h.check.Round, Seat: h.check.Seat, PaidBy: h.check.PaidBy})
	return b
}

// startsAt runs at starts_at, once every hold of t is in the ledger: every hold is read from the
// chain one last time.
func (a *paidActor) startsAt(ctx actor.Context, t *paidTable) {
	t.due = false
	for _, h := range t.holds {
		if !h.committed {
			t.due = true // the last hold's answer is on its way: go on when it lands
			return
		}
	}
	p := a.p
	holds := make([]PaidHold, len(t.holds))
	accounts := make([]map[string]string, len(t.holds))
	checks := make([]PaidCheck, len(t.holds))
	for i, h := range t.holds {
		holds[i], accounts[i], checks[i] = h.PaidHold, h.accounts, h.check
	}
	a.run(ctx, func() func() {
		rctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		read := make([]bool, len(holds))
		for i := range holds {
			if err := p.read(rctx, holds[i], accounts[i], &checks[i]); err != nil {
				p.log.Warn("paid table: deposits unreadable at starts_at: the seat is dropped", "table", t.id, "hold", holds[i].Hold, "err", err)
				continue
			}
			read[i] = true
		}
		return func() { a.receive(ctx, t, checks, read) }
	})
}

// receive takes the paid seats (seats 1.. in hold order): their counted deposits are received
// into their holds in the ledger, and then the table opens. With no paid seat nothing opens.
func (a *paidActor) receive(ctx actor.Context, t *paidTable, checks []PaidCheck, read []bool) {
	var paid []*paidHold
	var rows []ledger.Row
	for i, h := range t.holds {
		if read[i] {
			h.check = checks[i]
		}
		if read[i] && checks[i].Paid {
			paid = append(paid, h)
			rows = append(rows, ledger.Receive(h.Hold, checks[i].PaidBy, checks[i].Amount, "deposit/"+h.Hold))
		}
	}
	if len(paid) == 0 {
		a.close(ctx, t, nil)
		return
	}
	a.post(ctx, "paid/receive/"+t.id, rows, func(err error) {
		if err != nil {
			a.p.log.Error("paid table: the deposits could not be recorded: the table does not open", "table", t.id, "err", err)
			a.close(ctx, t, err)
			return
		}
		a.open(ctx, t, paid)
	})
}

// open opens the table with the paid seats (on the a2a channel), house seats filling the
// format at the same stakes.
func (a *paidActor) open(ctx actor.Context, t *paidTable, paid []*paidHold) {
	p := a.p
	// The paid agents' names are passed so that no house seat shares one (§9 names seats by name).
	named := make([]lobbyWalkin, len(paid))
	for i, h := range paid {
		named[i].Name = h.join.Name
	}
	pace := p.a.pace("agent")
	if !paceZero(p.o.Pace) {
		pace = p.o.Pace
	}
	spec, _ := walkinTableSpec(t.id, "open", p.o.Format, a.seats, pace, named, nil)
	paidBy := map[int]string{}
	for i, h := range paid {
		s := &spec.Seats[i]
		kind := h.join.Kind
		if kind == "" {
			kind = "byo"
		}
		s.Seat.Agent, s.Seat.Name, s.Lent = h.join.Agent, h.join.Name, false
		s.Seat.Entry = p.o.Entry
		setBlitzSeat(s, func(o *blitz.SeatOptions) {
			o.Kind, o.Walkin, o.Human, o.Collateral = kind, false, h.join.Human, p.o.Entry*60/100
		})
		s.Channel, s.Endpoint = ChannelA2A, h.join.Endpoint
		paidBy[i+1] = h.check.PaidBy
	}
	var house []int
	for i := len(paid); i < len(spec.Seats); i++ { // house seats at the same stakes
		spec.Seats[i].Seat.Entry = p.o.Entry
		setBlitzSeat(&spec.Seats[i], func(o *blitz.SeatOptions) { o.Collateral = p.o.Entry * 60 / 100 })
		house = append(house, i+1)
	}
	a.run(ctx, func() func() {
		octx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		round, err := p.a.OpenTable(octx, spec)
		return func() {
			if err != nil {
				p.log.Error("paid table did not open", "table", t.id, "err", err)
				a.close(ctx, t, err)
				return
			}
			a.stake(ctx, t, round, paid, paidBy, house)
		}
	})
}

// stake puts every seat's entry into the round's pot: the paid seats' from their holds, the
// house seats' from holds the house funds. Once the ledger has it the seats are announced, the
// house deposits its seats' entries on the escrow, and a round already over is settled.
func (a *paidActor) stake(ctx actor.Context, t *paidTable, round string, paid []*paidHold, paidBy map[int]string, house []int) {
	p := a.p
	pm, _ := json.Marshal(potMemo{Table: t.id, Format: p.o.Format, Entry: p.o.Entry, PaidBy: paidBy, House: house})
	rows := []ledger.Row{ledger.OpenPot(round, PaidUnit, pm)}
	for _, h := range paid {
		rows = append(rows, ledger.Stake(h.Hold, round, p.o.Entry))
	}
	from := p.o.House
	if from == "" {
		from = "house"
	}
	for _, seat := range house {
		id := houseHold(t.id, seat)
		rows = append(rows, ledger.OpenHold(id, PaidUnit, nil), ledger.Receive(id, from, p.o.Entry, "deposit/"+id), ledger.Stake(id, round, p.o.Entry))
	}
	checks := a.settleChecks(t, round, paid, nil)
	for _, h := range t.holds {
		rows = append(rows, ledger.NoteHold(h.Hold, a.memoWith(h, checks[h])))
	}
	a.post(ctx, "paid/open/"+t.id, rows, func(err error) {
		if err != nil { // the round plays on: its stakes are missing from the ledger, and it will not settle
			p.log.Error("paid table: the stakes could not be recorded", "table", t.id, "round", round, "err", err)
		}
		for h, c := range checks {
			h.check = c
		}
		t.round, t.paidBy, t.house, t.state = round, paidBy, house, paidOpen
		a.byRound[round] = t
		a.escrowSync(t)
		if p.o.OnOpen != nil {
			go p.o.OnOpen(t.id, round, nil)
		}
		if err == nil {
			a.settle(ctx, t)
		} else {
			t.settling = true
		}
	})
}

// settleChecks is every hold's check once the table opened (round) or failed (err): seated
// with its seat, failed, or dropped (unpaid at starts_at).
func (a *paidActor) settleChecks(t *paidTable, round string, paid []*paidHold, err error) map[*paidHold]PaidCheck {
	out := map[*paidHold]PaidCheck{}
	for _, h := range t.holds {
		c := h.check
		seat := 0
		for s, hh := range paid {
			if hh == h {
				seat = s + 1
			}
		}
		switch {
		case err != nil && seat > 0:
			c.Status = "failed"
		case seat > 0:
			c.Status, c.Round, c.Seat = "seated", round, seat
		default:
			c.Status = "dropped"
		}
		out[h] = c
	}
	return out
}

func (a *paidActor) memoWith(h *paidHold, c PaidCheck) json.RawMessage {
	saved := h.check
	h.check = c
	defer func() { h.check = saved }()
	return a.memo(h)
}

// close ends a table that opens nothing (no paid seat, or it failed: err): its holds' statuses
// are noted in the ledger, then announced. The money received stays in the holds.
func (a *paidActor) close(ctx actor.Context, t *paidTable, err error) {
	var paid []*paidHold
	if err != nil {
		for _, h := range t.holds {
			if h.check.Paid {
				paid = append(paid, h)
			}
		}
	}
	checks := a.settleChecks(t, "", paid, err)
	rows := make([]ledger.Row, 0, len(t.holds))
	for _, h := range t.holds {
		rows = append(rows, ledger.NoteHold(h.Hold, a.memoWith(h, checks[h])))
	}
	a.post(ctx, "paid/close/"+t.id, rows, func(perr error) {
		if perr != nil {
			a.p.log.Error("paid table: the holds' statuses could not be recorded", "table", t.id, "err", perr)
		}
		for h, c := range checks {
			h.check = c
		}
		t.state = paidClosed
		if a.p.o.OnOpen != nil {
			go a.p.o.OnOpen(t.id, "", err)
		}
	})
}

// houseHold is the ledger hold of a house seat's entry.
func houseHold(table string, seat int) string { return fmt.Sprintf("house/%s/%d", table, seat) }

// escrowOn reports whether the escrow is called (a chain and the house's account to pay from).
func (a *paidActor) escrowOn() bool { return a.p.o.Chain != nil && a.p.o.House != "" }

// anchor sends a paid table's opened anchor to the escrow as open_round and its turn anchor as
// the mid-round anchor (§5.5), once the table's stakes are in the ledger (an anchor that comes
// before waits for them).
func (a *paidActor) anchor(job actors.AnchorJob) {
	t := a.byID[job.Table]
	if t == nil || t.state == paidFilling || a.p.o.Chain == nil {
		return
	}
	if job.Request.Kind == "opened" {
		h := job.Request.Hash
		t.openAnchor = &h
	} else {
		h := job.Request.Hash
		t.turnAnchor = &h
	}
	a.escrowSync(t)
}

// escrowSync sends what the escrow is due of an opened table and has not been sent: open_round
// (the round's pool: each paid seat's entry staked from its counted deposit, the house seats'
// entries sent with the call), then the mid-round anchor.
func (a *paidActor) escrowSync(t *paidTable) {
	if t.state != paidOpen || !a.escrowOn() {
		return
	}
	n, err := escrow.Round(t.round)
	if err != nil {
		return
	}
	o := a.p.o
	if t.openAnchor != nil && !t.sentOpen {
		var stakes []escrow.Stake
		for _, h := range t.holds {
			if h.check.Status != "seated" {
				continue
			}
			payer, err := escrow.Account(h.check.PaidBy)
			if err != nil {
				a.p.log.Error("paid round not opened on the escrow", "table", t.id, "err", err)
				return
			}
			stakes = append(stakes, escrow.Stake{SeatToken: h.SeatToken, Payer: payer, Amount: uint64(o.Entry)})
		}
		house := uint64(o.Entry) * uint64(len(t.house))
		o.Chain.Call(anchors.CallJob{Table: t.id, Round: t.round, Name: "open_round",
			Call: o.Contract.Call("open_round", escrow.EncodeOpenRound(n, *t.openAnchor, stakes), house)})
		t.sentOpen = true
	}
	if t.sentOpen && t.turnAnchor != nil && !t.sentTurn {
		o.Chain.Call(anchors.CallJob{Table: t.id, Round: t.round, Name: "anchor",
			Call: o.Contract.Call("anchor", escrow.EncodeAnchor(n, escrow.MidRoundTurn(a.turns), *t.turnAnchor), 0)})
		t.sentTurn = true
	}
}

// settle settles a finished round's pot in the ledger, once: each paid seat's payout to its
// paid_by, the house seats' payouts and the house's take to the house; the ledger refuses a
// settlement that does not balance the pot (every seat's entry). Then settle goes to the escrow
// with the transcript hash and the reveal.
func (a *paidActor) settle(ctx actor.Context, t *paidTable) {
	if !t.finished || t.state != paidOpen || t.settling {
		return
	}
	t.settling = true
	p, id, round, paidBy := a.p, t.id, t.round, maps.Clone(t.paidBy)
	a.run(ctx, func() func() {
		st, ok := p.settlement(id, round, paidBy)
		if !ok {
			return func() { t.settling = false }
		}
		pays := make([]ledger.Payout, 0, len(st.Paid))
		for _, py := range st.Paid {
			pays = append(pays, ledger.Payout{Account: py.Account, Amount: py.Amount})
		}
		house := st.Result.House
		for _, amt := range st.House {
			house += amt
		}
		return func() {
			log := p.log.With("table", id, "round", round)
			a.post(ctx, "paid/settle/"+round, []ledger.Row{ledger.Settle(round, pays, house)}, func(err error) {
				if err != nil {
					log.Error("paid round not settled", "err", err)
					return
				}
				a.escrowSettle(st, house, log)
			})
		}
	})
}

// escrowSettle sends a settled round's settle call to the escrow.
func (a *paidActor) escrowSettle(st PaidSettlement, house int64, log *slog.Logger) {
	if !a.escrowOn() {
		return
	}
	o := a.p.o
	var pays []escrow.Payout
	for _, py := range st.Paid {
		to, err := escrow.Account(py.Account)
		if err != nil {
			log.Error("paid round not settled on the escrow", "err", fmt.Errorf("paid_by of seat %d: %w", py.Seat, err))
			return
		}
		pays = append(pays, escrow.Payout{To: to, Amount: uint64(py.Amount)})
	}
	to, err := escrow.Account(o.House)
	if err != nil {
		log.Error("paid round not settled on the escrow", "err", err)
		return
	}
	pays = append(pays, escrow.Payout{To: to, Amount: uint64(house)})
	param, err := escrow.SettleParam(st.Round, pays, st.Result.TranscriptHash, []byte(st.Result.Reveal))
	if err != nil {
		log.Error("paid round not settled on the escrow", "err", err)
		return
	}
	o.Chain.Call(anchors.CallJob{Table: st.Table, Round: st.Round, Name: "settle", Call: o.Contract.Call("settle", param, 0)})
	log.Info("paid round sent to the escrow", "calls", 1, "paid_seats", len(st.Paid))
}
