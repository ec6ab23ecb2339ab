package public

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"arena/chain/nostr"
	"arena/games"
	brgames "arena/games/breakroom"
	"arena/games/breakroom/wire"
	"arena/transport/door"
)

const stamp = "2006-01-02T15:04:05.000Z"

// playerJSON is one seat in the match list.
type playerJSON struct {
	Seat   int    `json:"seat"`
	Pubkey string `json:"pubkey"`
	Name   string `json:"name,omitempty"`
	House  bool   `json:"house,omitempty"`
	Staff  bool   `json:"staff,omitempty"`
}

// matchJSON is one match of GET /v0/matches and GET /v0/matches/{id}. Results, the per-seat
// results (match_end's ranking), only with ?spoilers=1 and only once the match is over.
type matchJSON struct {
	MatchID    string       `json:"match_id"`
	Game       string       `json:"game"`
	Tier       string       `json:"tier"`
	Ranked     bool         `json:"ranked"`
	Status     string       `json:"status"`
	StartedAt  string       `json:"started_at"`
	EndedAt    string       `json:"ended_at,omitempty"`
	Players    []playerJSON `json:"players"`
	ReplayURL  string       `json:"replay_url"`
	LogURL     string       `json:"log_url"`
	Transcript string       `json:"transcript_url"`
	Results    []wire.Rank  `json:"results,omitempty"`
}

func (d *Door) matchOut(m Match, spoilers bool) matchJSON {
	base := d.o.PublicURL + "/r/" + m.ID
	out := matchJSON{MatchID: m.ID, Game: m.Game, Tier: m.Tier, Ranked: m.Ranked, Status: m.Status,
		StartedAt: m.Started.UTC().Format(stamp), Players: make([]playerJSON, len(m.Players)),
		ReplayURL: base, LogURL: base + ".jsonl", Transcript: base + "/transcript"}
	if m.Status != StatusRunning && !m.Ended.IsZero() {
		out.EndedAt = m.Ended.UTC().Format(stamp)
	}
	for i, p := range m.Players {
		out.Players[i] = playerJSON{Seat: p.Seat, Pubkey: p.Pubkey, Name: p.Name, House: p.House, Staff: p.Staff}
	}
	if spoilers && m.Status != StatusRunning {
		out.Results = m.Ranking
	}
	return out
}

// listQuery reads /v0/matches's game and limit: game a known game or absent (unknown_game);
// limit 1 … (DefaultLimit when absent; above MaxLimit it is MaxLimit); anything else bad_request.
func (d *Door) listQuery(c echo.Context) (game string, limit int, err error) {
	if err := once(c, "limit", "game"); err != nil {
		return "", 0, err
	}
	limit = DefaultLimit
	if s := c.QueryParam("limit"); s != "" || c.QueryParams().Has("limit") {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return "", 0, door.Refuse("bad_request", fmt.Sprintf("limit: %q is not a whole number from 1 to %d", clip(s), MaxLimit))
		}
		limit = min(n, MaxLimit)
	}
	if game = c.QueryParam("game"); game != "" || c.QueryParams().Has("game") {
		if _, err := d.game(game); err != nil {
			return "", 0, err
		}
	}
	return game, limit, nil
}

// once refuses a query naming any of names more than once (bad_request).
func once(c echo.Context, names ...string) error {
	for _, n := range names {
		if len(c.QueryParams()[n]) > 1 {
			return door.Refuse("bad_request", n+": given more than once")
		}
	}
	return nil
}

func clip(s string) string {
	if len(s) > 20 {
		return s[:20] + "…"
	}
	return s
}

// spoilersQuery reads ?spoilers: absent or "0" is false, "1" true, anything else bad_request.
func spoilersQuery(c echo.Context) (bool, error) {
	if err := once(c, "spoilers"); err != nil {
		return false, err
	}
	switch s := c.QueryParam("spoilers"); s {
	case "", "0":
		return false, nil
	case "1":
		return true, nil
	default:
		return false, door.Refuse("bad_request", fmt.Sprintf("spoilers: %q; use spoilers=1, or leave it out", clip(s)))
	}
}

// recent is the matches of game ("" any), newest first, at most limit.
func (d *Door) recent(c echo.Context, game string, limit int) ([]matchJSON, error) {
	ctx, cancel := d.call(c.Request().Context())
	defer cancel()
	ms, err := d.o.Backend.Matches(ctx)
	if err != nil {
		return nil, refuse(err)
	}
	out := []matchJSON{}
	for _, m := range ms {
		if len(out) == limit {
			break
		}
		if game == "" || m.Game == game {
			out = append(out, d.matchOut(m, false))
		}
	}
	return out, nil
}

// recentQuery is recent for the request's game and limit (listQuery: its refusals as well).
func (d *Door) recentQuery(c echo.Context) ([]matchJSON, error) {
	game, limit, err := d.listQuery(c)
	if err != nil {
		return nil, err
	}
	return d.recent(c, game, limit)
}

// matchesJSON is GET /v0/matches?game=&limit=: recent matches, newest first, no results.
func (d *Door) matchesJSON(c echo.Context) error {
	list, err := d.recentQuery(c)
	if err != nil {
		return err
	}
	noStore(c)
	return c.JSON(http.StatusOK, map[string]any{"v": wire.V, "matches": list})
}

// matchesPage is GET /matches: the recent matches as a page (the same query as /v0/matches).
func (d *Door) matchesPage(c echo.Context) error {
	list, err := d.recentQuery(c)
	if err != nil {
		return err
	}
	noStore(c)
	return d.page(c, "matches", map[string]any{"Matches": list})
}

// matchJSON is GET /v0/matches/{id}: one match; its per-seat results only with ?spoilers=1 once
// it is over. unknown_match (404).
func (d *Door) matchJSON(c echo.Context) error {
	spoilers, err := spoilersQuery(c)
	if err != nil {
		return err
	}
	ctx, cancel := d.call(c.Request().Context())
	defer cancel()
	m, err := d.o.Backend.Match(ctx, c.Param("id"))
	if err != nil {
		return refuse(err)
	}
	noStore(c)
	return c.JSON(http.StatusOK, map[string]any{"v": wire.V, "match": d.matchOut(m, spoilers)})
}

// matchLog is match id and its log lines, read under one call timeout; the product's refusal
// (unknown_match, 404) when there is no such match.
func (d *Door) matchLog(c echo.Context, id string) (Match, [][]byte, error) {
	ctx, cancel := d.call(c.Request().Context())
	defer cancel()
	m, err := d.o.Backend.Match(ctx, id)
	if err != nil {
		return Match{}, nil, refuse(err)
	}
	lines, err := d.o.Backend.Log(ctx, id)
	if err != nil {
		return Match{}, nil, refuse(err)
	}
	return m, lines, nil
}

// events is a match log's lines as the game's events; EventOf's error for a line that is not one.
func events(lines [][]byte) ([]games.Event, error) {
	evs := make([]games.Event, 0, len(lines))
	for _, l := range lines {
		ev, err := brgames.EventOf(l)
		if err != nil {
			return nil, err
		}
		evs = append(evs, ev)
	}
	return evs, nil
}

// gameName is the name of the game id, id itself when the product has no such game.
func (d *Door) gameName(id string) string {
	name := id
	for _, g := range d.o.Backend.Games() {
		if g.ID == id {
			name = g.Name
		}
	}
	return name
}

// continued indents the lines a log line's words run onto: table talk may hold "\n" (and the
// Unicode line and paragraph separators, which some viewers break on), and a player's words must
// never start a transcript line of their own that reads as the narrator's "[time] …".
var continued = strings.NewReplacer("\r\n", "\n    ", "\n", "\n    ", "\r", "\n    ", "\u2028", "\n    ", "\u2029", "\n    ")

// transcript is GET /r/{match_id}/transcript: the public log in the game's words (plain text),
// one entry per log line: "[time] words", a line break in the words continuing on an indented
// line. A running match reads its public lines so far.
func (d *Door) transcript(c echo.Context) error {
	m, lines, err := d.matchLog(c, c.Param("file"))
	if err != nil {
		return err
	}
	evs, err := events(lines)
	if err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Break Room · %s · match %s (%s)\n", d.gameName(m.Game), m.ID, m.Status)
	fmt.Fprintf(&b, "Public log: %s/r/%s.jsonl\n\n", d.o.PublicURL, m.ID)
	nar := brgames.NewNarration(d.o.Backend.Narrator(m.Game))
	for _, ev := range evs {
		words := nar.Say(ev)
		at := ev.At
		if t, err := time.Parse(time.RFC3339Nano, ev.At); err == nil {
			at = t.UTC().Format("15:04:05")
		}
		fmt.Fprintf(&b, "[%s] %s\n", at, continued.Replace(words))
	}
	if m.Status == StatusRunning {
		b.WriteString("\n(The match is still running.)\n")
	}
	noStore(c)
	return c.Blob(http.StatusOK, "text/plain; charset=utf-8", []byte(b.String()))
}

// record is a key's figures over some completed ranked matches.
type record struct {
	Matches int     `json:"matches"`
	Wins    int     `json:"wins"`
	AvgRank float64 `json:"avg_rank"`
	rankSum int
}

func (r *record) add(rank int) {
	r.Matches++
	r.rankSum += rank
	if rank == 1 {
		r.Wins++
	}
	r.AvgRank = float64(int(float64(r.rankSum)/float64(r.Matches)*100+0.5)) / 100
}

// row is one leaderboard row.
type row struct {
	Rank   int    `json:"rank"`
	Pubkey string `json:"pubkey"`
	Name   string `json:"name,omitempty"`
	record
}

// board is GET /v0/leaderboard/{game}.
type board struct {
	V       int    `json:"v"`
	Game    string `json:"game"`
	Matches int    `json:"matches"` // the completed ranked matches it is made from
	Rows    []row  `json:"rows"`
}

// counted: a match that counts for records and leaderboards: ranked and played out.
func counted(m Match) bool { return m.Ranked && m.Status == StatusFinished }

// leaderboard is game's board: every agent (house bots and staff never) over its completed ranked
// matches, by wins, then average rank (lower first), then matches, then key; at most
// LeaderboardRows rows, ranked 1, 2, … with equal figures sharing a rank.
func (d *Door) leaderboard(c echo.Context, game string) (board, error) {
	ctx, cancel := d.call(c.Request().Context())
	defer cancel()
	ms, err := d.o.Backend.Matches(ctx)
	if err != nil {
		return board{}, refuse(err)
	}
	b := board{V: wire.V, Game: game, Rows: []row{}}
	byKey := map[string]*row{}
	for _, m := range ms {
		if m.Game != game || !counted(m) {
			continue
		}
		b.Matches++
		seat := map[int]Player{}
		for _, p := range m.Players {
			seat[p.Seat] = p
		}
		for _, rk := range m.Ranking {
			p, ok := seat[rk.Seat]
			if !ok || p.House || p.Staff || strings.HasPrefix(p.Pubkey, "house:") {
				continue
			}
			r := byKey[p.Pubkey]
			if r == nil {
				// Matches come newest first: the first name seen is the latest.
				r = &row{Pubkey: p.Pubkey, Name: p.Name}
				byKey[p.Pubkey] = r
			}
			r.add(rk.Rank)
		}
	}
	for _, r := range byKey {
		b.Rows = append(b.Rows, *r)
	}
	slices.SortFunc(b.Rows, func(x, y row) int {
		switch {
		case x.Wins != y.Wins:
			return y.Wins - x.Wins
		case x.AvgRank != y.AvgRank:
			if x.AvgRank < y.AvgRank {
				return -1
			}
			return 1
		case x.Matches != y.Matches:
			return y.Matches - x.Matches
		}
		return strings.Compare(x.Pubkey, y.Pubkey)
	})
	if len(b.Rows) > LeaderboardRows {
		b.Rows = b.Rows[:LeaderboardRows]
	}
	for i := range b.Rows {
		b.Rows[i].Rank = i + 1
		if i > 0 && b.Rows[i].record == b.Rows[i-1].record {
			b.Rows[i].Rank = b.Rows[i-1].Rank
		}
	}
	return b, nil
}

// leaderboardJSON is GET /v0/leaderboard/{game}; unknown_game (404) naming the games.
func (d *Door) leaderboardJSON(c echo.Context) error {
	g, err := d.game(c.Param("game"))
	if err != nil {
		return err
	}
	b, err := d.leaderboard(c, g.ID)
	if err != nil {
		return err
	}
	noStore(c)
	return c.JSON(http.StatusOK, b)
}

// leaderboardPage is GET /leaderboard/{game}.
func (d *Door) leaderboardPage(c echo.Context) error {
	g, err := d.game(c.Param("game"))
	if err != nil {
		return err
	}
	b, err := d.leaderboard(c, g.ID)
	if err != nil {
		return err
	}
	noStore(c)
	return d.page(c, "leaderboard", map[string]any{"Title": g.Name + " leaderboard", "Board": b})
}

// agentJSON is an agent's record, GET /v0/agents/{pubkey} and GET /agents/{pubkey} for agents:
// the key's reputation, its handle when it has one, its record per game over completed ranked
// matches, and its most recent matches (no results).
type agentJSON struct {
	V          int               `json:"v"`
	Pubkey     string            `json:"pubkey"`
	Name       string            `json:"name,omitempty"`
	Reputation wire.Reputation   `json:"reputation"`
	Handle     string            `json:"handle,omitempty"` // its live handle (name@domain), when it has one
	Games      map[string]record `json:"games"`
	Recent     []matchJSON       `json:"recent"`
	// Ledger is the agent's money at the paid tables (Payments.Ledger's answer); absent where
	// paid tables do not run.
	Ledger any `json:"ledger,omitempty"`
}

// MaxRecent is how many of an agent's matches its page lists.
const MaxRecent = 20

// agent is GET /agents/{pubkey}: HTML for browsers, JSON otherwise (the record GET
// /v0/agents/{pubkey} answers); a key that is not 64 lower-case hex of a curve point is
// bad_request.
func (d *Door) agent(c echo.Context) error {
	out, err := d.agentRecord(c)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Vary", "Accept")
	if wantsHTML(c) {
		return d.page(c, "agent", map[string]any{"Agent": out})
	}
	return agentOut(c, out)
}

// agentV0 is GET /v0/agents/{pubkey} ("Public reads"): the agent's record as JSON whatever
// the Accept, the one /agents/{pubkey} gives agents.
func (d *Door) agentV0(c echo.Context) error {
	out, err := d.agentRecord(c)
	if err != nil {
		return err
	}
	return agentOut(c, out)
}

// agentOut writes the record as JSON.
func agentOut(c echo.Context, out agentJSON) error {
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(out); err != nil {
		return err
	}
	return c.JSONBlob(http.StatusOK, bytes.TrimSpace(buf.Bytes()))
}

// agentRecord is c's {pubkey}'s record: its reputation, handle (Options.Handle), name, per-game
// record from its completed ranked matches, and its MaxRecent most recent matches; a key that
// is not 64 lower-case hex of a curve point is bad_request. It sets Cache-Control: no-store.
func (d *Door) agentRecord(c echo.Context) (agentJSON, error) {
	key, err := nostr.ParsePubKey(c.Param("pubkey"))
	if err != nil {
		return agentJSON{}, door.Refuse("bad_request", "pubkey: "+err.Error())
	}
	pub := key.String()
	rep, err := d.o.Backend.Reputation(pub)
	if err != nil {
		return agentJSON{}, refuse(err)
	}
	ctx, cancel := d.call(c.Request().Context())
	defer cancel()
	ms, err := d.o.Backend.Matches(ctx)
	if err != nil {
		return agentJSON{}, refuse(err)
	}
	out := agentJSON{V: wire.V, Pubkey: pub, Reputation: rep, Games: map[string]record{}, Recent: []matchJSON{}}
	if d.o.Handle != nil {
		out.Handle = d.o.Handle(pub)
	}
	if p := d.o.Payments; p != nil && p.Ledger != nil {
		if out.Ledger, err = p.Ledger(ctx, pub); err != nil {
			return agentJSON{}, refuse(err)
		}
	}
	for _, m := range ms {
		var me *Player
		for i, p := range m.Players {
			if p.Pubkey == pub {
				me = &m.Players[i]
			}
		}
		if me == nil {
			continue
		}
		if out.Name == "" {
			out.Name = me.Name
		}
		if len(out.Recent) < MaxRecent {
			out.Recent = append(out.Recent, d.matchOut(m, false))
		}
		if !counted(m) {
			continue
		}
		for _, rk := range m.Ranking {
			if rk.Seat == me.Seat {
				r := out.Games[m.Game]
				r.add(rk.Rank)
				out.Games[m.Game] = r
			}
		}
	}
	noStore(c)
	return out, nil
}
