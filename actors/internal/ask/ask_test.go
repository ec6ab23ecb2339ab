package ask

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

func TestTimeout(t *testing.T) {
	expired, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Minute))
	defer cancel()
	soon, cancel2 := context.WithTimeout(context.Background(), time.Hour)
	defer cancel2()
	for _, c := range []struct {
		name     string
		ctx      context.Context
		max      time.Duration
		lo, upto time.Duration
	}{
		{"no deadline", context.Background(), 3 * time.Second, 3 * time.Second, 3 * time.Second},
		{"no deadline, no bound", context.Background(), 0, Fallback, Fallback},
		{"negative bound", context.Background(), -time.Second, Fallback, Fallback},
		{"deadline passed", expired, 3 * time.Second, Min, Min},
		{"deadline passed, no bound", expired, 0, Min, Min},
		{"deadline later than the bound", soon, 3 * time.Second, 3 * time.Second, 3 * time.Second},
		{"deadline sooner than the bound", soon, 2 * time.Hour, 59 * time.Minute, time.Hour},
	} {
		if got := Timeout(c.ctx, c.max); got < c.lo || got > c.upto {
			t.Errorf("%s: Timeout = %v, want in [%v, %v]", c.name, got, c.lo, c.upto)
		}
	}
}

// silent takes every message and answers none, as a table that stopped or restarted with the
// request still queued does.
type silent struct{}

func (silent) Receive(actor.Context) {}

// An ask under a ctx whose deadline has passed times out at once. A timeout read as
// time.Until(deadline) is negative there, and protoactor's future then waits forever.
func TestExpiredContextAskTimesOut(t *testing.T) {
	sys := actor.NewActorSystem()
	defer sys.Shutdown()
	pid := sys.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return silent{} }))
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := sys.Root.RequestFuture(pid, "hello", Timeout(ctx, 5*time.Second)).Result()
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, actor.ErrTimeout) {
			t.Fatalf("ask of a silent actor: %v, want a timeout", err)
		}
	case <-time.After(10 * time.Second): // a bound for a wait that should be a millisecond
		t.Fatal("ask under an expired ctx did not time out")
	}
}
