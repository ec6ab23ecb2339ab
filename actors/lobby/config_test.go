package lobby_test

import (
	"testing"

	"arena/actors/lobby"
)

func TestOpenRefusesBadConfig(t *testing.T) {
	r := newRig(t)
	noop := func(*lobby.TableFormed) {}
	for _, c := range []struct {
		name string
		cfg  lobby.Config
	}{
		{"no id", lobby.Config{TableSize: 6, Min: 3, OnTable: noop}},
		{"slash in id", lobby.Config{ID: "a/b", TableSize: 6, Min: 3, OnTable: noop}},
		{"min above size", lobby.Config{ID: "a", TableSize: 3, Min: 4, OnTable: noop}},
		{"zero min", lobby.Config{ID: "a", TableSize: 3, OnTable: noop}},
		{"negative wait", lobby.Config{ID: "a", TableSize: 3, Min: 2, Wait: -1, OnTable: noop}},
		{"no OnTable", lobby.Config{ID: "a", TableSize: 3, Min: 2}},
	} {
		t.Run(c.name, func(t *testing.T) {
			wantErr(t, c.name, r.l.Open(t.Context(), c.cfg), lobby.ErrBadConfig)
		})
	}
	if got := r.l.Queues(); len(got) != 0 {
		t.Fatalf("queues %v after refusals", got)
	}
	ok := lobby.Config{ID: "a", TableSize: 3, Min: 2, OnTable: noop}
	if err := r.l.Open(t.Context(), ok); err != nil {
		t.Fatal(err)
	}
	wantErr(t, "open twice", r.l.Open(t.Context(), ok), lobby.ErrQueueExists)
}
