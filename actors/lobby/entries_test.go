package lobby_test

import (
	"testing"

	"arena/actors/lobby"
)

func TestOneEntryPerKey(t *testing.T) {
	r := newRig(t)
	r.open(six("g"), false)
	r.join("g", "a")
	r.join("g", "b")

	got, err := r.l.Join(t.Context(), "g", lobby.Entrant{Key: "a", Data: "second"})
	wantErr(t, "second join of a", err, lobby.ErrAlreadyQueued)
	if got.Position != 1 || got.Waiting != 2 {
		t.Fatalf("already_queued answer %+v, want a's place 1 of 2", got)
	}
	got, err = r.l.Rejoin(t.Context(), "g", lobby.Entrant{Key: "a", Data: "new connection"})
	if err != nil || !got.Replaced || got.Position != 1 || got.Waiting != 2 {
		t.Fatalf("rejoin: %+v %v, want a replaced at 1 of 2", got, err)
	}
	// Rejoin of a key not queued is a join.
	if got, err := r.l.Rejoin(t.Context(), "g", lobby.Entrant{Key: "c"}); err != nil || got.Replaced || got.Position != 3 {
		t.Fatalf("rejoin of c: %+v %v", got, err)
	}
	for _, k := range []string{"d", "e", "f"} {
		r.join("g", k)
	}
	tabs := r.formed("g")
	if len(tabs) != 1 || len(tabs[0].Seats) != 6 {
		t.Fatalf("tables %+v", tabs)
	}
	for _, s := range tabs[0].Seats {
		if s.Key == "a" && s.Data != "new connection" {
			t.Fatalf("a seated with %v, want the rejoin's data", s.Data)
		}
	}
	// Seated: one active match per key.
	_, err = r.l.Join(t.Context(), "g", lobby.Entrant{Key: "a"})
	wantErr(t, "join while playing", err, lobby.ErrAlreadyPlaying)
	_, err = r.l.Rejoin(t.Context(), "g", lobby.Entrant{Key: "a"})
	wantErr(t, "rejoin while playing", err, lobby.ErrAlreadyPlaying)
	// Its match over, the key queues again.
	r.setPlaying("g", "a", false)
	if got := r.join("g", "a"); got.Position != 1 {
		t.Fatalf("join after the match: %+v", got)
	}
	_, err = r.l.Join(t.Context(), "g", lobby.Entrant{})
	wantErr(t, "join without a key", err, lobby.ErrBadEntrant)
	_, err = r.l.Join(t.Context(), "nope", lobby.Entrant{Key: "a"})
	wantErr(t, "join of an unknown queue", err, lobby.ErrUnknownQueue)
}

func TestLeaveAndPosition(t *testing.T) {
	r := newRig(t)
	r.open(six("g"), false)
	for _, k := range []string{"a", "b", "c"} {
		r.join("g", k)
	}
	if was, err := r.l.Leave(t.Context(), "g", "a"); err != nil || !was {
		t.Fatalf("leave a: %v %v, want it was queued", was, err)
	}
	if p, err := r.l.Position(t.Context(), "g", "c"); err != nil || p.Position != 2 || p.Waiting != 2 {
		t.Fatalf("c after a left: %+v %v, want 2 of 2", p, err)
	}
	_, err := r.l.Position(t.Context(), "g", "a")
	wantErr(t, "position of a after leaving", err, lobby.ErrNotQueued)
	if was, err := r.l.Leave(t.Context(), "g", "a"); err != nil || was {
		t.Fatalf("leave a again: %v %v, want not queued", was, err)
	}
	// Nobody below Min is timed: the table of a, b, c never opens.
	r.to(lobby.DefaultWait)
	if n := len(r.formed("g")); n != 0 {
		t.Fatalf("%d tables after a left", n)
	}
	for _, k := range []string{"d", "e", "f", "g"} {
		r.join("g", k)
	}
	if n := len(r.formed("g")); n != 1 {
		t.Fatalf("%d tables, want 1", n)
	}
	_, err = r.l.Position(t.Context(), "g", "b")
	wantErr(t, "position once seated", err, lobby.ErrAlreadyPlaying)
	was, err := r.l.Leave(t.Context(), "g", "b")
	wantErr(t, "leave once seated", err, lobby.ErrAlreadyPlaying)
	if was {
		t.Fatal("leave once seated says it was queued")
	}
	_, err = r.l.Leave(t.Context(), "nope", "b")
	wantErr(t, "leave an unknown queue", err, lobby.ErrUnknownQueue)
}
