package mcp

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"arena/games"
	"arena/games/breakroom/wire"
	"arena/transport/breakroom"
	"arena/transport/breakroom/auth"
	"arena/transport/breakroom/play"
	"arena/transport/httpapi"
)

// stillBackend is a product with one game and no agents: every connection is unknown. The
// hostile requests below never reach it; the calls that do are counted.
type stillBackend struct{ calls *int }

func (b stillBackend) Games(context.Context) ([]play.GameInfo, error) {
	return []play.GameInfo{{ID: "dilemma", Name: "Dilemma", MinPlayers: 3, MaxPlayers: 4}}, nil
}

func (b stillBackend) unknown() error {
	*b.calls++
	return games.Errorf("unauthorized", "no such connection")
}

func (b stillBackend) Join(context.Context, play.Join) (play.Joined, error) {
	return play.Joined{}, b.unknown()
}
func (b stillBackend) Next(context.Context, string, uint64) ([]play.Item, error) {
	return nil, b.unknown()
}
func (b stillBackend) Drop(string) {}
func (b stillBackend) Move(context.Context, string, *wire.Move) error {
	return b.unknown()
}
func (b stillBackend) State(context.Context, string, string, time.Duration) (wire.State, error) {
	return wire.State{}, b.unknown()
}
func (b stillBackend) JoinStatus(context.Context, string, time.Duration) (wire.Outbound, error) {
	return nil, b.unknown()
}
func (b stillBackend) Leave(context.Context, string) (wire.Left, error) {
	return wire.Left{}, b.unknown()
}
func (b stillBackend) Feedback(context.Context, string, *wire.Feedback) (wire.FeedbackReceived, error) {
	return wire.FeedbackReceived{}, b.unknown()
}
func (b stillBackend) Log(context.Context, string) ([][]byte, error) { return nil, b.unknown() }
func (b stillBackend) Reputation(string) (wire.Reputation, error)    { return wire.Reputation{}, nil }

// site serves the MCP door on the Break Room site over stillBackend; calls counts the product
// calls that got through.
func site(t *testing.T) (srv *httptest.Server, calls *int) {
	t.Helper()
	calls = new(int)
	pd, err := play.New(play.Options{Backend: stillBackend{calls}, Nonces: auth.New(auth.Options{})})
	if err != nil {
		t.Fatal(err)
	}
	d, err := New(Options{Door: pd, Rules: func(g string) (string, bool) { return "# Rules", g == "dilemma" }})
	if err != nil {
		t.Fatal(err)
	}
	e, err := httpapi.Build(breakroom.Site{Doors: d}, httpapi.Global{})
	if err != nil {
		t.Fatal(err)
	}
	srv = httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return srv, calls
}

// post sends body to path and answers the status and the raw answer.
func post(t *testing.T, srv *httptest.Server, path, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, srv.URL+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// rpcErr reads a JSON-RPC error answer: its id (as raw JSON), code and message.
func rpcErr(t *testing.T, raw string) (id string, code int, msg string) {
	t.Helper()
	var m struct {
		ID    json.RawMessage `json:"id"`
		Error *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(raw), &m); err != nil || m.Error == nil {
		t.Fatalf("not a JSON-RPC error: %s", raw)
	}
	return string(m.ID), m.Error.Code, m.Error.Message
}

// Each hostile kind is refused before dispatch, on both servers, with the chat seat's codes
// and its fixed messages (no request text, no decoder or panic text); the product is never
// called.
func TestMCPRefusesHostileRequests(t *testing.T) {
	srv, calls := site(t)
	call := func(id, args string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"wait_for_turn","arguments":` + args + `}}`
	}
	cases := []struct {
		name, body, id string
		code           int
		msgHas         string
	}{
		{"case-variant Method", `{"jsonrpc":"2.0","id":1,"Method":"tools/list"}`, "1", -32600, "case variant"},
		{"case-variant Name", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"Name":"list_games","arguments":{}}}`, "2", -32600, "case variant"},
		{"case-variant Arguments", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_games","Arguments":{}}}`, "3", -32600, "case variant"},
		{"member twice", `{"jsonrpc":"2.0","id":4,"method":"tools/call","method":"tools/list"}`, "4", -32600, "twice"},
		{"argument in two spellings", call("5", `{"session":"a","Session":"b"}`), "5", -32600, "twice"},
		{"null id", `{"jsonrpc":"2.0","id":null,"method":"tools/list"}`, "null", -32600, "null"},
		{"fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}`, "null", -32600, "integer"},
		{"exponent id", `{"jsonrpc":"2.0","id":1e2,"method":"tools/list"}`, "null", -32600, "integer"},
		{"arguments not an object", call("6", `["s"]`), "6", -32602, "object"},
		{"arguments null", call("7", `null`), "7", -32602, "object"},
		{"unknown argument", call("8", `{"session":"s","colour":"red"}`), "8", -32602, "wait_for_turn"},
		{"case-variant argument", call(`"c"`, `{"Session":"s"}`), `"c"`, -32602, "wait_for_turn"},
		{"argument of the wrong type", call("9", `{"session":"s","wait_ms":"soon"}`), "9", -32602, "wait_for_turn"},
		{"required argument missing", call("10", `{}`), "10", -32602, "session"},
		{"move round as a string", `{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"make_move","arguments":{"session":"s","match_id":"m","round":"1","turn":0,"action":"cooperate"}}}`, "11", -32602, "make_move"},
		{"not JSON", `{"jsonrpc":"2.0","id":12,`, "null", -32700, "Parse error"},
		{"batch", `[{"jsonrpc":"2.0","id":13,"method":"tools/list"}]`, "null", -32600, "batch"},
		{"unknown method", `{"jsonrpc":"2.0","id":14,"method":"<script>"}`, "14", -32601, "Method not found"},
	}
	for _, path := range []string{Path, FreePath} {
		for _, c := range cases {
			status, raw := post(t, srv, path, c.body)
			id, code, msg := rpcErr(t, raw)
			// The guard's refusals are 400 (the chat seat's); a well-formed call whose arguments
			// misfit is the door's -32602 with 200, read by clients as the call's error.
			want := http.StatusBadRequest
			if c.code == -32602 && c.msgHas != "object" {
				want = http.StatusOK
			}
			if status != want || id != c.id || code != c.code || !strings.Contains(msg, c.msgHas) {
				t.Errorf("%s %s: %d id=%s %d %q", path, c.name, status, id, code, msg)
			}
			if strings.Contains(msg, "colour") || strings.Contains(msg, "<script>") || strings.Contains(msg, "Go struct") || strings.Contains(msg, "json:") {
				t.Errorf("%s %s: the message echoes the request or the decoder: %q", path, c.name, msg)
			}
		}
	}
	if *calls != 0 {
		t.Errorf("%d product calls got through", *calls)
	}
	// Any method but POST is 405 with Allow: POST.
	resp, err := http.Get(srv.URL + Path)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != http.MethodPost {
		t.Errorf("GET /mcp: %d Allow %q", resp.StatusCode, resp.Header.Get("Allow"))
	}
}

// A request's id comes back as sent: an integer byte for byte, a string as the same string
// (escapes may be written otherwise), whether mcp-go or the door's own check answers.
func TestMCPEchoesIDsExactly(t *testing.T) {
	srv, _ := site(t)
	for _, id := range []string{`7`, `-3`, `0`, `9007199254740991`, `"abc"`, `"\u00e9\n"`, `""`} {
		for _, body := range []string{
			`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/list"}`,
			`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"list_games","arguments":{}}}`,
			`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"list_games","arguments":{"x":1}}}`,
		} {
			_, raw := post(t, srv, Path, body)
			var m struct {
				ID json.RawMessage `json:"id"`
			}
			var sent, got any
			_ = json.Unmarshal([]byte(id), &sent)
			if err := json.Unmarshal([]byte(raw), &m); err != nil || json.Unmarshal(m.ID, &got) != nil || got != sent ||
				(id[0] != '"' && string(m.ID) != id) {
				t.Errorf("id %s: answered %s", id, raw)
			}
		}
	}
}

// Tools answer their values and refuse with the protocol's error message: list_games (stakes [] and
// waiting_paid {} as GET /v0/games writes them, never null),
// get_rules (and unknown_game with the games), a product refusal passed on as its code.
func TestMCPToolAnswersOverTheDoor(t *testing.T) {
	srv, calls := site(t)
	text := func(path, tool, args string) (string, bool) {
		_, raw := post(t, srv, path, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"`+tool+`","arguments":`+args+`}}`)
		var m struct {
			Result struct {
				Content []struct{ Text string }
				IsError bool
			}
		}
		if err := json.Unmarshal([]byte(raw), &m); err != nil || len(m.Result.Content) != 1 {
			t.Fatalf("%s: %s", tool, raw)
		}
		return m.Result.Content[0].Text, m.Result.IsError
	}
	if s, e := text(Path, "list_games", `{}`); e || !strings.Contains(s, `"id":"dilemma"`) || !strings.Contains(s, `"min_players":3`) ||
		!strings.Contains(s, `"stakes":[]`) || !strings.Contains(s, `"waiting_paid":{}`) {
		t.Errorf("list_games: %s", s)
	}
	if s, e := text(Path, "get_rules", `{"game":"dilemma"}`); e || s != "# Rules" {
		t.Errorf("get_rules: %s", s)
	}
	if s, e := text(Path, "get_rules", `{"game":"go"}`); !e || s != `{"type":"error","v":0,"code":"unknown_game","detail":"no game \"go\"; the games are dilemma","games":["dilemma"]}` {
		t.Errorf("get_rules go: %s", s)
	}
	if s, e := text(Path, "wait_for_turn", `{"session":"s"}`); !e || s != `{"type":"error","v":0,"code":"unauthorized","detail":"no such connection"}` {
		t.Errorf("wait_for_turn: %s", s)
	}
	if s, e := text(Path, "make_move", `{"session":"s","match_id":"m_1","round":0,"turn":0,"action":"cooperate","params":{"x":1}}`); !e ||
		s != `{"type":"error","v":0,"code":"unauthorized","detail":"no such connection","match_id":"m_1"}` {
		t.Errorf("make_move: %s", s)
	}
	if *calls != 2 {
		t.Errorf("product calls %d, want 2", *calls)
	}
}
