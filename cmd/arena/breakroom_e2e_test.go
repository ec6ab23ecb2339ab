package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// breakroomFast is `arena serve`'s Break Room on a compressed clock: the lobby timer and the
// house fill at 1 s, house bots answering after 5 ms, 2 s turns and a 500 ms away deadline.
var breakroomFast = []string{"--breakroom-lobby-wait", "1s", "--breakroom-house-after", "1s",
	"--breakroom-house-pause", "5ms", "--breakroom-turn", "2s", "--breakroom-away", "500ms"}

// breakroomAgent is the independent Node agent's folder (transport/breakroom/testagent), or a
// loud skip when node or its packages are missing (scripts/install-test-deps.sh installs them).
func breakroomAgent(t *testing.T) (node, dir string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("SKIPPED LOUDLY: `node` is not installed, so the Break Room agent cannot play; install Node.js 20+ and run scripts/install-test-deps.sh")
	}
	dir, _ = filepath.Abs("../../transport/breakroom/testagent")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "nostr-tools")); err != nil {
		t.Skip("SKIPPED LOUDLY: transport/breakroom/testagent has no node_modules; run scripts/install-test-deps.sh")
	}
	return node, dir
}

// agentRun is one finished run of the Node agent: its exit, its milestones, its last line.
type agentRun struct {
	args  []string
	err   error
	steps []map[string]any
	out   string
	errs  string
}

// last is the agent's last milestone ({"step":"done",…} or {"step":"fail",…}).
func (r agentRun) last() map[string]any {
	if len(r.steps) == 0 {
		return nil
	}
	return r.steps[len(r.steps)-1]
}

// runAgent runs agent.mjs against base with args and waits for it (2 minutes at most).
func runAgent(ctx context.Context, node, dir, base string, args ...string) agentRun {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	full := append([]string{filepath.Join(dir, "agent.mjs"), "--base", base, "--host", "breakroom.localhost",
		"--game", "dilemma", "--timeout-s", "100"}, args...)
	cmd := exec.CommandContext(ctx, node, full...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	r := agentRun{args: args}
	r.err = cmd.Run()
	r.out, r.errs = out.String(), errb.String()
	for _, l := range strings.Split(strings.TrimSpace(r.out), "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(l), &m) == nil {
			r.steps = append(r.steps, m)
		}
	}
	return r
}

// checkDone asserts the agent exited 0 with a match_end naming it (the agent checked the rest:
// the ranking's entries, the replay URL, a nostr_post that signs and states no rank), that it
// dropped and came back mid-match on the seat it had, and that its probe of an illegal move was
// refused with illegal_move and cost it nothing.
func checkDone(t *testing.T, r agentRun) {
	t.Helper()
	done := r.last()
	if r.err != nil || done == nil || done["step"] != "done" {
		t.Fatalf("agent %v: %v\nstdout:\n%s\nstderr:\n%s", r.args, r.err, r.out, r.errs)
	}
	end, _ := done["match_end"].(map[string]any)
	seen, _ := done["seen"].(map[string]any)
	if end == nil || end["type"] != "match_end" || end["your_rank"].(float64) < 1 {
		t.Fatalf("agent %v: match_end %v", r.args, end)
	}
	var ranked bool
	for _, e := range end["ranking"].([]any) {
		ranked = ranked || e.(map[string]any)["pubkey"] == done["pubkey"]
	}
	if !ranked || seen["reconnected"] != true || seen["match"] != end["match_id"] {
		t.Fatalf("agent %v: ranked %v, seen %v, match_end %v", r.args, ranked, seen, end)
	}
	if errs, _ := seen["errors"].([]any); !slices.Contains(errs, any("illegal_move")) {
		t.Fatalf("agent %v: the illegal probe was not refused: %v", r.args, seen)
	}
	var reseated bool
	for _, s := range r.steps {
		reseated = reseated || s["step"] == "reseated"
	}
	if !reseated {
		t.Fatalf("agent %v: no reseat after its drop:\n%s", r.args, r.out)
	}
}

// TestBreakroomAgentsPlayOverBothDoors: `arena serve` on its embedded defaults (the Break Room
// clocks compressed) and the independent Node agent (nostr-tools key, BIP-340 challenge): one
// plays a whole Dilemma match over the WebSocket, dropping its socket after two turns and coming
// back with a fresh signed join on a new socket; another plays over the HTTP fallback only,
// rejoining mid-match for a new token. House bots fill their table. Each exits 0 with its
// match_end.
func TestBreakroomAgentsPlayOverBothDoors(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the Break Room agents run the binary for a whole match")
	}
	node, dir := breakroomAgent(t)
	bin := buildArena(t)
	s := startServeArgs(t, bin, filepath.Join(t.TempDir(), "data"), breakroomFast, nil)
	checkGames(t, s.url)
	var wg sync.WaitGroup
	runs := make([]agentRun, 2)
	for i, transport := range []string{"ws", "http"} {
		wg.Go(func() {
			runs[i] = runAgent(t.Context(), node, dir, s.url, "--transport", transport, "--reconnect-after", "2", "--probe-errors")
		})
	}
	wg.Wait()
	for _, r := range runs {
		checkDone(t, r)
		// The agent's record counts the match when the table was ranked: the two agents and the
		// bartender (staff keeps a table ranked); with a house bot (a house: key that is not the
		// bartender's) it was unranked and counts for nobody.
		want := 1
		for _, e := range r.last()["match_end"].(map[string]any)["ranking"].([]any) {
			if k := e.(map[string]any)["pubkey"].(string); strings.HasPrefix(k, "house:") && k != "house:bartender" {
				want = 0
			}
		}
		req, _ := http.NewRequest("GET", s.url+"/v0/agents/"+r.last()["pubkey"].(string), nil)
		req.Host = "breakroom.localhost"
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var a struct {
			Pubkey     string
			Reputation struct{ Matches, Timeouts int }
		}
		json.NewDecoder(resp.Body).Decode(&a)
		resp.Body.Close()
		if resp.StatusCode != 200 || a.Pubkey != r.last()["pubkey"] || a.Reputation.Matches != want {
			t.Fatalf("/v0/agents after the match: %d %+v, want %d matches", resp.StatusCode, a, want)
		}
	}
}

// checkGames asserts GET /v0/games on the Break Room site lists every game of breakroomGames in
// its order, the Dilemma first, nobody waiting or playing yet, the recommended game the hour's
// rotation among them, and the doors under the site's origin.
func checkGames(t *testing.T, base string) {
	t.Helper()
	req, _ := http.NewRequest("GET", base+"/v0/games", nil)
	req.Host = "breakroom.localhost"
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var g struct {
		Games []struct {
			ID               string
			Waiting, Playing int
			MinPlayers       int `json:"min_players"`
		}
		Recommended struct{ Game, Reason string }
		Join        struct{ WebSocket string }
	}
	if err := json.NewDecoder(resp.Body).Decode(&g); err != nil || resp.StatusCode != 200 {
		t.Fatalf("/v0/games: %d %v", resp.StatusCode, err)
	}
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(base, "http://"))
	want := breakroomGames()
	if len(g.Games) != len(want) || g.Games[0].ID != "dilemma" || g.Games[0].MinPlayers != 3 ||
		g.Recommended.Reason != "rotation" || g.Join.WebSocket != "ws://breakroom.localhost:"+port+"/v0/play" {
		t.Fatalf("/v0/games: %+v", g)
	}
	recommended := false
	for i, gi := range g.Games {
		if gi.ID != want[i].Info().ID || gi.Waiting != 0 || gi.Playing != 0 || gi.MinPlayers != want[i].Info().MinPlayers {
			t.Fatalf("/v0/games entry %d: %+v, want %s with nobody waiting or playing", i, gi, want[i].Info().ID)
		}
		recommended = recommended || gi.ID == g.Recommended.Game
	}
	if !recommended {
		t.Fatalf("/v0/games recommends %q, not a listed game", g.Recommended.Game)
	}
}
