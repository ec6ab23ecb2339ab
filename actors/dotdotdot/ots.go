package dotdotdot

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"arena/actors"
	"arena/actors/dotdotdot/envelope"
	"arena/games"
	"arena/games/blitz"
)

// Off-the-shelf seats (§4.2, §15 seat.taken kind ots): the arena runs the agent for its owner on
// the house model, with the owner's playbook and dials (Setup.Options.playbooks, editable until
// scouting ends and committed in the open-round anchor at its close, §5.2, §5.5; each envelope
// carries the seat's own in state.me.playbook). Every move goes to the ots channel actor, which asks the model off the
// actor and answers the table by message; when the model cannot answer in time, or answers what
// the arena's strict reader or the game refuses, the seat answers from the fallback policy (the
// game's house policy) and the game says so publicly (§15 agent.scripted).

// ChannelOTS is an off-the-shelf seat's channel (actors.SeatSpec.Channel): the ots channel actor
// (otsName) thinks each move on Options.Model.
const ChannelOTS = "ots"

// otsName is the ots channel actor's name at the actor system's root (actors.Options.Channels).
const otsName = "ots"

// HouseModel is the house model an off-the-shelf seat thinks on (transport/dotdotdot/housemodel's
// chat-completions Client). Think is given the signed §4 envelope the seat receives and the seat's
// playbook (blitz.Playbook JSON, nil for the default) and returns the model's answer body as it
// came; it runs on a goroutine of its own, never an actor's, and must return once ctx ends (the
// move's model deadline). Any error is no answer.
type HouseModel interface {
	Think(ctx context.Context, envelope, playbook []byte) ([]byte, error)
}

// OTSMargin is how long before the envelope's deadline an off-the-shelf seat stops waiting for
// the model and answers from the fallback policy, so that answer still lands inside the move.
const OTSMargin = time.Second

// otsLimit is the longest the model is given for one move: §5.3's BYO response deadline for
// the phase (20 s at commit, 13 s for a talk exchange; scouting as a talk exchange). On the chat
// clock a move is minutes long, and a table closing early waits for its slowest seat: the house
// model is held to the agent clock's deadline there too.
func otsLimit(phase string) time.Duration {
	if phase == "commit" {
		return 20 * time.Second
	}
	return 13 * time.Second
}

// otsBy is when the model's time for prompt p, delivered at now, runs out: the §5.3 limit from
// now, and never later than OTSMargin before the envelope's deadline (half the time left, on a
// move shorter than twice the margin).
func otsBy(now time.Time, p games.Prompt) time.Time {
	by := now.Add(otsLimit(p.Move.Phase))
	margin := OTSMargin
	if left := p.Deadline.Sub(now); left < 2*margin {
		margin = left / 2
	}
	if d := p.Deadline.Add(-margin); d.Before(by) {
		by = d
	}
	return by
}

// otsChannel is the channel actor of every off-the-shelf seat. For each *actors.DeliverPrompt it
// starts one goroutine that signs the envelope and asks the model, with the playbook its state
// carries and the move's model deadline (otsBy), and schedules an *otsDue at that deadline on the arena's
// clock; whichever comes first decides. A model answer that passes CheckAnswer and names the open
// move goes to the table as the seat's answer (an *actors.SubmitAnswer, whose reply says whether
// the game took it); no answer by the deadline, a model error, or an answer the reader or the
// game refuses, and the seat answers from the fallback policy, marked games.Input.House, so Blitz
// emits agent.scripted. With no model every move is answered so at once. It holds only the moves
// in flight (one per seat); a restart loses them, and the table's redelivery starts them again.
type otsChannel struct {
	a     *Arena
	model HouseModel // nil: every move from the fallback policy
	moves map[otsKey]*otsMove
	gen   uint64
}

type otsKey struct {
	table string
	seat  int
}

// otsMove is one move in flight: its delivery, its generation (a thought or due of an earlier
// delivery is dropped), and how to stop its call and its timer.
type otsMove struct {
	gen    uint64
	d      actors.DeliverPrompt
	cancel context.CancelFunc
	stop   func() bool
	by     time.Time // the model's deadline (otsBy)
	sent   bool      // the model's answer went to the table; awaiting its reply
}

// otsThought is a model call's outcome, sent back to the channel actor.
type otsThought struct {
	key  otsKey
	gen  uint64
	body []byte
	err  error
}

// otsDue is the model deadline of a move, a scheduled message.
type otsDue struct {
	key otsKey
	gen uint64
}

// errNoModel is the fallback's reason when no house model is configured.
var errNoModel = errors.New("no house model is configured")

func (c *otsChannel) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *actor.Started:
		if c.moves == nil {
			c.moves = map[otsKey]*otsMove{}
		}
	case *actors.DeliverPrompt:
		c.deliver(ctx, m)
	case *otsThought:
		mv := c.moves[m.key]
		if mv == nil || mv.gen != m.gen || mv.sent {
			return
		}
		if m.err != nil {
			c.fallback(ctx, m.key, mv, m.err)
			return
		}
		if err := checkOTSAnswer(m.body, mv.d); err != nil {
			c.fallback(ctx, m.key, mv, err)
			return
		}
		c.submit(ctx, m.key, mv, m.body)
	case *otsDue:
		if mv := c.moves[m.key]; mv != nil && mv.gen == m.gen && !mv.sent {
			c.fallback(ctx, m.key, mv, fmt.Errorf("no answer from the house model by %s", mv.by.UTC().Format(time.RFC3339Nano)))
		}
	}
}

func (c *otsChannel) deliver(ctx actor.Context, m *actors.DeliverPrompt) {
	key := otsKey{m.Table, m.Seat}
	if mv := c.moves[key]; mv != nil {
		if mv.d.Round == m.Round && mv.d.Prompt.Move == m.Prompt.Move {
			return // a redelivery of the move in flight: its call and its timer go on
		}
		c.drop(key, mv)
	}
	c.gen++
	mv := &otsMove{gen: c.gen, d: *m}
	c.moves[key] = mv
	if c.model == nil {
		c.fallback(ctx, key, mv, errNoModel)
		return
	}
	clock := c.a.Clock()
	now := clock.Now()
	mv.by = otsBy(now, m.Prompt)
	wait := mv.by.Sub(now)
	if wait <= 0 {
		c.fallback(ctx, key, mv, fmt.Errorf("the move's deadline %s leaves the house model no time", m.Prompt.Deadline.UTC().Format(time.RFC3339Nano)))
		return
	}
	self, root := ctx.Self(), ctx.ActorSystem().Root
	due := &otsDue{key: key, gen: mv.gen}
	mv.stop = clock.AfterFunc(wait, func() { root.Send(self, due) })
	cctx, cancel := context.WithTimeout(context.Background(), wait)
	mv.cancel = cancel
	model, key0 := c.model, c.a.InstanceKey()
	go func() {
		defer cancel()
		t := &otsThought{key: key, gen: mv.gen}
		env, err := envelope.Sign(key0, m.Round, m.Prompt)
		if err != nil {
			t.err = fmt.Errorf("envelope: %w", err)
		} else {
			t.body, t.err = model.Think(cctx, env, playbookOf(m.Prompt))
		}
		root.Send(self, t)
	}()
}

// drop forgets a move in flight: its call is cancelled and its timer stopped.
func (c *otsChannel) drop(key otsKey, mv *otsMove) {
	if mv.cancel != nil {
		mv.cancel()
	}
	if mv.stop != nil {
		mv.stop()
	}
	delete(c.moves, key)
}

// submit sends the model's answer to the table and waits, off the actor's turn, for the game's
// verdict: a whole answer the game refuses (bad_request, stale) is answered from the fallback
// policy while the move is still open.
func (c *otsChannel) submit(ctx actor.Context, key otsKey, mv *otsMove, body []byte) {
	mv.sent = true
	if mv.cancel != nil {
		mv.cancel()
	}
	d := mv.d
	f := ctx.RequestFuture(c.a.TablePID(d.Table), &actors.SubmitAnswer{Table: d.Table, Round: d.Round, At: c.a.Clock().Now(),
		Input: games.Input{Seat: d.Seat, Kind: "answer", Move: d.Prompt.Move, Body: body}}, otsSubmitWait)
	ctx.ReenterAfter(f, func(res any, err error) {
		if c.moves[key] != mv {
			return
		}
		r, _ := res.(*actors.SubmitAnswerReply)
		switch {
		case err != nil:
			c.fallback(ctx, key, mv, fmt.Errorf("the table did not reply to the model's answer: %v", err))
		case r == nil:
			c.fallback(ctx, key, mv, fmt.Errorf("the table's reply to the model's answer is %T", res))
		case r.Code != "":
			c.fallback(ctx, key, mv, games.Errorf(r.Code, "the game refused the model's answer: %s", r.Msg))
		default:
			c.a.Logger().Debug("ots answer taken", "table", d.Table, "seat", d.Seat, "move", d.Prompt.Move, "reply", string(r.Reply))
			c.drop(key, mv)
		}
	})
}

// otsSubmitWait bounds the table's reply to a model's answer (it replies once the answer is
// durable).
const otsSubmitWait = 10 * time.Second

// fallback answers mv from the fallback policy (the game's house policy), marked House so the
// game announces it (§15 agent.scripted), and forgets the move. why is logged.
func (c *otsChannel) fallback(ctx actor.Context, key otsKey, mv *otsMove, why error) {
	d := mv.d
	c.drop(key, mv)
	eng, ok := c.a.Bracket().Engine(walkinGame)
	hp, isHouse := eng.(games.HousePlayer)
	if !ok || !isHouse {
		c.a.Logger().Warn("ots seat: the game has no fallback policy; the move stays empty", "table", d.Table, "seat", d.Seat)
		return
	}
	level := slog.LevelInfo
	if errors.Is(why, errNoModel) {
		level = slog.LevelDebug // said once at start; every move would repeat it
	}
	c.a.Logger().Log(context.Background(), level, "ots seat answers from the fallback policy", "table", d.Table, "seat", d.Seat,
		"turn", d.Prompt.Move.Turn, "phase", d.Prompt.Move.Phase, "exchange", d.Prompt.Move.Exchange, "why", why)
	body := hp.HouseAnswer(d.Prompt, otsSeed(d))
	ctx.Send(c.a.TablePID(d.Table), &actors.SeatAnswer{Round: d.Round, From: ChannelOTS,
		Input: games.Input{Seat: d.Seat, Kind: "answer", Move: d.Prompt.Move, Body: body, House: true}})
}

// otsSeed is the fallback policy's seed for a move: the first 8 bytes (big-endian) of
// SHA-256("arena/ots-fallback/v1" 0 table 0 round 0 seat 0 turn 0 phase 0 exchange), so the
// same move draws the same fallback answer.
func otsSeed(d actors.DeliverPrompt) uint64 {
	h := sha256.New()
	for _, s := range []string{"arena/ots-fallback/v1", d.Table, d.Round, strconv.Itoa(d.Seat), strconv.Itoa(d.Prompt.Move.Turn),
		d.Prompt.Move.Phase, strconv.Itoa(d.Prompt.Move.Exchange)} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return binary.BigEndian.Uint64(h.Sum(nil)[:8])
}

// checkOTSAnswer is the strict reader of a model's answer: CheckAnswer (the walk-in door's and
// the A2A channel's reader) on the bytes as the model sent them, and the echo must name the move
// delivered (an answer for another move would be refused stale, with no time left to fall back).
func checkOTSAnswer(body []byte, d actors.DeliverPrompt) error {
	echo, err := CheckAnswer(body)
	if err != nil {
		return err
	}
	mv := d.Prompt.Move
	if echo.Round != d.Round || echo.Turn != mv.Turn || echo.Phase != mv.Phase || echo.Exchange != mv.Exchange {
		return games.Errorf(blitz.CodeStale, "the answer names %s turn %d %s exchange %d; the move is %s turn %d %s exchange %d",
			echo.Round, echo.Turn, echo.Phase, echo.Exchange, d.Round, mv.Turn, mv.Phase, mv.Exchange)
	}
	return nil
}

// playbookOf is the seat's playbook as its state carries it (§5.4 state.me.playbook: the
// owner's playbook and dials as they stand, edits during scouting included), nil when the state
// has none (the model is then run with the default playbook).
func playbookOf(p games.Prompt) []byte {
	var st struct {
		Me struct {
			Playbook json.RawMessage `json:"playbook"`
		} `json:"me"`
	}
	if err := json.Unmarshal(p.State.Bytes(), &st); err != nil || len(st.Me.Playbook) == 0 || string(st.Me.Playbook) == "null" {
		return nil
	}
	return st.Me.Playbook
}

// startOTS spawns the ots channel actor (before boot recovery, so recovered tables' open moves
// reach it).
func startOTS(a *Arena) error {
	props := actor.PropsFromProducer(func() actor.Actor { return &otsChannel{a: a, model: a.opts.Model} })
	_, err := a.System().Root.SpawnNamed(props, otsName)
	return err
}
