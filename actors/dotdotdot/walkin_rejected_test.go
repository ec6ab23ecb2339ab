package dotdotdot

import (
	"encoding/json"
	"strings"
	"testing"

	"arena/games/blitz"
)

// TestWalkinToldOfRejectedPromise: a walk-in promises more than its
// unlocked collateral can lock. The answer's reply lists nothing dropped (the margin check is at
// the seal), the table records commitment.rejected {code: insufficient_unlocked} visible to seat
// 1 only, and the walk-in cannot read the transcript before the reveal (409 not_revealed), so
// the next move says so: the brief or the envelope names the refusal.
func TestWalkinToldOfRejectedPromise(t *testing.T) { inBubble(t, walkinToldOfRejectedPromise) }

func walkinToldOfRejectedPromise(t *testing.T) {
	e := startDeskEnv(t, "", nil, startDesk, blitz.NewEngine(blitz.DefaultFees()))
	ctx := deskCtx(t)
	token, err := e.a.RegisterWalkin(ctx, "Ada Walker", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.a.JoinWalkin(ctx, token, JoinRequest{}); err != nil {
		t.Fatal(err)
	}
	for moves := 0; ; moves++ {
		n, err := deskBlitzPoll(t, e, token)
		if err != nil || n.Status != NextMove {
			t.Fatalf("move %d: %+v %v", moves, n, err)
		}
		if n.Prompt.Move.Phase != "commit" {
			if _, err := e.a.AnswerMove(ctx, token, n.Answer); err != nil {
				t.Fatal(err)
			}
			continue
		}
		// 100000 CCD due this turn: its margin lock (half) is far over the 120 CCD unlocked.
		body := `{"round":"` + n.Round + `","turn":1,"phase":"commit","commitments":[{"payee":2,"chips":100000,"due":1,"condition":{"always":true}}]}`
		reply, err := e.a.AnswerMove(ctx, token, []byte(body))
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("answer reply %s", reply)
		break
	}
	n, err := deskBlitzPoll(t, e, token)
	if err != nil || n.Status != NextMove {
		t.Fatalf("move after the commit: %+v %v", n, err)
	}
	var env struct {
		State struct {
			Me struct {
				Open    []struct{ Payer int } `json:"open"`
				Pending []struct{ Payer int } `json:"pending"`
			} `json:"me"`
		} `json:"state"`
	}
	if err := json.Unmarshal(n.Envelope, &env); err != nil {
		t.Fatal(err)
	}
	// Seat 1 made no other promise: any open or pending commitment it pays is the over-large one.
	// (House seats may have promised seat 1 something: those are theirs, with another payer.)
	for _, c := range append(env.State.Me.Open, env.State.Me.Pending...) {
		if c.Payer == 1 {
			t.Fatalf("the over-large promise is open or pending: %s", n.Envelope)
		}
	}
	if !strings.Contains(string(n.Envelope), "insufficient_unlocked") && !strings.Contains(n.Brief, "insufficient_unlocked") &&
		!strings.Contains(strings.ToLower(n.Brief), "rejected") && !strings.Contains(strings.ToLower(n.Brief), "refused") {
		t.Fatalf("the walk-in is not told its promise was rejected:\nbrief %q\nenvelope inbox of %d bytes", n.Brief, len(n.Envelope))
	}
}
