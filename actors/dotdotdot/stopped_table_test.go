package dotdotdot

import (
	"errors"
	"testing"

	"arena/games"
)

// A walk-in whose Practice table an operator stopped
// (POST /ops/tables/<practice table>/stop) is handed no move of it by GET /v1/walkin/next and
// may join another Practice table (POST /v1/walkin/join), not 409 in_a_round.
//
// §4.4: next "blocks until the arena has a move for this seat": a stopped table has none to
// take, so handing one out (with a deadline nobody will keep) misleads the client; and "a
// walk-in MUST NOT hold more than one live round (in_a_round)": a stopped round is not live, so
// the walk-in must not be locked out of Practice until an operator happens to restart a table
// that was stopped on purpose.
func TestHostileStoppedTableLocksWalkinOut(t *testing.T) {
	e := newDeskEnv(t, "", nil)
	ctx := deskCtx(t)
	token, _ := e.a.RegisterWalkin(ctx, "Stopped Sam", "")
	j, err := e.a.JoinWalkin(ctx, token, JoinRequest{Format: "short"})
	if err != nil {
		t.Fatal(err)
	}
	deskMustPoll(t, e.a, token) // scouting is waiting
	if err := e.a.StopTable(ctx, j.Table); err != nil {
		t.Fatal(err)
	}
	n, err := e.a.NextMove(ctx, token, 0)
	if err == nil && n.Status == NextMove {
		t.Errorf("after the table was stopped the poll still hands out move %+v (round %s); the table cannot take it", n.Prompt.Move, n.Round)
	}
	_, err = e.a.JoinWalkin(ctx, token, JoinRequest{Format: "short"})
	var ge *games.Error
	if errors.As(err, &ge) && ge.Code == CodeInARound {
		t.Errorf("join after the table was stopped: %v; a stopped round is not live and must not hold the walk-in", err)
	}
}
