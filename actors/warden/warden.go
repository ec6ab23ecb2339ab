package warden

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"arena/actors/internal/ask"
	"arena/games"
	"arena/storage"
)

// Clock is the actors' time source (actors.RealClock and actors.FakeClock satisfy it): Now
// for instants, AfterFunc for one-shot timers whose callbacks only send a message.
type Clock interface {
	Now() time.Time
	AfterFunc(d time.Duration, f func()) (stop func() bool)
}

// Queue queues a finished match's payouts (actors/warden/wardenpay.QueueSettlement) inside tx, the
// transaction that moves the match FINISHED → SETTLING (§5.1): rows are seats A then B, every
// member filled but Seq, PayoutRef, SettledAt, PrevHash and RowHash.
type Queue func(tx storage.WardenTx, match string, rows [2]storage.WardenRow) error

// Options configure Start. Store, Bracket and System are required.
type Options struct {
	Store   *storage.Store
	Bracket *games.Bracket
	System  *actor.ActorSystem
	Clock   Clock        // nil: the wall clock
	Log     *slog.Logger // nil: discard
	// Pace is each game's step lengths by game id (missing: the game's defaults, §5.2).
	Pace map[string]games.Pace
	// Rake is each game's rake in bps by game id (its manifest's rake_bps, §2.2; missing: 0).
	Rake map[string]int64
	// Network is the Ledger rows' network (CAIP-2; "dev" locally, §12.1). Empty: "dev".
	Network string
	// Rail is the stake rail id the rows name (stake_rail). Empty: the payment's network.
	Rail string
	// Queue queues the payouts (nil: a finished match stays FINISHED until one is given).
	Queue Queue
	// Feed, when set, appends the match's Gallery events (games/warden/feed) in the transaction
	// of the change they report: step_extended and match_finished. FeedStep names an engine
	// step in the feed's words (§15.3: "negotiate.message"); missing, the engine's name is used.
	Feed     bool
	FeedStep map[string]string
	// Seed draws a new match's seed (nil: crypto/rand). Tests fix it to replay worked examples.
	Seed func() [32]byte
	// AskTimeout bounds a call whose ctx has no earlier deadline (zero: 5 s).
	AskTimeout time.Duration
}

// Warden is the handle on the match actors; its methods are safe for concurrent use.
type Warden struct {
	o      Options
	parent *actor.PID
}

// ActorName is the parent actor's name; a match's actor is ActorName + "/" + its id.
const ActorName = "warden"

// Start spawns the parent actor and restarts every match a previous process left LIVE or
// FINISHED (boot recovery): each replays its log, applies restart grace and carries on.
func Start(o Options) (*Warden, error) {
	if o.Store == nil || o.Bracket == nil || o.System == nil {
		return nil, errors.New("warden: start: a store, a bracket and an actor system are required")
	}
	if o.Clock == nil {
		o.Clock = wallClock{}
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Network == "" {
		o.Network = "dev"
	}
	if o.AskTimeout <= 0 {
		o.AskTimeout = 5 * time.Second
	}
	w := &Warden{o: o}
	pid, err := o.System.Root.SpawnNamed(actor.PropsFromProducer(func() actor.Actor {
		return &parent{w: w, kids: map[string]*actor.PID{}}
	}, actor.WithSupervisor(actor.NewOneForOneStrategy(3, time.Minute, actor.DefaultDecider))), ActorName)
	if err != nil {
		return nil, fmt.Errorf("warden: start: %w", err)
	}
	w.parent = pid
	var live []string
	if err := o.Store.WardenKeys("match/", func(_ string, v []byte) error {
		var m matchRec
		if json.Unmarshal(v, &m) == nil && (m.Status == StatusLive || m.Status == StatusFinished) {
			live = append(live, m.ID)
		}
		return nil
	}); err != nil {
		return nil, fmt.Errorf("warden: start: %w", err)
	}
	for _, id := range live {
		if err := w.Begin(context.Background(), id); err != nil {
			o.Log.Warn("warden: match not restarted", "match", id, "err", err)
		}
	}
	return w, nil
}

type wallClock struct{}

func (wallClock) Now() time.Time { return time.Now() }
func (wallClock) AfterFunc(d time.Duration, f func()) func() bool {
	return time.AfterFunc(d, f).Stop
}

// Stop stops every match actor (their state is all in the store).
func (w *Warden) Stop() {
	_ = w.o.System.Root.StopFuture(w.parent).Wait()
}

// Begin starts the actor of a LIVE match (its first start writes the play record: the seed,
// the Contenders as they are now, the match clock). A running match is left as it is.
func (w *Warden) Begin(ctx context.Context, id string) error {
	_, err := w.call(ctx, &begin{Match: id})
	return err
}

// Act submits one action (§7.2) for seat (1 = A, 2 = B). The answer comes once the action is
// durable. Refusals are *games.Error with the §7.3 codes; nothing changes on a refusal.
func (w *Warden) Act(ctx context.Context, r *ActRequest) (ActReply, error) {
	v, err := w.call(ctx, r)
	if err != nil {
		return ActReply{}, err
	}
	return v.(ActReply), nil
}

// View is what viewer (0 the public, 1 seat A, 2 seat B) may see of the match now, with the
// engine events visible to it after seq after (the private view, §9.1) or the public log
// (§9.2). Refusals: unknown_match when the match has no play record.
func (w *Warden) View(ctx context.Context, id string, viewer int, after int64) (View, error) {
	v, err := w.call(ctx, &viewRequest{Match: id, Viewer: viewer, After: after})
	if err != nil {
		return View{}, err
	}
	return v.(View), nil
}

// Transcript is the match's whole engine transcript (operators and tests; never a door's).
func (w *Warden) Transcript(ctx context.Context, id string) ([]games.Event, error) {
	v, err := w.call(ctx, &transcriptRequest{Match: id})
	if err != nil {
		return nil, err
	}
	return v.([]games.Event), nil
}

// call asks the parent (which forwards to the match's actor) and unwraps the reply.
func (w *Warden) call(ctx context.Context, msg any) (any, error) {
	res, err := w.o.System.Root.RequestFuture(w.parent, msg, ask.Timeout(ctx, w.o.AskTimeout)).Result()
	if err != nil {
		if errors.Is(err, actor.ErrTimeout) {
			return nil, context.DeadlineExceeded
		}
		return nil, fmt.Errorf("warden: %w", err)
	}
	r, ok := res.(*reply)
	if !ok {
		return nil, fmt.Errorf("warden: unexpected reply %T", res)
	}
	return r.V, r.Err
}

// parent owns the match actors by match id and forwards each request to its match's actor,
// spawning it when the match has a play record or is LIVE.
type parent struct {
	w    *Warden
	kids map[string]*actor.PID
}

func (p *parent) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *actor.Terminated:
		for id, pid := range p.kids {
			if pid.Equal(m.Who) {
				delete(p.kids, id)
			}
		}
	case matchMsg:
		id := m.match()
		pid := p.kids[id]
		if pid == nil {
			var err error
			if pid, err = p.spawn(ctx, id); err != nil {
				ctx.Respond(&reply{Err: err})
				return
			}
		}
		ctx.Forward(pid)
	}
}

// spawn starts match id's actor when the match is one this package plays: it has a play
// record, or it is LIVE (its first start writes one). Else unknown_match (no such match) or
// wrong_state (not yet LIVE).
func (p *parent) spawn(ctx actor.Context, id string) (*actor.PID, error) {
	var m matchRec
	var found, played bool
	if err := p.w.o.Store.WardenView(func(tx storage.WardenTx) error {
		var err error
		if found, err = tx.Get("match/"+id, &m); err != nil || !found {
			return err
		}
		var raw json.RawMessage
		played, err = tx.Get(playKey(id), &raw)
		return err
	}); err != nil {
		return nil, err
	}
	switch {
	case !found:
		return nil, games.Errorf("unknown_match", "no match %q", id)
	case !played && m.Status != StatusLive:
		return nil, games.Errorf("wrong_state", "the match is %s; play begins when both stakes clear", m.Status)
	}
	props := actor.PropsFromProducer(func() actor.Actor { return &player{w: p.w, id: id} },
		actor.WithSupervisor(actor.NewOneForOneStrategy(3, time.Minute, actor.DefaultDecider)))
	pid, err := ctx.SpawnNamed(props, id)
	if err != nil {
		return nil, fmt.Errorf("warden: spawn %s: %w", id, err)
	}
	p.kids[id] = pid
	return pid, nil
}

// matchRec is the part of the doors' match record (warden_state match/<id>) play reads.
type matchRec struct {
	ID     string            `json:"id"`
	Game   string            `json:"game"`
	Stake  uint64            `json:"stake"`
	A      string            `json:"a"`
	B      string            `json:"b"`
	Status string            `json:"status"`
	Stakes map[string]string `json:"stakes"`
}

// setStatus moves match id's record from one of from to status to, keeping every other member
// as the doors wrote it.
func setStatus(tx storage.WardenTx, id, to string, from ...string) error {
	var raw map[string]json.RawMessage
	found, err := tx.Get("match/"+id, &raw)
	if err != nil {
		return err
	}
	if !found {
		return fmt.Errorf("warden: match %s has no record", id)
	}
	var cur string
	_ = json.Unmarshal(raw["status"], &cur)
	if cur == to {
		return nil
	}
	ok := false
	for _, f := range from {
		ok = ok || cur == f
	}
	if !ok {
		return fmt.Errorf("warden: match %s is %s, not %v", id, cur, from)
	}
	raw["status"], _ = json.Marshal(to)
	return tx.Put("match/"+id, raw)
}
