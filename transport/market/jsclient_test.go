package market

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestJSClientTradesThroughA2ADoor: the official A2A JS SDK (testclient/trade.mjs) reads the
// Agent Card, then drives a whole trade between two Players through POST /a2a: both enrol, Ada
// proposes, Bo reads and approves, both retries answer their first bytes, and the Holdings are
// the trade's. No envelope names an Owner, a key or a Delegate. It skips, loudly, only when node
// is not installed.
func TestJSClientTradesThroughA2ADoor(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("SKIPPED LOUDLY: `node` is not installed, so the A2A JS SDK client (transport/market/testclient) cannot run; install Node.js 20+ and run scripts/install-test-deps.sh")
	}
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "testclient")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@a2a-js", "sdk")); err != nil {
		cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm ci in %s (run scripts/install-test-deps.sh): %v\n%s", dir, err, out)
		}
	}
	r := newRig(t, Gateway{})
	ka, kb := r.key("owner-ada-js", "ada-js-bot"), r.key("owner-bo-js", "bo-js-bot")
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "trade.mjs")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "MARKET_URL="+r.srv.URL, "KEY_A="+ka, "KEY_B="+kb)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("trade.mjs: %v\n%s", err, stderr.String())
	}
	var got struct {
		Players  []string                    `json:"players"`
		Holdings map[string]map[string]int64 `json:"holdings"`
		Status   string                      `json:"status"`
		Same     bool                        `json:"retriesSame"`
		Resp     []string                    `json:"responses"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("trade.mjs printed %q: %v", out, err)
	}
	if len(got.Players) != 2 || got.Players[0] == got.Players[1] || !strings.HasPrefix(got.Players[0], "pl_") {
		t.Errorf("players: %v", got.Players)
	}
	if got.Status != "settled" || !got.Same {
		t.Errorf("status %q, retries the same bytes: %v", got.Status, got.Same)
	}
	a, b := got.Holdings["a"], got.Holdings["b"]
	if a["wood"] != 15 || a["credits"] != 120 || b["wood"] != 25 || b["credits"] != 80 {
		t.Errorf("holdings after the trade: ada %v, bo %v", a, b)
	}
	if len(got.Resp) != 10 { // 2 enrolments, propose, read, approve, 2 retries, 2 Inventories, a Statement
		t.Errorf("%d responses, want 10", len(got.Resp))
	}
	for _, s := range got.Resp {
		r.public = append(r.public, []byte(s))
	}
	r.noSecrets("owner-ada-js", "owner-bo-js", ka, kb, "ada-js-bot", "bo-js-bot")
	// Bo's Statement and reads never carry Ada's commandIds.
	for _, s := range got.Resp[4:] {
		if strings.Contains(s, `"playerId":"`+got.Players[1]+`"`) && strings.Contains(s, "js-ada-") {
			t.Errorf("an answer to Bo names Ada's commandId: %s", s)
		}
	}
}
