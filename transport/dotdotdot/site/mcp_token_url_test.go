package site

import (
	"encoding/json"
	"strings"
	"testing"
)

// A connector URL carrying the walk-in token (`/mcp?token=w_…`, as a person might paste it when
// adding the connector) is refused in JSON-RPC's shape, the only body an MCP client reads: HTTP
// 400, -32600, id null, and a message that hands over the new token the exposed one's record now
// opens with (the client shows the message; it would show nothing of a {code, error} body), the
// same in error.data as {code: "token_in_url", token}. The new token opens the record; the old
// one is revoked.
func TestTokenInMCPURLAnswersJSONRPC(t *testing.T) {
	en, _ := claimSite(t)
	old := en.register("Mina")
	r := en.do("POST", "/mcp?token="+old, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`,
		"Accept", "application/json, text/event-stream")
	var m struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
			Data    struct {
				Code  string `json:"code"`
				Token string `json:"token"`
			} `json:"data"`
		} `json:"error"`
	}
	if err := json.Unmarshal(r.raw, &m); err != nil || r.status != 400 || m.JSONRPC != "2.0" || string(m.ID) != "null" || m.Error.Code != -32600 {
		t.Fatalf("POST /mcp?token=…: %d %s; want 400 and a JSON-RPC -32600 error with id null", r.status, r.raw)
	}
	fresh := m.Error.Data.Token
	if m.Error.Data.Code != "token_in_url" || !strings.HasPrefix(fresh, "w_") || fresh == old || !strings.Contains(m.Error.Message, fresh) {
		t.Fatalf("the refusal does not hand over the new token in its message and data: %s", r.raw)
	}
	if me := en.do("GET", "/v1/walkin/me", "", "X-Walkin", fresh); me.status != 200 || me.body["name"] != "Mina" {
		t.Fatalf("the new token's record: %d %s", me.status, me.raw)
	}
	refused(t, en.do("GET", "/v1/walkin/me", "", "X-Walkin", old), 401, "token_revoked")
	// Exposed again, the revoked token gets the same shape with nothing handed out.
	r = en.do("POST", "/mcp?token="+old, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	if err := json.Unmarshal(r.raw, &m); err != nil || r.status != 400 || m.Error.Code != -32600 || m.Error.Data.Code != "token_in_url" || strings.Contains(string(r.raw), `"token":"w_`) {
		t.Fatalf("second exposure: %d %s", r.status, r.raw)
	}
}
