package chatseat

import (
	"net/http"
	"strings"
	"testing"
)

// A well-formed JSON-RPC batch is valid JSON: refusing it with -32700 "Parse error" (mcp-go's
// "request body is not valid json") tells a client its JSON is broken when it is not. The
// brief for /mcp: a hostile request is always -32600 or -32602, and nothing reaches the desk.
func TestWellFormedBatchIsInvalidRequestNotParseError(t *testing.T) {
	f := &fakeDesk{}
	srv := seat(t, f, Options{})
	status, m := post(t, srv, `[{"jsonrpc":"2.0","id":1,"method":"tools/list"},{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"register","arguments":{"name":"Eve"}}}]`)
	code, msg := rpcError(m)
	if status != http.StatusBadRequest || code != -32600 {
		t.Fatalf("status %d, error %d %q; want 400 and -32600 (a batch is valid JSON, not a parse error)", status, code, msg)
	}
	if calls := f.callList(); len(calls) != 0 {
		t.Fatalf("a refused batch reached the desk: %v", calls)
	}
}

// params.name of the wrong type is an invalid param: -32602 with a short fixed message, never
// Go's decoder text ("Go struct field CallToolRequest.params.name").
func TestToolNameWrongTypeIsShortInvalidParams(t *testing.T) {
	f := &fakeDesk{}
	srv := seat(t, f, Options{})
	_, m := post(t, srv, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":5,"arguments":{}}}`)
	code, msg := rpcError(m)
	if code != -32602 || strings.Contains(msg, "Go struct") || strings.Contains(msg, "unmarshal") {
		t.Fatalf("error %d %q; want -32602 with a short fixed message", code, msg)
	}
	if calls := f.callList(); len(calls) != 0 {
		t.Fatalf("a refused call reached the desk: %v", calls)
	}
}
