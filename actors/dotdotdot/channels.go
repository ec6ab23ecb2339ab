package dotdotdot

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"log/slog"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"arena/actors"
	"arena/actors/dotdotdot/envelope"
	"arena/games"
)

// DOTDOTDOT's seat channels (actors.SeatSpec.Channel): the actors a seat delivers its prompts to,
// each signing the §4 envelope (package envelope) of what it carries.
const (
	// ChannelMailbox is a walk-in's seat: its own mailbox actor (actors.SeatSpec.Actor) signs
	// the envelope and holds the move for the walk-in's long poll (mailbox.go).
	ChannelMailbox = "mailbox"
	// ChannelA2A is a BYO agent's seat: the A2A channel actor (a2aName) posts the signed envelope
	// to the seat's endpoint (actors.SeatSpec.Endpoint) through Options.Agents.
	ChannelA2A = "a2a"
)

// a2aName is the A2A channel actor's name at the actor system's root (actors.Options.Channels).
const a2aName = "a2a"

// AgentCaller calls a BYO agent over A2A (§4): it posts the signed envelope to endpoint and
// returns the agent's answer object as the agent sent its bytes. It runs on a goroutine of its
// own, never an actor's; deadline is the move's deadline. An error that wraps a *games.Error is
// an answer that came and is refused (its code, as the walk-in door gives the same bytes): the
// agent hears it in its next envelope; any other error is no answer. With none wired, a2a seats
// stay silent (an unanswered move is empty, §13).
type AgentCaller interface {
	Call(ctx context.Context, endpoint string, envelope []byte, deadline time.Time) ([]byte, error)
}

// a2aChannel is the channel actor of every A2A seat. For each *actors.DeliverPrompt it starts a
// goroutine that signs the envelope, calls the agent with the move's deadline, reads the answer
// with CheckAnswer (the walk-in door's strict reader) and sends it to the table as
// *actors.SeatAnswer, so no table, seat or call waits on another. A refused answer goes to the
// table as the game's "refused" input {code, msg}, so the agent hears of it.
// It holds no state: a restart loses nothing but calls in flight, whose moves stay empty.
type a2aChannel struct {
	caller AgentCaller // nil: seats stay silent
	key    ed25519.PrivateKey
	log    *slog.Logger
	table  func(id string) *actor.PID
}

func (c *a2aChannel) Receive(ctx actor.Context) {
	m, ok := ctx.Message().(*actors.DeliverPrompt)
	if !ok || c.caller == nil {
		return
	}
	root, to := ctx.ActorSystem().Root, c.table(m.Table)
	go func() {
		env, err := envelope.Sign(c.key, m.Round, m.Prompt)
		if err != nil { // a prompt that cannot be encoded is a bug in the game
			c.log.Error("a2a envelope", "table", m.Table, "seat", m.Seat, "err", err)
			return
		}
		cctx, cancel := context.WithDeadline(context.Background(), m.Prompt.Deadline)
		defer cancel()
		body, err := c.caller.Call(cctx, m.Endpoint, env, m.Prompt.Deadline)
		if err == nil {
			_, err = CheckAnswer(body) // the walk-in door's strict reader, on the agent's bytes
		}
		var ge *games.Error
		switch {
		case errors.As(err, &ge):
			// The answer came and is refused: the move is used up empty, and the agent hears
			// why in its next envelope (the game's "refused" input).
			c.log.Info("a2a answer refused: the move stays empty", "table", m.Table, "seat", m.Seat, "code", ge.Code, "err", err)
			refusal, _ := json.Marshal(map[string]string{"code": ge.Code, "msg": ge.Msg})
			root.Send(to, &actors.SeatAnswer{Round: m.Round, From: ChannelA2A,
				Input: games.Input{Seat: m.Seat, Kind: "refused", Move: m.Prompt.Move, Body: refusal}})
		case err != nil:
			c.log.Info("a2a call failed: the move stays empty", "table", m.Table, "seat", m.Seat, "err", err)
		default:
			root.Send(to, &actors.SeatAnswer{Round: m.Round, From: ChannelA2A,
				Input: games.Input{Seat: m.Seat, Kind: "answer", Move: m.Prompt.Move, Body: body}})
		}
	}()
}

// startA2A spawns the A2A channel actor (before boot recovery, so recovered tables' open moves
// reach it).
func startA2A(a *Arena) error {
	props := actor.PropsFromProducer(func() actor.Actor {
		return &a2aChannel{caller: a.opts.Agents, key: a.InstanceKey(), log: a.Logger(), table: a.TablePID}
	})
	_, err := a.System().Root.SpawnNamed(props, a2aName)
	return err
}
