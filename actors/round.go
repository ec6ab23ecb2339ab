package actors

import (
	"strconv"

	"github.com/asynkron/protoactor-go/actor"

	"arena/games"
)

// roundActor is a table's round: it spawns one seat actor per seat, house seats
// included, and routes each prompt to its seat. It holds no state of its own beyond the seat
// addresses (derived from the table's record), so any fault escalates and the table rebuilds it.
type roundActor struct {
	roundInfo
	specs []SeatSpec
	seats []seatPID // one per seat, in the record's order
}

// roundInfo is what a round's seat actors share with it (seatInit): written once, when the
// round is made, and only read after.
type roundInfo struct {
	env    *env
	table  *actor.PID
	id     string // table id
	round  string
	engine games.Engine
	seed   []byte
}

// roundProps makes a round actor. Like its seats it has the lock-free mailbox, which costs less
// to hold: a round gets one message a phase.
func roundProps(e *env, table *actor.PID, id, round string, eng games.Engine, seed []byte, specs []SeatSpec) *actor.Props {
	return actor.PropsFromProducer(func() actor.Actor {
		return &roundActor{roundInfo: roundInfo{env: e, table: table, id: id, round: round, engine: eng, seed: seed},
			specs: specs}
	}, actor.WithSupervisor(escalate), actor.WithMailbox(actor.UnboundedLockfree()))
}

// seatPID is a seat number and its actor: a short slice, not a map (a round has 3 to 8 seats,
// and thousands of rounds are live at once).
type seatPID struct {
	seat int
	pid  *actor.PID
}

func (r *roundActor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *actor.Started:
		r.seats = make([]seatPID, 0, len(r.specs))
		for i := range r.specs {
			n := r.specs[i].Seat.Seat
			pid, err := ctx.SpawnNamed(seatProps, "seat-"+strconv.Itoa(n))
			if err != nil {
				panic("spawn seat: " + err.Error())
			}
			ctx.Send(pid, &seatInit{r: &r.roundInfo, spec: &r.specs[i]}) // before any prompt
			r.seats = append(r.seats, seatPID{n, pid})
		}
	case *deliverPrompts:
		for i := range m.Prompts {
			if pid := r.seatPID(m.Prompts[i].Seat); pid != nil {
				ctx.Send(pid, &m.Prompts[i])
			} else {
				r.env.log.Warn("prompt for a seat the table does not have", "table", r.id, "seat", m.Prompts[i].Seat)
			}
		}
	}
}

// seatPID is the actor of seat n, nil if the round has no such seat.
func (r *roundActor) seatPID(n int) *actor.PID {
	for _, s := range r.seats {
		if s.seat == n {
			return s.pid
		}
	}
	return nil
}
