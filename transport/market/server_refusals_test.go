package market

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/a2a"

	gm "arena/games/market"
	"arena/transport/door"
)

// TestServerRefusalsAreTheMarketsEnvelope: a body over the cap (413), a Content-Type that is
// not JSON (415), a wrong method (405) and no such route (404) answer the protocol's refusal
// envelope byte for byte as the reducer writes its own — protocolVersion, ok, stateVersion,
// error{code, message}, in that order — at the market's current State Version, and each is the
// same bytes on POST /v2/request and on the A2A door (its frame, or the request part of a
// frame under the frame's cap, whose answer's response part carries the envelope).
func TestServerRefusalsAreTheMarketsEnvelope(t *testing.T) {
	r := newRig(t, Gateway{})
	k := r.key("owner-server-refusals", "")
	_, b := r.post(k, nil, `{"protocolVersion":2,"commandId":"e","action":"enroll"}`)
	_, b = r.post(k, nil, `{"protocolVersion":2,"commandId":"n","action":"setTradingName","tradingName":"Yard"}`)
	version := decode(t, b).StateVersion
	if version != 2 {
		t.Fatalf("stateVersion %d after an enrolment and a name, want 2: %s", version, b)
	}
	want := func(code, msg string) []byte { return gm.RefusalEnvelope(version, code, msg) }
	prefix := func(code string) string {
		return fmt.Sprintf(`{"protocolVersion":2,"ok":false,"stateVersion":%d,"error":{"code":%q,"message":`, version, code)
	}
	tooLarge := want(door.CodeTooLarge, fmt.Sprintf("the request is over the %d-byte cap", door.DefaultMaxBody))
	over := `{"protocolVersion":2,"action":"readStanding","x":"` + strings.Repeat("a", door.DefaultMaxBody) + `"}`
	hugeFrame := []byte(`{"jsonrpc":"2.0","id":1,"method":"message/send","pad":"` + strings.Repeat("b", 2*door.DefaultMaxBody+4096) + `"}`)
	text := map[string]string{"Content-Type": "text/plain"}
	cases := []struct {
		name   string
		status int
		code   string
		send   func() (int, []byte)
	}{
		{"http: over the cap", 413, door.CodeTooLarge, func() (int, []byte) { return r.post(k, nil, over) }},
		{"a2a: request part over the cap", 413, door.CodeTooLarge, func() (int, []byte) { return r.send(k, nil, over) }},
		{"a2a: frame over its cap", 413, door.CodeTooLarge, func() (int, []byte) {
			return r.do(http.MethodPost, "/a2a", "Bearer "+k, nil, hugeFrame)
		}},
		{"http: text/plain", 415, door.CodeMediaType, func() (int, []byte) {
			return r.do(http.MethodPost, "/v2/request", "Bearer "+k, text, []byte(`{"protocolVersion":2,"action":"readStanding"}`))
		}},
		{"a2a: text/plain", 415, door.CodeMediaType, func() (int, []byte) {
			return r.do(http.MethodPost, "/a2a", "Bearer "+k, text, []byte(`{"protocolVersion":2,"action":"readStanding"}`))
		}},
		{"http: GET", 405, door.CodeMethod, func() (int, []byte) { return r.do(http.MethodGet, "/v2/request", "Bearer "+k, nil, nil) }},
		{"a2a: GET", 405, door.CodeMethod, func() (int, []byte) { return r.do(http.MethodGet, "/a2a", "Bearer "+k, nil, nil) }},
		{"http: PUT", 405, door.CodeMethod, func() (int, []byte) { return r.do(http.MethodPut, "/v2/request", "Bearer "+k, nil, nil) }},
		{"a2a: DELETE", 405, door.CodeMethod, func() (int, []byte) { return r.do(http.MethodDelete, "/a2a", "Bearer "+k, nil, nil) }},
		{"no such route", 404, door.CodeNotFound, func() (int, []byte) { return r.do(http.MethodPost, "/v2/nothing", "Bearer "+k, nil, nil) }},
	}
	byCode := map[string][]byte{}
	for _, c := range cases {
		st, got := c.send()
		if st != c.status || !strings.HasPrefix(string(got), prefix(c.code)) {
			t.Errorf("%s: %d %s\nwant %d %s…", c.name, st, got, c.status, prefix(c.code))
			continue
		}
		var e struct {
			Error struct{ Message string }
		}
		if err := json.Unmarshal(got, &e); err != nil || !bytes.Equal(got, want(c.code, e.Error.Message)) || e.Error.Message == "" {
			t.Errorf("%s: %s is not the reducer's envelope", c.name, got)
		}
		if c.code == door.CodeTooLarge && !bytes.Equal(got, tooLarge) {
			t.Errorf("%s: %s\nwant %s", c.name, got, tooLarge)
		}
		// One code, one answer, whichever door.
		if prev, ok := byCode[c.code]; ok && !bytes.Equal(prev, got) {
			t.Errorf("%s: %s\nthe other door: %s", c.name, got, prev)
		}
		byCode[c.code] = got
	}
	// The A2A part refused over the cap still answers as a Message (the frame was read).
	st, raw := r.do(http.MethodPost, "/a2a", "Bearer "+k, nil, a2aFrame(over))
	var out struct {
		Result *a2a.Message `json:"result"`
	}
	if json.Unmarshal(raw, &out); st != 413 || out.Result == nil {
		t.Errorf("a2a request part over the cap: %d %s, want 413 and a Message", st, raw)
	}
}

// a2aFrame is a message/send frame carrying body as the text part named "request".
func a2aFrame(body string) []byte {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": map[string]any{
		"message": map[string]any{"kind": "message", "messageId": "m1", "role": "user",
			"parts": []any{map[string]any{"kind": "text", "text": body, "metadata": map[string]any{"name": "request"}}}}}})
	return b
}
