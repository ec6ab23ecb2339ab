package dotdotdot

import (
	"strconv"
	"testing"
	"testing/synctest"

	"github.com/asynkron/protoactor-go/actor"

	"arena/games/blitz"
)

// TestPracticeTree checks the supervision tree of a live walk-in Practice table: the table has
// its round actor, and the round
// has one seat actor per seat, the house seats included, both before and after an ops restart
// of the table in the middle of the round. Names: arena/tables/table-<id>/round-<round>/seat-<n>.
// It runs in a synctest bubble.
func TestPracticeTree(t *testing.T) { inBubble(t, practiceTree) }

func practiceTree(t *testing.T) {
	e := startDeskEnv(t, "", nil, startDesk, blitz.NewEngine(blitz.DefaultFees()))
	ctx := deskCtx(t)
	token, err := e.a.RegisterWalkin(ctx, "Ada Walker", "")
	if err != nil {
		t.Fatal(err)
	}
	j, err := e.a.JoinWalkin(ctx, token, JoinRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if j.Kind != "practice" || j.Format != "blitz" || j.Seat != 1 || j.Table == "" {
		t.Fatalf("join %+v", j)
	}
	n, err := deskBlitzPoll(t, e, token)
	if err != nil || n.Status != NextMove {
		t.Fatalf("first move: %+v %v", n, err)
	}
	check := func(when string) {
		t.Helper()
		reg := e.a.System().ProcessRegistry
		// alive: the actor is in the registry (a stopped one is removed). A restarted table
		// spawns its round in its Started, after RestartTable has answered: read the registry
		// once the arena is at rest.
		synctest.Wait()
		alive := func(id string) bool {
			p, ok := reg.GetLocal(id)
			_, isActor := p.(*actor.ActorProcess)
			return ok && isActor
		}
		table := e.a.TablePID(j.Table).Id
		round := table + "/round-" + j.Round
		if !alive(table) {
			t.Fatalf("%s: no table actor %s", when, table)
		}
		if !alive(round) {
			t.Fatalf("%s: no round actor %s", when, round)
		}
		for s := 1; s <= 6; s++ {
			if id := round + "/seat-" + strconv.Itoa(s); !alive(id) {
				t.Fatalf("%s: no seat actor %s", when, id)
			}
		}
		if _, ok := reg.GetLocal(round + "/seat-7"); ok {
			t.Fatalf("%s: a seventh seat actor at a six-seat table", when)
		}
	}
	check("first move")
	body := []byte(n.Answer)
	if _, err := e.a.AnswerMove(ctx, token, body); err != nil {
		t.Fatalf("answer %s: %v", body, err)
	}
	if n, err = deskBlitzPoll(t, e, token); err != nil || n.Status != NextMove {
		t.Fatalf("second move: %+v %v", n, err)
	}
	check("second move")
	if err := e.a.RestartTable(ctx, j.Table); err != nil {
		t.Fatal(err)
	}
	again, err := deskBlitzPoll(t, e, token)
	if err != nil || again.Status != NextMove {
		t.Fatalf("move after the restart: %+v %v", again, err)
	}
	if string(again.Envelope) != string(n.Envelope) {
		t.Fatalf("the waiting move's envelope changed across the restart:\n%s\n%s", n.Envelope, again.Envelope)
	}
	check("after ops restart")
}
