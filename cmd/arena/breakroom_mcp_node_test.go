package main

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The official MCP TypeScript SDK (transport/breakroom/mcp/testclient/client.mjs) plays a whole
// Dilemma match against house bots through /mcp on a running `arena serve`: tools listed,
// list_games and get_rules read, join_game (a key made for it), wait_for_turn and make_move to
// match_end, send_feedback twice, a late move refused with match_over, a case-variant argument
// refused with -32602, confirm_payment on a free session refused with unauthorized, a paid join at
// 10 sats (payment_required, not_paid, the dev wallet's route, queued, left with refunded_sats), the
// key passed back on a second join, leave_queue. The usage counters then show its joins (the paid one once, when queued) as MCP joins and its calls as
// MCP tool calls, and `arena ops feedback --breakroom` reads the one note it kept. It skips, loudly, only when node or the client's packages are missing.
func TestBreakroomMCPSDKPlaysADilemmaMatch(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the MCP client runs the binary for a whole match")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("SKIPPED LOUDLY: `node` is not installed, so the MCP TypeScript SDK client cannot play; install Node.js 20+ and run scripts/install-test-deps.sh")
	}
	dir, _ := filepath.Abs("../../transport/breakroom/mcp/testclient")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		t.Skip("SKIPPED LOUDLY: transport/breakroom/mcp/testclient has no node_modules; run scripts/install-test-deps.sh")
	}
	bin := buildArena(t)
	s := startServeArgs(t, bin, filepath.Join(t.TempDir(), "data"), breakroomFast, nil)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "client.mjs")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "ARENA_URL="+s.url, "ARENA_HOST=breakroom.localhost")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node client.mjs: %v\n%s", err, out)
	}
	line := strings.TrimSpace(string(out))
	rest, ok := strings.CutPrefix(line, "mcp-testclient: ok ")
	var res struct {
		MatchID string `json:"match_id"`
		Pubkey  string `json:"pubkey"`
		Moves   int    `json:"moves"`
		Rank    int    `json:"rank"`
		Players int    `json:"players"`
	}
	if !ok || json.Unmarshal([]byte(rest), &res) != nil {
		t.Fatalf("client output: %s", out)
	}
	if res.MatchID == "" || len(res.Pubkey) != 64 || res.Moves < 1 || res.Rank < 1 || res.Rank > res.Players || res.Players < 3 {
		t.Fatalf("client result %+v", res)
	}
	// The public log of the match names the client's key among its players.
	req, _ := http.NewRequest("GET", s.url+"/r/"+res.MatchID+".jsonl", nil)
	req.Host = "breakroom.localhost"
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var first struct {
		Type    string
		Players []struct{ Pubkey string }
	}
	json.NewDecoder(resp.Body).Decode(&first)
	resp.Body.Close()
	found := false
	for _, p := range first.Players {
		found = found || p.Pubkey == res.Pubkey
	}
	if resp.StatusCode != 200 || first.Type != "match_start" || !found {
		t.Fatalf("the match's log: %d %+v", resp.StatusCode, first)
	}
	// The usage counters: two MCP joins, and the tool calls.
	req, _ = http.NewRequest("GET", s.url+"/v0/stats?days=1", nil)
	req.Host = "breakroom.localhost"
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Series []struct {
			Joins        struct{ MCP int }
			MCPToolCalls int `json:"mcp_tool_calls"`
		}
	}
	json.NewDecoder(resp.Body).Decode(&st)
	resp.Body.Close()
	if len(st.Series) != 1 || st.Series[0].Joins.MCP != 3 || st.Series[0].MCPToolCalls < 10+res.Moves {
		t.Fatalf("/v0/stats: %+v after %d moves", st, res.Moves)
	}
	// The operators read the note: one for the match from the client's key, the second it sent.
	var stdout, stderr strings.Builder
	if code := opsMain(t.Context(), []string{"feedback", "--breakroom", "--json", "--server", s.url, "--data", s.data},
		func(string) string { return "" }, &stdout, &stderr); code != 0 {
		t.Fatalf("arena ops feedback --breakroom: exit %d: %s", code, stderr.String())
	}
	var n struct {
		MatchID string `json:"match_id"`
		Pubkey  string
		Text    string
		Rating  int
	}
	if lines := strings.Split(strings.TrimSpace(stdout.String()), "\n"); len(lines) != 1 || json.Unmarshal([]byte(lines[0]), &n) != nil ||
		n.MatchID != res.MatchID || n.Pubkey != res.Pubkey || n.Text != "Second note replaces the first." || n.Rating != 4 {
		t.Fatalf("arena ops feedback --breakroom: %s", stdout.String())
	}
	t.Log(line)
}
