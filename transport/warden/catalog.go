package warden

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
)

// The catalog's free REST reads (warden-games §7.1), served from the same Games, RulesText and
// match records as the MCP tools warden_games, warden_rules and warden_matches (§8.2), so the
// two doors cannot disagree.
func (m *MCP) mountCatalog(e *echo.Echo) {
	e.GET("/v1/warden/games", m.restGames)
	e.GET("/v1/warden/games/:game/rules", m.restRules)
	e.GET("/v1/warden/matches", m.restMatches)
}

// restGames is GET /v1/warden/games: {v:1, games:[manifest…]}, the Bracket's Warden-family
// manifests (§16.1) in registry order.
func (m *MCP) restGames(c echo.Context) error {
	if err := onlyParams(c.QueryParams()); err != nil {
		return err
	}
	games := m.Games
	if games == nil {
		games = []json.RawMessage{}
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, map[string]any{"v": 1, "games": games})
}

// restRules is GET /v1/warden/games/{game}/rules: the game's rules as text/markdown. An id the
// catalog does not hold is unknown_game (404, §7.3).
func (m *MCP) restRules(c echo.Context) error {
	if err := onlyParams(c.QueryParams()); err != nil {
		return err
	}
	text, ok := "", false
	if m.RulesText != nil {
		text, ok = m.RulesText(c.Param("game"))
	}
	if !ok {
		return refuse("unknown_game", "no Warden game "+strconv.Quote(c.Param("game")))
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.Blob(http.StatusOK, "text/markdown; charset=utf-8", []byte(text))
}

// restMatches is GET /v1/warden/matches?status=&game=&limit=&cursor= (§7.1): public match
// summaries {match_id, game, stake, status, seats} in id order (ParseMatchQuery says what each
// parameter takes). Errors: bad_request, unknown_game.
func (m *MCP) restMatches(c echo.Context) error {
	q, err := ParseMatchQuery(c.QueryParams())
	if err != nil {
		return err
	}
	if q.Game != nil && !m.knowsGame(*q.Game) {
		return refuse("unknown_game", "no Warden game "+strconv.Quote(*q.Game))
	}
	a, err := m.matchList(q.Status, q.Game, q.Limit, q.Cursor)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSONBlob(a.status, a.body)
}

// knowsGame reports whether game is the id of one of the catalog's manifests.
func (m *MCP) knowsGame(game string) bool {
	for _, raw := range m.Games {
		var mf struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(raw, &mf) == nil && mf.ID == game {
			return true
		}
	}
	return false
}

// MatchStatuses are the match states of §5.1, the values GET /v1/warden/matches filters on.
var MatchStatuses = []string{"OPEN", "STAKING", "LIVE", "FINISHED", "SETTLING", "SETTLED", "EXPIRED",
	"CANCELED", "REFUNDING", "CLOSED", "FAILED"}

// MatchQuery is the parsed query of GET /v1/warden/matches; nil members were not given.
type MatchQuery struct {
	Status, Game, Cursor *string
	Limit                *int64
}

// ParseMatchQuery reads the match list's query strictly: only status (one of MatchStatuses),
// game (non-empty), limit (ParseLimit: 1..MaxLimit) and cursor (a match id, the next_cursor of
// the page before), each at most once and non-empty. Anything else is bad_request: the list
// never silently ignores a filter it was asked for.
func ParseMatchQuery(v url.Values) (MatchQuery, error) {
	var q MatchQuery
	for k, vs := range v {
		if len(vs) != 1 {
			return MatchQuery{}, refuse("bad_request", "query parameter "+strconv.Quote(k)+" given more than once")
		}
		s := vs[0]
		if s == "" {
			return MatchQuery{}, refuse("bad_request", "query parameter "+strconv.Quote(k)+" is empty")
		}
		switch k {
		case "status":
			if !validStatus(s) {
				return MatchQuery{}, refuse("bad_request", "status must be one of the match states of §5.1 (OPEN, STAKING, LIVE, …)")
			}
			q.Status = &s
		case "game":
			q.Game = &s
		case "limit":
			n, err := ParseLimit(s)
			if err != nil {
				return MatchQuery{}, err
			}
			l := int64(n)
			q.Limit = &l
		case "cursor":
			if !validMatchID(s) {
				return MatchQuery{}, refuse("bad_request", "cursor is not one this list gave")
			}
			q.Cursor = &s
		default:
			return MatchQuery{}, refuse("bad_request", "unknown query parameter "+strconv.Quote(k)+" (status, game, limit, cursor)")
		}
	}
	return q, nil
}

func validStatus(s string) bool {
	for _, st := range MatchStatuses {
		if s == st {
			return true
		}
	}
	return false
}

// onlyParams refuses any query parameter on a read that takes none (bad_request).
// knownParams refuses (bad_request) a query parameter a read does not take, or one given more
// than once, as the match list does (§7.1): a misspelt filter is an error, not a silent no-op.
func knownParams(v url.Values, allowed ...string) error {
	for k, vs := range v {
		if !slices.Contains(allowed, k) {
			return refuse("bad_request", "unknown query parameter "+strconv.Quote(k)+"; this read takes "+strings.Join(allowed, ", "))
		}
		if len(vs) != 1 {
			return refuse("bad_request", "query parameter "+strconv.Quote(k)+" given more than once")
		}
	}
	return nil
}

func onlyParams(v url.Values) error {
	for k := range v {
		return refuse("bad_request", "this read takes no query parameter ("+strconv.Quote(k)+")")
	}
	return nil
}
