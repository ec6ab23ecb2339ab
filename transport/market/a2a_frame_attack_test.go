package market

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// The A2A frame is read strictly: a member twice, two names equal under case folding, or a
// variant spelling of a member the door reads (at the frame, params, message or part level)
// would let this door read another request part, method or id than a reader in front of it,
// so each is a JSON-RPC error (-32600 for the frame, -32602 for params and parts) and reaches
// no market; an id that is an object, an array or a boolean is -32600 with id null. The
// honest frame beside them is answered.
func TestA2AFrameParserDifferentials(t *testing.T) {
	r := newRig(t, Gateway{})
	k := r.key("owner-frames", "")
	req := `{\"protocolVersion\":2,\"action\":\"readStanding\"}`
	enrol := `{\"protocolVersion\":2,\"commandId\":\"e\",\"action\":\"enroll\"}`
	part := `{"kind":"text","text":"` + req + `","metadata":{"name":"request"}}`
	msg := func(parts string) string {
		return `{"jsonrpc":"2.0","id":7,"method":"message/send","params":{"message":{"kind":"message","messageId":"m","role":"user","parts":[` + parts + `]}}}`
	}
	cases := []struct {
		name, frame string
		code        int
		id          string // the id the error answers, "null" when none could be trusted
	}{
		{"method twice", `{"jsonrpc":"2.0","id":7,"method":"tasks/get","method":"message/send","params":{"message":{"parts":[` + part + `]}}}`, -32600, "null"},
		{"method in another case", `{"jsonrpc":"2.0","id":7,"METHOD":"message/send","params":{"message":{"parts":[` + part + `]}}}`, -32600, "null"},
		{"method beside its variant", `{"jsonrpc":"2.0","id":7,"method":"message/send","Method":"tasks/get","params":{"message":{"parts":[` + part + `]}}}`, -32600, "null"},
		{"params in another case", `{"jsonrpc":"2.0","id":7,"method":"message/send","Params":{"message":{"parts":[` + part + `]}}}`, -32600, "null"},
		{"message in another case", `{"jsonrpc":"2.0","id":7,"method":"message/send","params":{"Message":{"parts":[` + part + `]}}}`, -32602, "7"},
		{"parts in another case", `{"jsonrpc":"2.0","id":7,"method":"message/send","params":{"message":{"Parts":[` + part + `]}}}`, -32602, "7"},
		{"text twice", msg(`{"kind":"text","text":"` + req + `","text":"` + enrol + `","metadata":{"name":"request"}}`), -32600, "null"},
		{"text and its variant", msg(`{"kind":"text","text":"` + req + `","TEXT":"` + enrol + `","metadata":{"name":"request"}}`), -32600, "null"},
		{"text in another case", msg(`{"kind":"text","Text":"` + enrol + `","metadata":{"name":"request"}}`), -32602, "7"},
		{"name twice in metadata", msg(`{"kind":"text","text":"` + enrol + `","metadata":{"name":"other","name":"request"}}`), -32600, "null"},
		{"a part that is no part", msg(`5,` + part), -32602, "7"},
		{"an object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"message/send","params":{"message":{"parts":[` + part + `]}}}`, -32600, "null"},
		{"a boolean id", `{"jsonrpc":"2.0","id":true,"method":"message/send","params":{"message":{"parts":[` + part + `]}}}`, -32600, "null"},
		{"an unsafe integer", `{"jsonrpc":"2.0","id":9007199254740993,"method":"message/send","params":{"message":{"parts":[` + part + `]}}}`, -32600, "null"},
	}
	for _, c := range cases {
		st, b := r.do(http.MethodPost, "/a2a", "Bearer "+k, nil, []byte(c.frame))
		var out struct {
			ID     json.RawMessage `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Code int `json:"code"`
			} `json:"error"`
		}
		if err := json.Unmarshal(b, &out); err != nil || st != 200 || out.Error == nil || out.Error.Code != c.code || string(out.ID) != c.id || out.Result != nil {
			t.Errorf("%s: %d %s, want JSON-RPC error %d with id %s", c.name, st, b, c.code, c.id)
		}
	}
	// Nothing reached the market: the Owner is still not enrolled.
	if _, b := r.post(k, nil, `{"protocolVersion":2,"action":"readInventory"}`); decode(t, b).code() != "not_enrolled" {
		t.Fatalf("a refused frame reached the market: %s", b)
	}
	st, b := r.do(http.MethodPost, "/a2a", "Bearer "+k, nil, []byte(msg(part)))
	if st != 200 || !strings.Contains(string(b), `\"ok\":true`) {
		t.Fatalf("the honest frame: %d %s", st, b)
	}
}
