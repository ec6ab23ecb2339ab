package warden

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"arena/chain/evm/evmtest"
	"arena/games/warden/claims"
	"arena/games/warden/dilemma"
	"arena/storage"
	"arena/transport/door"
)

// newCatalogRig serves the Warden site (doors and MCP) with both games' manifests and rules,
// over a fresh store.
func newCatalogRig(t testing.TB) *rig {
	s, err := storage.Open(filepath.Join(t.TempDir(), "arena.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{t: t, store: s}
	_, r.payTo = evmtest.Key(0x0c)
	_, asset := evmtest.Key(0x0a)
	r.doors = &Doors{Store: s, Games: []string{claims.GameID, dilemma.GameID}, Now: time.Now, BaseURL: "http://warden.test",
		Rail: Rail{ID: "dev-exact", ChainID: 1337, Asset: asset, PayTo: r.payTo, DomainName: "USDC", DomainVersion: "2"}}
	rules := map[string]string{claims.GameID: claims.RulesText, dilemma.GameID: dilemma.RulesText}
	site := Site{Doors: r.doors, MCP: &MCP{Store: s, Views: StoredViews{Store: s},
		Games:     []json.RawMessage{claims.ManifestJSON, dilemma.ManifestJSON},
		RulesText: func(g string) (string, bool) { text, ok := rules[g]; return text, ok }}}
	e := echo.New()
	e.HTTPErrorHandler = Answer.ErrorHandler(slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err := site.Mount(e); err != nil {
		t.Fatal(err)
	}
	r.srv = httptest.NewServer(e)
	t.Cleanup(r.close)
	return r
}

// TestCatalogGames: GET /v1/warden/games is both manifests byte-for-byte as embedded, in order;
// a query parameter is bad_request.
func TestCatalogGames(t *testing.T) {
	r := newCatalogRig(t)
	a := r.do("GET", "/v1/warden/games", "", nil, nil)
	if a.status != 200 || a.body["v"] != float64(1) {
		t.Fatalf("games: %d %v", a.status, a.body)
	}
	var want []any
	for _, raw := range [][]byte{claims.ManifestJSON, dilemma.ManifestJSON} {
		var m any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		want = append(want, m)
	}
	if !reflect.DeepEqual(a.body["games"], want) {
		t.Fatalf("games %v", a.body["games"])
	}
	if a.body["games"].([]any)[1].(map[string]any)["id"] != "warden.dilemma" {
		t.Fatalf("second game %v", a.body["games"])
	}
	if a := r.do("GET", "/v1/warden/games?x=1", "", nil, nil); a.status != 400 || a.body["error"] != "bad_request" {
		t.Fatalf("games?x=1: %d %v", a.status, a.body)
	}
}

// TestCatalogRules: each game's rules are its embedded markdown; an unknown game is
// unknown_game (404) in the Warden's error body.
func TestCatalogRules(t *testing.T) {
	r := newCatalogRig(t)
	for game, text := range map[string]string{claims.GameID: claims.RulesText, dilemma.GameID: dilemma.RulesText} {
		resp, err := http.Get(r.srv.URL + "/v1/warden/games/" + game + "/rules")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/markdown; charset=utf-8" || string(b) != text {
			t.Fatalf("%s rules: %d %q %q", game, resp.StatusCode, resp.Header.Get("Content-Type"), b)
		}
	}
	a := r.do("GET", "/v1/warden/games/warden.nope/rules", "", nil, nil)
	if a.status != 404 || a.body["error"] != "unknown_game" || a.body["v"] != float64(1) {
		t.Fatalf("unknown game: %d %v", a.status, a.body)
	}
	if a := r.do("GET", "/v1/warden/games/warden.claims/rules?lang=fr", "", nil, nil); a.status != 400 || a.body["error"] != "bad_request" {
		t.Fatalf("rules?lang: %d %v", a.status, a.body)
	}
}

// TestCatalogMatches: the public match list filters by status and game, pages by cursor, shows
// only the public members, and refuses every malformed query with the code and status of §7.3.
func TestCatalogMatches(t *testing.T) {
	r := newCatalogRig(t)
	ada, bo, cy := r.register(0x21, "shark"), r.register(0x22, "shark"), r.register(0x23, "shark")
	staking := r.pair(ada, bo)
	o := r.do("POST", "/v1/warden/matches", cy.token, map[string]any{"game": "warden.claims", "stake": testStake}, nil)
	if o.status != 201 {
		t.Fatalf("open: %d %v", o.status, o.body)
	}
	open := o.body["match_id"].(string)
	first, second := min(staking, open), max(staking, open)
	summary := map[string]any{
		staking: map[string]any{"match_id": staking, "game": "warden.dilemma", "stake": float64(testStake), "status": "STAKING",
			"seats": map[string]any{"A": ada.wallet.String(), "B": bo.wallet.String()}},
		open: map[string]any{"match_id": open, "game": "warden.claims", "stake": float64(testStake), "status": "OPEN",
			"seats": map[string]any{"A": cy.wallet.String(), "B": ""}},
	}
	list := func(q string) []any {
		t.Helper()
		a := r.do("GET", "/v1/warden/matches"+q, "", nil, nil)
		if a.status != 200 || a.body["v"] != float64(1) {
			t.Fatalf("matches%s: %d %v", q, a.status, a.body)
		}
		return append(a.body["matches"].([]any), a.body["next_cursor"])
	}
	for q, want := range map[string][]any{
		"":                                    {summary[first], summary[second], nil},
		"?status=OPEN":                        {summary[open], nil},
		"?status=STAKING&game=warden.dilemma": {summary[staking], nil},
		"?status=LIVE":                        {nil},
		"?game=warden.claims":                 {summary[open], nil},
		"?limit=1":                            {summary[first], first},
		"?limit=1&cursor=" + first:            {summary[second], nil},
		"?cursor=" + second:                   {nil},
	} {
		if got := list(q); !reflect.DeepEqual(got, want) {
			t.Fatalf("matches%s:\n got %v\nwant %v", q, got, want)
		}
	}
	for q, code := range map[string]string{
		"?limit=0": "bad_request", "?limit=501": "bad_request", "?limit=01": "bad_request", "?limit=x": "bad_request",
		"?status=open": "bad_request", "?status=": "bad_request", "?cursor=wm_1": "bad_request",
		"?status=OPEN&status=LIVE": "bad_request", "?sort=id": "bad_request", "?game=warden.nope": "unknown_game",
	} {
		a := r.do("GET", "/v1/warden/matches"+q, "", nil, nil)
		status := map[string]int{"bad_request": 400, "unknown_game": 404}[code]
		if a.status != status || a.body["error"] != code {
			t.Fatalf("matches%s: %d %v, want %d %s", q, a.status, a.body, status, code)
		}
	}
}

// Any query either is refused with bad_request or yields members within their ranges, and the
// query rebuilt from them parses to the same.
func FuzzParseMatchQuery(f *testing.F) {
	for _, q := range []string{"", "status=LIVE", "game=warden.claims&limit=5", "cursor=wm_0000000000000001", "limit=0",
		"a=1", "status=OPEN&status=OPEN", "limit=%zz", "status=", "cursor=wm_00000000000000AA"} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		v, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		q, err := ParseMatchQuery(v)
		if err != nil {
			if r, ok := door.AsRefusal(err); !ok || r.Code != "bad_request" {
				t.Fatalf("%q: %v, not bad_request", raw, err)
			}
			return
		}
		back := url.Values{}
		if q.Status != nil {
			if !slices.Contains(MatchStatuses, *q.Status) {
				t.Fatalf("%q: status %q", raw, *q.Status)
			}
			back.Set("status", *q.Status)
		}
		if q.Game != nil {
			back.Set("game", *q.Game)
		}
		if q.Limit != nil {
			if *q.Limit < 1 || *q.Limit > MaxLimit {
				t.Fatalf("%q: limit %d", raw, *q.Limit)
			}
			back.Set("limit", v.Get("limit"))
		}
		if q.Cursor != nil {
			if !validMatchID(*q.Cursor) {
				t.Fatalf("%q: cursor %q", raw, *q.Cursor)
			}
			back.Set("cursor", *q.Cursor)
		}
		if len(back) != len(v) {
			t.Fatalf("%q: %d parameters, %d read", raw, len(v), len(back))
		}
		q2, err := ParseMatchQuery(back)
		if err != nil || !reflect.DeepEqual(q, q2) {
			t.Fatalf("%q: %+v, again %+v %v", raw, q, q2, err)
		}
	})
}
