package warden

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

// nodeCall is one result mcpread.mjs prints for a call.
type nodeCall struct {
	First   toolResult     `json:"first"`
	Paid    *toolResult    `json:"paid"`
	Payload map[string]any `json:"payload"`
}

// runMCPClient runs testclient/mcpread.mjs (the MCP TypeScript SDK with the x402 clients) as
// key's wallet against the rig's MCP door.
func (r *mcpRig) runMCPClient(t *testing.T, key byte, scheme string, calls []map[string]any) []nodeCall {
	t.Helper()
	dir := mcpClientDir(t)
	in, _ := json.Marshal(map[string]any{"url": r.srv.URL + MCPPath, "privateKey": "0x" + hex.EncodeToString(bytes.Repeat([]byte{key}, 32)),
		"scheme": scheme, "network": "eip155:5042002", "asset": arcUSDC.String(), "calls": calls})
	cmd := exec.Command("node", filepath.Join(dir, "mcpread.mjs"))
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("mcpread.mjs: %v\n%s", err, stderr.String())
	}
	var res []nodeCall
	if err := json.Unmarshal(out, &res); err != nil || len(res) != len(calls) {
		t.Fatalf("mcpread.mjs printed %q", out)
	}
	return res
}

// mcpClientDir is testclient/ with the MCP SDK and Circle's batching client installed from its
// lock (npm ci) when they are missing, as scripts/install-test-deps.sh does.
func mcpClientDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("testclient")
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range []string{"@modelcontextprotocol/sdk", "@circle-fin/x402-batching", "@x402/core"} {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", pkg, "package.json")); err != nil {
			cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("npm ci in %s: %v\n%s", dir, err, out)
			}
			break
		}
	}
	return dir
}

// The real clients pay metered MCP reads (§8.3, §10.9, §10.11): the MCP TypeScript SDK calls
// the tools; @x402/core's x402Client with Circle's registerBatchScheme (@circle-fin/x402-batching
// 3.3.0, @x402/evm's ExactEvmScheme as its fallback) signs the Gateway entries of a global and a
// match read from the PaymentRequired each unpaid call answers, and the retry with the payload in
// _meta["x402/payment"] is served with the settlement in _meta["x402/payment-response"]. Circle's
// client signs for validAfter = now − 600 and 7 days + 100 s of life. Its payload sent again for
// another tool is refused: its resource.url names the first (invalid_payment_requirements), and
// without it the nonce is spent (payment_replayed). @x402/evm's generic ExactEvmScheme alone signs the Gateway
// entry under the token's domain, refused with the signature code and a detail naming the
// mistake. Money: one settled record per paid read, reads_spent per seat, the Gateway balance.
func TestMCPNodeClients(t *testing.T) {
	r := newMCPRig(t, 1000)
	r.clock.Store(time.Now().Unix()) // the clients sign with their own clock
	a, b := r.register(0x51, "gambler"), r.register(0x52, "shark")
	match := r.pair(a, b)
	calls := []map[string]any{
		{"tool": "warden_pricing", "pay": true},
		{"tool": "warden_leaderboard", "pay": true},
		{"tool": "warden_state", "args": map[string]any{"match_id": match, "token": a.token}, "pay": true},
		{"tool": "warden_legal_moves", "args": map[string]any{"match_id": match}, "pay": true},
		{"tool": "warden_state", "args": map[string]any{"match_id": "wm_00000000000000aa", "token": a.token}, "pay": true},
	}
	res := r.runMCPClient(t, 0x51, "batching", calls)
	if res[0].First.IsError || res[0].Paid != nil || res[0].First.Structured["tiers"].(map[string]any)["match"] != 10.0 {
		t.Errorf("pricing is free: %+v", res[0])
	}
	for i, want := range map[int]string{1: "1", 2: "10", 3: "10"} {
		c := res[i]
		if !c.First.IsError || c.First.Structured["error"] != "payment_required" || c.Paid == nil || c.Paid.IsError {
			t.Fatalf("call %d: first %+v paid %+v", i, c.First.Structured, c.Paid)
		}
		acc := c.Payload["accepted"].(map[string]any)
		auth := c.Payload["payload"].(map[string]any)["authorization"].(map[string]any)
		after, _ := strconv.ParseInt(auth["validAfter"].(string), 10, 64)
		before, _ := strconv.ParseInt(auth["validBefore"].(string), 10, 64)
		if acc["amount"] != want || auth["value"] != want || before-after != 600+GatewayTimeout || acc["extra"].(map[string]any)["name"] != "GatewayWalletBatched" {
			t.Errorf("call %d: Circle's payload %v", i, c.Payload)
		}
		resp := c.Paid.Meta[MetaPaymentResponse].(map[string]any)
		if resp["success"] != true || resp["payer"] != a.wallet.String() || !strings.HasPrefix(resp["transaction"].(string), "0x") {
			t.Errorf("call %d: payment response %v", i, resp)
		}
	}
	if res[2].Paid.Structured["seat"] != "A" || !reflect.DeepEqual(res[3].Paid.Structured["legal_moves"], []any{}) {
		t.Errorf("views: %+v / %+v", res[2].Paid.Structured, res[3].Paid.Structured)
	}
	if c := res[4]; !c.First.IsError || c.First.Structured["error"] != "unknown_match" || c.Paid != nil {
		t.Errorf("an unknown match is refused before any challenge: %+v", c.First.Structured)
	}
	// Circle's payload again, for another tool: its resource.url names the first tool; without
	// it (the resource is not signed) the nonce is found spent.
	refusedWith(t, "another resource", r.callTool("warden_temperaments", map[string]any{}, res[1].Payload), "invalid_payment_requirements", "1")
	stripped := map[string]any{}
	for k, v := range res[1].Payload {
		if k != "resource" {
			stripped[k] = v
		}
	}
	refusedWith(t, "replayed", r.callTool("warden_temperaments", map[string]any{}, stripped), "payment_replayed", "1")

	// The generic client alone mis-signs the Gateway entry (§10.11).
	generic := r.runMCPClient(t, 0x52, "exact", []map[string]any{{"tool": "warden_leaderboard", "pay": true}})[0]
	if generic.Paid == nil || !generic.Paid.IsError || generic.Paid.Structured["error"] != "invalid_exact_evm_payload_signature" ||
		!strings.Contains(generic.Paid.Structured["detail"].(string), "signed with the token as verifying contract") {
		t.Errorf("the generic ExactEvmScheme on a Gateway entry: %+v", generic.Paid)
	}

	recs := r.records()
	if len(recs) != 3 {
		t.Fatalf("%d records, want the three paid reads: %+v", len(recs), recs)
	}
	for _, p := range recs {
		if p.Status != "settled" || p.Payer != a.wallet.String() || p.Tx != TransferID(p.Key) {
			t.Errorf("record %+v", p)
		}
	}
	spent, err := ReadsSpent(r.store, match)
	if err != nil || !reflect.DeepEqual(spent, map[string]int64{"A": 20}) {
		t.Errorf("reads spent %v %v", spent, err)
	}
	if bal, _ := r.gw.Balance(a.wallet.String()); bal != 1000-21 {
		t.Errorf("a's Gateway balance %d, want 979", bal)
	}
}
