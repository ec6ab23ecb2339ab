package actors

import (
	"strconv"

	"github.com/asynkron/protoactor-go/actor"

	"arena/games"
)

// roundActor is a table's round: it spawns one seat actor per seat and routes each prompt to its
// seat. It holds no state of its own beyond the seat addresses (derived from the table's
// record), so any fault escalates and the table rebuilds it.
type roundActor struct {
	env    *env
	table  *actor.PID
	id     string // table id
	round  string
	engine games.Engine
	seed   []byte
	specs  []SeatSpec
	seats  map[int]*actor.PID
}

func roundProps(e *env, table *actor.PID, id, round string, eng games.Engine, seed []byte, specs []SeatSpec) *actor.Props {
	return actor.PropsFromProducer(func() actor.Actor {
		return &roundActor{env: e, table: table, id: id, round: round, engine: eng, seed: seed, specs: specs}
	}, actor.WithSupervisor(escalate))
}

func (r *roundActor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *actor.Started:
		r.seats = make(map[int]*actor.PID, len(r.specs))
		for _, s := range r.specs {
			pid, err := ctx.SpawnNamed(seatProps(r.env, r.table, r.id, r.round, r.engine, r.seed, s),
				"seat-"+strconv.Itoa(s.Seat.Seat))
			if err != nil {
				panic("spawn seat: " + err.Error())
			}
			r.seats[s.Seat.Seat] = pid
		}
	case *deliverPrompts:
		for i := range m.Prompts {
			p := m.Prompts[i]
			if pid, ok := r.seats[p.Seat]; ok {
				ctx.Send(pid, &p)
			} else {
				r.env.log.Warn("prompt for a seat the table does not have", "table", r.id, "seat", p.Seat)
			}
		}
	}
}
