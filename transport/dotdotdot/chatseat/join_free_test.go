package chatseat

import (
	"context"
	"strings"
	"testing"
)

// TestJoinFreeTableOnRealArena: the chat seat's join_table {table: "free"} waits at the real
// arena's Free play table (its lobby lists the walk-in among the players), says so on the agent
// clock, and a second join while waiting is refused in_a_round.
func TestJoinFreeTableOnRealArena(t *testing.T) {
	a := startRealArena(t)
	srv := seat(t, nil, Options{Desk: a})
	out, isErr := call(t, srv, "register", `{"name":"Fern"}`)
	if isErr {
		t.Fatal(out)
	}
	arg := `{"token":"` + tokenRe.FindString(out) + `","table":"free"}`
	out, isErr = call(t, srv, "join_table", arg)
	if isErr || !strings.Contains(out, "Waiting at a Free play table") || !strings.Contains(out, "the agent clock") {
		t.Fatalf("join_table free: %s", out)
	}
	gs, err := a.Gatherings(context.Background())
	if err != nil || len(gs) != 1 || gs[0].Kind != "free" || len(gs[0].Players) != 1 || gs[0].Players[0] != "Fern" {
		t.Fatalf("gatherings %+v %v", gs, err)
	}
	if out, isErr = call(t, srv, "join_table", arg); !isErr || !strings.Contains(out, "in_a_round") {
		t.Fatalf("a second join_table free: %s", out)
	}
}
