package chatseat

import (
	"encoding/json"
	"testing"
)

// FuzzCheckBody: the guard's judgement never panics, and whatever it lets through has no
// duplicate or case-variant member names where mcp-go reads them and, for tools/call, an
// object for arguments.
func FuzzCheckBody(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"register","arguments":{"name":"Ada"}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","Name":"b","arguments":{}}}`,
		`[{"jsonrpc":"2.0","id":1,"Method":"tools/call"}]`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","arguments":null}}`,
		`[]`, `null`, `"x"`, `{}`, `[[[]]]`,
		`{"jsonrpc":"2.0","id":null,"method":"tools/list"}`, `{"jsonrpc":"2.0","id":1E2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":-0,"method":"ping"}`, `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if checkBody(raw) != nil {
			return
		}
		var msgs []map[string]json.RawMessage
		var one map[string]json.RawMessage
		if json.Unmarshal(raw, &one) == nil && one != nil {
			msgs = append(msgs, one)
		} else {
			_ = json.Unmarshal(raw, &msgs)
		}
		for _, m := range msgs {
			if variantOf(m, rpcNames) {
				t.Fatalf("passed a case-variant member: %s", raw)
			}
			// A request's id is one mcp-go echoes as sent: a string or digits.
			if id, ok := m["id"]; ok && m["method"] != nil {
				if exactID(m) == nil || (id[0] != '"' && !integerID(exactID(m))) {
					t.Fatalf("passed a request id mcp-go would drop or rewrite: %s", raw)
				}
			}
			var method string
			if json.Unmarshal(m["method"], &method) != nil || method != "tools/call" {
				continue
			}
			var p map[string]json.RawMessage
			if json.Unmarshal(m["params"], &p) != nil || variantOf(p, callNames) {
				t.Fatalf("passed tools/call params: %s", raw)
			}
			var args map[string]json.RawMessage
			if json.Unmarshal(p["arguments"], &args) != nil || args == nil {
				t.Fatalf("passed tools/call without object arguments: %s", raw)
			}
		}
	})
}
