package dotdotdot

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"arena/games/blitz"
)

// TestDeskBlitzPractice plays whole Practice rounds of the real Blitz engine over the desk on
// the chat clock (the fake clock never moves: every phase closes early): short with the walk-in
// as the mole, and blitz with the mole drafted. Every move is answered with the brief's
// filled-in answer, talk with a line of its own; house seats play their scripted policy.
func TestDeskBlitzPractice(t *testing.T) {
	for _, tc := range []struct {
		format string
		mole   *int
		seats  int
		moves  int // scouting + turns × (exchanges + commit)
	}{{"short", deskIntPtr(1), 3, 1 + 3*3}, {"blitz", nil, 6, 1 + 5*4}} {
		t.Run(tc.format, func(t *testing.T) {
			inBubble(t, func(t *testing.T) { deskBlitzRound(t, tc.format, tc.mole, tc.seats, tc.moves) })
		})
	}
}

func deskBlitzRound(t *testing.T, format string, mole *int, seats, wantMoves int) {
	e := startDeskEnv(t, "", nil, startDesk, blitz.NewEngine(blitz.DefaultFees()))
	ctx := deskCtx(t)
	token, err := e.a.RegisterWalkin(ctx, "Ivo", "test-model")
	if err != nil {
		t.Fatal(err)
	}
	j, err := e.a.JoinWalkin(ctx, token, JoinRequest{Format: format, Mole: mole})
	if err != nil {
		t.Fatal(err)
	}
	var end Next
	moves := 0
	for end.Status != NextRevealed {
		n, err := deskBlitzPoll(t, e, token)
		if err != nil {
			t.Fatal(err)
		}
		if n.Status == NextRevealed {
			end = n
			break
		}
		if n.Status != NextMove {
			t.Fatalf("poll: %+v", n)
		}
		moves++
		var env map[string]json.RawMessage
		if err := json.Unmarshal(n.Envelope, &env); err != nil || string(env["round"]) != `"`+j.Round+`"` ||
			!strings.HasPrefix(string(env["sig"]), `"ed25519:`) {
			t.Fatalf("envelope %s", n.Envelope)
		}
		if n.Brief == "" || !strings.Contains(n.Brief, "You are seat 1") {
			t.Fatalf("brief %q", n.Brief)
		}
		body := strings.Replace(string(n.Answer), `"text":""`, `"text":"I trust seat 2"`, 1)
		if _, err := e.a.AnswerMove(ctx, token, []byte(body)); err != nil {
			t.Fatalf("answer %s: %v", body, err)
		}
		if moves > 40 {
			t.Fatal("round did not end")
		}
	}
	if moves != wantMoves {
		t.Fatalf("%d moves, want %d", moves, wantMoves)
	}
	var rv struct {
		Mole  int   `json:"mole"`
		Rungs []int `json:"rungs"`
	}
	if err := json.Unmarshal(end.Result.Reveal, &rv); err != nil || rv.Mole < 1 || (mole != nil && rv.Mole != *mole) {
		t.Fatalf("reveal %s", end.Result.Reveal)
	}
	var sum int64
	for _, p := range end.Result.Payouts {
		sum += p
	}
	if sum+end.Result.House != int64(seats)*walkinEntry {
		t.Fatalf("payouts %v + house %d do not add up to the entries", end.Result.Payouts, end.Result.House)
	}
	r := deskRecord(t, e.a, token)
	role, moleRounds, rungs := "player", 0, 0
	if rv.Mole == 1 {
		role, moleRounds, rungs = "mole", 1, len(rv.Rungs)
	}
	if r.Rounds != 1 || r.MoleRounds != moleRounds || r.Rungs != rungs || r.Net != end.Result.Payouts[1]-walkinEntry ||
		len(r.VsHouse) != seats-1 || r.Last[0].Role != role || r.Last[0].Mole != rv.Mole {
		t.Fatalf("record %+v (result %+v)", r, end.Result)
	}
}

// deskBlitzPoll polls until a move or the result is there. The fake clock stands still, so
// every chat phase closes early, except that the commit phase waits out a lever holder's
// one-minute veto window (§12; the walk-in holds the levers): when the arena is at rest
// (synctest.Wait) with no move for the walk-in and the table's last armed timer is that window
// (within two minutes: never a move's three-minute deadline), the clock is moved to it. At rest
// with nothing of the kind to wait for, the table is stuck: an error. The test must run in a
// synctest bubble (inBubble).
func deskBlitzPoll(t *testing.T, e *deskEnv, token string) (Next, error) {
	t.Helper()
	ctx := deskCtx(t)
	var last time.Time
	for {
		n, err := e.a.NextMove(ctx, token, 0)
		if err != nil || n.Status == NextMove || n.Status == NextRevealed {
			return n, err
		}
		synctest.Wait() // the arena is at rest: the move is out, or the table waits on its clock
		if n, err = e.a.NextMove(ctx, token, 0); err != nil || n.Status == NextMove || n.Status == NextRevealed {
			return n, err
		}
	drain:
		for {
			select {
			case at := <-e.armed:
				last = at
			default:
				break drain
			}
		}
		now := e.clock.Now()
		if !last.After(now) || last.Sub(now) > 2*time.Minute {
			return n, fmt.Errorf("the arena is at rest, the walk-in has no move (%+v) and no veto window is armed (last timer %v, now %v)",
				n, last, now)
		}
		e.clock.Set(last)
	}
}
