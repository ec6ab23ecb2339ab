package site

import (
	"log/slog"
	"time"

	"arena/games"
	"arena/transport/door"
	"arena/transport/dotdotdot/chatseat"
	"arena/transport/dotdotdot/desk"
	"arena/transport/dotdotdot/feedback"
	"arena/transport/dotdotdot/join"
	"arena/transport/dotdotdot/pages"
	"arena/transport/httpapi"
	"arena/transport/meta"
	"arena/transport/ops"
)

// Backend is what every DOTDOTDOT door calls: the walk-in desk with its hosted tables, the chat
// seat's desk, the pages' source and the ops door's tables. *dotdotdot.Arena is one (cmd/arena
// checks it at build time).
type Backend interface {
	desk.Desk
	desk.Hosted
	desk.Kinds
	Showcaser
	chatseat.Desk
	pages.Source
	ops.Tables
}

// Deps are the DOTDOTDOT site's parts as a server holds them; Site builds the site from them,
// with every door mounted (desk, join, ops, instance card, pages, chat seat).
type Deps struct {
	// Arena is every door's backend (required).
	Arena Backend
	// Game is the engine the doors put in words (DOTDOTDOT plays Blitz): the chat seat takes its
	// games.Describer and the pages its games.Narrator, each when the engine has one.
	Game games.Engine
	// Join, when set, mounts the registered agents' door (join.Options).
	Join *join.Options
	// Origin is the public origin every link and page names ("https://arena.example"), never a
	// request's Host.
	Origin string
	// MaxBody caps request bodies in bytes; LongPoll caps GET /v1/walkin/next?wait= (§4.4).
	MaxBody  int64
	LongPoll time.Duration
	// OperatorToken guards /ops/*.
	OperatorToken string
	// OpsChecks are DOTDOTDOT's consistency checks at /ops/checks/{name} (ops.Options.Checks:
	// "paid", the paid tables' ledger against the escrow).
	OpsChecks map[string]ops.Check
	// TrustProxyHost tells the chat seat that a proxy on this host forwards the public Host
	// (chatseat.Options.TrustProxyHost).
	TrustProxyHost bool
	// Registrations and Tables limit, per caller address, walk-in registrations and tables
	// opened; the desk and the chat seat share them, so one address has one budget on both.
	// Forwarded reads the address from X-Forwarded-For. Nil limiters: no limit.
	Registrations, Tables *door.Limiter
	Forwarded             bool
	// Drain, when closed (the server is shutting down), ends long polls, feeds and waiting
	// next_move calls at once.
	Drain <-chan struct{}
	// Notes keeps the feedback notes (the scouting notice's link and the chat seat's feedback
	// tool; *storage.Store in `arena serve`); nil: the chat seat's notes go to Logger and
	// /v1/feedback is not served. NotesLimit limits them per address on both doors.
	Notes      feedback.Notes
	NotesLimit *door.Limiter
	// Meta serves the instance card (/.well-known/agent.json).
	Meta meta.Options
	// Logger receives the doors' internal errors and the chat seat's feedback.
	Logger *slog.Logger
}

// Site is the DOTDOTDOT site at at, every door of d mounted.
func (d Deps) Site(at httpapi.Place) Site { return Site{Place: at, Options: d.Options()} }

// Options are the doors' options d makes.
func (d Deps) Options() Options {
	describer, _ := d.Game.(games.Describer)
	narrator, _ := d.Game.(games.Narrator)
	notes := chatseat.LogFeedback(d.Logger)
	var fb *feedback.Options
	if d.Notes != nil {
		notes = feedback.Keep(d.Notes, nil)
		fb = &feedback.Options{Notes: d.Notes, Limiter: d.NotesLimit, Forwarded: d.Forwarded, OperatorToken: d.OperatorToken}
	}
	return Options{
		Join: d.Join,
		Desk: d.Arena,
		DeskOptions: desk.Options{MaxBody: d.MaxBody, LongPoll: d.LongPoll, Drain: d.Drain, Site: d.Origin,
			Registrations: d.Registrations, Tables: d.Tables, Forwarded: d.Forwarded},
		Ops:        d.Arena,
		OpsOptions: ops.Options{Token: d.OperatorToken, Checks: d.OpsChecks},
		Pages:      &pages.Options{Source: d.Arena, Narrator: narrator, Drain: d.Drain, Logger: d.Logger, Site: d.Origin},
		Chat: &chatseat.Options{Desk: d.Arena, Describer: describer, Drain: d.Drain, Logger: d.Logger, Site: d.Origin, MaxBody: d.MaxBody,
			Feedback: notes, TrustProxyHost: d.TrustProxyHost,
			Registrations: d.Registrations, Tables: d.Tables, Notes: d.NotesLimit, Forwarded: d.Forwarded},
		Feedback: fb,
		Meta:     d.Meta,
		LentCard: lentCardOf(d.Arena),
	}
}

// lentCardOf is the backend's LentCard when it serves lent seats' cards (*dotdotdot.Arena), else
// nil (the route is not mounted).
func lentCardOf(b Backend) func(table string, seat int) ([]byte, bool) {
	if l, ok := b.(interface {
		LentCard(table string, seat int) ([]byte, bool)
	}); ok {
		return l.LentCard
	}
	return nil
}
