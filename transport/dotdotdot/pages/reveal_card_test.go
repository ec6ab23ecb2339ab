package pages_test

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arena/games"
	"arena/games/warden/dilemma"
	"arena/transport/dotdotdot/pages"
)

var updateGolden = flag.Bool("update", false, "rewrite the pages' golden HTML in testdata/")

// TestRevealCardHTML: the round page of a revealed Blitz round is the HTML in
// testdata/round-revealed*.html, to the byte (go test -run TestRevealCardHTML -update rewrites
// them): one with names, a task naming seats, standings with payouts and nets, three moments and
// text that must be escaped; one with a bare reveal (no names, no standings, no moments).
func TestRevealCardHTML(t *testing.T) {
	full := &fakeSource{revealed: true}
	f := full
	f.add("seat.taken", "public", `{"seat":1,"name":"Ann","kind":"walkin"}`)
	f.add("seat.taken", "public", `{"seat":2,"name":"<Bo & co>","kind":"house"}`)
	f.add("seat.taken", "public", `{"seat":3,"name":"Cy","kind":"house"}`)
	f.add("message.public", "public", `{"from":1,"text":"hello","tone":"neutral"}`)
	f.add("role.assigned", "private:2", `{"role":"mole","task":{"kind":"SECRET-TASK"}}`)
	f.add("round.revealed", "public", `{"mole":2,"task":{"kind":"whisper","category":"trust","named":[1,3]},"rungs":[1,2],`+
		`"standings":[{"rank":1,"seat":2,"name":"<Bo & co>","payout":231500000,"net":31500000},{"rank":2,"seat":1,"name":"Ann","payout":200000000,"net":0},{"rank":3,"seat":3,"name":"Cy","payout":168456789,"net":-31543211}],`+
		`"moments":[{"turn":1,"what":"seat 2 whispered to seat 1"},{"turn":3,"what":"seat 3 called <seat 2>"}],"salts":{"seed":"x"}}`)
	bare := &fakeSource{revealed: true}
	bare.add("message.public", "public", `{"from":1,"text":"hello","tone":"neutral"}`)
	bare.add("round.revealed", "public", `{"mole":1,"task":{"kind":"broker","category":"influence","named":[]},"rungs":[]}`)
	for name, f := range map[string]*fakeSource{"round-revealed.html": full, "round-revealed-bare.html": bare} {
		srv := fakeServer(t, f, pages.Options{Site: "https://arena.example"})
		_, page := get(t, srv.URL+"/r/T-7", nil)
		path := filepath.Join("testdata", name)
		if *updateGolden {
			if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if page != string(want) {
			t.Errorf("%s: the revealed round page changed\n got:\n%s\nwant:\n%s", name, page, want)
		}
	}
}

// TestAnotherGamesRevealCard: the round page of a finished Game II match shows Game II's feed
// and reveal card (games.Narrator), with none of Blitz's words in them.
func TestAnotherGamesRevealCard(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	m, err := dilemma.Engine{}.New(games.Setup{Game: dilemma.GameID, Round: "T-7", Start: t0,
		Seats: []games.Seat{{Seat: 1, Agent: "a", Name: "Ada", Entry: 1_000_000}, {Seat: 2, Agent: "b", Name: "<Bo>", Entry: 1_000_000}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	evs := m.Advance(t0).Events
	st, err := m.Act(t0.Add(time.Second), games.Input{Seat: 2, Kind: "answer", Move: games.Move{Turn: 1, Phase: "commit"}, Body: json.RawMessage(`{"choice":"DEFECT"}`)})
	if err != nil {
		t.Fatal(err)
	}
	evs = append(evs, st.Events...)
	for {
		d, ok := m.Deadline()
		if !ok {
			break
		}
		evs = append(evs, m.Advance(d).Events...)
	}
	f := &fakeSource{events: evs, revealed: true}
	srv := fakeServer(t, f, pages.Options{Narrator: dilemma.Engine{}})
	_, page := get(t, srv.URL+"/r/T-7", nil)
	i, j := strings.Index(page, `<div class="card" id="reveal">`), strings.Index(page, `<p class="mute">The full transcript`)
	if i < 0 || j < i {
		t.Fatalf("no reveal card:\n%s", page)
	}
	card := page[i:j]
	want := `<div class="card" id="reveal">
<p>The outcome: <b>BETRAYAL</b>. The house keeps 400000 micro-units.</p>

<table><thead><tr><th>Seat</th><th>Name</th><th>Choice</th><th>Gross (micro-units)</th><th>Net</th><th>Result</th></tr></thead><tbody>
<tr><td>A</td><td>Ada</td><td>COOPERATE (defaulted)</td><td>300000</td><td>-700000</td><td>loss</td></tr><tr><td>B</td><td>&lt;Bo&gt;</td><td>DEFECT</td><td>1300000</td><td>300000</td><td>win</td></tr>
</tbody></table>


`
	if card != want {
		t.Fatalf("the card:\n%s\nwant:\n%s", card, want)
	}
	for _, line := range []string{"Seat B (&lt;Bo&gt;) sealed its choice.", "Revealed: seat A (Ada) chose COOPERATE, seat B (&lt;Bo&gt;) chose DEFECT: BETRAYAL.", "The match is over: seat B (&lt;Bo&gt;) wins."} {
		if !strings.Contains(page, line) {
			t.Fatalf("the feed lacks %q:\n%s", line, page)
		}
	}
	feed := page[strings.Index(page, `<ol class="feed"`):]
	for _, blitzWord := range []string{"mole", "Rungs", "Three moments", "CCD", "round.revealed", "promise"} {
		if strings.Contains(card, blitzWord) || strings.Contains(feed, blitzWord) {
			t.Errorf("Game II's card or feed says %q", blitzWord)
		}
	}
}
