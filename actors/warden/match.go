package warden

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"arena/games"
	"arena/games/canon"
	"arena/games/warden/feed"
	"arena/storage"
)

// player is one match's actor. All its state is the play record and what replaying it gives;
// it is rebuilt from the store on every start (a crash, a supervisor restart, a boot).
type player struct {
	w  *Warden
	id string

	rec    record
	status string // the match record's status
	eng    games.Engine
	man    games.Manifest
	m      games.Match
	events []games.Event // the engine's transcript
	opened time.Time     // match-clock instant the current deadline was set
	mapper *feed.Mapper  // the Gallery's reading of the transcript, through rec.FedEvents

	gen     uint64
	stop    func() bool
	changed chan struct{}
	broken  error // the record does not load: every request is refused with it
}

func (p *player) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *actor.Started:
		p.start(ctx)
	case *actor.Restarting, *actor.Stopping:
		p.disarm()
	case *begin:
		ctx.Respond(&reply{Err: p.broken})
	case *ActRequest:
		v, err := p.act(ctx, m)
		ctx.Respond(&reply{V: v, Err: err})
	case *viewRequest:
		if p.broken != nil {
			ctx.Respond(&reply{Err: p.broken})
			return
		}
		ctx.Respond(&reply{V: p.view(m.Viewer, m.After)})
	case *transcriptRequest:
		if p.broken != nil {
			ctx.Respond(&reply{Err: p.broken})
			return
		}
		ctx.Respond(&reply{V: slices.Clone(p.events)})
	case *deadlineFired:
		p.fired(ctx, m)
	}
}

func (p *player) start(ctx actor.Context) {
	p.changed = make(chan struct{})
	if err := p.load(); err != nil {
		p.broken = err
		p.w.o.Log.Error("warden: match does not load", "match", p.id, "err", err)
		return
	}
	if p.status == StatusLive {
		p.grace()
	}
	p.after(ctx)
}

// load reads the play record (creating it for a LIVE match that has none) and replays its log.
func (p *player) load() error {
	o := p.w.o
	var m matchRec
	var found bool
	err := o.Store.WardenView(func(tx storage.WardenTx) error {
		var err error
		if _, err = tx.Get("match/"+p.id, &m); err != nil {
			return err
		}
		found, err = tx.Get(playKey(p.id), &p.rec)
		return err
	})
	if err != nil {
		return err
	}
	p.status = m.Status
	if !found {
		if err := p.create(m); err != nil {
			return err
		}
	}
	eng, ok := o.Bracket.Engine(p.rec.Game)
	if !ok {
		return fmt.Errorf("warden: match %s: game %q is not in the Bracket", p.id, p.rec.Game)
	}
	p.eng, p.man = eng, eng.Manifest()
	mt, err := eng.New(p.rec.Setup, nil)
	if err != nil {
		return fmt.Errorf("warden: match %s: %w", p.id, err)
	}
	p.m, p.events, p.opened = mt, nil, p.rec.Setup.Start
	for i, l := range p.rec.Log {
		before, _ := mt.Deadline()
		st, err := games.Apply(mt, l)
		if err != nil {
			return fmt.Errorf("warden: match %s: replay entry %d: %w", p.id, i, err)
		}
		p.events = append(p.events, st.Events...)
		if d, ok := mt.Deadline(); !ok || !d.Equal(before) {
			p.opened = l.At
		}
	}
	p.mapper = feed.NewMapper(p.id, p.rec.Game)
	for _, e := range p.events[:min(p.rec.FedEvents, len(p.events))] {
		p.mapper.Map(e) // the Mapper's memory of what is fed already
	}
	return nil
}

// create writes the play record of a LIVE match that has none: a fresh seed, the match clock
// starting now, the Contenders as registered now and their cleared stakes.
func (p *player) create(m matchRec) error {
	o := p.w.o
	if m.Status != StatusLive {
		return games.Errorf("wrong_state", "the match is %s", m.Status)
	}
	var seed [32]byte
	if o.Seed != nil {
		seed = o.Seed()
	} else if _, err := rand.Read(seed[:]); err != nil {
		return err
	}
	return o.Store.WardenUpdate(func(tx storage.WardenTx) error {
		if found, err := tx.Get(playKey(p.id), &p.rec); err != nil || found {
			return err
		}
		rec := record{V: 1, Match: p.id, Game: m.Game}
		var seats []games.Seat
		for i, w := range []string{m.A, m.B} {
			var c struct {
				Temperament string `json:"temperament"`
				Name        string `json:"name"`
			}
			if _, err := tx.Get("contender/"+w, &c); err != nil {
				return err
			}
			seat := string(rune('A' + i))
			pay, _, err := tx.Payment(m.Stakes[seat])
			if err != nil {
				return err
			}
			rail := o.Rail
			if rail == "" {
				rail = pay.Network
			}
			rec.Seats[i] = seatInfo{Contender: w, Name: c.Name, Temperament: c.Temperament, StakeRail: rail, StakeRef: pay.Tx}
			seats = append(seats, games.Seat{Seat: i + 1, Agent: w, Name: c.Name, Entry: int64(m.Stake)})
		}
		rec.Setup = games.Setup{Game: m.Game, Round: p.id, Seed: seed, Start: o.Clock.Now().UTC(), Seats: seats, Pace: o.Pace[m.Game]}
		p.rec = rec
		return tx.Put(playKey(p.id), &rec)
	})
}

// now is the match clock now.
func (p *player) now() (wall, match time.Time) {
	wall = p.w.o.Clock.Now()
	return wall, wall.Add(-p.rec.Offset)
}

// grace applies what came due while the actor was not running (§5.3): deadlines of steps
// waiting on nobody are applied; the first step still waiting on a seat whose deadline has
// passed re-opens with its full length (the offset grows) and step_extended joins the log.
func (p *player) grace() {
	wall, vnow := p.now()
	changed := false
	for {
		d, ok := p.m.Deadline()
		if !ok || vnow.Before(d) {
			break
		}
		if len(p.m.Prompts()) > 0 {
			p.rec.Offset = wall.Sub(p.opened)
			round, step := p.where()
			p.rec.Extended = append(p.rec.Extended, extension{After: p.lastSeq(), At: wall.UTC(), Round: round, Step: step,
				Deadline: d.Add(p.rec.Offset).UTC(), Reason: ReasonServerRestart})
			changed = true
			break
		}
		if !p.advance(d) {
			break
		}
		changed = true
	}
	if changed {
		if err := p.save(nil); err != nil {
			panic(fmt.Errorf("warden: match %s: save after restart: %w", p.id, err)) // the supervisor retries from the store
		}
	}
}

// advance applies the deadline d (match clock) and logs it; false when it changed nothing.
func (p *player) advance(d time.Time) bool {
	st := p.m.Advance(d)
	nd, ok := p.m.Deadline()
	if len(st.Events) == 0 && ok && nd.Equal(d) {
		return false
	}
	p.rec.Log = append(p.rec.Log, games.Logged{Op: games.OpAdvance, At: d})
	p.events = append(p.events, st.Events...)
	p.opened = d
	return true
}

// due applies every deadline at or before the match clock's now; it reports whether any was.
func (p *player) due() bool {
	_, vnow := p.now()
	moved := false
	for {
		d, ok := p.m.Deadline()
		if !ok || vnow.Before(d) || !p.advance(d) {
			return moved
		}
		moved = true
	}
}

func (p *player) lastSeq() int64 {
	if len(p.events) == 0 {
		return 0
	}
	return p.events[len(p.events)-1].Seq
}

// where is the round and step open now: the open prompts' move, else the last event's.
func (p *player) where() (int, string) {
	if ps := p.m.Prompts(); len(ps) > 0 {
		return ps[0].Move.Turn, ps[0].Move.Phase
	}
	if len(p.events) > 0 {
		e := p.events[len(p.events)-1]
		return e.Turn, e.Phase
	}
	return 0, ""
}

// deadline is the open step's deadline (wall), zero when none.
func (p *player) deadline() time.Time {
	if p.status != StatusLive {
		return time.Time{}
	}
	d, ok := p.m.Deadline()
	if !ok {
		return time.Time{}
	}
	return d.Add(p.rec.Offset).UTC()
}

// save writes the play record, extra (the caller's Idempotency-Key answer) and, when the
// engine has just reported its Result, the settlement figures with the match LIVE → FINISHED
// (or FAILED when they break conservation), in one transaction. On error the actor's state is
// rebuilt from the store: nothing of the failed write stays in memory.
func (p *player) save(extra func(tx storage.WardenTx) error) error {
	to := ""
	if p.rec.Settlement == nil && p.rec.Failed == "" && p.status == StatusLive {
		if res, ok := p.m.Result(); ok {
			s, err := p.settlement(res)
			switch {
			case err != nil && !errors.Is(err, ErrConservation):
				if lerr := p.load(); lerr != nil {
					p.broken = lerr
				}
				return err
			case err != nil:
				p.rec.Failed, to = err.Error(), StatusFailed
				p.w.o.Log.Error("warden: match parked failed", "match", p.id, "err", err)
			default:
				p.rec.Settlement, to = s, StatusFinished
			}
		}
	}
	fed, fedEvents := p.rec.Fed, p.rec.FedEvents
	err := p.w.o.Store.WardenUpdate(func(tx storage.WardenTx) error {
		p.rec.Fed, p.rec.FedEvents = fed, fedEvents // the committer may run this more than once
		if err := p.feed(tx, to); err != nil {
			return err
		}
		if err := tx.Put(playKey(p.id), &p.rec); err != nil {
			return err
		}
		if to != "" {
			if err := setStatus(tx, p.id, to, StatusLive); err != nil {
				return err
			}
		}
		if extra != nil {
			return extra(tx)
		}
		return nil
	})
	if err != nil {
		if lerr := p.load(); lerr != nil {
			p.broken = lerr
		}
		return err
	}
	if to != "" {
		p.status = to
	}
	p.notify()
	return nil
}

func (p *player) notify() {
	close(p.changed)
	p.changed = make(chan struct{})
}

// feed appends, in tx, the Gallery events of what this write makes durable, in transcript
// order: each new engine event through the feed's Mapper (a game it does not know maps to
// nothing), each new step_extended after the engine event it followed, and, when the match has
// just finished, match_finished with the settlement figures and the log hash of the match's feed
// so far (§15.5), which the settlement and its rows then carry. The play record counts what is
// fed (Fed, FedEvents), so a retried write feeds nothing twice. A constructor's refusal is the
// store's error (the write fails, nothing is half fed), except an engine event the Mapper cannot
// read, which is left out of the feed and logged.
func (p *player) feed(tx storage.WardenTx, to string) error {
	if !p.w.o.Feed {
		return nil
	}
	head := func(at time.Time) feed.Head { return feed.Head{At: at, MatchID: p.id, Game: p.rec.Game} }
	var fedSeq int64
	if p.rec.FedEvents > 0 {
		fedSeq = p.events[p.rec.FedEvents-1].Seq
	}
	for {
		for ; p.rec.Fed < len(p.rec.Extended) && p.rec.Extended[p.rec.Fed].After <= fedSeq; p.rec.Fed++ {
			x := p.rec.Extended[p.rec.Fed]
			step := x.Step
			if n, ok := p.w.o.FeedStep[step]; ok {
				step = n
			}
			ev := feed.StepExtended{Round: x.Round, Step: step, Deadline: x.Deadline, Reason: x.Reason}.Event(head(x.At))
			if _, err := tx.AppendFeed(ev); err != nil {
				return err
			}
		}
		if p.rec.FedEvents >= len(p.events) {
			break
		}
		e := p.events[p.rec.FedEvents]
		for _, ev := range p.mapper.Map(e) {
			if err := ev.Err(); err != nil {
				// The feed is a reading of the play, never its master: an event the Mapper
				// cannot read (another game's payload under a known type) is left out.
				p.w.o.Log.Warn("warden: engine event not fed", "match", p.id, "seq", e.Seq, "type", e.Type, "err", err)
				continue
			}
			if _, err := tx.AppendFeed(ev); err != nil {
				return err
			}
		}
		p.rec.FedEvents++
		fedSeq = e.Seq
	}
	if to == StatusFinished {
		s := p.rec.Settlement
		envs, err := tx.MatchFeed(p.id)
		if err != nil {
			return err
		}
		if s.LogHash, err = feed.LogHash(envs); err != nil {
			return err
		}
		for i := range s.Rows {
			s.Rows[i].LogHash = s.LogHash
		}
		seat := func(f SeatFigures) feed.SeatResult {
			return feed.SeatResult{GrossReturn: f.Gross, Rake: f.Rake, PaidOut: f.PaidOut, Net: f.Net, Result: f.Result}
		}
		ev := feed.MatchFinished{Seats: feed.Pair[feed.SeatResult]{A: seat(s.Seats[0]), B: seat(s.Seats[1])},
			House: s.House, Seed: s.Seed, LogHash: s.LogHash}.Event(head(s.FinishedAt))
		if _, err := tx.AppendFeed(ev); err != nil {
			return err
		}
	}
	return nil
}

// settlement fixes §2.2's figures and the Ledger rows of a played-out Result, each row with
// the metered reads its seat paid for the match so far (reads_spent, §12.1, [JC-40]).
func (p *player) settlement(res games.Result) (*Settlement, error) {
	stake := p.rec.Setup.Seats[0].Entry
	rake := p.w.o.Rake[p.rec.Game]
	figs, house, err := Figures(res, stake, rake)
	if err != nil {
		return nil, err
	}
	s := &Settlement{Seats: figs, House: house, RakeBps: rake, Seed: res.Seed, SeedHash: res.SeedHash,
		FinishedAt: p.w.o.Clock.Now().UTC()}
	s.LogHash = LogHash(publicLog(&p.rec, p.events))
	s.Messages, s.PublishMessages = publishedMessages(p.events)
	s.Rows = rows(&p.rec, p.man, s, p.w.o.Network)
	spent, err := p.w.o.Store.WardenReadsSpent(p.id) // §12.1 reads_spent, never part of net
	if err != nil {
		return nil, err
	}
	for i := range s.Rows {
		s.Rows[i].ReadsSpent = spent[s.Rows[i].Seat]
	}
	return s, nil
}

// after runs once a change is durable: a FINISHED match's payouts are queued (FINISHED →
// SETTLING in the queue's transaction), and a LIVE match's next deadline is armed.
func (p *player) after(ctx actor.Context) {
	if p.status == StatusFinished && p.w.o.Queue != nil {
		s := p.rec.Settlement
		err := p.w.o.Store.WardenUpdate(func(tx storage.WardenTx) error {
			if err := setStatus(tx, p.id, StatusSettling, StatusFinished); err != nil {
				return err
			}
			return p.w.o.Queue(tx, p.id, s.Rows)
		})
		if err != nil {
			panic(fmt.Errorf("warden: match %s: queue settlement: %w", p.id, err)) // retried from the store
		}
		p.status = StatusSettling
		p.notify()
	}
	p.arm(ctx)
}

func (p *player) disarm() {
	if p.stop != nil {
		p.stop()
		p.stop = nil
	}
}

// arm schedules the next deadline as a one-shot message carrying (round, step, gen).
func (p *player) arm(ctx actor.Context) {
	p.disarm()
	wall := p.deadline()
	if wall.IsZero() {
		return
	}
	p.gen++
	round, step := p.where()
	msg := &deadlineFired{Round: round, Step: step, Gen: p.gen}
	self, root := ctx.Self(), ctx.ActorSystem().Root
	p.stop = p.w.o.Clock.AfterFunc(wall.Sub(p.w.o.Clock.Now()), func() { root.Send(self, msg) })
}

// fired applies a deadline; a timer of an earlier generation is dropped.
func (p *player) fired(ctx actor.Context, m *deadlineFired) {
	if m.Gen != p.gen || p.broken != nil || p.status != StatusLive {
		return
	}
	if p.due() {
		if err := p.save(nil); err != nil {
			panic(fmt.Errorf("warden: match %s: save deadline: %w", p.id, err))
		}
	}
	p.after(ctx)
}

// Error codes of §7.3 the actor answers with.
const (
	codeWrongState   = "wrong_state"
	codeWrongStep    = "wrong_step"
	codeStaleRound   = "stale_round"
	codeAlreadyActed = "already_acted"
	codeIllegal      = "illegal_action"
	codeBadArgs      = "bad_args"
	codeNotSeated    = "not_seated"
)

// act applies one action: deadlines due first, then the checks in order (wrong_state when the
// match is not LIVE, not_seated, stale_round, already_acted, wrong_step, illegal_action /
// bad_args for the body), then the engine; the action is answered once it is durable.
func (p *player) act(ctx actor.Context, r *ActRequest) (ActReply, error) {
	if p.broken != nil {
		return ActReply{}, p.broken
	}
	if p.status != StatusLive {
		return ActReply{}, games.Errorf(codeWrongState, "the match is %s", p.status)
	}
	if r.Seat != 1 && r.Seat != 2 {
		return ActReply{}, games.Errorf(codeNotSeated, "seat %d", r.Seat)
	}
	advanced := p.due()
	refuse := func(err error) (ActReply, error) {
		if advanced {
			if serr := p.save(nil); serr != nil {
				return ActReply{}, serr
			}
			p.after(ctx)
		}
		return ActReply{}, err
	}
	if _, ok := p.m.Result(); ok {
		return refuse(games.Errorf(codeWrongState, "play has ended"))
	}
	round, step := p.where()
	if r.Round != round {
		return refuse(games.Errorf(codeStaleRound, "round %d is open, not %d", round, r.Round))
	}
	var pr *games.Prompt
	ps := p.m.Prompts()
	for i := range ps {
		if ps[i].Seat == r.Seat {
			pr = &ps[i]
		}
	}
	if pr == nil {
		if len(ps) > 0 {
			return refuse(games.Errorf(codeAlreadyActed, "seat %s has acted in the %s step", seatName(r.Seat), step))
		}
		return refuse(games.Errorf(codeWrongStep, "no step takes an action now (%s)", step))
	}
	body, err := compose(pr, r.Action, r.Args)
	if err != nil {
		return refuse(err)
	}
	_, vnow := p.now()
	in := games.Input{Seat: r.Seat, Kind: "answer", Move: pr.Move, Body: body}
	before, _ := p.m.Deadline()
	st, err := p.m.Act(vnow, in)
	if err != nil {
		return refuse(engineRefusal(err))
	}
	p.rec.Log = append(p.rec.Log, games.Logged{Op: games.OpAct, At: vnow, Input: in})
	p.events = append(p.events, st.Events...)
	if d, ok := p.m.Deadline(); !ok || !d.Equal(before) {
		p.opened = vnow
	}
	out := ActReply{Accepted: true, Seq: p.lastSeq(), StepClosesAt: p.deadline()}
	var keep func(tx storage.WardenTx) error
	if r.Keep != nil {
		keep = func(tx storage.WardenTx) error { return r.Keep(tx, out) }
	}
	if err := p.save(keep); err != nil {
		p.after(ctx)
		return ActReply{}, err
	}
	out.StepClosesAt = p.deadline()
	p.after(ctx)
	return out, nil
}

func seatName(seat int) string { return string(rune('A' + seat - 1)) }

// compose is the engine's answer body of action with args (§7.2): for an action the prompt
// lists, args with "action" set to it; for the step's own name (Game II's "commit"), args as
// they are (they carry the whole answer). Errors: bad_args for args that are not a JSON object
// or name "action"; illegal_action for an action the step does not take.
func compose(pr *games.Prompt, action string, args json.RawMessage) (json.RawMessage, error) {
	members := map[string]json.RawMessage{}
	if a := strings.TrimSpace(string(args)); a != "" && a != "null" {
		if err := canon.Decode(args, &members); err != nil {
			return nil, games.Errorf(codeBadArgs, "args must be a JSON object: %v", err)
		}
	}
	if _, ok := members["action"]; ok {
		return nil, games.Errorf(codeBadArgs, "args may not name \"action\"")
	}
	names := games.Names(pr.Legal)
	switch {
	case slices.Contains(names, action):
		name, _ := json.Marshal(action)
		members["action"] = name
	case action == pr.Move.Phase && action != "":
	default:
		return nil, games.Errorf(codeIllegal, "action %q is not legal in the %s step (legal: %s)", action, pr.Move.Phase, strings.Join(names, ", "))
	}
	b, err := canon.Marshal(members)
	if err != nil {
		return nil, games.Errorf(codeBadArgs, "args: %v", err)
	}
	return b, nil
}

// engineRefusal maps an engine's refusal to §7.3: its malformed-body bad_request is bad_args,
// stale is wrong_step, round_over wrong_state; the games' own rule codes pass unchanged.
func engineRefusal(err error) error {
	var ge *games.Error
	if !errors.As(err, &ge) {
		return err
	}
	code := ge.Code
	switch code {
	case games.CodeBadRequest:
		code = codeBadArgs
	case games.CodeStale:
		code = codeWrongStep
	case games.CodeRoundOver:
		code = codeWrongState
	}
	return &games.Error{Code: code, Msg: ge.Msg}
}

// view is what viewer may see now.
func (p *player) view(viewer int, after int64) View {
	round, step := p.where()
	v := View{Match: p.id, Game: p.rec.Game, RulesVersion: rulesVersion(p.man), Status: p.status,
		Stake: p.rec.Setup.Seats[0].Entry, SeedHash: p.m.SeedHash(), Round: round, Step: step,
		Deadline: p.deadline(), State: p.m.View(viewer), LastSeq: p.lastSeq(), Changed: p.changed,
		Settlement: p.rec.Settlement}
	for i, s := range p.rec.Seats {
		v.Seats[i] = Seat{ContenderID: s.Contender, Name: s.Name, Temperament: s.Temperament}
	}
	if viewer == 1 || viewer == 2 {
		v.Seat = seatName(viewer)
		if p.status == StatusLive {
			for _, pr := range p.m.Prompts() {
				if pr.Seat == viewer {
					for _, a := range pr.Legal {
						v.Legal = append(v.Legal, Move{Round: pr.Move.Turn, Step: pr.Move.Phase, Action: a})
					}
				}
			}
		}
		for _, e := range games.Redact(p.events, viewer, false) {
			if e.Seq > after {
				v.Events = append(v.Events, e)
			}
		}
		return v
	}
	v.Log = publicLog(&p.rec, p.events)
	return v
}
