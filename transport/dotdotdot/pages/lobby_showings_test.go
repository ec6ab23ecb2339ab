package pages_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"arena/games/blitz"
	"arena/storage"
	"arena/transport/dotdotdot/pages"
	"arena/transport/dotdotdot/site"
)

// showingsSource is a fakeSource whose arena has two showings: T-9 running at 4× with its replay
// anchor not yet answered, and T-7 shown at 1× with its anchor registered.
type showingsSource struct {
	*fakeSource
	n int // the n the lobby asked for
}

func (s *showingsSource) RecentShowings(_ context.Context, n int) ([]storage.Showing, error) {
	s.n = n
	return []storage.Showing{
		{Round: "T-9", Table: "p1", Seq: 1788962500, Speed: 4, Started: time.Unix(1788962500, 0), Hash: strings.Repeat("9a", 32)},
		{Round: "T-7", Table: "p0", Seq: 1788962400, Speed: 1, Started: time.Unix(1788962400, 0), Hash: strings.Repeat("7b", 32),
			Tx: strings.Repeat("cd", 32), Ended: true},
	}, nil
}

// lobbyServer serves the site with o's pages (the Blitz narrator) and returns its URL.
func lobbyServer(t *testing.T, o pages.Options) string {
	t.Helper()
	o.Narrator = blitz.NewEngine(blitz.DefaultFees())
	e, err := site.New(site.Options{Pages: &o})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return srv.URL
}

// The lobby lists the showings it is given, in its JSON (page, round, seq, speed, start, running,
// hash, the replay anchor's state and transaction) and its HTML (a row each, linking the showing's
// page and the round); with no showings source, JSON lists none and the page says so.
func TestLobbyListsShowings(t *testing.T) {
	src := &showingsSource{fakeSource: &fakeSource{}}
	e := lobbyServer(t, pages.Options{Source: src})

	res, body := get(t, e+"/", map[string]string{"Accept": "application/json"})
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		t.Fatalf("%d %s %s", res.StatusCode, res.Header.Get("Content-Type"), body)
	}
	var lobby struct {
		Showings []pages.LobbyShowing `json:"showings"`
	}
	if err := json.Unmarshal([]byte(body), &lobby); err != nil {
		t.Fatal(err)
	}
	want := []pages.LobbyShowing{
		{Page: "/r/T-9/showings/1788962500", Round: "T-9", Seq: 1788962500, Speed: 4, Started: "2026-09-09T14:01:40Z", Running: true,
			Hash: strings.Repeat("9a", 32), Anchor: "pending"},
		{Page: "/r/T-7/showings/1788962400", Round: "T-7", Seq: 1788962400, Speed: 1, Started: "2026-09-09T14:00:00Z",
			Hash: strings.Repeat("7b", 32), Anchor: "registered", Tx: strings.Repeat("cd", 32)},
	}
	if len(lobby.Showings) != 2 || lobby.Showings[0] != want[0] || lobby.Showings[1] != want[1] {
		t.Fatalf("the lobby's showings %+v, want %+v", lobby.Showings, want)
	}
	if src.n != 20 {
		t.Fatalf("the lobby asked for %d showings, want 20", src.n)
	}

	_, html := get(t, e+"/", nil)
	for _, row := range []string{
		`<tr data-seq="1788962500"><td><a href="/r/T-9/showings/1788962500">/r/T-9/showings/1788962500</a> <span class="pill live">showing</span></td><td><a href="/r/T-9">T-9</a></td><td>4×</td><td>2026-09-09T14:01:40Z</td><td>being registered</td></tr>`,
		`<tr data-seq="1788962400"><td><a href="/r/T-7/showings/1788962400">/r/T-7/showings/1788962400</a> <span class="pill">shown</span></td><td><a href="/r/T-7">T-7</a></td><td>1×</td><td>2026-09-09T14:00:00Z</td><td>registered, seq 1788962400, tx <code>` + strings.Repeat("cd", 32) + `</code></td></tr>`,
	} {
		if !strings.Contains(html, row) {
			t.Errorf("the lobby lacks the row %s", row)
		}
	}

	plain := lobbyServer(t, pages.Options{Source: &fakeSource{}})
	_, body = get(t, plain+"/", map[string]string{"Accept": "application/json"})
	if !strings.Contains(body, `"showings":[]`) {
		t.Fatalf("the lobby's JSON without showings: %s", body)
	}
	if _, html = get(t, plain+"/", nil); !strings.Contains(html, `<p class="mute" id="showings">No recorded round has been shown yet.</p>`) {
		t.Fatal("the lobby without showings does not say so")
	}
}
