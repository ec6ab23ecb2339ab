package pages_test

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"time"

	"arena/actors"
	"arena/games"
	"arena/transport/desk"
	"arena/transport/door"
	"arena/transport/pages"
)

// arenaDesk is a real *actors.Arena as the doors see it (cmd/arena's deskAdapter, plus the
// hosted tables and the pages' Source), for tests that run the whole stack over HTTP.
type arenaDesk struct{ a *actors.Arena }

var (
	_ desk.Desk    = arenaDesk{}
	_ desk.Hosted  = arenaDesk{}
	_ pages.Source = arenaDesk{}
)

func refusal(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, actors.ErrNoRound):
		return door.Refuse(door.CodeUnknownRound, "no such round")
	case errors.Is(err, actors.ErrNoTable):
		return door.Refuse(door.CodeUnknownTable, "no such table")
	}
	return err
}

func (d arenaDesk) RegisterWalkin(ctx context.Context, name, model string) (string, error) {
	t, err := d.a.RegisterWalkin(ctx, name, model)
	return t, refusal(err)
}

func (d arenaDesk) JoinWalkin(ctx context.Context, token string, req desk.JoinRequest) (desk.JoinReply, error) {
	r, err := d.a.JoinWalkin(ctx, token, actors.JoinRequest{Table: req.Table, Code: req.Code, Mole: req.Mole, Pace: req.Pace, Format: req.Format})
	if err != nil {
		return desk.JoinReply{}, refusal(err)
	}
	return desk.JoinReply{Round: r.Round, Table: r.Table, Kind: r.Kind, Format: r.Format, Seat: r.Seat, Pace: r.Pace, Status: r.Status, Practice: r.Practice}, nil
}

func (d arenaDesk) NextMove(ctx context.Context, token string, wait time.Duration) (desk.Next, error) {
	n, err := d.a.NextMove(ctx, token, wait)
	if err != nil {
		return desk.Next{}, refusal(err)
	}
	return desk.Next{Waiting: n.Waiting, Round: n.Round, Status: n.Status, Envelope: n.Envelope, Prompt: n.Prompt,
		Brief: n.Brief, Answer: n.Answer, Result: n.Result}, nil
}

func (d arenaDesk) AnswerMove(ctx context.Context, token string, body []byte) (json.RawMessage, error) {
	r, err := d.a.AnswerMove(ctx, token, body)
	return r, refusal(err)
}

func (d arenaDesk) Lever(ctx context.Context, token, round, kind string, body []byte) (json.RawMessage, error) {
	r, err := d.a.Lever(ctx, token, round, kind, body)
	return r, refusal(err)
}

func (d arenaDesk) WalkinRecord(ctx context.Context, token string) (json.RawMessage, error) {
	r, err := d.a.WalkinRecord(ctx, token)
	return r, refusal(err)
}

func (d arenaDesk) Board(ctx context.Context) (json.RawMessage, error) {
	r, err := d.a.Board(ctx)
	return r, refusal(err)
}

func (d arenaDesk) WalkinPage(ctx context.Context, name string) (json.RawMessage, error) {
	r, err := d.a.WalkinPage(ctx, name)
	return r, refusal(err)
}

func (d arenaDesk) Transcript(ctx context.Context, round string) ([]games.Event, bool, error) {
	evs, rev, err := d.a.Transcript(ctx, round)
	return evs, rev, refusal(err)
}

func hostedOf(t actors.HostedTable) desk.HostedTable {
	return desk.HostedTable{Code: t.Code, Link: t.Link, Format: t.Format, Pace: t.Pace, Host: t.Host, Players: t.Players,
		Seats: t.Seats, Status: t.Status, Round: t.Round, Created: t.Created, StartsBy: t.StartsBy, Started: t.Started}
}

func (d arenaDesk) HostTable(ctx context.Context, token, format string) (desk.HostedTable, error) {
	t, err := d.a.HostTable(ctx, token, format)
	return hostedOf(t), refusal(err)
}

func (d arenaDesk) StartHosted(ctx context.Context, token string) (desk.HostedTable, error) {
	t, err := d.a.StartHosted(ctx, token)
	return hostedOf(t), refusal(err)
}

func (d arenaDesk) LeaveTable(ctx context.Context, token string) error {
	return refusal(d.a.LeaveTable(ctx, token))
}

func (d arenaDesk) ListHosted(ctx context.Context) ([]desk.HostedTable, error) {
	ts, err := d.a.ListHosted(ctx)
	out := make([]desk.HostedTable, 0, len(ts))
	for _, t := range ts {
		out = append(out, hostedOf(t))
	}
	return out, refusal(err)
}

func (d arenaDesk) HostedByCode(ctx context.Context, code string) (desk.HostedTable, error) {
	t, err := d.a.HostedByCode(ctx, code)
	return hostedOf(t), refusal(err)
}

func (d arenaDesk) LiveRounds(ctx context.Context) ([]pages.LiveRound, error) {
	ts, err := d.a.Tables(ctx)
	if err != nil {
		return nil, refusal(err)
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
