package chatseat

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"arena/actors/dotdotdot"
	"arena/games"
	"arena/games/blitz"
)

var updateGolden = flag.Bool("update", false, "rewrite the chat seat's golden texts in testdata/")

// briefCases are next_move answers of every shape the chat seat renders for Blitz: a move in
// each phase (talk, commit, scouting, a settle that names its exchange), waiting, an unreadable
// envelope, and results with a reveal, with a reveal of another shape and with no payouts.
func briefCases(now time.Time) map[string]dotdotdot.Next {
	reveal := `{"mole":3,"task":{"kind":"breach","category":"sabotage","named":[2]},"rungs":[1,2],"standings":[{"seat":3,"name":"Dara"}],"moments":[{"what":"seat 3 breached 161 CCD to seat 1"},{"what":""},{"what":"seat 2 called seat 3"}],"salts":{"seed":"x"}}`
	settle := moveNext("settle", 3, now.Add(20*time.Second))
	settle.Brief = ""
	return map[string]dotdotdot.Next{
		"talk":       moveNext("talk", 2, now.Add(150*time.Second)),
		"commit":     moveNext("commit", 0, now.Add(-time.Second)),
		"scouting":   moveNext("scouting", 0, now.Add(90*time.Second)),
		"settle":     settle,
		"waiting":    {Waiting: true, Round: "T-7", Status: "playing", Brief: "Round T-7 is on and no move is waiting for you now."},
		"unreadable": {Round: "T-7", Status: "move", Envelope: []byte(`{"turn":`)},
		"result": {Round: "T-7", Status: "revealed", Brief: "Round T-7 is over and revealed. You finished 1st of 3.",
			Result: &games.Result{Payouts: map[int]int64{1: 310_000_000, 2: 78_500_000, 3: 0, 4: -1_250_000}, Places: map[int]int{1: 1, 2: 2, 3: 3}, Reveal: json.RawMessage(reveal)}},
		"result-raw": {Round: "T-8", Status: "revealed",
			Result: &games.Result{Payouts: map[int]int64{2: 1}, Reveal: json.RawMessage(`{"odd":true}`)}},
		"result-bare": {Round: "T-9", Status: "revealed", Result: &games.Result{}},
	}
}

// TestBriefText: what next_move says for Blitz is the text in testdata/brief-<case>.txt, to the
// byte (go test -run TestBriefText -update rewrites them).
func TestBriefText(t *testing.T) {
	now := time.Date(2026, 11, 30, 6, 0, 0, 0, time.UTC)
	d := blitz.NewEngine(blitz.DefaultFees())
	for name, n := range briefCases(now) {
		got := renderNext(n, now, d)
		path := filepath.Join("testdata", "brief-"+name+".txt")
		if *updateGolden {
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if got != string(want) {
			t.Errorf("%s: the text changed\n got:\n%s\nwant:\n%s", name, got, want)
		}
	}
}
