package chatseat

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// refused posts body and checks the answer is JSON-RPC error code with message msg, id as
// given (nil for null), HTTP 400, and that nothing reached the desk.
func refused(t *testing.T, body string, code int, msg string, id any) {
	t.Helper()
	refusedAs(t, Options{}, body, http.StatusBadRequest, code, msg, id)
}

// refusedAs is refused on a seat with opts, answering HTTP status.
func refusedAs(t *testing.T, opts Options, body string, wantStatus, code int, msg string, id any) {
	t.Helper()
	f := &fakeDesk{}
	srv := seat(t, f, opts)
	status, m := post(t, srv, body)
	gotCode, gotMsg := rpcError(m)
	if status != wantStatus || gotCode != code || gotMsg != msg {
		t.Fatalf("status %d, error %d %q; want %d, %d %q (answer %v)", status, gotCode, gotMsg, wantStatus, code, msg, m)
	}
	if m["id"] != id {
		t.Fatalf("id %v, want %v", m["id"], id)
	}
	if calls := f.callList(); len(calls) != 0 {
		t.Fatalf("a refused request reached the desk: %v", calls)
	}
}

func TestHostileNameBesideName(t *testing.T) {
	refused(t, `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"my_record","Name":"register","arguments":{"name":"Eve"}}}`,
		-32600, msgFolded, float64(9))
}

func TestHostileArgumentsBesideArguments(t *testing.T) {
	refused(t, `{"jsonrpc":"2.0","id":"a1","method":"tools/call","params":{"name":"register","arguments":{"name":"Ada"},"Arguments":{"name":"Eve"}}}`,
		-32600, msgFolded, "a1")
}

func TestHostileMethodBesideMethod(t *testing.T) {
	refused(t, `{"jsonrpc":"2.0","id":3,"method":"tools/list","Method":"tools/call","params":{"name":"register","arguments":{"name":"Eve"}}}`,
		-32600, msgFolded, float64(3))
}

func TestHostileCaseVariantMethodAlone(t *testing.T) {
	refused(t, `{"jsonrpc":"2.0","id":4,"Method":"tools/call","params":{"name":"register","arguments":{"name":"Eve"}}}`,
		-32600, msgCaseVariant, float64(4))
}

func TestHostileCaseVariantNameAlone(t *testing.T) {
	refused(t, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"NAME":"register","arguments":{"name":"Eve"}}}`,
		-32600, msgCaseVariant, float64(5))
}

func TestHostileCaseVariantArgumentsAlone(t *testing.T) {
	refused(t, `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"register","ARGUMENTS":{"name":"Eve"}}}`,
		-32600, msgCaseVariant, float64(6))
}

func TestHostileExactDuplicateName(t *testing.T) {
	refused(t, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"my_record","name":"register","arguments":{"name":"Eve"}}}`,
		-32600, msgFolded, float64(7))
}

func TestHostileDuplicateInsideArguments(t *testing.T) {
	refused(t, `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"register","arguments":{"name":"Ada","Name":"Eve"}}}`,
		-32600, msgFolded, float64(8))
}

func TestHostileInBatch(t *testing.T) {
	refused(t, `[{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}},{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"register","Name":"x","arguments":{"name":"Eve"}}}]`,
		-32600, msgFolded, nil)
}

func TestHostileCaseVariantInBatch(t *testing.T) {
	refused(t, `[{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}},{"jsonrpc":"2.0","id":2,"METHOD":"tools/call","params":{"name":"register","arguments":{"name":"Eve"}}}]`,
		-32600, msgCaseVariant, float64(2))
}

func TestEmptyBatch(t *testing.T) {
	refused(t, `[]`, -32600, msgInvalid, nil)
}

func TestArgumentsMissing(t *testing.T) {
	refused(t, `{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"list_tables"}}`, -32602, msgArguments, float64(11))
}

func TestArgumentsNull(t *testing.T) {
	refused(t, `{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"register","arguments":null}}`, -32602, msgArguments, float64(12))
}

func TestArgumentsArray(t *testing.T) {
	refused(t, `{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"register","arguments":[{"name":"Eve"}]}}`, -32602, msgArguments, float64(13))
}

func TestArgumentsString(t *testing.T) {
	refused(t, `{"jsonrpc":"2.0","id":14,"method":"tools/call","params":{"name":"register","arguments":"{\"name\":\"Eve\"}"}}`, -32602, msgArguments, float64(14))
}

func TestParamsNotObject(t *testing.T) {
	refused(t, `{"jsonrpc":"2.0","id":15,"method":"tools/call","params":["register"]}`, -32602, msgParamsObject, float64(15))
}

func TestNotJSON(t *testing.T) {
	refused(t, `{"jsonrpc":"2.0","id":16,"method":"tools/call"`, -32700, msgParse, nil)
	refused(t, "{\"jsonrpc\":\"2.0\",\"id\":16,\"method\":\"\xff\"}", -32700, msgParse, nil)
	refused(t, `{"jsonrpc":"2.0","id":16,"method":"tools/list"} {}`, -32700, msgParse, nil)
}

func TestUnsafeInteger(t *testing.T) {
	refused(t, `{"jsonrpc":"2.0","id":17,"method":"tools/call","params":{"name":"next_move","arguments":{"token":"`+tok+`","wait":9007199254740993}}}`,
		-32600, msgUnsafeNumber, float64(17))
}

func TestBodyTooLarge(t *testing.T) {
	big := `{"jsonrpc":"2.0","id":18,"method":"tools/call","params":{"name":"feedback","arguments":{"text":"` + strings.Repeat("x", DefaultMaxBody) + `"}}}`
	refusedAs(t, Options{}, big, http.StatusRequestEntityTooLarge, -32600, msgTooLarge, nil)
	// A smaller configured cap (--max-body) holds too.
	small := `{"jsonrpc":"2.0","id":18,"method":"tools/call","params":{"name":"feedback","arguments":{"text":"` + strings.Repeat("x", 200) + `"}}}`
	refusedAs(t, Options{MaxBody: 128}, small, http.StatusRequestEntityTooLarge, -32600, msgTooLarge, nil)
}

// TestGuardPanic: a panic below the guard answers a fixed -32603, never its text.
func TestGuardPanic(t *testing.T) {
	h := Guard(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		panic("runtime error: index out of range [3] with length 2 at /src/arena/x.go:12")
	}), DefaultMaxBody, slog.New(slog.DiscardHandler))
	srv := httptest.NewServer(h)
	defer srv.Close()
	resp, err := http.Post(srv.URL, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`))
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(raw) != `{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"Internal error"}}`+"\n" {
		t.Fatalf("panic answer: %d %s", resp.StatusCode, raw)
	}
}

// TestCleanRequestPasses: the same calls, spelled right, go through to the desk.
func TestCleanRequestPasses(t *testing.T) {
	f := &fakeDesk{}
	srv := seat(t, f, Options{})
	status, m := post(t, srv, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"register","arguments":{"name":"Ada"}}}`)
	if status != 200 || m["error"] != nil {
		t.Fatalf("%d %v", status, m)
	}
	if calls := f.callList(); len(calls) != 1 || calls[0] != "register:Ada:" {
		t.Fatalf("calls %v", calls)
	}
}

func TestHostileCaseVariantParamsAlone(t *testing.T) {
	refused(t, `{"jsonrpc":"2.0","id":19,"method":"tools/call","Params":{"name":"register","arguments":{"name":"Eve"}}}`,
		-32600, msgCaseVariant, float64(19))
}
