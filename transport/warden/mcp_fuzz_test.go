package warden

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
)

// Any tool arguments and any x402/payment value, on every metered tool: a JSON-RPC answer,
// never a 5xx or a panic; a refusal carries a code; and nothing is charged (no payment record),
// since no fuzzed payload is a signature of a known key over a fresh authorization.
func FuzzMCPMeteredCall(f *testing.F) {
	r := newMCPRig(f, 100)
	a, b := r.register(0x71, "gambler"), r.register(0x72, "shark")
	match := r.pair(a, b)
	good, _ := json.Marshal(r.pay(a, 10, 1))
	f.Add("warden_state", []byte(`{"match_id":"`+match+`","token":"`+a.token+`"}`), good)
	f.Add("warden_leaderboard", []byte(`{"limit":3}`), []byte(`{"x402Version":2}`))
	f.Add("warden_ledger", []byte(`{"after_seq":-1}`), []byte(`"text"`))
	f.Add("warden_wait", []byte(`{"match_id":"`+match+`","after_seq":0,"wait_ms":99999}`), []byte(`null`))
	f.Add("warden_matches", []byte(`{"status":"LIVE","cursor":"x"}`), []byte(`{"x402Version":1,"scheme":"exact","network":"base","payload":{}}`))
	f.Fuzz(func(t *testing.T, tool string, args, payment []byte) {
		if !json.Valid(args) || !json.Valid(payment) {
			return // the guard refuses invalid JSON before mcp-go (its own fuzz test)
		}
		body := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":` + string(mustJSON(tool)) +
			`,"arguments":` + string(args) + `,"_meta":{"x402/payment":` + string(payment) + `}}}`)
		req := httptest.NewRequest("POST", MCPPath, bytes.NewReader(body))
		req.RemoteAddr = "127.0.0.1:1234"
		req.Host = "127.0.0.1"
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		before := len(r.records())
		rec := httptest.NewRecorder()
		r.srv.Config.Handler.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("%s %s %s: %d %s", tool, args, payment, rec.Code, rec.Body.Bytes())
		}
		if rec.Code == http.StatusOK {
			var out struct {
				Result *toolResult      `json:"result"`
				Error  *json.RawMessage `json:"error"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil || (out.Result == nil) == (out.Error == nil) {
				t.Fatalf("%s: not a JSON-RPC answer: %s", tool, rec.Body.Bytes())
			}
			if out.Result != nil && out.Result.IsError {
				if code, _ := out.Result.Structured["error"].(string); code == "" {
					t.Fatalf("%s: a refusal without a code: %s", tool, rec.Body.Bytes())
				}
			}
		}
		if n := len(r.records()); n != before && !bytes.Equal(payment, good) {
			t.Fatalf("%s %s: a payment record from a fuzzed payment (%d → %d)", tool, payment, before, n)
		}
	})
}

func mustJSON(v any) []byte { b, _ := json.Marshal(v); return b }
