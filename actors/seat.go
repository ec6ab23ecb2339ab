package actors

import (
	"crypto/sha256"
	"encoding/binary"
	"strconv"

	"github.com/asynkron/protoactor-go/actor"

	"arena/games"
)

// seatActor delivers one seat's prompts. A house seat (ChannelHouse) is played here: the game's
// house policy answers at once and the answer goes to the table as *SeatAnswer, its input marked
// House. Every other seat
// sends each prompt, as *DeliverPrompt, to its channel's actor (the seat's own, SeatSpec.Actor,
// or the channel's, Options.Channels), which encodes and carries it as its protocol says and
// answers the table itself: a new way to reach a player is a new channel actor, not a change here.
//
// Every seat actor is made from one Props (seatProps) and learns its seat from the *seatInit its
// round sends right after spawning it, before any prompt: a Props and a closure per seat were
// about 0.6 KiB each, and a live table has six to eight seats. A seat actor that fails escalates
// to its round, which escalates to the table, which rebuilds the round: a seat actor is never
// restarted alone, so it never has to learn its seat twice.
type seatActor struct {
	r    *roundInfo // the round's, shared by its seats (read only)
	spec *SeatSpec  // the round's spec of this seat (read only)
	to   *actor.PID // the channel's actor; nil for a house seat
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
		switch id := s.r.env.channels[s.spec.Channel]; {
		case s.spec.Channel == ChannelHouse:
		case s.spec.Actor != "":
			s.to = actor.NewPID(ctx.ActorSystem().Address(), s.spec.Actor)
		case id != "":
			s.to = actor.NewPID(ctx.ActorSystem().Address(), id)
		}
	case *games.Prompt:
		s.deliver(ctx, m)
	}
}

func (s *seatActor) deliver(ctx actor.Context, p *games.Prompt) {
	if s.to != nil {
		ctx.Send(s.to, &DeliverPrompt{Table: s.r.id, Round: s.r.round, Seat: p.Seat, Prompt: *p, Endpoint: s.spec.Endpoint})
		return
	}
	if s.spec.Channel != ChannelHouse {
		s.r.env.log.Warn("seat with no channel actor", "table", s.r.id, "seat", p.Seat, "channel", s.spec.Channel)
		return
	}
	// The game's house policy answers at once; nothing of the prompt is kept.
	hp, ok := s.r.engine.(games.HousePlayer)
	if !ok {
		s.r.env.log.Warn("house seat at a game with no house policy", "table", s.r.id, "seat", p.Seat)
		return
	}
	// The answer is marked as the house policy's (games.Input.House), so the game may say so.
	body := hp.HouseAnswer(*p, houseSeed(s.r.seed, p))
	ans := &SeatAnswer{Round: s.r.round, From: ChannelHouse,
		Input: games.Input{Seat: p.Seat, Kind: "answer", Move: p.Move, Body: body, House: true}}
	if s.spec.Pause <= 0 {
		ctx.Send(s.r.table, ans)
		return
	}
	// After the pause the answer goes straight to the table: a table that restarted meanwhile
	// redelivers the move and refuses this answer as stale, or takes it if the move is still open.
	root, table := ctx.ActorSystem().Root, s.r.table
	s.r.env.clock.AfterFunc(s.spec.Pause, func() { root.Send(table, ans) })
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
