package dotdotdot

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"arena/actors"
	"arena/games"
)

// pollNow asks the walk-in's seat where it stands without waiting. A mailbox that does not
// answer within the ask timeout (it is being restarted) reads as "playing".
func (a *Arena) pollNow(ctx context.Context, w *actor.PID) (Next, error) {
	ch := make(chan Next, 1)
	done := make(chan struct{})
	defer close(done)
	if err := a.deskSend(w, &walkinAwait{W: mboxWaiter{ch: ch, done: done}}); err != nil {
		return Next{}, err
	}
	t := time.NewTimer(a.AskTimeout())
	defer t.Stop()
	select {
	case n := <-ch:
		return n, nil
	case <-ctx.Done():
		return Next{Waiting: true, Status: NextPlaying}, nil
	case <-t.C:
		return Next{Waiting: true, Status: NextPlaying}, nil
	}
}

// submitClaimed sends a claimed answer to the table and settles the claim with the mailbox:
// answered when the game took it, closed when the game says the move is over (stale,
// round_over), released (the move stays open) when it never reached the game or the game
// refused the body for another reason.
func (a *Arena) submitClaimed(ctx context.Context, w *actor.PID, c *mboxClaimReply, body []byte, at time.Time) (json.RawMessage, error) {
	done := &mboxClaimDone{Round: c.Round, Move: c.Move, Outcome: claimReleased}
	defer func() { _ = a.deskSend(w, done) }()
	r, err := a.Submit(ctx, actors.SubmitAnswer{Table: c.Table, Round: c.Round, At: at,
		Input: games.Input{Seat: c.Seat, Kind: "answer", Move: c.Move, Body: json.RawMessage(body)}})
	if err != nil {
		return nil, err
	}
	switch r.Code {
	case "":
		done.Outcome = claimAnswered
		if len(r.Reply) == 0 {
			return json.RawMessage(`{"dropped":[]}`), nil
		}
		return r.Reply, nil
	case games.CodeStale, games.CodeRoundOver:
		done.Outcome = claimClosed
	}
	return nil, &games.Error{Code: r.Code, Msg: r.Msg, Retry: r.Retry}
}

// briefNext fills Brief (and, for a move, Answer) for format=brief (§4.4) when the game can
// put a prompt in words (games.Briefer); waiting and the result get a line of their own.
func (a *Arena) briefNext(n *Next) {
	if n.Prompt != nil && n.Game != "" && a.Bracket() != nil {
		if e, ok := a.Bracket().Engine(n.Game); ok {
			if b, ok := e.(games.Briefer); ok {
				n.Brief, n.Answer = b.Brief(*n.Prompt)
				n.Answer = withRound(n.Answer, n.Round)
				return
			}
		}
	}
	switch n.Status {
	case NextIdle:
		n.Brief = "You hold no seat. Join a Practice table (POST /v1/walkin/join {\"table\":\"practice\"}) to play."
	case NextGathering:
		if n.Brief != "" {
			break // a hosted table's own line (hosted_walkin.go)
		}
		n.Brief = "You are waiting at the walkin table for it to fill; house agents take the empty seats two minutes after the first walk-in came. Ask again for your first move."
	case NextPlaying:
		n.Brief = fmt.Sprintf("Round %s is on and no move is waiting for you now. Ask again: the next one comes when the phase turns.", n.Round)
	case NextMove:
		n.Brief = fmt.Sprintf("Round %s: your move is waiting (turn %d, %s). Answer it before its deadline.", n.Round, n.Prompt.Move.Turn, n.Prompt.Move.Phase)
	case NextRevealed:
		n.Brief = resultBrief(n)
	}
}

// resultBrief puts the seat's result in a line: its payout against the notional entry and its
// place at the table.
func resultBrief(n *Next) string {
	if n.Result == nil {
		return fmt.Sprintf("Round %s is over.", n.Round)
	}
	pay := n.Result.Payouts[n.Seat]
	return fmt.Sprintf("Round %s is over and revealed. You finished %s of %d with %s CCD against a notional entry of %s CCD (%s CCD). Join again to play another round.",
		n.Round, games.Ordinal(rankOf(*n.Result, n.Seat)), len(n.Result.Payouts), ccd(pay), ccd(walkinEntry), signedCCD(pay-walkinEntry))
}

// ccd renders microCCD as CCD with up to six decimals, trailing zeros dropped.
func ccd(micro int64) string {
	neg := micro < 0
	if neg {
		micro = -micro
	}
	s := fmt.Sprintf("%d", micro/1_000_000)
	if frac := micro % 1_000_000; frac != 0 {
		f := fmt.Sprintf("%06d", frac)
		for f[len(f)-1] == '0' {
			f = f[:len(f)-1]
		}
		s += "." + f
	}
	if neg {
		s = "-" + s
	}
	return s
}

func signedCCD(micro int64) string {
	if micro >= 0 {
		return "+" + ccd(micro)
	}
	return ccd(micro)
}

// withRound makes sure a brief's answer echoes the round (§4.4: the body to post for this move);
// a game's Briefer sees only the prompt, which does not name it. Anything but an object is left
// as it is.
func withRound(answer json.RawMessage, round string) json.RawMessage {
	members, err := jsonObjectMembers(answer)
	if err != nil {
		return answer
	}
	if _, ok := members["round"]; ok {
		return answer
	}
	r, _ := json.Marshal(round) // a string: cannot fail
	trimmed := bytes.TrimSpace(answer)
	out := append([]byte(`{"round":`), r...)
	if len(members) > 0 {
		out = append(out, ',')
	}
	return append(out, trimmed[1:]...)
}
