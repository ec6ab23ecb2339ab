package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arena/chain/verify"
	"arena/games"
	"arena/games/blitz"
	"arena/games/warden/dilemma"
)

// dilemmaTranscript plays a Game II match offline by the house policy and returns its events as
// the transcript body ({"round","events"}).
func dilemmaTranscript(t *testing.T) []byte {
	t.Helper()
	s := games.Setup{Game: dilemma.GameID, Round: "wm_1", Start: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC),
		Seats: []games.Seat{{Seat: 1, Agent: "a", Name: "Ada", Entry: 1_000_000}, {Seat: 2, Agent: "b", Name: "Bo", Entry: 1_000_000}}}
	m, err := dilemma.Engine{}.New(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	var evs []games.Event
	for range 100 {
		dl, ok := m.Deadline()
		if !ok {
			break
		}
		evs = append(evs, m.Advance(dl).Events...)
		for _, p := range m.Prompts() {
			st, err := m.Act(dl, games.Input{Seat: p.Seat, Kind: "answer", Move: p.Move, Body: dilemma.Engine{}.HouseAnswer(p, uint64(p.Seat))})
			if err != nil {
				t.Fatal(err)
			}
			evs = append(evs, st.Events...)
		}
	}
	b, err := json.Marshal(map[string]any{"round": s.Round, "events": evs})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// anchor-check checks a round with the engine of the round's game, from the bracket serve hosts:
// the game its transcript's first event names (Blitz's round.created, Game II's match_started),
// or --game. A game the bracket does not host, or a transcript that names none with no --game,
// is refused before any node is asked.
func TestAnchorCheckPicksTheRoundsGame(t *testing.T) {
	b, err := newBracket()
	if err != nil {
		t.Fatal(err)
	}
	parse := func(raw string) verify.Transcript {
		tr, err := verify.Parse([]byte(raw))
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	blitzT := parse(`{"round":"T-1","events":[{"seq":1,"round":"T-1","type":"round.created","visibility":"public","payload":{"round":"T-1","game":"blitz"}}]}`)
	dilemmaT, err := verify.Parse(dilemmaTranscript(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		tr   verify.Transcript
		flag string
		want string // the engine's manifest id, or "" for a refusal
		says string
	}{
		{"a Blitz round", blitzT, "", blitz.ID, ""},
		{"a Game II match", dilemmaT, "", dilemma.GameID, ""},
		{"--game wins", blitzT, dilemma.GameID, dilemma.GameID, ""},
		{"an unhosted --game", blitzT, "chess", "", `--game "chess": this arena hosts `},
		{"an unhosted game named", parse(`[{"seq":1,"round":"T-1","type":"x","payload":{"game":"chess"}}]`), "", "", `names game "chess", which this arena does not host`},
		{"no game named", parse(`{"round":"T-1","events":[]}`), "", "", "names no game"},
		{"a payload that is not an object", parse(`[{"seq":1,"round":"T-1","type":"x","payload":[1]}]`), "", "", "names no game"},
	} {
		e, err := engineFor(b, c.tr, c.flag)
		switch {
		case c.want != "" && (err != nil || e.Manifest().ID != c.want):
			t.Errorf("%s: engine %v, %v; want %s", c.name, e, err, c.want)
		case c.want == "" && (err == nil || !strings.Contains(err.Error(), c.says)):
			t.Errorf("%s: err %v, want one saying %q", c.name, err, c.says)
		}
	}
	var ids []string
	for _, m := range b.Manifests() {
		ids = append(ids, m.ID)
	}
	if _, err := engineFor(b, blitzT, "chess"); err == nil || !strings.Contains(err.Error(), strings.Join(ids, ", ")) {
		t.Errorf("an unhosted --game: %v, want the hosted games %v named", err, ids)
	}

	// On the command line: refused with exit 2 before a node is dialled.
	dir := t.TempDir()
	chess := filepath.Join(dir, "chess.json")
	os.WriteFile(chess, []byte(`[{"seq":1,"round":"T-1","type":"x","payload":{"game":"chess"}}]`), 0o600)
	env := map[string]string{"ARENA_CHAIN_NODE": "127.0.0.1:1"}
	for _, args := range [][]string{{chess}, {"--game", "chess", chess}} {
		code, out, errOut := runAnchorCheck(t.Context(), env, args...)
		if code != 2 || !strings.Contains(errOut, "chess") || strings.Contains(errOut, "does not answer") {
			t.Errorf("anchor-check %q: exit %d, stderr %q (stdout %q)", args, code, errOut, out)
		}
	}
}
