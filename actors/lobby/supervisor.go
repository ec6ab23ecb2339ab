package lobby

import (
	"errors"
	"fmt"
	"sort"

	"github.com/asynkron/protoactor-go/actor"
)

const queuePrefix = "queue-"

// supervisor is the parent of every queue of a lobby. Its strategy restarts a queue that panics,
// and that queue alone (each queue is a unit of failure); the restarted queue starts empty from
// its Config and memo (queue.go). A restart of the supervisor itself stops its queues, and its
// Started spawns them all again from Lobby.queues.
type supervisor struct{ l *Lobby }

func (s *supervisor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *actor.Started:
		s.l.mu.Lock()
		ids := make([]string, 0, len(s.l.queues))
		for id := range s.l.queues {
			ids = append(ids, id)
		}
		s.l.mu.Unlock()
		sort.Strings(ids)
		for _, id := range ids {
			if err := s.spawn(ctx, id); err != nil {
				s.l.o.Logger.Error("lobby queue not spawned", "queue", id, "err", err)
			}
		}
	case *openQueue:
		ctx.Respond(&openedReply{err: s.spawn(ctx, m.id)})
	case *actor.Terminated:
		s.l.o.Logger.Info("lobby queue stopped", "queue", m.Who.Id)
	}
}

// spawn starts queue id's actor; one already running (spawned by Started) is no error.
func (s *supervisor) spawn(ctx actor.Context, id string) error {
	qs := s.l.state(id)
	if qs == nil {
		return fmt.Errorf("%w: %s", ErrUnknownQueue, id)
	}
	props := actor.PropsFromProducer(func() actor.Actor { return newQueue(s.l, qs) })
	if _, err := ctx.SpawnNamed(props, queuePrefix+id); err != nil && !errors.Is(err, actor.ErrNameExists) {
		return fmt.Errorf("spawn queue %s: %w", id, err)
	}
	return nil
}
