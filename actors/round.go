package actors

import (
	"strconv"

	"github.com/asynkron/protoactor-go/actor"

	"arena/games"
)

// roundActor is a table's round: it routes each prompt to its seat. House seats (ChannelHouse)
// are answered here, at once, by the game's house policy; every other seat gets an actor of its
// own (seat.go) that delivers by its channel. A house seat has nothing to hold between moves,
// and a Practice table is six of them: six idle actors (mailbox, context, registry entry)
// per table were a large part of what a live table held. The round holds no state of its own
// beyond the seat addresses (derived from the table's record), so any fault escalates and the
// table rebuilds it.
type roundActor struct {
	env    *env
	table  *actor.PID
	id     string // table id
	round  string
	engine games.Engine
	seed   []byte
	specs  []SeatSpec
	seats  map[int]*actor.PID // seats with an actor of their own (not house)
}

func roundProps(e *env, table *actor.PID, id, round string, eng games.Engine, seed []byte, specs []SeatSpec) *actor.Props {
	return actor.PropsFromProducer(func() actor.Actor {
		return &roundActor{env: e, table: table, id: id, round: round, engine: eng, seed: seed, specs: specs}
	}, actor.WithSupervisor(escalate))
}

func (r *roundActor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *actor.Started:
		for _, s := range r.specs {
			if s.Channel == ChannelHouse {
				continue
			}
			pid, err := ctx.SpawnNamed(seatProps(r.env, r.table, r.id, r.round, r.engine, r.seed, s),
				"seat-"+strconv.Itoa(s.Seat.Seat))
			if err != nil {
				panic("spawn seat: " + err.Error())
			}
			if r.seats == nil {
				r.seats = make(map[int]*actor.PID, len(r.specs))
			}
			r.seats[s.Seat.Seat] = pid
		}
	case *deliverPrompts:
		for i := range m.Prompts {
			p := &m.Prompts[i]
			if pid, ok := r.seats[p.Seat]; ok {
				q := *p
				ctx.Send(pid, &q)
			} else if r.isHouse(p.Seat) {
				houseAnswer(ctx, r.env, r.table, r.id, r.round, r.engine, r.seed, p)
			} else {
				r.env.log.Warn("prompt for a seat the table does not have", "table", r.id, "seat", p.Seat)
			}
		}
	}
}

// isHouse reports whether seat n is a house seat of the round.
func (r *roundActor) isHouse(n int) bool {
	for _, s := range r.specs {
		if s.Seat.Seat == n {
			return s.Channel == ChannelHouse
		}
	}
	return false
}
