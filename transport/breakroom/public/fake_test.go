package public

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"arena/games"
	brgames "arena/games/breakroom"
	"arena/games/breakroom/dilemma"
	"arena/games/breakroom/wire"
	"arena/storage"
	"arena/storage/storagetest"
	brsite "arena/transport/breakroom"
	"arena/transport/breakroom/openapi/openapitest"
	"arena/transport/httpapi"
)

// Valid x-only keys (the x of G, 2G, 3G).
const (
	keyAda = "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"
	keyBea = "c6047f9441ed7d6d3045406e95c07cd85c778e4b8cef3ca7abac09b95c709ee5"
	keyCy  = "f9308a019258c31049344f85f89d5229b531c845836f99b08601f113bce036f9"
)

// now is the test's clock: 2026-12-02 12:30 UTC.
var now = time.Date(2026, 12, 2, 12, 30, 0, 0, time.UTC)

// fake is a product with four matches: m_run running (its ranking set, which no read may show),
// m_fin finished and ranked (Bea first, the bartender second, Ada third), m_house finished at an
// unranked table, m_ab abandoned.
type fake struct {
	example [][]byte // the Dilemma's worked example log: m_fin's
}

func rank(r, seat int, key string) wire.Rank {
	return wire.Rank{Rank: r, Seat: seat, Pubkey: key, Fields: json.RawMessage(`{"score":1.5}`)}
}

func (f *fake) Games() []brgames.GameInfo {
	return []brgames.GameInfo{dilemma.Engine{}.Info(),
		{ID: "coin", Name: "Coin", Summary: "two seats", MinPlayers: 2, MaxPlayers: 2, RulesVersion: "coin-0", Rules: "# Coin\n\nFlip.\n"}}
}

func (f *fake) Matches(context.Context) ([]Match, error) {
	players := []Player{{Seat: 0, Pubkey: keyAda, Name: "Ada"}, {Seat: 1, Pubkey: keyBea, Name: "Bea"}, {Seat: 2, Pubkey: keyCy, Name: "Cy"}}
	withStaff := []Player{players[0], players[1], {Seat: 2, Pubkey: "house:bartender", Name: "Bartender", Staff: true}}
	withHouse := []Player{players[0], players[1], {Seat: 2, Pubkey: "house:1", House: true}}
	return []Match{
		{ID: "m_run", Game: "dilemma", Tier: "rookie", Ranked: true, Status: StatusRunning, Started: now.Add(-10 * time.Minute),
			Players: players, Ranking: []wire.Rank{rank(1, 2, keyCy)}},
		{ID: "m_house", Game: "dilemma", Tier: "rookie", Status: StatusFinished, Started: now.Add(-2 * time.Hour),
			Ended: now.Add(-110 * time.Minute), Players: withHouse, Ranking: []wire.Rank{rank(1, 0, keyAda), rank(2, 1, keyBea), rank(3, 2, "house:1")}},
		{ID: "m_ab", Game: "dilemma", Tier: "rookie", Ranked: true, Status: StatusAbandoned, Started: now.Add(-3 * time.Hour),
			Ended: now.Add(-170 * time.Minute), Players: players, Ranking: []wire.Rank{rank(1, 0, keyAda)}},
		{ID: "m_fin", Game: "dilemma", Tier: "rookie", Ranked: true, Status: StatusFinished, Started: now.Add(-26 * time.Hour),
			Ended: now.Add(-25 * time.Hour), Players: withStaff,
			Ranking: []wire.Rank{rank(1, 1, keyBea), rank(2, 2, "house:bartender"), rank(3, 0, keyAda)}},
	}, nil
}

func (f *fake) Match(ctx context.Context, id string) (Match, error) {
	ms, _ := f.Matches(ctx)
	for _, m := range ms {
		if m.ID == id {
			return m, nil
		}
	}
	return Match{}, games.Errorf("unknown_match", "no match %q", id)
}

func (f *fake) Log(_ context.Context, id string) ([][]byte, error) {
	switch id {
	case "m_fin":
		return f.example, nil
	case "m_run":
		return f.example[:2], nil // match_start and round_start: the public lines so far
	}
	return nil, games.Errorf("unknown_match", "no match %q", id)
}

func (f *fake) Reputation(key string) (wire.Reputation, error) {
	if key == keyBea {
		return wire.Reputation{Matches: 1, Wins: 1, AvgRank: 1}, nil
	}
	return wire.Reputation{}, nil
}

func (f *fake) Narrator(game string) games.Narrator {
	if game == "dilemma" {
		return dilemma.Engine{}
	}
	return nil
}

// rig is the Break Room site with only the reads, over the fake, with counters in a real store.
type rig struct {
	t     testing.TB
	h     http.Handler
	srv   *httptest.Server
	store *storage.Store
	stats *Stats
	fake  *fake
}

func newRig(t testing.TB, with ...func(*Options)) *rig {
	t.Helper()
	raw, err := os.ReadFile("../../../games/breakroom/dilemma/testdata/worked_example.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	f := &fake{}
	for _, l := range bytes.Split(bytes.TrimSpace(raw), []byte("\n")) {
		f.example = append(f.example, l)
	}
	st := storagetest.Open(t, storage.Options{NoSync: true})
	stats := NewStats(st, func() time.Time { return now })
	o := Options{Backend: f, PublicURL: "https://br.test/", Stats: stats, Now: func() time.Time { return now },
		Handle: func(k string) string {
			if k == keyBea {
				return "bea@br.test"
			}
			return ""
		}}
	for _, w := range with {
		w(&o)
	}
	d, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	e, err := httpapi.Build(brsite.Site{Doors: d}, httpapi.Global{})
	if err != nil {
		t.Fatal(err)
	}
	e.GET("/r/:file", d.ReplayPage) // transport/breakroom/play's route hands the page here (play.Options.Page)
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return &rig{t: t, h: e, srv: srv, store: st, stats: stats, fake: f}
}

// get is GET path with accept: status, content type, body.
func (r *rig) get(path, accept string) (int, string, string) {
	r.t.Helper()
	req, _ := http.NewRequest("GET", r.srv.URL+path, nil)
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	openapitest.Check(r.t, req, resp.StatusCode, resp.Header, b)
	return resp.StatusCode, resp.Header.Get("Content-Type"), string(b)
}

// json is GET path as JSON: status and the object.
func (r *rig) json(path string) (int, map[string]any) {
	r.t.Helper()
	st, ct, b := r.get(path, "application/json")
	var m map[string]any
	if err := json.Unmarshal([]byte(b), &m); err != nil {
		r.t.Fatalf("GET %s: %d %s: not JSON: %s", path, st, ct, b)
	}
	if !strings.HasPrefix(ct, "application/json") {
		r.t.Fatalf("GET %s: content type %q", path, ct)
	}
	return st, m
}
