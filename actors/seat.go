package actors

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"strconv"

	"github.com/asynkron/protoactor-go/actor"

	"arena/games"
)

// seatActor delivers one seat's prompts by its channel (SeatSpec.Channel): a signed envelope to
// the walk-in's mailbox actor, or an A2A call on its own goroutine whose reply comes back as a
// message, or, for a house seat, the game's house policy answering at once.
// Answers go to the table as *seatAnswer.
//
// Every seat actor is made from one Props (seatProps) and learns its seat from the *seatInit its
// round sends right after spawning it, before any prompt: a Props and a closure per seat were
// about 0.6 KiB each, and a live table has six to eight seats. A seat actor that fails escalates
// to its round, which escalates to the table, which rebuilds the round: a seat actor is never
// restarted alone, so it never has to learn its seat twice.
type seatActor struct {
	r    *roundInfo // the round's, shared by its seats (read only)
	spec *SeatSpec  // the round's spec of this seat (read only)
}

// seatInit tells a new seat actor its round and seat.
type seatInit struct {
	r    *roundInfo
	spec *SeatSpec
}

// seatProps makes every seat actor. The lock-free mailbox is the cheaper one to hold (its
// queues start empty); a seat gets a few messages a phase, so its lower throughput is no matter.
var seatProps = actor.PropsFromProducer(func() actor.Actor { return &seatActor{} },
	actor.WithMailbox(actor.UnboundedLockfree()))

func (s *seatActor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *seatInit:
		s.r, s.spec = m.r, m.spec
	case *games.Prompt:
		s.deliver(ctx, m)
	case *a2aResult:
		if m.Err != nil {
			s.r.env.log.Info("a2a call failed: the move stays empty", "table", s.r.id, "seat", s.spec.Seat.Seat, "err", m.Err)
			return
		}
		ctx.Send(s.r.table, &seatAnswer{Round: s.r.round, From: ChannelA2A,
			Input: games.Input{Seat: m.Prompt.Seat, Kind: "answer", Move: m.Prompt.Move, Body: m.Body}})
	}
}

func (s *seatActor) deliver(ctx actor.Context, p *games.Prompt) {
	switch s.spec.Channel {
	case ChannelHouse: // the game's house policy answers at once; nothing of the prompt is kept
		hp, ok := s.r.engine.(games.HousePlayer)
		if !ok {
			s.r.env.log.Warn("house seat at a game with no house policy", "table", s.r.id, "seat", p.Seat)
			return
		}
		body := hp.HouseAnswer(*p, houseSeed(s.r.seed, p))
		ctx.Send(s.r.table, &seatAnswer{Round: s.r.round, From: ChannelHouse,
			Input: games.Input{Seat: p.Seat, Kind: "answer", Move: p.Move, Body: body}})
	case ChannelMailbox:
		env, err := SignEnvelope(s.r.env.key, s.r.round, *p)
		if err != nil {
			panic(err) // a prompt that cannot be encoded is a bug in the game: restart the table
		}
		ctx.Send(actor.NewPID(ctx.ActorSystem().Address(), s.spec.Mailbox),
			&DeliverPrompt{Table: s.r.id, Round: s.r.round, Seat: p.Seat, Envelope: env, Prompt: *p})
	case ChannelA2A:
		if s.r.env.agents == nil {
			return
		}
		env, err := SignEnvelope(s.r.env.key, s.r.round, *p)
		if err != nil {
			panic(err)
		}
		caller, endpoint, prompt := s.r.env.agents, s.spec.Endpoint, *p
		self, root := ctx.Self(), ctx.ActorSystem().Root
		go func() {
			cctx, cancel := context.WithDeadline(context.Background(), prompt.Deadline)
			defer cancel()
			body, err := caller.Call(cctx, endpoint, env, prompt.Deadline)
			root.Send(self, &a2aResult{Prompt: prompt, Body: body, Err: err})
		}()
	default:
		s.r.env.log.Warn("seat with unknown channel", "table", s.r.id, "seat", p.Seat, "channel", s.spec.Channel)
	}
}

// houseSeed draws the seed of a house answer from the round's seed and the move, so house play
// replays identically after a crash: the first 8 bytes (big-endian) of SHA-256(seed "|house|"
// seat "|" turn "|" phase "|" exchange).
func houseSeed(seed []byte, p *games.Prompt) uint64 {
	h := sha256.New()
	h.Write(seed)
	h.Write([]byte("|house|" + strconv.Itoa(p.Seat) + "|" + strconv.Itoa(p.Move.Turn) + "|" + p.Move.Phase + "|" +
		strconv.Itoa(p.Move.Exchange)))
	return binary.BigEndian.Uint64(h.Sum(nil)[:8])
}
