package mcpguard

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Guard refuses before the handler below it ever runs, and passes a sound message on with its
// body intact; WriteError writes the id it is given and the status.
func TestGuardRefusesBeforeDispatch(t *testing.T) {
	var got string
	h := Guard(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got = string(b)
		WriteError(w, http.StatusOK, json.RawMessage(`"x"`), CodeInvalidParams, "Invalid params: fixed")
	}), 1<<10, nil)
	srv := httptest.NewServer(h)
	defer srv.Close()
	post := func(body string) (int, string) {
		resp, err := http.Post(srv.URL, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, strings.TrimSpace(string(b))
	}
	for body, want := range map[string]string{
		`{"jsonrpc":"2.0","id":1,"Method":"ping"}`:    `{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"` + MsgCaseVariant + `"}}`,
		`{"jsonrpc":"2.0","id":null,"method":"ping"}`: `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"` + MsgNullID + `"}}`,
		`{"jsonrpc":"2.0","id":2.5,"method":"ping"}`:  `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"` + MsgNumberID + `"}}`,
	} {
		if code, ans := post(body); code != http.StatusBadRequest || ans != want || got != "" {
			t.Errorf("%s: %d %s (handler saw %q)", body, code, ans, got)
		}
	}
	sound := `{"jsonrpc":"2.0","id":"x","method":"ping"}`
	if code, ans := post(sound); code != http.StatusOK || got != sound ||
		ans != `{"jsonrpc":"2.0","id":"x","error":{"code":-32602,"message":"Invalid params: fixed"}}` {
		t.Errorf("sound message: %d %s (handler saw %q)", code, ans, got)
	}
}
