package market

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"arena/transport/door"
)

// TestDoorsRefuseTheSameBytesTheSameWay: each payload, with a key and without, gets the same
// code and HTTP status through POST /v2/request and through the A2A door's request part.
func TestDoorsRefuseTheSameBytesTheSameWay(t *testing.T) {
	r := newRig(t, Gateway{})
	k := r.key("owner-bytes", "")
	if _, b := r.post(k, nil, `{"protocolVersion":2,"commandId":"e","action":"enroll"}`); decode(t, b).code() != "" {
		t.Fatalf("enrol: %s", b)
	}
	over := `{"protocolVersion":2,"action":"readStanding","x":"` + strings.Repeat("a", door.DefaultMaxBody) + `"}`
	cases := []struct {
		name, body string
		code       string // with the key
		status     int
	}{
		{"empty", ``, "malformed_request", 200},
		{"not json", `{"protocolVersion":2,`, "malformed_request", 200},
		{"an array", `[]`, "malformed_request", 200},
		{"trailing data", `{"protocolVersion":2,"action":"readInventory"} {}`, "malformed_request", 200},
		{"duplicate member", `{"protocolVersion":2,"action":"readInventory","action":"readStanding"}`, "malformed_request", 200},
		{"version 3", `{"protocolVersion":3,"action":"readInventory"}`, "unsupported_protocol_version", 200},
		{"unknown member", `{"protocolVersion":2,"action":"readInventory","ownerId":"someone"}`, "malformed_request", 200},
		{"mutation without commandId", `{"protocolVersion":2,"action":"enroll"}`, "malformed_request", 200},
		{"unknown player", `{"protocolVersion":2,"commandId":"t","action":"transfer","toPlayerId":"pl_nobody","assetId":"credits","quantity":1}`, "unknown_player", 200},
		{"over the cap", over, "too_large", 413},
		{"ok", `{"protocolVersion":2,"action":"readInventory"}`, "", 200},
	}
	for _, c := range cases {
		for _, key := range []string{k, ""} {
			wantCode, wantStatus := c.code, c.status
			if key == "" && c.code != "too_large" {
				wantCode, wantStatus = "authentication_required", 401
			}
			var got [2][2]any
			for i, d := range doors {
				st, b := d.send(r, key, nil, c.body)
				got[i] = [2]any{st, decode(t, b).code()}
			}
			if got[0] != got[1] || got[0] != [2]any{wantStatus, wantCode} {
				t.Errorf("%s (key %v): http %v, a2a %v, want %d %q", c.name, key != "", got[0], got[1], wantStatus, wantCode)
			}
		}
	}
}

// TestA2ARequestPart: the request travels as a text part or a data part named "request"
// (metadata.name, or metadata.partId); no such part, two of them, or a part of another name is an
// empty request (malformed_request); JSON-RPC's own faults are JSON-RPC errors.
func TestA2ARequestPart(t *testing.T) {
	r := newRig(t, Gateway{})
	k := r.key("owner-parts", "")
	frame := func(parts ...any) []byte {
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": "q1", "method": "message/send",
			"params": map[string]any{"message": map[string]any{"kind": "message", "messageId": "m", "role": "user", "parts": parts}}})
		return b
	}
	std := `{"protocolVersion":2,"action":"readStanding"}`
	text := func(name, key string) any {
		return map[string]any{"kind": "text", "text": std, "metadata": map[string]any{key: name}}
	}
	data := map[string]any{"kind": "data", "data": json.RawMessage(std), "metadata": map[string]any{"name": "request"}}
	cases := []struct {
		name  string
		frame []byte
		code  string
	}{
		{"text part", frame(text("request", "name")), ""},
		{"data part", frame(data), ""},
		{"partId", frame(text("request", "partId")), ""},
		{"beside another part", frame(map[string]any{"kind": "text", "text": "hello"}, text("request", "name")), ""},
		{"no part named request", frame(text("req", "name")), "malformed_request"},
		{"two request parts", frame(text("request", "name"), data), "malformed_request"},
		{"no parts", frame(), "malformed_request"},
	}
	for _, c := range cases {
		st, b := r.do(http.MethodPost, "/a2a", "Bearer "+k, nil, c.frame)
		var out struct {
			ID     string `json:"id"`
			Result struct {
				Kind  string `json:"kind"`
				Role  string `json:"role"`
				Parts []struct {
					Kind string `json:"kind"`
					Text string `json:"text"`
				} `json:"parts"`
			} `json:"result"`
		}
		if err := json.Unmarshal(b, &out); err != nil || st != 200 || out.ID != "q1" || out.Result.Kind != "message" || out.Result.Role != "agent" || len(out.Result.Parts) != 1 {
			t.Errorf("%s: %d %s", c.name, st, b)
			continue
		}
		if got := decode(t, []byte(out.Result.Parts[0].Text)).code(); got != c.code {
			t.Errorf("%s: code %q, want %q", c.name, got, c.code)
		}
	}
	rpc := []struct {
		name, body string
		code       int
	}{
		{"not json", `{"jsonrpc":`, -32700},
		{"no version", `{"id":1,"method":"message/send"}`, -32600},
		{"tasks/get", `{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"id":"t"}}`, -32601},
		{"no message", `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{}}`, -32602},
	}
	for _, c := range rpc {
		st, b := r.do(http.MethodPost, "/a2a", "Bearer "+k, nil, []byte(c.body))
		var out struct {
			Error struct {
				Code int `json:"code"`
			} `json:"error"`
		}
		if json.Unmarshal(b, &out); st != 200 || out.Error.Code != c.code {
			t.Errorf("%s: %d %s, want JSON-RPC error %d", c.name, st, b, c.code)
		}
	}
}
