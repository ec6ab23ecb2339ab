package main

import (
	"context"
	"sort"

	"arena/actors"
	"arena/transport/desk"
	"arena/transport/pages"
)

// Hosted tables (§4.5) and the pages' Source on deskAdapter: the same calls on *actors.Arena,
// with the door's types.

func hostedOf(t actors.HostedTable) desk.HostedTable {
	return desk.HostedTable{Code: t.Code, Link: t.Link, Format: t.Format, Pace: t.Pace, Host: t.Host, Players: t.Players,
		Seats: t.Seats, Status: t.Status, Round: t.Round, Created: t.Created, StartsBy: t.StartsBy, Started: t.Started}
}

func (d deskAdapter) HostTable(ctx context.Context, token, format string) (desk.HostedTable, error) {
	t, err := d.a.HostTable(ctx, token, format)
	return hostedOf(t), codeOf(err)
}

func (d deskAdapter) JoinHosted(ctx context.Context, token, code string) (desk.HostedTable, error) {
	t, err := d.a.JoinHosted(ctx, token, code)
	return hostedOf(t), codeOf(err)
}

func (d deskAdapter) StartHosted(ctx context.Context, token string) (desk.HostedTable, error) {
	t, err := d.a.StartHosted(ctx, token)
	return hostedOf(t), codeOf(err)
}

func (d deskAdapter) LeaveTable(ctx context.Context, token string) error {
	return codeOf(d.a.LeaveTable(ctx, token))
}

func (d deskAdapter) ListHosted(ctx context.Context) ([]desk.HostedTable, error) {
	ts, err := d.a.ListHosted(ctx)
	out := make([]desk.HostedTable, 0, len(ts))
	for _, t := range ts {
		out = append(out, hostedOf(t))
	}
	return out, codeOf(err)
}

func (d deskAdapter) HostedByCode(ctx context.Context, code string) (desk.HostedTable, error) {
	t, err := d.a.HostedByCode(ctx, code)
	return hostedOf(t), codeOf(err)
}

// LiveRounds lists the live rounds, newest first (pages.Source).
func (d deskAdapter) LiveRounds(ctx context.Context) ([]pages.LiveRound, error) {
	ts, err := d.a.Tables(ctx)
	if err != nil {
		return nil, codeOf(err)
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
