package pages_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"arena/actors/dotdotdot"
	"arena/games/blitz"
	"arena/games/rating"
	"arena/transport/dotdotdot/pages"
	"arena/transport/dotdotdot/site"
)

// kindsSource is a fakeSource with the lobby's kinds: an agent table gathering and a rated Badge
// whose name is hostile.
type kindsSource struct{ *fakeSource }

func (kindsSource) Gatherings(context.Context) ([]dotdotdot.Gathering, error) {
	return []dotdotdot.Gathering{{Kind: "rated", Format: "blitz", Table: "r0a1", Seats: 6, Players: []string{"Ada", hostile},
		StartsBy: time.Date(2026, 9, 9, 14, 2, 0, 0, time.UTC)}}, nil
}

func (kindsSource) Ratings() ([]dotdotdot.RatingRecord, error) {
	return []dotdotdot.RatingRecord{{Agent: "ccd:c/cis-2:A", Name: hostile, Rating: rating.Rating{Rating: 1649.03, RD: 228.07, Volatility: 0.06},
		Display: 1649, Rounds: 3, Last: "T-3"}}, nil
}

// The lobby lists every table kind with its scouting, who sits, stakes, whether it is rated and
// how the chain learns of it; the agent tables gathering by kind; the ratings with their method
// and its surprises. Names stay escaped.
func TestLobbyListsKindsAndRatings(t *testing.T) {
	o := pages.Options{Source: kindsSource{&fakeSource{}}, Narrator: blitz.NewEngine(blitz.DefaultFees()), Site: "https://arena.example"}
	e, err := site.New(site.Options{Pages: &o})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(e)
	defer srv.Close()
	res, body := get(t, srv.URL+"/", nil)
	if res.StatusCode != 200 {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
	for _, want := range []string{
		`<table id="kinds">`, `Rated table <code>rated</code></td><td>60 s</td>`, `Badge-gated table <code>gated</code></td><td>30 s</td>`,
		`Practice <code>practice</code></td><td>90 s</td>`, `Paid table <code>open</code></td><td>90 s</td><td>registered agents whose entry is in the escrow; house seats at the same stakes</td><td>ccd</td><td>no</td><td>escrow and Register Data</td>`,
		`Showcase <code>showcase</code>`, `Solo <code>solo</code>`, `Free play <code>free</code></td><td>90 s</td><td>anyone: registered agents and walk-ins; house seats top it up</td><td>none</td><td>no</td><td>its opening, by Register Data</td>`,
		`<table id="gathering-agents">`, `<code>r0a1</code></td><td>rated</td><td>blitz</td><td>2 of 6: Ada, &lt;img`,
		`<table id="ratings">`, `<td>1649</td><td>228</td><td>3</td>`, `Glicko-2`, `not zero-sum`, `counts five times`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the lobby lacks %q", want)
		}
	}
	if strings.Contains(body, hostile) {
		t.Fatal("a hostile name unescaped")
	}
	// Without ratings or gathering agent tables the lobby still lists the kinds.
	_, plain := get(t, fakeServer(t, &fakeSource{}, pages.Options{}).URL+"/", nil)
	if !strings.Contains(plain, `<table id="kinds">`) || strings.Contains(plain, `id="gathering-agents"`) || !strings.Contains(plain, "No Badge has played a rated round yet.") {
		t.Fatal("the lobby of a source without kinds")
	}
	// Its JSON lists nothing rated and nothing gathering as [], as every other list, never null.
	_, js := get(t, srv.URL+"/", map[string]string{"Accept": "application/json"})
	var lobby map[string]json.RawMessage
	if err := json.Unmarshal([]byte(js), &lobby); err != nil || string(lobby["ratings"]) == "null" || string(lobby["gathering"]) == "null" {
		t.Fatalf("the lobby's JSON %.200s: %v", js, err)
	}
	_, js = get(t, fakeServer(t, &fakeSource{}, pages.Options{}).URL+"/", map[string]string{"Accept": "application/json"})
	lobby = nil
	if err := json.Unmarshal([]byte(js), &lobby); err != nil || string(lobby["ratings"]) != "[]" || string(lobby["gathering"]) != "[]" {
		t.Fatalf("the JSON lobby of a source without kinds: ratings %s gathering %s (%v)", lobby["ratings"], lobby["gathering"], err)
	}
}
