// Package arenadoor is the one place where the doors meet the actor tree: it adapts
// *actors.Arena and *dotdotdot.Arena to the interfaces the doors are written against (transport/dotdotdot/desk, transport/ops,
// transport/dotdotdot/pages, the MCP chat seat), so each door stays free of actors and is tested with
// fakes, while `arena serve` and the tests that run a real arena share one adapter.
package arenadoor

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"strings"
	"time"

	"arena/actors"
	"arena/actors/dotdotdot"
	"arena/games"
	"arena/transport/door"
	"arena/transport/dotdotdot/desk"
	"arena/transport/dotdotdot/pages"
	"arena/transport/ops"
)

// Desk is the walk-in desk door's view of *actors.Arena (desk.Desk, desk.Hosted, the MCP chat
// seat's Desk and pages.Source): the same calls, with the doors' own types and the façade's
// sentinels turned into protocol codes.
type Desk struct{ A *dotdotdot.Arena }

func (d Desk) RegisterWalkin(ctx context.Context, name, model string) (string, error) {
	t, err := d.A.RegisterWalkin(ctx, name, model)
	return t, CodeOf(err)
}

func (d Desk) JoinWalkin(ctx context.Context, token string, req desk.JoinRequest) (desk.JoinReply, error) {
	r, err := d.A.JoinWalkin(ctx, token, dotdotdot.JoinRequest{Table: req.Table, Code: req.Code, Mole: req.Mole, Pace: req.Pace, Format: req.Format})
	if err != nil {
		var ge *games.Error
		if errors.As(err, &ge) && ge.Code == dotdotdot.CodeNotYet {
			return desk.JoinReply{}, notYet{ge, r.Practice}
		}
		return desk.JoinReply{}, CodeOf(err)
	}
	return desk.JoinReply{Round: r.Round, Table: r.Table, Kind: r.Kind, Format: r.Format, Seat: r.Seat, Pace: r.Pace, Status: r.Status, Practice: r.Practice}, nil
}

// notYet is the not_yet refusal with the Practice count as body members (§4.4).
type notYet struct {
	err      *games.Error
	practice int
}

func (e notYet) Error() string { return e.err.Error() }
func (e notYet) Unwrap() error { return e.err }
func (e notYet) Details() map[string]any {
	return map[string]any{"practice": e.practice, "needed": dotdotdot.PracticeRoundsForWalkin}
}

func (d Desk) NextMove(ctx context.Context, token string, wait time.Duration) (desk.Next, error) {
	n, err := d.A.NextMove(ctx, token, wait)
	if err != nil {
		return desk.Next{}, CodeOf(err)
	}
	return desk.Next{Waiting: n.Waiting, Round: n.Round, Status: n.Status, Envelope: n.Envelope, Prompt: n.Prompt,
		Brief: n.Brief, Answer: n.Answer, Result: n.Result}, nil
}

func (d Desk) AnswerMove(ctx context.Context, token string, body []byte) (json.RawMessage, error) {
	r, err := d.A.AnswerMove(ctx, token, body)
	return r, CodeOf(err)
}

func (d Desk) Lever(ctx context.Context, token, round, kind string, body []byte) (json.RawMessage, error) {
	r, err := d.A.Lever(ctx, token, round, kind, body)
	return r, CodeOf(err)
}

func (d Desk) WalkinRecord(ctx context.Context, token string) (json.RawMessage, error) {
	r, err := d.A.WalkinRecord(ctx, token)
	return r, CodeOf(err)
}

func (d Desk) Board(ctx context.Context) (json.RawMessage, error) {
	r, err := d.A.Board(ctx)
	return r, CodeOf(err)
}

func (d Desk) WalkinPage(ctx context.Context, name string) (json.RawMessage, error) {
	r, err := d.A.WalkinPage(ctx, name)
	return r, CodeOf(err)
}

func (d Desk) Transcript(ctx context.Context, round string) ([]games.Event, bool, error) {
	evs, rev, err := d.A.Transcript(ctx, round)
	return evs, rev, CodeOf(err)
}

// Ops is the ops door's view of *actors.Arena.
type Ops struct{ A *actors.Arena }

func (o Ops) Tables(ctx context.Context) ([]ops.Table, error) {
	ts, err := o.A.Tables(ctx)
	if err != nil {
		return nil, CodeOf(err)
	}
	out := make([]ops.Table, 0, len(ts))
	for _, t := range ts {
		out = append(out, ops.Table{ID: t.ID, Game: t.Game, Kind: t.Kind, Round: t.Round, Turn: t.Turn, Phase: t.Phase,
			Status: t.Status, Seats: len(t.Seats), Restarts: t.Restarts, LastError: t.LastError})
	}
	return out, nil
}

func (o Ops) RestartTable(ctx context.Context, id string) error {
	return CodeOf(o.A.RestartTable(ctx, id))
}

func (o Ops) StopTable(ctx context.Context, id string) error {
	return CodeOf(o.A.StopTable(ctx, id))
}

// codeOf turns the façade's sentinel errors into refusals with protocol codes (the doors' one
// status table then applies); *games.Error and nil pass through; anything else stays an
// internal error (500, logged).
func CodeOf(err error) error {
	if err == nil {
		return nil
	}
	var ge *games.Error
	if errors.As(err, &ge) {
		return err
	}
	switch {
	case errors.Is(err, actors.ErrNoTable):
		return door.Refuse(door.CodeUnknownTable, "no such table")
	case errors.Is(err, actors.ErrNoRound):
		return door.Refuse(door.CodeUnknownRound, "no such round")
	case errors.Is(err, actors.ErrTableDown):
		return &door.Refusal{Code: door.CodeTableDown, Msg: "the table is not running (failed or stopped); an operator can restart it", Retry: true}
	case errors.Is(err, actors.ErrTimeout), errors.Is(err, context.DeadlineExceeded):
		return &door.Refusal{Code: door.CodeBusy, Msg: "the arena did not answer in time", Retry: true}
	case errors.Is(err, actors.ErrClosed):
		return &door.Refusal{Code: door.CodeBusy, Msg: "the arena is shutting down", Retry: true}
	case errors.Is(err, actors.ErrBadSpec):
		// the reason, without the package's prefix (an operator or a client reads it)
		return door.Refuse("refused", strings.TrimPrefix(err.Error(), actors.ErrBadSpec.Error()+": "))
	}
	return err
}

// Hosted tables (§4.5) and the pages' Source on Desk: the same calls on *actors.Arena,
// with the door's types.

func hostedOf(t dotdotdot.HostedTable) desk.HostedTable {
	return desk.HostedTable{Code: t.Code, Link: t.Link, Format: t.Format, Pace: t.Pace, Host: t.Host, Players: t.Players,
		Seats: t.Seats, Status: t.Status, Round: t.Round, Created: t.Created, StartsBy: t.StartsBy, Started: t.Started}
}

func (d Desk) HostTable(ctx context.Context, token, format string) (desk.HostedTable, error) {
	t, err := d.A.HostTable(ctx, token, format)
	return hostedOf(t), CodeOf(err)
}

func (d Desk) JoinHosted(ctx context.Context, token, code string) (desk.HostedTable, error) {
	t, err := d.A.JoinHosted(ctx, token, code)
	return hostedOf(t), CodeOf(err)
}

func (d Desk) StartHosted(ctx context.Context, token string) (desk.HostedTable, error) {
	t, err := d.A.StartHosted(ctx, token)
	return hostedOf(t), CodeOf(err)
}

func (d Desk) LeaveTable(ctx context.Context, token string) error {
	return CodeOf(d.A.LeaveTable(ctx, token))
}

func (d Desk) ListHosted(ctx context.Context) ([]desk.HostedTable, error) {
	ts, err := d.A.ListHosted(ctx)
	out := make([]desk.HostedTable, 0, len(ts))
	for _, t := range ts {
		out = append(out, hostedOf(t))
	}
	return out, CodeOf(err)
}

func (d Desk) HostedByCode(ctx context.Context, code string) (desk.HostedTable, error) {
	t, err := d.A.HostedByCode(ctx, code)
	return hostedOf(t), CodeOf(err)
}

// LiveRounds lists the live rounds, newest first (pages.Source).
func (d Desk) LiveRounds(ctx context.Context) ([]pages.LiveRound, error) {
	ts, err := d.A.Tables(ctx)
	if err != nil {
		return nil, CodeOf(err)
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i].Created.After(ts[j].Created) })
	var out []pages.LiveRound
	for _, t := range ts {
		if t.Status != actors.StatusLive || t.Round == "" {
			continue
		}
		r := pages.LiveRound{Round: t.Round, Kind: t.Kind, Format: t.Format, Turn: t.Turn, Phase: t.Phase}
		for _, s := range t.Seats {
			r.Players = append(r.Players, s.Name)
		}
		out = append(out, r)
	}
	return out, nil
}

var (
	_ desk.Desk    = Desk{}
	_ desk.Hosted  = Desk{}
	_ pages.Source = Desk{}
)
