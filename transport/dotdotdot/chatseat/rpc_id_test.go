package chatseat

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// rawPost sends body to /mcp and returns the status, the Allow header and the raw answer.
func rawPost(t *testing.T, srv *httptest.Server, method, body string) (int, http.Header, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL+Path, bytes.NewBufferString(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, raw
}

// rawID is the answer's "id" member as its bytes.
func rawID(t *testing.T, raw []byte) string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("answer is not a JSON object: %s", raw)
	}
	return string(m["id"])
}

// A request's id comes back as it was sent, or the request is refused: a null id is -32600
// (not a notification: a client that sent an id waits for an answer), so is a fractional one
// (1.5) and one in a form mcp-go would rewrite (1E2 echoed as 100, -0); a whole number in
// digits is echoed byte for byte, a string as the same string.
func TestRequestIDsAreEchoedAsSentOrRefused(t *testing.T) {
	f := &fakeDesk{}
	srv := seat(t, f, Options{})
	for _, tt := range []struct {
		id      string
		refused bool
	}{
		{`null`, true},
		{`1.5`, true},
		{`1E2`, true},
		{`1e2`, true},
		{`-0`, true},
		{`2.0`, true},
		{`7`, false},
		{`-3`, false},
		{`0`, false},
		{`9007199254740991`, false},
		{`"abc"`, false},
		{`"1E2"`, false},
		{`"\u00e9"`, false},
	} {
		t.Run(tt.id, func(t *testing.T) {
			status, _, raw := rawPost(t, srv, http.MethodPost, `{"jsonrpc":"2.0","id":`+tt.id+`,"method":"tools/list"}`)
			if len(raw) == 0 {
				t.Fatalf("status %d and no answer at all: the client never hears back", status)
			}
			var m map[string]any
			_ = json.Unmarshal(raw, &m)
			code, _ := rpcError(m)
			if tt.refused {
				if code != -32600 || status != http.StatusBadRequest || rawID(t, raw) != "null" {
					t.Fatalf("status %d %.300s; want 400, -32600 with id null", status, raw)
				}
				return
			}
			if status != http.StatusOK || code != 0 || m["result"] == nil {
				t.Fatalf("status %d %.300s; want a result", status, raw)
			}
			got := rawID(t, raw)
			if tt.id[0] == '"' { // a string comes back as the same string (escapes are the encoder's)
				var want, have string
				if json.Unmarshal([]byte(tt.id), &want) != nil || json.Unmarshal([]byte(got), &have) != nil || want != have {
					t.Fatalf("id %s came back as %s", tt.id, got)
				}
			} else if got != tt.id { // a number byte for byte
				t.Fatalf("id %s came back as %s", tt.id, got)
			}
		})
	}
	if calls := f.callList(); len(calls) != 0 {
		t.Fatalf("tools/list reached the desk: %v", calls)
	}
}

// A notification (no id) is still taken with 202 and no body, as JSON-RPC wants.
func TestNotificationIsStillAccepted(t *testing.T) {
	srv := seat(t, &fakeDesk{}, Options{})
	status, _, raw := rawPost(t, srv, http.MethodPost, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	if status != http.StatusAccepted || len(raw) != 0 {
		t.Fatalf("notification: %d %s; want 202 and no body", status, raw)
	}
}

// GET /mcp (and any method but POST) is 405 with Allow: POST: the seat is stateless and
// streams nothing, so there is no event stream to open and no session to delete.
func TestOnlyPostIsServed(t *testing.T) {
	srv := seat(t, &fakeDesk{}, Options{})
	for _, m := range []string{http.MethodGet, http.MethodDelete, http.MethodPut, http.MethodPatch} {
		status, h, raw := rawPost(t, srv, m, "")
		if status != http.StatusMethodNotAllowed || h.Get("Allow") != "POST" {
			t.Fatalf("%s /mcp: %d Allow %q %s; want 405 with Allow: POST", m, status, h.Get("Allow"), raw)
		}
	}
}

// An id refused for its kind or its size says why, as the other id refusals do: a whole number
// past ±(2^53−1) (a valid int64 among them, which a JSON number cannot carry exactly) and an id
// that is neither a string nor a number get -32600 with id null and a message naming the rule,
// never the bare "Invalid Request". A too large number elsewhere in the message is named as such
// and the (usable) id echoed.
func TestRefusedIDsSayWhy(t *testing.T) {
	srv := seat(t, &fakeDesk{}, Options{})
	for _, tt := range []struct {
		body, id, want string
	}{
		{`{"jsonrpc":"2.0","id":9007199254740992,"method":"ping"}`, "null", msgUnsafeID},
		{`{"jsonrpc":"2.0","id":9223372036854775807,"method":"ping"}`, "null", msgUnsafeID},
		{`{"jsonrpc":"2.0","id":-9007199254740992,"method":"ping"}`, "null", msgUnsafeID},
		{`{"jsonrpc":"2.0","id":true,"method":"ping"}`, "null", msgIDKind},
		{`{"jsonrpc":"2.0","id":{},"method":"ping"}`, "null", msgIDKind},
		{`{"jsonrpc":"2.0","id":[1],"method":"ping"}`, "null", msgIDKind},
		{`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"my_record","arguments":{"n":9007199254740993}}}`, "4", msgUnsafeNumber},
	} {
		t.Run(tt.body, func(t *testing.T) {
			status, _, raw := rawPost(t, srv, http.MethodPost, tt.body)
			var m struct {
				Error struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := json.Unmarshal(raw, &m); err != nil {
				t.Fatalf("status %d %s", status, raw)
			}
			if status != http.StatusBadRequest || m.Error.Code != -32600 || m.Error.Message != tt.want || rawID(t, raw) != tt.id {
				t.Fatalf("status %d %s; want 400, -32600 %q with id %s", status, raw, tt.want, tt.id)
			}
		})
	}
}

// An id given twice (or beside a case twin, "ID") is no id the client can be answered by: the
// refusal's id is null, never one of the two picked (JSON-RPC: null when the id cannot be told).
func TestTwiceGivenIDIsAnsweredNull(t *testing.T) {
	refused(t, `{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`, -32600, msgFolded, nil)
	refused(t, `{"jsonrpc":"2.0","id":"a","ID":"b","method":"ping"}`, -32600, msgFolded, nil)
	// A duplicate elsewhere keeps the one id the message has.
	refused(t, `{"jsonrpc":"2.0","id":3,"method":"ping","params":{"a":1,"a":2}}`, -32600, msgFolded, float64(3))
}
