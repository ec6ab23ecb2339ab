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
// message. Answers go to the table as *seatAnswer. (House seats have no actor: the round
// answers them, houseAnswer.)
type seatActor struct {
	env    *env
	table  *actor.PID
	id     string
	round  string
	engine games.Engine
	seed   []byte
	spec   SeatSpec
}

func seatProps(e *env, table *actor.PID, id, round string, eng games.Engine, seed []byte, s SeatSpec) *actor.Props {
	return actor.PropsFromProducer(func() actor.Actor {
		return &seatActor{env: e, table: table, id: id, round: round, engine: eng, seed: seed, spec: s}
	})
}

func (s *seatActor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *games.Prompt:
		s.deliver(ctx, m)
	case *a2aResult:
		if m.Err != nil {
			s.env.log.Info("a2a call failed: the move stays empty", "table", s.id, "seat", s.spec.Seat.Seat, "err", m.Err)
			return
		}
		ctx.Send(s.table, &seatAnswer{Round: s.round, From: ChannelA2A,
			Input: games.Input{Seat: m.Prompt.Seat, Kind: "answer", Move: m.Prompt.Move, Body: m.Body}})
	}
}

// houseAnswer answers prompt p of a house seat with the game's house policy, at once, as an
// answer to the table (*seatAnswer). The policy reads the prompt's View (or its state, for a game
// that sets none); nothing of the prompt is kept.
func houseAnswer(ctx actor.Context, e *env, table *actor.PID, id, round string, eng games.Engine, seed []byte, p *games.Prompt) {
	hp, ok := eng.(games.HousePlayer)
	if !ok {
		e.log.Warn("house seat at a game with no house policy", "table", id, "seat", p.Seat)
		return
	}
	body := hp.HouseAnswer(*p, houseSeed(seed, p))
	ctx.Send(table, &seatAnswer{Round: round, From: ChannelHouse,
		Input: games.Input{Seat: p.Seat, Kind: "answer", Move: p.Move, Body: body}})
}

func (s *seatActor) deliver(ctx actor.Context, p *games.Prompt) {
	switch s.spec.Channel {
	case ChannelHouse: // a house seat normally has no actor (the round answers it)
		houseAnswer(ctx, s.env, s.table, s.id, s.round, s.engine, s.seed, p)
	case ChannelMailbox:
		env, err := SignEnvelope(s.env.key, s.round, *p)
		if err != nil {
			panic(err) // a prompt that cannot be encoded is a bug in the game: restart the table
		}
		ctx.Send(actor.NewPID(ctx.ActorSystem().Address(), s.spec.Mailbox),
			&DeliverPrompt{Table: s.id, Round: s.round, Seat: p.Seat, Envelope: env, Prompt: *p})
	case ChannelA2A:
		if s.env.agents == nil {
			return
		}
		env, err := SignEnvelope(s.env.key, s.round, *p)
		if err != nil {
			panic(err)
		}
		caller, endpoint, prompt := s.env.agents, s.spec.Endpoint, *p
		self, root := ctx.Self(), ctx.ActorSystem().Root
		go func() {
			cctx, cancel := context.WithDeadline(context.Background(), prompt.Deadline)
			defer cancel()
			body, err := caller.Call(cctx, endpoint, env, prompt.Deadline)
			root.Send(self, &a2aResult{Prompt: prompt, Body: body, Err: err})
		}()
	default:
		s.env.log.Warn("seat with unknown channel", "table", s.id, "seat", p.Seat, "channel", s.spec.Channel)
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
