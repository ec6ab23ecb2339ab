// Package pages renders the pages a person, an assistant or an agent is handed
// (dotdotdot-protocol-v1 §4.5 "the link", §15): server-side html/template, no build step, the
// templates and the protocol text embedded in the binary. Every page shows only what every
// player may see: public events before the reveal, then the reveal itself; display names,
// never a token.
//
// Routes (Mount):
//
//	GET /                          the lobby: hosted tables gathering, live rounds, showings of
//	                               recorded rounds, this week's board (JSON when asked for JSON)
//	GET /t/{code}                  a hosted table: its code, who is there, and every way to join
//	                               (the connector URL, `claude mcp add`, the HTTP routes with curl)
//	GET /r/{round}                 a round's live page: the public feed (SSE), then the reveal
//	GET /v1/rounds/{round}/events  the public event feed as Server-Sent Events (feed.go)
//	GET /r/{round}/showings/{seq}  a showing of a recorded round, and its feed (showing.go)
//	GET /protocol/v1               the protocol text (markdown; an HTML page for a browser)
//	GET /skill.md                  where an agent starts: the protocol, the connector, the routes
package pages

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"log/slog"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"
	textTemplate "text/template"
	"time"

	"github.com/labstack/echo/v4"

	"arena/actors"
	"arena/actors/dotdotdot"
	"arena/games"
	"arena/transport/door"
)

//go:embed templates/*.html
var templateFS embed.FS

// skill.md is markdown: rendered with text/template (html/template would escape its quotes).
//
//go:embed templates/skill.md
var skillText string

//go:embed protocol/dotdotdot-protocol-v1.md
var protocolText []byte

// ProtocolText is the protocol as published at /protocol/v1 (markdown, UTF-8).
func ProtocolText() []byte { return bytes.Clone(protocolText) }

// LiveRound is a round being played now, as the lobby lists it.
type LiveRound struct {
	Round   string   `json:"round"`   // "T-<n>"
	Kind    string   `json:"kind"`    // "practice" | "walkin" | "hosted" | ...
	Format  string   `json:"format"`  // "blitz" | "short"
	Turn    int      `json:"turn"`    // the turn being played (0 before the first)
	Phase   string   `json:"phase"`   // the phase being played
	Players []string `json:"players"` // display names by seat
}

// liveRounds lists the rounds being played now, newest first.
func liveRounds(ctx context.Context, s Source) ([]LiveRound, error) {
	ts, err := s.Tables(ctx)
	if err != nil {
		return nil, err
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i].Created.After(ts[j].Created) })
	var out []LiveRound
	for _, t := range ts {
		if t.Status != actors.StatusLive || t.Round == "" {
			continue
		}
		r := LiveRound{Round: t.Round, Kind: t.Kind, Format: t.Format, Turn: t.Turn, Phase: t.Phase}
		for _, s := range t.Seats {
			r.Players = append(r.Players, s.Name)
		}
		out = append(out, r)
	}
	return out, nil
}

// Source is what the pages read; *dotdotdot.Arena implements it.
// Errors are *games.Error or *door.Refusal with the protocol's codes (unknown_table,
// unknown_round) or anything else (a 500 page, logged).
type Source interface {
	// ListHosted lists the hosted tables gathering (display names only).
	ListHosted(ctx context.Context) ([]dotdotdot.HostedTable, error)
	// HostedByCode is one hosted table by code: unknown_table when none.
	HostedByCode(ctx context.Context, code string) (dotdotdot.HostedTable, error)
	// Tables lists every table the arena knows (the lobby shows the live rounds among them).
	Tables(ctx context.Context) ([]actors.TableInfo, error)
	// Board is this week's board as JSON (GET /v1/walkin/board).
	Board(ctx context.Context) (json.RawMessage, error)
	// Transcript is a round's events in seq order and whether it was revealed; the pages keep
	// only the events whose visibility is "public" whatever it answers.
	Transcript(ctx context.Context, round string) (events []games.Event, revealed bool, err error)
}

// KindSource is what the lobby reads of the table kinds when Source has it (*dotdotdot.Arena
// does): the agent tables gathering and the ratings (docs/protocol-notes.md "DOTDOTDOT table
// kinds", "DOTDOTDOT ratings").
type KindSource interface {
	Gatherings(ctx context.Context) ([]dotdotdot.Gathering, error)
	Ratings() ([]dotdotdot.RatingRecord, error)
}

// Options configure the pages.
type Options struct {
	Source Source
	// Narrator puts the game's events and its reveal card in words (games.Narrator: the Blitz
	// engine); nil shows each event as its type, no reveal card, and never ends a feed before its
	// time.
	Narrator games.Narrator
	// Site is the origin the pages name in the join lines ("https://arena.example"); empty
	// takes the request's own (its scheme, X-Forwarded-Proto honoured, and Host).
	Site string
	// Poll is how often an open feed reads the transcript for new public events (zero: 500 ms).
	Poll time.Duration
	// Heartbeat is how often an idle feed sends an SSE comment (zero: 15 s), so proxies keep it.
	Heartbeat time.Duration
	// MaxFeed ends a feed after this long (zero: 30 min); EventSource reconnects with
	// Last-Event-ID and the feed resumes after the last event sent.
	MaxFeed time.Duration
	// Drain, when closed (the server is shutting down), ends every feed at once.
	Drain <-chan struct{}
	// CallTimeout bounds each Source call (zero: 10 s).
	CallTimeout time.Duration
	Logger      *slog.Logger
}

type pages struct {
	o      Options
	tmpl   *template.Template
	skillT *textTemplate.Template
	cache  feedCache
}

// Mount adds the pages' routes to e. It fails only if the embedded templates do not parse.
func Mount(e *echo.Echo, o Options) error {
	if o.Narrator == nil {
		o.Narrator = plainNarrator{}
	}
	if o.Poll <= 0 {
		o.Poll = 500 * time.Millisecond
	}
	if o.Heartbeat <= 0 {
		o.Heartbeat = 15 * time.Second
	}
	if o.MaxFeed <= 0 {
		o.MaxFeed = 30 * time.Minute
	}
	if o.CallTimeout <= 0 {
		o.CallTimeout = 10 * time.Second
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	t, err := template.New("").Funcs(funcs).ParseFS(templateFS, "templates/*.html")
	if err != nil {
		return fmt.Errorf("pages: templates: %w", err)
	}
	st, err := textTemplate.New("skill.md").Parse(skillText)
	if err != nil {
		return fmt.Errorf("pages: skill.md: %w", err)
	}
	p := &pages{o: o, tmpl: t, skillT: st}
	e.GET("/", p.lobby)
	e.GET("/t/:code", p.table)
	e.GET("/r/:round", p.round)
	e.GET("/v1/rounds/:round/events", p.feed)
	e.GET("/r/:round/showings/:seq", p.showing)
	e.GET("/v1/rounds/:round/showings/:seq/events", p.showingFeed)
	e.GET("/protocol/v1", p.protocol)
	e.GET("/skill.md", p.skill)
	return nil
}

var funcs = template.FuncMap{
	// ccd renders microCCD as CCD with up to two decimals: 200000000 → "200", -1500000 → "-1.5".
	"ccd": func(micro int64) string {
		s := strconv.FormatFloat(float64(micro)/1e6, 'f', 2, 64)
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
		if s == "-0" {
			s = "0"
		}
		return s
	},
	"join": strings.Join,
	"utc": func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.UTC().Format("15:04 UTC")
	},
	"add": func(a, b int) int { return a + b },
	// dict builds a map from key, value pairs (a template's data for a partial).
	"dict": func(kv ...any) map[string]any {
		m := make(map[string]any, len(kv)/2)
		for i := 0; i+1 < len(kv); i += 2 {
			if k, ok := kv[i].(string); ok {
				m[k] = kv[i+1]
			}
		}
		return m
	},
}

// site is the origin the pages name (Options.Site or the request's).
func (p *pages) site(c echo.Context) string {
	if p.o.Site != "" {
		return strings.TrimRight(p.o.Site, "/")
	}
	return c.Scheme() + "://" + c.Request().Host
}

func (p *pages) ctx(c echo.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(c.Request().Context(), p.o.CallTimeout)
}

// render writes a page. Pages are never cached: they show what is gathering right now.
func (p *pages) render(c echo.Context, status int, name string, data any) error {
	var buf bytes.Buffer
	if err := p.tmpl.ExecuteTemplate(&buf, name, data); err != nil {
		p.o.Logger.Error("page not rendered", "page", name, "err", err)
		return door.Refuse(door.CodeInternal, "the page could not be rendered")
	}
	h := c.Response().Header()
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	// Scripts only from this origin's page itself (the round page's feed script is inline).
	h.Set("Content-Security-Policy", "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")
	return c.HTMLBlob(status, buf.Bytes())
}

// notFound renders the 404 page with a line saying what was not found.
func (p *pages) notFound(c echo.Context, what string) error {
	return p.render(c, http.StatusNotFound, "notfound.html", map[string]any{"What": what, "Site": p.site(c)})
}

// codeOf is a refusal's code ("" for other errors).
func codeOf(err error) string {
	if r, ok := door.AsRefusal(err); ok {
		return r.Code
	}
	return ""
}

// lobbyMax caps each list on the lobby.
const lobbyMax = 20

func (p *pages) lobby(c echo.Context) error {
	ctx, cancel := p.ctx(c)
	defer cancel()
	data := struct {
		Site      string                   `json:"site"`
		Hosted    []dotdotdot.HostedTable  `json:"hosted"`
		Live      []LiveRound              `json:"live"`
		Showings  []LobbyShowing           `json:"showings"`
		Board     dotdotdot.BoardView      `json:"board"`
		Kinds     []dotdotdot.TableKind    `json:"kinds"`
		Gathering []dotdotdot.Gathering    `json:"gathering"`
		Ratings   []dotdotdot.RatingRecord `json:"ratings"`
		Partial   bool                     `json:"partial"` // a list could not be read: the page says so instead of failing
	}{Site: p.site(c), Kinds: dotdotdot.TableKinds(), Showings: []LobbyShowing{}}
	if k, ok := p.o.Source.(interface{ TableKinds() []dotdotdot.TableKind }); ok {
		data.Kinds = k.TableKinds() // the scouting this arena plays (Arena.TableKinds)
	}
	var err error
	if ss, ok := p.o.Source.(ShowingsSource); ok {
		recs, err := ss.RecentShowings(ctx, lobbyMax)
		if err != nil {
			p.o.Logger.Warn("lobby: showings unreadable", "err", err)
			data.Partial = true
		}
		for _, sh := range recs {
			data.Showings = append(data.Showings, lobbyShowing(sh))
		}
	}
	if ks, ok := p.o.Source.(KindSource); ok {
		if data.Gathering, err = ks.Gatherings(ctx); err != nil {
			p.o.Logger.Warn("lobby: agent tables gathering unreadable", "err", err)
			data.Partial = true
		}
		if data.Ratings, err = ks.Ratings(); err != nil {
			p.o.Logger.Warn("lobby: ratings unreadable", "err", err)
			data.Partial = true
		}
		if len(data.Gathering) > lobbyMax {
			data.Gathering = data.Gathering[:lobbyMax]
		}
		if len(data.Ratings) > lobbyMax {
			data.Ratings = data.Ratings[:lobbyMax]
		}
	}
	if data.Ratings == nil {
		data.Ratings = []dotdotdot.RatingRecord{} // an empty list is [], as every other list here
	}
	if data.Gathering == nil {
		data.Gathering = []dotdotdot.Gathering{}
	}
	if data.Hosted, err = p.o.Source.ListHosted(ctx); err != nil {
		p.o.Logger.Warn("lobby: hosted tables unreadable", "err", err)
		data.Partial = true
	}
	if data.Live, err = liveRounds(ctx, p.o.Source); err != nil {
		p.o.Logger.Warn("lobby: live rounds unreadable", "err", err)
		data.Partial = true
	}
	if b, err := p.o.Source.Board(ctx); err != nil || json.Unmarshal(b, &data.Board) != nil {
		p.o.Logger.Warn("lobby: board unreadable", "err", err)
		data.Partial = true
	}
	if len(data.Hosted) > lobbyMax {
		data.Hosted = data.Hosted[:lobbyMax]
	}
	if len(data.Live) > lobbyMax {
		data.Live = data.Live[:lobbyMax]
	}
	if len(data.Board.Lines) > lobbyMax {
		data.Board.Lines = data.Board.Lines[:lobbyMax]
	}
	if wantsJSON(c) {
		return c.JSON(http.StatusOK, data)
	}
	return p.render(c, http.StatusOK, "lobby.html", data)
}

// codeShape is what a code in a path may look like before the desk is asked (it folds case).
var codeShape = regexp.MustCompile(`^[A-Za-z0-9]{4}$`)

func (p *pages) table(c echo.Context) error {
	code := c.Param("code")
	if !codeShape.MatchString(code) {
		return p.notFound(c, "There is no table with that code.")
	}
	ctx, cancel := p.ctx(c)
	defer cancel()
	t, err := p.o.Source.HostedByCode(ctx, code)
	if codeOf(err) == door.CodeUnknownTable {
		return p.notFound(c, "There is no table with the code "+strings.ToUpper(code)+" now. Codes last until two hours after their table started.")
	}
	if err != nil {
		return err
	}
	site := p.site(c)
	if wantsJSON(c) {
		return p.tableJSON(c, t, site)
	}
	open := t.Seats - len(t.Players)
	if open < 0 {
		open = 0
	}
	return p.render(c, http.StatusOK, "table.html", map[string]any{
		"T": t, "Site": site, "Open": open, "MCP": site + "/mcp",
		"Gathering": t.Status == "gathering",
	})
}

// roundShape is a round id (§3).
var roundShape = regexp.MustCompile(`^T-[0-9]{1,19}$`)

func (p *pages) round(c echo.Context) error {
	round := c.Param("round")
	if !roundShape.MatchString(round) {
		return p.notFound(c, "There is no round by that name; rounds are named T-<n>.")
	}
	ctx, cancel := p.ctx(c)
	defer cancel()
	evs, _, err := p.o.Source.Transcript(ctx, round)
	if code := codeOf(err); code == door.CodeUnknownRound {
		return p.notFound(c, "There is no round "+round+" here.")
	}
	if err != nil {
		return err
	}
	v := newRoundView(p.o.Narrator, round, publicOnly(evs))
	var shown []dotdotdot.Replay
	if rs, ok := p.o.Source.(ReplaySource); ok && v.End != "" {
		if shown, err = rs.Replays(ctx, round); err != nil {
			p.o.Logger.Warn("round page: showings unreadable", "round", round, "err", err)
			shown = nil
		}
	}
	return p.render(c, http.StatusOK, "round.html", map[string]any{"R": v, "Site": p.site(c), "Shown": shown})
}

func (p *pages) protocol(c echo.Context) error {
	if strings.Contains(c.Request().Header.Get("Accept"), "text/html") {
		return p.render(c, http.StatusOK, "protocol.html", map[string]any{"Text": string(protocolText), "Site": p.site(c)})
	}
	c.Response().Header().Set("Cache-Control", "public, max-age=300")
	return c.Blob(http.StatusOK, "text/markdown; charset=utf-8", protocolText)
}

func (p *pages) skill(c echo.Context) error {
	var buf bytes.Buffer
	if err := p.skillT.Execute(&buf, map[string]any{"Site": p.site(c)}); err != nil {
		p.o.Logger.Error("skill.md not rendered", "err", err)
		return door.Refuse(door.CodeInternal, "skill.md could not be rendered")
	}
	c.Response().Header().Set("Cache-Control", "public, max-age=300")
	c.Response().Header().Set("X-Content-Type-Options", "nosniff")
	return c.Blob(http.StatusOK, "text/markdown; charset=utf-8", buf.Bytes())
}

// wantsJSON: the client asked for JSON and not HTML (an agent handed the link).
func wantsJSON(c echo.Context) bool {
	a := c.Request().Header.Get("Accept")
	return strings.Contains(a, "application/json") && !strings.Contains(a, "text/html")
}

// tableJSON is /t/{code} for an agent: the table (as GET /v1/tables/hosted/{code}, links
// absolute) and every way to join, as data.
func (p *pages) tableJSON(c echo.Context, t dotdotdot.HostedTable, site string) error {
	t.Link = site + "/t/" + t.Code
	if t.Round != "" {
		t.Watch = site + "/r/" + t.Round
	}
	if t.Players == nil {
		t.Players = []string{}
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, map[string]any{
		"table": t,
		"join": map[string]any{
			"connector":   site + "/mcp",
			"claude_code": "claude mcp add --transport http arena " + site + "/mcp",
			"mcp_tool":    map[string]any{"name": "join_table", "arguments": map[string]string{"code": t.Code}},
			"http": []string{
				"POST " + site + "/v1/walkin {\"name\"} -> {\"token\"}",
				"POST " + site + "/v1/walkin/join {\"code\":\"" + t.Code + "\"} with header x-walkin: <token>",
				"GET " + site + "/v1/walkin/next?wait=30&format=brief with header x-walkin: <token>",
				"POST " + site + "/v1/walkin/answer <the brief's answer body> with header x-walkin: <token>",
			},
		},
		"protocol": site + "/protocol/v1",
		"skill":    site + "/skill.md",
	})
}
