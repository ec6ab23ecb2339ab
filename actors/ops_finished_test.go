package actors

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"arena/games"
)

// An ops stop of a table that has finished its round is refused as an ops restart of it is
// (ErrBadSpec, saying so): nothing is stopped, the table stays finished, and its walk-ins are
// told nothing. An unknown table is ErrNoTable for both.
func TestOpsStopOfAFinishedTableIsRefused(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	mb := h.mailbox("mb-f-1")
	sp := seats(ChannelMailbox, ChannelHouse)
	sp[0].Actor = "mb-f-1"
	round := h.open(TableSpec{ID: "f1", Seats: sp, Pace: games.Pace{CloseEarly: true, Steps: map[string]time.Duration{"commit": 20 * time.Second}}})
	for turn := 1; turn <= 3; turn++ {
		nextPrompt(t, mb, turn)
		if r := h.submit("f1", round, 1, turn, `{"n":1}`); r.Code != "" {
			t.Fatalf("turn %d: %+v", turn, r)
		}
	}
	nextRoundEnded(t, mb)
	h.waitStatus("f1", StatusFinished)
	for _, op := range []struct {
		name string
		f    func(context.Context, string) error
		says string
	}{
		{"stop", h.arena.StopTable, "table f1 has finished its round; there is nothing to stop"},
		{"restart", h.arena.RestartTable, "table f1 has finished its round; there is nothing to restart"},
	} {
		err := op.f(ctx, "f1")
		if !errors.Is(err, ErrBadSpec) || !strings.Contains(err.Error(), op.says) {
			t.Fatalf("ops %s of a finished table: %v, want ErrBadSpec saying %q", op.name, err, op.says)
		}
		if st := h.record("f1").Status; st != StatusFinished {
			t.Fatalf("after ops %s: status %s, want finished", op.name, st)
		}
		if err := op.f(ctx, "nope"); !errors.Is(err, ErrNoTable) {
			t.Fatalf("ops %s of an unknown table: %v", op.name, err)
		}
	}
	select {
	case m := <-mb:
		if ts, ok := m.(*TableStopped); ok {
			t.Fatalf("the walk-in was told %+v of a finished table", ts)
		}
	default:
	}
}
