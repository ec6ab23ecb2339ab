package dotdotdot

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"arena/actors"
	"arena/actors/anchors"
	"arena/actors/ledger"
	ccdaddr "arena/chain/ccd"
	"arena/chain/escrow"
	"arena/games"
	"arena/games/blitz"
	"arena/storage"
)

// The paid-table actor. It owns the paid tables; nothing else touches them. Every wait (the
// store, the ledger, the chain, opening the table) runs on a goroutine of its own whose
// continuation comes back as a message (paidDone) and runs here, so the actor never blocks. A
// table goes
//
//	filling → (starts_at) its holds' deposits read, the paid seats chosen: decided → the
//	deposits received in the ledger → the table opened → the pot staked in the ledger: open →
//	(open_round, the mid-round anchor on the escrow) → (finished) the pot settled in the
//	ledger → settle queued for the escrow: settled
//
// and with no paid seat, or a table that failed to open, it is closed instead (the received
// entries refunded in the ledger). Each status is written to the store (storage.PaidTable)
// before what rests on it is announced, and each ledger post carries a key, so resume, which
// drives a table from its stored status, is run again after a restart, or a failed step, and
// finishes what was begun without doing anything twice. Money that does not play is refunded
// by the sweep (paid_refund.go).

// Messages to the paid-table actor (from PaidTables, its timers and its own goroutines).
type (
	paidHoldReq struct {
		Join     AgentJoin
		PayFrom  []string          // sorted
		Accounts map[string]string // base58 address → CAIP-10 account
		Funds    int64             // the arena's available balance when read (PaidOptions.Funds), else -1
		// Until is when the asker stops waiting (less holdAnswerMargin), on the wall clock: a hold
		// not in the ledger by then is dropped rather than answered, since its seat token would
		// reach nobody and the hold would lock its Badge out of the table.
		Until time.Time
		// Unseen are the holds of the table filling now whose entry the chain had not seen when
		// read (PaidTables.roomFor), oldest first; Read says every one was read.
		Unseen []string
		Read   bool
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
		Void         paidVoid
	}
	// paidFillingGet asks for the holds of the table filling now, when it has as many as
	// seats (PaidTables.roomFor); paidFillingView answers them (none: there is room).
	paidFillingGet  struct{}
	paidFillingView struct {
		Holds    []PaidHold
		Accounts []map[string]string // never written after the hold is made
	}
	// paidHoldingGet asks for the paid seat a Badge holds not yet played (paidActor.holding);
	// paidHoldingView answers its table and hold ("" none).
	paidHoldingGet  struct{ Agent string }
	paidHoldingView struct{ Table, Hold string }
	paidStartsAt    struct{ Table string }
	paidFinished    struct{ Table string }
	paidAnchor      struct{ Job actors.AnchorJob }
	paidTick        struct{}              // resume every table and sweep (a timer, or the actor's start)
	paidSweepReq    struct{}              // PaidTables.Sweep: answered with *paidSwept once a sweep has run
	paidSwept       struct{ Err error }   // a sweep's outcome
	paidDone        struct{ then func() } // a goroutine's continuation, run on the actor
)

type paidHold struct {
	PaidHold
	tokenHash [32]byte
	join      AgentJoin
	accounts  map[string]string
	check     PaidCheck
	committed bool // the ledger has the hold: it may be answered, checked and seated
	// shown is what GET {check} says while its table's closing is not yet written (the check as
	// it stood before close); nil: check.
	shown *PaidCheck
}

type paidTable struct {
	id       string
	startsAt time.Time
	status   string // storage.Paid*
	// written is the status the store has (""; never written): no step resting on status is
	// taken, and no closing is said, before written is status.
	written string
	told    bool // a closed table's OnOpen was called
	holds   []*paidHold
	round   string
	house   []int          // the house seats, once open
	paidBy  map[int]string // seat → CAIP-10 paid_by, once open
	failed  string         // why a closed table did not open

	busy     bool // a step is in flight: resume waits for it
	received bool // the ledger has the paid seats' entries (decided on)
	staked   bool // the ledger has the round's pot (open on)
	noted    bool // the ledger has a closed table's statuses and refunds
	finished bool // the round is over
	// openAnchor and turnAnchor are the round's §5.5 hashes once known; sentOpen and sentTurn
	// say open_round and anchor went to the chain actor in this run.
	openAnchor, turnAnchor *[32]byte
	sentOpen, sentTurn     bool
	// onEscrow: the escrow was read holding the round (view_round); until then the house seats'
	// entries are counted as owed by the arena's account (reserved). reconciled: the escrow was
	// read settled as the ledger settled it (stored).
	onEscrow, reconciled bool
	// void is why the round is settled void, and the transcript hash its settle anchors, once
	// written (stored); downSince is when this process first saw the round's table stopped or
	// failed (zero: not seen down), voidAfter counting from it; watching: a read of the tables
	// is in flight.
	void      paidVoid
	downSince time.Time
}

type paidActor struct {
	p     *PaidTables
	seats int // the format's seats
	turns int // the format's turns (0: unknown, no mid-round anchor on the escrow)

	filling *paidTable
	holds   map[string]*paidHold  // hold id → hold
	byID    map[string]*paidTable // every table
	byRound map[string]*paidTable // round → table, once open

	// The store's writer (save): one write in flight, the tables changed meanwhile in the next.
	saving bool
	dirty  map[string]bool
	saved  []func(error)

	sweeping, sweepAgain bool
	sweepers             []*actor.PID // PaidTables.Sweep callers waiting for the next sweep's end

	watching   bool             // watchDown's read of the open rounds' tables is in flight
	recon      reconState       // the reconciliation's memory (paid_reconcile.go)
	mismatches []EscrowMismatch // at the last complete sweep
}

func (a *paidActor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *actor.Started:
		now := a.p.a.Clock().Now()
		for _, t := range a.byID {
			if t.status == storage.PaidFilling && now.Before(t.startsAt) {
				a.arm(ctx, t)
			}
		}
		a.tick(ctx)
	case *paidHoldReq:
		a.hold(ctx, m)
	case *paidHoldGet:
		h, ok := a.holds[m.Hold]
		if !ok || !h.committed {
			ctx.Respond(&paidHoldView{})
			return
		}
		c := h.check
		if t := a.byID[h.Table]; h.shown != nil && t != nil && t.written != t.status {
			c = *h.shown
		}
		if h.join.Kind == "ots" && c.Status == storage.PaidSeated && c.Seat > 0 { // §5.2: editable until scouting ends
			c.PlaybookToken = a.p.a.playbookToken(h.Table, c.Seat)
		}
		ctx.Respond(&paidHoldView{OK: true, Hold: h.PaidHold, TokenHash: h.tokenHash, Accounts: h.accounts, Check: c})
	case *paidTableGet:
		t := a.byRound[m.Round]
		if m.Round == "" {
			t = a.byRound[a.roundOf(m.Table)]
		}
		if t == nil {
			ctx.Respond(&paidTableView{})
			return
		}
		ctx.Respond(&paidTableView{OK: true, Table: t.id, Round: t.round, PaidBy: maps.Clone(t.paidBy), Void: t.void})
	case *paidFillingGet:
		v := &paidFillingView{}
		if t := a.filling; t != nil && a.p.a.Clock().Now().Before(t.startsAt) && len(liveHolds(t)) >= a.seats {
			for _, h := range liveHolds(t) {
				v.Holds, v.Accounts = append(v.Holds, h.PaidHold), append(v.Accounts, h.accounts)
			}
		}
		ctx.Respond(v)
	case *paidStartsAt:
		if t := a.byID[m.Table]; t != nil {
			a.resume(ctx, t)
		}
	case *paidFinished:
		if t := a.byID[m.Table]; t != nil {
			t.finished = true
			a.resume(ctx, t)
		}
	case *paidAnchor:
		a.anchor(m.Job)
	case *anchors.CallSubmitted:
		a.submitted(ctx, m)
	case *paidTick:
		a.tick(ctx)
	case *paidSweepReq:
		a.sweepers = append(a.sweepers, ctx.Sender())
		a.sweep(ctx)
	case *paidHoldingGet:
		v := &paidHoldingView{}
		if t, h := a.holding(m.Agent); h != nil {
			v.Table, v.Hold = t.id, h.Hold
		}
		ctx.Respond(v)
	case *paidMismatchesReq:
		ctx.Respond(&paidMismatches{List: slices.Clone(a.mismatches)})
	case *paidDone:
		m.then()
	}
}

func (a *paidActor) roundOf(table string) string {
	if t := a.byID[table]; t != nil && t.round != "" {
		return t.round
	}
	return ""
}

// tick resumes every table and sweeps the escrow, then arms the next tick.
func (a *paidActor) tick(ctx actor.Context) {
	a.kickSave(ctx) // what a failed write left unwritten
	for _, t := range a.byID {
		a.resume(ctx, t)
	}
	a.watchDown(ctx)
	a.sweep(ctx)
	self, root := ctx.Self(), ctx.ActorSystem().Root
	a.p.a.Clock().AfterFunc(a.p.o.SweepEvery, func() { root.Send(self, &paidTick{}) })
}

// step tells PaidOptions.OnStep of a money step.
func (a *paidActor) step(name string, t *paidTable) {
	if f := a.p.o.OnStep; f != nil {
		f(name, t.id, t.round)
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
		err := postRows(l, key, rows)
		return func() { then(err) }
	})
}

func postRows(l *ledger.Ledger, key string, rows []ledger.Row) error {
	var err error
	for try := 0; try < 3; try++ {
		pctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_, err = l.Post(pctx, &ledger.Post{Key: key, Rows: rows})
		cancel()
		if !errors.Is(err, ledger.ErrUnavailable) {
			break
		}
	}
	return err
}

// save writes t's record as it stands (with whatever else changed meanwhile), then calls then
// (nil: nothing to call) with the outcome. One write is in flight at a time, so a table's
// records land in the order they were made. A failed write leaves its tables to be written
// again with the next one.
func (a *paidActor) save(ctx actor.Context, t *paidTable, then func(error)) {
	a.dirty[t.id] = true
	if then != nil {
		a.saved = append(a.saved, then)
	}
	a.kickSave(ctx)
}

func (a *paidActor) kickSave(ctx actor.Context) {
	if a.saving || len(a.dirty) == 0 {
		return
	}
	recs := make([]storage.PaidTable, 0, len(a.dirty))
	ids := make([]string, 0, len(a.dirty))
	for id := range a.dirty {
		recs = append(recs, a.record(a.byID[id]))
		ids = append(ids, id)
	}
	waiting := a.saved
	a.dirty, a.saved, a.saving = map[string]bool{}, nil, true
	put := a.p.putPaidTables
	a.run(ctx, func() func() {
		err := put(recs...)
		return func() {
			a.saving = false
			if err != nil {
				a.p.log.Error("paid tables not written", "err", err)
				for _, id := range ids {
					a.dirty[id] = true
				}
			}
			var advanced []*paidTable
			if err == nil {
				for _, r := range recs {
					if t := a.byID[r.ID]; t != nil && t.written != r.Status {
						t.written = r.Status
						advanced = append(advanced, t)
					}
				}
			}
			for _, f := range waiting {
				f(err)
			}
			for _, t := range advanced {
				if t.written == storage.PaidClosed && !t.told && t.status == storage.PaidClosed {
					t.told = true
					if f := a.p.o.OnOpen; f != nil {
						var ferr error
						if t.failed != "" {
							ferr = errors.New(t.failed)
						}
						go f(t.id, "", ferr)
					}
				}
				a.resume(ctx, t)
			}
			if err == nil {
				a.kickSave(ctx)
			}
		}
	})
}

// record is t as the store keeps it.
func (a *paidActor) record(t *paidTable) storage.PaidTable {
	r := storage.PaidTable{ID: t.id, Format: a.p.o.Format, Entry: a.p.o.Entry, StartsAt: t.startsAt, Status: t.status,
		Round: t.round, House: t.house, Failed: t.failed, Reconciled: t.reconciled, Voided: t.void.why, VoidHash: t.void.hash}
	for _, h := range t.holds {
		c := h.check
		r.Holds = append(r.Holds, storage.PaidHold{ID: h.Hold, SeatToken: h.SeatToken, Agent: h.join.Agent, Name: h.join.Name,
			Endpoint: h.join.Endpoint, Kind: h.join.Kind, Owner: h.join.Owner, Human: h.join.Human, PayFrom: h.PayFrom, Status: c.Status,
			Paid: c.Paid, PaidBy: c.PaidBy, Amount: c.Amount, Pending: c.Pending, Foreign: c.Foreign, Seat: c.Seat, Dropped: c.Dropped})
		if pb := h.join.Playbook; pb != nil {
			r.Holds[len(r.Holds)-1].Playbook, r.Holds[len(r.Holds)-1].OTSGrant = pb.JSON(), h.join.OTSGrant
		}
	}
	return r
}

// resume drives t from where it stands to its next step, unless a step is in flight (which
// resumes it when it lands). Every step is safe to run again.
func (a *paidActor) resume(ctx actor.Context, t *paidTable) {
	if t.busy || (t.status != storage.PaidFilling && t.written != t.status) {
		return // a step in flight resumes t when it lands; an unwritten status once it is written
	}
	switch t.status {
	case storage.PaidFilling:
		if a.p.a.Clock().Now().Before(t.startsAt) {
			return
		}
		if a.filling == t {
			a.filling = nil
		}
		for _, h := range t.holds {
			if !h.committed {
				return // the hold's answer is on its way: it resumes the table when it lands
			}
		}
		a.startsAt(ctx, t)
	case storage.PaidDecided:
		if !t.received {
			a.receive(ctx, t)
		} else {
			a.open(ctx, t)
		}
	case storage.PaidOpen:
		if !t.staked {
			a.stake(ctx, t, t.round)
			return
		}
		a.escrowSync(t)
		if t.finished || t.void.hash != "" {
			a.settle(ctx, t)
		}
	case storage.PaidClosed:
		if !t.noted {
			a.noteClosed(ctx, t)
		}
	}
}

// hold makes a hold on the table filling now (opening a new one when none is, or the filling
// one's starts_at has passed), and answers once the store and the ledger have it.
func (a *paidActor) hold(ctx actor.Context, m *paidHoldReq) {
	p := a.p
	now := p.a.Clock().Now()
	t := a.filling
	if m.Funds >= 0 {
		// The worst case: one paid seat, every other seat the house's.
		need := int64(a.seats-1)*p.o.Entry + p.o.FeeReserve + a.owed(t)
		if m.Funds < need {
			a.unfunded(need, m.Funds, "hold")
			ctx.Respond(&paidHoldReply{Err: &games.Error{Code: CodeBadTable, Retry: true,
				Msg: fmt.Sprintf("the house cannot fund its seats at a paid table now (its account holds %s CCD of the %s CCD a table may need); try again later", ccdText(m.Funds), ccdText(need))}})
			return
		}
	}
	if t == nil || !now.Before(t.startsAt) {
		id, err := newTableID("o")
		if err != nil {
			ctx.Respond(&paidHoldReply{Err: err})
			return
		}
		t = &paidTable{id: id, startsAt: now.Add(p.o.Gather).Truncate(time.Second), status: storage.PaidFilling}
		a.filling, a.byID[id] = t, t
		a.arm(ctx, t)
	}
	if ot, h := a.holding(m.Join.Agent); h != nil {
		ctx.Respond(&paidHoldReply{Err: games.Errorf(CodeInARound, "%s already holds a seat at %s (its hold %s)", m.Join.Agent, ot.id, h.Hold)})
		return
	}
	// One seat per owner at a table (§5.7: a hold is a seat for the Badge's owner): one person
	// at two seats of a round could play them together. An owner's aliases are the owner. A
	// Badge or owner whose hold was dropped to make room does not hold again at the table: else
	// a few Badges holding again and again would drop every other hold before it is paid.
	for _, h := range t.holds {
		sameOwner := m.Join.Owner != "" && ownerKey(h.join.Owner) == ownerKey(m.Join.Owner)
		if h.check.Status == storage.PaidDropped && (sameOwner || h.join.Agent == m.Join.Agent) {
			ctx.Respond(&paidHoldReply{Err: games.Errorf(CodeBadTable, "the hold %s of %s at %s was dropped (%s); it does not hold again there; the next table opens at %s",
				h.Hold, h.join.Agent, t.id, h.check.Dropped, t.startsAt.UTC().Format(time.RFC3339))})
			return
		}
		if sameOwner {
			ctx.Respond(&paidHoldReply{Err: games.Errorf(CodeInARound, "%s already holds a seat at %s for its owner %s (its hold %s); an owner takes one seat at a table",
				h.join.Agent, t.id, m.Join.Owner, h.Hold)})
			return
		}
	}
	// A hold costs nothing until it is paid, so holds do not fill the table's seats (the paid
	// ones do, at starts_at: decide); they are only bounded, paidHoldsPerSeat to a seat. Past
	// the bound the new hold drops the oldest whose entry the chain has not seen (as it was
	// read just now: roomFor), so holds nobody pays cannot lock the table; only when every
	// hold's entry is seen is it refused.
	var evicted *paidHold
	var evictedWas PaidCheck
	if live := liveHolds(t); len(live) >= a.seats*paidHoldsPerSeat {
		unseen := map[string]bool{}
		for _, id := range m.Unseen {
			unseen[id] = true
		}
		for _, h := range live {
			if h.committed && unseen[h.Hold] {
				evicted = h
				break
			}
		}
		switch {
		case evicted == nil && !m.Read:
			ctx.Respond(&paidHoldReply{Err: &games.Error{Code: "busy", Retry: true,
				Msg: "the paid table filling now is at its bound of holds and the chain could not be read to find one unpaid to drop"}})
			return
		case evicted == nil:
			ctx.Respond(&paidHoldReply{Err: games.Errorf(CodeBadTable, "the paid table filling now holds as many seats as it takes (%d for its %d seats), each with its entry on chain; the next opens at %s",
				len(live), a.seats, t.startsAt.UTC().Format(time.RFC3339))})
			return
		}
		evictedWas = evicted.check
		evicted.check.Status, evicted.check.Dropped = storage.PaidDropped, paidEvicted
		p.log.Info("paid hold dropped to make room: its entry was not seen on chain", "table", t.id, "hold", evicted.Hold)
	}
	unevict := func() {
		if evicted != nil && evicted.check.Dropped == paidEvicted {
			evicted.check = evictedWas
		}
	}
	h := &paidHold{join: m.Join, accounts: m.Accounts}
	h.Hold = randomHoldID()
	h.SeatToken = randomSeatToken()
	h.tokenHash = sha256.Sum256([]byte(h.SeatToken))
	h.StartsAt, h.PayFrom, h.Entry, h.Table, h.Escrow = t.startsAt, m.PayFrom, p.o.Entry, t.id, p.o.Escrow
	h.check = PaidCheck{StartsAt: t.startsAt, Status: storage.PaidHolding, Table: t.id}
	t.holds = append(t.holds, h)
	a.holds[h.Hold] = h
	to := ctx.Sender()
	refuse := func(what string, err error) {
		p.log.Error("paid hold not "+what+": refused", "table", t.id, "err", err)
		a.drop(t, h)
		unevict()
		a.save(ctx, t, nil)
		ctx.Send(to, &paidHoldReply{Err: &games.Error{Code: "busy", Msg: "the hold could not be recorded", Retry: true}})
		a.resume(ctx, t)
	}
	a.save(ctx, t, func(err error) {
		if err != nil {
			refuse("stored", err)
			return
		}
		a.post(ctx, "paid/hold/"+h.Hold, []ledger.Row{ledger.OpenHold(h.Hold, PaidUnit, a.memo(h, h.check))}, func(err error) {
			if err != nil {
				refuse("written to the ledger", err)
				return
			}
			if !m.Until.IsZero() && time.Now().After(m.Until) {
				// The ledger keeps an empty hold, opened and never received into.
				p.log.Warn("paid hold in the ledger after its asker stopped waiting: dropped", "table", t.id, "hold", h.Hold)
				a.drop(t, h)
				unevict()
				a.save(ctx, t, nil)
				a.resume(ctx, t)
				return
			}
			h.committed = true
			ctx.Send(to, &paidHoldReply{Hold: h.PaidHold})
			a.resume(ctx, t)
		})
	})
}

// ownerKey is what names a Badge owner's account (a CAIP-10 account) whatever alias the Badge
// was registered under: its chain and the first 29 bytes of its address (on Concordium the 2^24
// addresses sharing them are one account's aliases). An account that is not a Concordium
// address is its own key.
func ownerKey(owner string) string {
	i := lastColon(owner)
	a, err := ccdaddr.ParseAddress(owner[i+1:])
	if err != nil {
		return owner
	}
	return owner[:i+1] + hex.EncodeToString(a[:29])
}

// holding is the table and hold by which agent holds a paid seat not yet played: a hold on a
// table still filling (its starts_at passed or not), or a paid hold on a table decided and
// opening. A table open is live (Arena.liveSeatOf); a hold dropped (also one dropped while its
// table filled) or failed holds nothing.
func (a *paidActor) holding(agent string) (*paidTable, *paidHold) {
	for _, t := range a.byID {
		if t.status != storage.PaidFilling && t.status != storage.PaidDecided {
			continue
		}
		for _, h := range t.holds {
			if h.join.Agent == agent && h.check.Status != storage.PaidDropped && (t.status == storage.PaidFilling || h.check.Paid) {
				return t, h
			}
		}
	}
	return nil, nil
}

// arm sends paidStartsAt at t's starts_at.
func (a *paidActor) arm(ctx actor.Context, t *paidTable) {
	self, root, id := ctx.Self(), ctx.ActorSystem().Root, t.id
	a.p.a.Clock().AfterFunc(t.startsAt.Sub(a.p.a.Clock().Now()), func() { root.Send(self, &paidStartsAt{Table: id}) })
}

// drop removes a hold that was never answered.
func (a *paidActor) drop(t *paidTable, h *paidHold) {
	delete(a.holds, h.Hold)
	for i, hh := range t.holds {
		if hh == h {
			t.holds = append(t.holds[:i:i], t.holds[i+1:]...)
			return
		}
	}
}

// memo is h's memo in the ledger with check c.
func (a *paidActor) memo(h *paidHold, c PaidCheck) json.RawMessage {
	b, _ := json.Marshal(holdMemo{Agent: h.join.Agent, Name: h.join.Name, Table: h.Table, StartsAt: h.StartsAt, PayFrom: h.PayFrom,
		Token: hex.EncodeToString(h.tokenHash[:]), Status: c.Status, Round: c.Round, Seat: c.Seat, PaidBy: c.PaidBy, Dropped: c.Dropped})
	return b
}

// holdMemo is a hold's memo in the ledger, for people reading it (the paid tables rebuild from
// the store's records).
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
	Dropped  string    `json:"dropped,omitempty"`
}

// potMemo is a round pot's memo: the table and who is paid what at settle.
type potMemo struct {
	Table  string         `json:"table"`
	Format string         `json:"format"`
	Entry  int64          `json:"entry"`
	PaidBy map[int]string `json:"paid_by"`
	House  []int          `json:"house_seats"`
	Voided string         `json:"voided,omitempty"` // why the round was settled void (every entry back)
}

// paidReadGrace is how long after starts_at a table whose deposits could not all be read waits
// for a read that succeeds (read again at each tick) before it drops the seats not read.
const paidReadGrace = 2 * time.Minute

// startsAt runs once starts_at has passed and every hold of t is answered: every hold is read
// from the chain one last time, and the paid seats are chosen (a read that fails is tried again
// at the next tick, for paidReadGrace).
func (a *paidActor) startsAt(ctx actor.Context, t *paidTable) {
	p := a.p
	t.busy = true
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
		var unread error
		for i := range holds {
			if err := p.read(rctx, holds[i], accounts[i], &checks[i]); err != nil {
				unread = err
				continue
			}
			read[i] = true
		}
		return func() {
			if unread != nil && p.a.Clock().Now().Before(t.startsAt.Add(paidReadGrace)) {
				// A node that did not answer drops no seat that paid: the table waits, and its
				// deposits are read again at the next tick, for paidReadGrace after starts_at.
				t.busy = false
				p.log.Warn("paid table: deposits unreadable at starts_at: read again at the next tick", "table", t.id, "err", unread)
				return
			}
			if unread != nil {
				p.log.Warn("paid table: deposits still unreadable: the seats not read are dropped", "table", t.id, "err", unread)
			}
			a.decide(ctx, t, checks, read)
		}
	})
}

// decide records the paid seats (the holds whose counted deposit was read, seats 1.. in hold
// order, as many as the table has seats); with none the table closes. A paid hold past the
// seats, or one that cannot be played (playable), is dropped (paid and dropped: the sweep
// refunds its deposit, which no seat counts on, through the ledger and then the escrow).
func (a *paidActor) decide(ctx actor.Context, t *paidTable, checks []PaidCheck, read []bool) {
	t.busy = false
	paid := 0
	for i, h := range t.holds {
		if read[i] {
			h.check = checks[i]
		} else {
			h.check.Paid = false
		}
		if h.check.Status == storage.PaidDropped {
			continue // dropped while the table filled: it takes no seat, paid or not (the sweep refunds it)
		}
		if h.check.Paid {
			if !h.join.playable() {
				a.p.log.Error("paid hold cannot be played: dropped, its deposit refunded", "table", t.id, "hold", h.Hold, "agent", h.join.Agent)
				h.check.Status, h.check.Dropped = storage.PaidDropped, paidUnplayable
				continue
			}
			if paid == a.seats {
				h.check.Status = storage.PaidDropped
				continue
			}
			paid++
		}
	}
	if paid == 0 {
		a.close(ctx, t, nil)
		return
	}
	t.status, t.busy = storage.PaidDecided, true
	a.save(ctx, t, func(err error) {
		t.busy = false
		if err == nil {
			a.resume(ctx, t)
		} // else the next tick writes and resumes it
	})
}

// paidUnplayable is why a paid hold was dropped at starts_at because it cannot be played
// (PaidCheck.Dropped): an off-the-shelf hold whose stored playbook or key grant does not read
// back, so the arena could neither run it with its owner's playbook nor sign for it (OTSKey).
const paidUnplayable = "dropped at starts_at: this off-the-shelf seat's playbook or key grant, as stored, cannot be read back, so the arena can neither run nor sign for it; its deposit is refunded"

// playable reports whether a hold's seat can be played as joined: an off-the-shelf hold needs
// its playbook and a well-formed key grant (a restart reads them back from the store; one that
// does not read back leaves neither).
func (j AgentJoin) playable() bool {
	return j.Kind != "ots" || (j.Playbook != nil && grantPattern.MatchString(j.OTSGrant))
}

// paidHoldsPerSeat bounds a filling table's holds: at most this many live to a seat.
const paidHoldsPerSeat = 4

// paidEvicted is why a hold dropped while its table filled was dropped (PaidCheck.Dropped).
const paidEvicted = "dropped to make room for a new hold: the table was at its bound of holds and the chain had not seen this one's entry (no deposit, final or pending); a deposit made for it is refunded"

// liveHolds are t's holds not dropped, in hold order (while t fills: those not dropped to make
// room).
func liveHolds(t *paidTable) []*paidHold {
	var out []*paidHold
	for _, h := range t.holds {
		if h.check.Status != storage.PaidDropped {
			out = append(out, h)
		}
	}
	return out
}

// paidHolds are t's holds with a counted deposit that take a seat, in hold order (seat 1
// first): not one paid past the table's seats (decide drops it).
func paidHolds(t *paidTable) []*paidHold {
	var out []*paidHold
	for _, h := range t.holds {
		if h.check.Paid && h.check.Status != storage.PaidDropped {
			out = append(out, h)
		}
	}
	return out
}

// receive puts each paid seat's entry into its hold in the ledger, from its paid_by (the part
// of the deposit above the entry is refunded by the sweep).
func (a *paidActor) receive(ctx actor.Context, t *paidTable) {
	var rows []ledger.Row
	for _, h := range paidHolds(t) {
		rows = append(rows, ledger.Receive(h.Hold, h.check.PaidBy, a.p.o.Entry, "deposit/"+h.Hold))
	}
	t.busy = true
	a.post(ctx, "paid/receive/"+t.id, rows, func(err error) {
		t.busy = false
		if err != nil {
			a.p.log.Error("paid table: the deposits could not be recorded: the table does not open", "table", t.id, "err", err)
			a.close(ctx, t, err)
			return
		}
		t.received = true
		a.resume(ctx, t)
	})
}

// open opens the table with the paid seats (on the a2a channel), house seats filling the
// format at the same stakes; a table the store already has (opened before a restart, or by an
// OpenTable that answered an error after writing it) is not opened again but staked. The table
// fails (close) only when it certainly does not exist; while its record cannot be read it waits.
func (a *paidActor) open(ctx actor.Context, t *paidTable) {
	p := a.p
	paid := paidHolds(t)
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
	for i, h := range paid {
		s := &spec.Seats[i]
		kind := h.join.Kind
		if kind == "" {
			kind = "byo"
		}
		s.Seat.Entry = p.o.Entry
		if kind == "ots" && h.join.Playbook != nil { // run by the arena on the house model (ots.go)
			if err := seatOTS(&spec, i+1, OTSAgent{Agent: h.join.Agent, Name: h.join.Name, Owner: h.join.Owner, Playbook: *h.join.Playbook, Grant: h.join.OTSGrant}); err != nil {
				p.log.Error("paid table: an off-the-shelf seat could not be made", "table", t.id, "seat", i+1, "err", err)
			}
			setBlitzSeat(s, func(o *blitz.SeatOptions) { o.Collateral = p.o.Entry * 60 / 100 })
			continue
		}
		s.Seat.Agent, s.Seat.Name, s.Lent = h.join.Agent, h.join.Name, false
		setBlitzSeat(s, func(o *blitz.SeatOptions) {
			o.Kind, o.Walkin, o.Human, o.Owner, o.Collateral = kind, false, h.join.Human, h.join.Owner, p.o.Entry*60/100
		})
		s.Channel, s.Endpoint = ChannelA2A, h.join.Endpoint
	}
	for i := len(paid); i < len(spec.Seats); i++ { // house seats at the same stakes
		spec.Seats[i].Seat.Entry = p.o.Entry
		setBlitzSeat(&spec.Seats[i], func(o *blitz.SeatOptions) { o.Collateral = p.o.Entry * 60 / 100 })
	}
	t.busy = true
	// What the house must send with open_round, and what the arena's account owes already.
	need := int64(a.seats-len(paid))*p.o.Entry + p.o.FeeReserve + a.owed(t)
	a.run(ctx, func() func() {
		wait := func(why string, err error) func() {
			// Unknown: the table waits (the next tick tries again); the entries stay held.
			return func() {
				t.busy = false
				p.log.Warn("paid table: "+why+"; the table is tried again at the next tick", "table", t.id, "err", err)
			}
		}
		st, err := p.a.Stored(t.id)
		switch {
		case err == nil:
			return func() { t.busy = false; a.stake(ctx, t, st.Round) }
		case !errors.Is(err, actors.ErrNoTable):
			// Whether the table was opened (before a restart) is not known: opening it again, or
			// closing it with its entries refunded while its round may play, would both be wrong.
			return wait("its table's record could not be read", err)
		}
		if ok, ferr := p.funded(need); ferr != nil {
			return wait("the arena's account could not be read", ferr)
		} else if !ok {
			return func() { t.busy = false; a.close(ctx, t, errUnfunded) }
		}
		octx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		round, oerr := p.openTable(octx, spec)
		cancel()
		if oerr != nil {
			// OpenTable can fail after the table's record is written (its actor did not answer in
			// time): that table plays its round, so it is staked like any other. Only a table
			// that certainly does not exist fails, its entries refunded.
			switch st, err := p.a.Stored(t.id); {
			case err == nil:
				p.log.Warn("paid table: opening answered an error but the table exists; it plays", "table", t.id, "err", oerr)
				round = st.Round
			case !errors.Is(err, actors.ErrNoTable):
				return wait("opening answered an error and its table's record could not be read", errors.Join(oerr, err))
			default:
				return func() {
					t.busy = false
					p.log.Error("paid table did not open", "table", t.id, "err", oerr)
					a.close(ctx, t, oerr)
				}
			}
		}
		return func() { t.busy = false; a.stake(ctx, t, round) }
	})
}

// stake puts every seat's entry into the round's pot: the paid seats' from their holds, the
// house seats' from holds the house funds. Once the ledger has it the table is written open
// and its seats announced; then the escrow hears of it (open_round once the table asks for its
// open-round anchor) and a round already over is settled.
func (a *paidActor) stake(ctx actor.Context, t *paidTable, round string) {
	p := a.p
	paid := paidHolds(t)
	paidBy := map[int]string{}
	for i, h := range paid {
		paidBy[i+1] = h.check.PaidBy
	}
	var house []int
	for seat := len(paid) + 1; seat <= a.seats; seat++ {
		house = append(house, seat)
	}
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
	checks := map[*paidHold]PaidCheck{}
	for _, h := range t.holds {
		c := h.check
		c.Status = storage.PaidDropped
		for s, hh := range paid {
			if hh == h {
				c.Status, c.Round, c.Seat = storage.PaidSeated, round, s+1
			}
		}
		checks[h] = c
		rows = append(rows, ledger.NoteHold(h.Hold, a.memo(h, c)))
	}
	t.busy = true
	a.post(ctx, "paid/open/"+t.id, rows, func(err error) {
		if err != nil { // tried again at the next tick; the round plays on meanwhile
			t.busy = false
			p.log.Error("paid table: the stakes could not be recorded", "table", t.id, "round", round, "err", err)
			return
		}
		for h, c := range checks {
			h.check = c
		}
		t.round, t.paidBy, t.house, t.status = round, paidBy, house, storage.PaidOpen
		a.byRound[round] = t
		a.save(ctx, t, func(err error) {
			t.busy = false
			if err != nil {
				return // written and resumed at the next tick
			}
			first := !t.staked
			t.staked = true
			a.step("staked", t)
			if first && p.o.OnOpen != nil {
				go p.o.OnOpen(t.id, round, nil)
			}
			a.resume(ctx, t)
			a.sweep(ctx)
		})
	})
}

// close ends a table that opens nothing (no paid seat, or it failed: err): its holds are
// dropped (or failed, when paid) and written, then noted in the ledger, where what a failed
// table received is refunded to its payers.
func (a *paidActor) close(ctx actor.Context, t *paidTable, err error) {
	for _, h := range t.holds {
		prev := h.check
		h.shown = &prev
		switch {
		case err != nil && h.check.Paid && h.check.Status != storage.PaidDropped:
			h.check.Status = storage.PaidFailed
		default:
			h.check.Status = storage.PaidDropped
		}
	}
	t.status = storage.PaidClosed
	if err != nil {
		t.failed = err.Error()
	}
	if a.filling == t {
		a.filling = nil
	}
	// Said (GET {check}, OnOpen) and noted in the ledger once written (kickSave, resume).
	t.busy = true
	a.save(ctx, t, func(error) { t.busy = false })
}

// noteClosed writes a closed table's statuses to the ledger and refunds what its holds hold
// (a failed table's received entries) to their payers; the escrow's refunds follow (sweep).
func (a *paidActor) noteClosed(ctx actor.Context, t *paidTable) {
	l := a.p.o.Ledger
	type hv struct {
		id, paidBy string
		memo       json.RawMessage
	}
	var hs []hv
	for _, h := range t.holds {
		hs = append(hs, hv{h.Hold, h.check.PaidBy, a.memo(h, h.check)})
	}
	key := "paid/close/" + t.id
	t.busy = true
	a.run(ctx, func() func() {
		var rows []ledger.Row
		var err error
		for _, h := range hs {
			rows = append(rows, ledger.NoteHold(h.id, h.memo))
			qctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			hl, ok, herr := l.Hold(qctx, h.id)
			cancel()
			if herr != nil {
				err = herr
				break
			}
			if ok && hl.Balance > 0 && h.paidBy != "" {
				rows = append(rows, ledger.Refund(h.id, h.paidBy, hl.Balance, "refund/"+h.id))
			}
		}
		if err == nil {
			err = postRows(l, key, rows)
		}
		return func() {
			t.busy = false
			if err != nil {
				a.p.log.Error("paid table: the holds' statuses could not be recorded", "table", t.id, "err", err)
				return
			}
			t.noted = true
			a.sweep(ctx)
		}
	})
}

// houseHold is the ledger hold of a house seat's entry.
func houseHold(table string, seat int) string { return fmt.Sprintf("house/%s/%d", table, seat) }

// escrowOn reports whether the escrow is called (a chain and the house's account to pay from).
func (a *paidActor) escrowOn() bool { return a.p.o.Chain != nil && a.p.o.House != "" }

// anchor takes a paid table's opened and turn anchors (§5.5): open_round and the mid-round
// anchor on the escrow, once the table's stakes are in the ledger.
func (a *paidActor) anchor(job actors.AnchorJob) {
	t := a.byID[job.Table]
	if t == nil {
		return
	}
	h := job.Request.Hash
	if job.Request.Kind == "opened" {
		t.openAnchor = &h
	} else {
		t.turnAnchor = &h
	}
	a.escrowSync(t)
}

// escrowSync sends what the escrow is due of an open table and has not been sent in this run:
// open_round (the round's pool: each paid seat's entry staked from its counted deposit, the
// house seats' entries sent with the call), then the mid-round anchor. A call sent again (after
// a restart) is the same transaction (the chain actor's index).
func (a *paidActor) escrowSync(t *paidTable) {
	if !t.staked || (t.status != storage.PaidOpen && t.status != storage.PaidSettled) || !a.escrowOn() {
		return
	}
	o := a.p.o
	if t.openAnchor != nil && !t.sentOpen {
		job, err := a.openRoundJob(t)
		if err != nil {
			a.p.log.Error("paid round not opened on the escrow", "table", t.id, "err", err)
			return
		}
		o.Chain.Call(job)
		t.sentOpen = true
		a.step("open_round", t)
	}
	if t.sentOpen && t.turnAnchor != nil && !t.sentTurn && a.turns > 0 {
		job, err := a.anchorJob(t)
		if err != nil {
			return
		}
		o.Chain.Call(job)
		t.sentTurn = true
		a.step("anchor", t)
	}
}

// openRoundJob is t's open_round call (§5.5): the round, its open-round anchor, each paid seat's
// entry staked from its counted deposit, the house seats' entries as the call's amount. It is
// the same call every time it is made (the chain actor's index; the reconciliation's retry).
func (a *paidActor) openRoundJob(t *paidTable) (anchors.CallJob, error) {
	o := a.p.o
	n, err := escrow.Round(t.round)
	if err != nil {
		return anchors.CallJob{}, err
	}
	if t.openAnchor == nil {
		return anchors.CallJob{}, errors.New("the open-round anchor is not known yet")
	}
	var stakes []escrow.Stake
	for _, h := range paidHolds(t) {
		payer, err := escrow.Account(h.check.PaidBy)
		if err != nil {
			return anchors.CallJob{}, err
		}
		stakes = append(stakes, escrow.Stake{SeatToken: h.SeatToken, Payer: payer, Amount: uint64(o.Entry)})
	}
	house := uint64(o.Entry) * uint64(len(t.house))
	return anchors.CallJob{Table: t.id, Round: t.round, Name: "open_round",
		Call: o.Contract.Call("open_round", escrow.EncodeOpenRound(n, *t.openAnchor, stakes), house)}, nil
}

// anchorJob is t's mid-round anchor call (§5.5), after the turn escrow.MidRoundTurn settles.
func (a *paidActor) anchorJob(t *paidTable) (anchors.CallJob, error) {
	n, err := escrow.Round(t.round)
	if err != nil {
		return anchors.CallJob{}, err
	}
	if t.turnAnchor == nil || a.turns == 0 {
		return anchors.CallJob{}, errors.New("the mid-round anchor is not known yet")
	}
	return anchors.CallJob{Table: t.id, Round: t.round, Name: "anchor",
		Call: a.p.o.Contract.Call("anchor", escrow.EncodeAnchor(n, escrow.MidRoundTurn(a.turns), *t.turnAnchor), 0)}, nil
}

// settle settles a finished round's pot in the ledger, once (PaidSettlement.ledgerSettle): each
// paid seat's payout to its paid_by, the in-house seats' collateral gains to the season pool
// (§11.3), the rest of the house seats' payouts and the house's take to the house; the ledger refuses a
// settlement that does not balance the pot (every seat's entry). Then the escrow hears what it
// has not (open_round and the mid-round anchor, read back from the transcript after a restart)
// and settle, with the transcript hash and the reveal; the table is settled once the chain actor
// has the settle queued.
func (a *paidActor) settle(ctx actor.Context, t *paidTable) {
	if (!t.finished && t.void.hash == "") || t.busy || t.status != storage.PaidOpen || !t.staked {
		return
	}
	t.busy = true
	p, id, round, paidBy, void := a.p, t.id, t.round, maps.Clone(t.paidBy), t.void
	a.run(ctx, func() func() {
		st, ok := p.settlement(id, round, paidBy, void)
		if !ok {
			return func() { t.busy = false }
		}
		open, turn := roundAnchors(p.a.Store(), round)
		if open == nil {
			var rv blitz.Reveal
			if json.Unmarshal(st.Result.Reveal, &rv) == nil {
				if _, h, err := blitz.OpenAnchor(rv); err == nil {
					open = &h
				}
			}
		}
		pays, house := st.ledgerSettle()
		return func() {
			if t.openAnchor == nil {
				t.openAnchor = open
			}
			if t.turnAnchor == nil {
				t.turnAnchor = turn
			}
			log := p.log.With("table", id, "round", round)
			rows := []ledger.Row{ledger.Settle(round, pays, house)}
			if void.hash != "" {
				pm, _ := json.Marshal(potMemo{Table: id, Format: p.o.Format, Entry: p.o.Entry, PaidBy: paidBy, House: t.house, Voided: void.why})
				rows = append(rows, ledger.NotePot(round, pm))
			}
			a.post(ctx, "paid/settle/"+round, rows, func(err error) {
				if err != nil {
					t.busy = false
					log.Error("paid round not settled", "err", err)
					return
				}
				a.step("settled", t)
				a.escrowSync(t)
				if !a.escrowOn() {
					a.settled(ctx, t)
					return
				}
				if !a.escrowSettle(ctx, st, house, log) {
					t.busy = false
				}
			})
		}
	})
}

// roundAnchors reads the round's open-round and mid-round anchor hashes from its transcript
// (anchor.opened, anchor.turn), nil where it has none.
func roundAnchors(st *storage.Store, round string) (open, turn *[32]byte) {
	evs, err := st.Events(round)
	if err != nil {
		return nil, nil
	}
	for _, e := range evs {
		if e.Type != "anchor.opened" && e.Type != "anchor.turn" {
			continue
		}
		var b struct {
			Hash string `json:"hash"`
		}
		raw, _ := json.Marshal(e.Payload)
		if json.Unmarshal(raw, &b) != nil {
			continue
		}
		h, err := hex.DecodeString(b.Hash)
		if err != nil || len(h) != 32 {
			continue
		}
		hh := [32]byte(h)
		if e.Type == "anchor.opened" {
			open = &hh
		} else {
			turn = &hh
		}
	}
	return open, turn
}

// escrowSettle sends a settled round's settle call to the escrow, answered to the actor
// (submitted) once the chain actor has it queued: the paid seats' payouts, house to the house's
// account and the season pool's part to PaidOptions.SeasonPool (House when unset), each as the
// ledger settled it. false: the call could not be made.
func (a *paidActor) escrowSettle(ctx actor.Context, st PaidSettlement, house int64, log interface{ Error(string, ...any) }) bool {
	job, err := a.p.settleJob(st, house)
	if err != nil {
		log.Error("paid round not settled on the escrow", "err", err)
		return false
	}
	job.ReplyTo = ctx.Self()
	a.p.o.Chain.Call(job)
	return true
}

// settleJob is a settled round's settle call (§11.5): each paid seat's payout to its paid_by,
// the house's part (house: the house seats' payouts and the house's take, as
// PaidSettlement.ledgerSettle has it) to the arena's account, the season pool's part (§11.3) to
// PaidOptions.SeasonPool (House when unset), the transcript hash and the reveal. The same call
// every time (off the actor too).
func (p *PaidTables) settleJob(st PaidSettlement, house int64) (anchors.CallJob, error) {
	o := p.o
	var pays []escrow.Payout
	for _, py := range st.Paid {
		to, err := escrow.Account(py.Account)
		if err != nil {
			return anchors.CallJob{}, fmt.Errorf("paid_by of seat %d: %w", py.Seat, err)
		}
		pays = append(pays, escrow.Payout{To: to, Amount: uint64(py.Amount)})
	}
	to, err := escrow.Account(o.House)
	if err != nil {
		return anchors.CallJob{}, err
	}
	pays = append(pays, escrow.Payout{To: to, Amount: uint64(house)})
	if st.Pool > 0 {
		pool := o.SeasonPool
		if pool == "" {
			pool = o.House
		}
		to, err := escrow.Account(pool)
		if err != nil {
			return anchors.CallJob{}, fmt.Errorf("season pool: %w", err)
		}
		pays = append(pays, escrow.Payout{To: to, Amount: uint64(st.Pool)})
	}
	param, err := escrow.SettleParam(st.Round, pays, st.Result.TranscriptHash, []byte(st.Result.Reveal))
	if err != nil {
		return anchors.CallJob{}, err
	}
	return anchors.CallJob{Table: st.Table, Round: st.Round, Name: "settle", Call: o.Contract.Call("settle", param, 0)}, nil
}

// submitted takes the chain actor's answer to a settle: queued, the table is settled.
func (a *paidActor) submitted(ctx actor.Context, m *anchors.CallSubmitted) {
	t := a.byRound[m.Round]
	if m.Name != "settle" || t == nil || t.status != storage.PaidOpen {
		return
	}
	if m.Err != "" {
		t.busy = false
		a.p.log.Error("paid round's settle not queued for the escrow (tried again at the next tick)", "table", t.id, "round", t.round, "err", m.Err)
		return
	}
	a.step("paid", t)
	a.settled(ctx, t)
}

// settled writes t settled.
func (a *paidActor) settled(ctx actor.Context, t *paidTable) {
	t.status = storage.PaidSettled
	a.save(ctx, t, func(err error) {
		t.busy = false
		if err == nil {
			a.sweep(ctx)
		}
	})
}

// load rebuilds the paid tables from the store's records (before the actor starts): a hold the
// ledger does not have was never answered and is dropped; an open table's anchors are read
// back from its transcript, and whether its round is over from its record.
func (a *paidActor) load(recs []storage.PaidTable, st *ledger.State) {
	p := a.p
	now := p.a.Clock().Now()
	for _, r := range recs {
		t := &paidTable{id: r.ID, startsAt: r.StartsAt, status: r.Status, written: r.Status, told: r.Status == storage.PaidClosed, round: r.Round, house: r.House, failed: r.Failed,
			reconciled: r.Reconciled, onEscrow: r.Reconciled, void: paidVoid{why: r.Voided, hash: r.VoidHash}}
		for _, sh := range r.Holds {
			if _, ok := st.Holds[sh.ID]; !ok {
				continue
			}
			h := &paidHold{committed: true, join: AgentJoin{Agent: sh.Agent, Name: sh.Name, Endpoint: sh.Endpoint, Kind: sh.Kind, Owner: sh.Owner, Human: sh.Human}}
			if len(sh.Playbook) > 0 { // an off-the-shelf hold: its playbook as held (strict, as written)
				if pb, err := blitz.ParsePlaybook(sh.Playbook); err == nil {
					h.join.Playbook, h.join.OTSGrant = &pb, sh.OTSGrant
				}
			}
			h.Hold, h.SeatToken, h.StartsAt, h.PayFrom, h.Entry, h.Table, h.Escrow = sh.ID, sh.SeatToken, r.StartsAt, sh.PayFrom, r.Entry, r.ID, p.o.Escrow
			h.tokenHash = sha256.Sum256([]byte(sh.SeatToken))
			h.accounts = accountsOf(sh.PayFrom)
			h.check = PaidCheck{Paid: sh.Paid, PaidBy: sh.PaidBy, Amount: sh.Amount, Pending: sh.Pending, Foreign: sh.Foreign,
				StartsAt: r.StartsAt, Status: sh.Status, Table: r.ID, Seat: sh.Seat, Dropped: sh.Dropped}
			if sh.Status == storage.PaidSeated {
				h.check.Round = r.Round
			}
			t.holds = append(t.holds, h)
			a.holds[h.Hold] = h
		}
		if r.Status == storage.PaidOpen || r.Status == storage.PaidSettled {
			t.paidBy = map[int]string{}
			for _, h := range t.holds {
				if h.check.Status == storage.PaidSeated {
					t.paidBy[h.check.Seat] = h.check.PaidBy
				}
			}
			a.byRound[r.Round] = t
			t.staked = r.Status == storage.PaidSettled
			if s, err := p.a.Stored(r.ID); err == nil && s.Status == actors.StatusFinished {
				t.finished = true
			}
			t.openAnchor, t.turnAnchor = roundAnchors(p.a.Store(), r.Round)
		}
		if r.Status == storage.PaidFilling && now.Before(r.StartsAt) && (a.filling == nil || r.StartsAt.After(a.filling.startsAt)) {
			a.filling = t
		}
		a.byID[r.ID] = t
	}
}

// accountsOf maps each CAIP-10 account's address to the account.
func accountsOf(payFrom []string) map[string]string {
	out := map[string]string{}
	for _, acc := range payFrom {
		if i := lastColon(acc); i >= 0 && i+1 < len(acc) {
			out[acc[i+1:]] = acc
		}
	}
	return out
}
