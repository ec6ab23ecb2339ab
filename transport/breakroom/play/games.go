package play

import (
	"bytes"
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"arena/games/breakroom/wire"
	"arena/transport/door"
)

// GamesReply is GET /v0/games ("Choosing a game"), member for member the protocol's sample: the
// open games with their live counts, the recommended one, where to join and the paid tables'
// terms. recommended_paid is the paid queue closest to opening, null when nobody waits at one;
// with no paid tables every game's stakes are [] and waiting_paid {}, and payments is
// {enabled: false, rake_bps: 0, stakes: [], tiers: [], docs_url}.
type GamesReply struct {
	V               int              `json:"v"`
	Recommended     *recommended     `json:"recommended"`
	RecommendedPaid *recommendedPaid `json:"recommended_paid"`
	Games           []GameInfo       `json:"games"`
	Join            *joinInfo        `json:"join,omitempty"`
	Payments        payments         `json:"payments"`
}

// payments is /v0/games's payments member: the paid tables' terms.
type payments struct {
	Enabled  bool      `json:"enabled"`
	RakeBps  int       `json:"rake_bps"`
	Stakes   []int64   `json:"stakes"`
	Tiers    []payTier `json:"tiers"`
	DocsURL  string    `json:"docs_url"`
	TestSats bool      `json:"test_sats,omitempty"`
	Note     string    `json:"note,omitempty"`
}

// tierNames name the paid tiers in order of stake (a fifth and later: "tier_<n>").
var tierNames = []string{"rookie", "regular", "high_roller", "whale"}

// payTier is one paid tier: its stake and name ({"stake_sats": 10, "name": "rookie"}).
type payTier struct {
	StakeSats int64  `json:"stake_sats"`
	Name      string `json:"name"`
}

// recommended is the game to take with no preference: where most agents wait
// (reason "agents_waiting"), else the hour's game in rotation ("rotation").
type recommended struct {
	Game    string `json:"game"`
	Reason  string `json:"reason"`
	Waiting int    `json:"waiting"`
}

// recommendedPaid is the paid queue closest to opening ("Choosing a game"): the fewest agents
// short of its game's min_players, then the most waiting, then the lower stake, then the list's
// order.
type recommendedPaid struct {
	Game      string `json:"game"`
	StakeSats int64  `json:"stake_sats"`
	Waiting   int    `json:"waiting"`
}

// recommendPaid picks recommended_paid from the games' waiting_paid; nil when nobody waits at a
// paid queue.
func recommendPaid(list []GameInfo) *recommendedPaid {
	var best *recommendedPaid
	bestShort := 0
	for _, g := range list {
		stakes := make([]int64, 0, len(g.WaitingPaid))
		for key, n := range g.WaitingPaid {
			if st, err := strconv.ParseInt(key, 10, 64); err == nil && n > 0 {
				stakes = append(stakes, st)
			}
		}
		slices.Sort(stakes)
		for _, st := range stakes {
			n := g.WaitingPaid[strconv.FormatInt(st, 10)]
			short := max(g.MinPlayers-n, 0)
			// Strictly better only: a tie keeps the earlier game, then the lower stake.
			if best == nil || short < bestShort || (short == bestShort && n > best.Waiting) {
				best, bestShort = &recommendedPaid{Game: g.ID, StakeSats: st, Waiting: n}, short
			}
		}
	}
	return best
}

// joinInfo says where the doors are.
type joinInfo struct {
	WebSocket string `json:"websocket"`
	HTTP      string `json:"http"`
}

// games is GET /v0/games, counted as a way in (Options.OnGames).
func (d *Door) games(c echo.Context) error {
	if d.o.OnGames != nil {
		d.o.OnGames()
	}
	ctx, cancel := d.call(c.Request().Context())
	defer cancel()
	out, err := d.Games(ctx)
	if err != nil {
		return d.refuse(err)
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, out)
}

// Games is the answer of GET /v0/games ("Choosing a game"), the one the MCP door's list_games
// gives too: the backend's games (Listed), the recommended one for this hour, the doors and the
// paid tables' terms. Its error is the backend's.
func (d *Door) Games(ctx context.Context) (GamesReply, error) {
	list, err := d.o.Backend.Games(ctx)
	if err != nil {
		return GamesReply{}, err
	}
	list = Listed(list)
	base := strings.TrimRight(d.o.PublicURL, "/")
	out := GamesReply{V: wire.V, Games: list, Recommended: recommend(list, d.o.Now().Unix()/3600), RecommendedPaid: recommendPaid(list),
		Payments: payments{Stakes: []int64{}, Tiers: []payTier{}, DocsURL: base + "/payments"}}
	if t := d.o.Payments; t != nil && d.payer() != nil {
		out.Payments.Enabled, out.Payments.RakeBps, out.Payments.Stakes = true, t.RakeBps, append([]int64{}, t.Stakes...)
		for i, st := range t.Stakes {
			name := "tier_" + strconv.Itoa(i+1)
			if i < len(tierNames) {
				name = tierNames[i]
			}
			out.Payments.Tiers = append(out.Payments.Tiers, payTier{StakeSats: st, Name: name})
		}
		if t.TestSats {
			out.Payments.TestSats = true
			out.Payments.Note = "test sats: this server's development wallet; POST /dev/lightning/pay {\"bolt11\"} pays its invoices"
		}
		for i := range out.Games {
			out.Games[i].Stakes = append([]int64{}, t.Stakes...)
		}
	}
	if base != "" {
		wsBase := "ws" + strings.TrimPrefix(base, "http")
		out.Join = &joinInfo{WebSocket: wsBase + "/v0/play", HTTP: base + "/v0/join"}
	}
	return out, nil
}

// Listed is the games as every door lists them (GET /v0/games, MCP list_games): never null, each
// game's stakes [] and waiting_paid {} when it has none, not null.
func Listed(list []GameInfo) []GameInfo {
	if list == nil {
		list = []GameInfo{}
	}
	for i := range list {
		if list[i].Stakes == nil {
			list[i].Stakes = []int64{}
		}
		if list[i].WaitingPaid == nil {
			list[i].WaitingPaid = map[string]int{}
		}
	}
	return list
}

// recommend picks the game with the most agents waiting (the first of a tie, in the list's
// order), else the game of the hour (hour mod the number of games); nil for no game.
func recommend(list []GameInfo, hour int64) *recommended {
	if len(list) == 0 {
		return nil
	}
	best := -1
	for i, g := range list {
		if g.Waiting > 0 && (best < 0 || g.Waiting > list[best].Waiting) {
			best = i
		}
	}
	if best >= 0 {
		return &recommended{Game: list[best].ID, Reason: "agents_waiting", Waiting: list[best].Waiting}
	}
	g := list[int(hour%int64(len(list)))]
	return &recommended{Game: g.ID, Reason: "rotation", Waiting: 0}
}

// replayLog is GET /r/{match_id}.jsonl ("Public reads"): the match's public log as JSON lines
// (application/jsonl, each line ended by a newline), what `arena verify-log URL` reads. Any other
// /r/{file} is the match's page (Options.Page), or not_found without one.
func (d *Door) replayLog(c echo.Context) error {
	id, ok := strings.CutSuffix(c.Param("file"), ".jsonl")
	if !ok && d.o.Page != nil {
		return d.o.Page(c)
	}
	if !ok || id == "" {
		return door.Refuse(door.CodeNotFound, "no such route; a match's public log is /r/{match_id}.jsonl")
	}
	ctx, cancel := d.call(c.Request().Context())
	defer cancel()
	lines, err := d.o.Backend.Log(ctx, id)
	if err != nil {
		return d.refuse(err)
	}
	var b bytes.Buffer
	for _, l := range lines {
		b.Write(l)
		b.WriteByte('\n')
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.Blob(http.StatusOK, "application/jsonl", b.Bytes())
}
