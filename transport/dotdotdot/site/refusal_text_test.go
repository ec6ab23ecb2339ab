package site

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"arena/actors"
	"arena/actors/dotdotdot"
	"arena/games"
	"arena/games/blitz"
	"arena/storage"
	"arena/storage/storagetest"
	"arena/transport/dotdotdot/chatseat"
	"arena/transport/dotdotdot/join"
)

// internals matches what no refusal text may carry: Go's decoder and type names, package
// prefixes, source positions.
var internals = regexp.MustCompile(`(?i:go struct|go value|struct field|unmarshal|goroutine)|json: |canon: |reflect\.|of type |\.go:\d|\bu?int(8|16|32|64)?\b|float64|map\[|json\.RawMessage|\*[a-z]+\.[A-Z]`)

// realArena is a Blitz arena on a temporary store.
func realArena(t *testing.T) (*dotdotdot.Arena, *storage.Store) {
	t.Helper()
	db, err := storage.Open(storagetest.Path(t), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	br, err := games.NewBracket(blitz.NewEngine(blitz.DefaultFees()))
	if err != nil {
		t.Fatal(err)
	}
	seed := sha256.Sum256([]byte("site refusal texts"))
	a, err := dotdotdot.Start(actors.Options{DB: db, Bracket: br, InstanceKey: ed25519.NewKeyFromSeed(seed[:]), AskTimeout: 5 * time.Second}, dotdotdot.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = a.Shutdown(ctx)
		_ = db.Close()
	})
	return a, db
}

type noSeater struct{}

func (noSeater) JoinAgent(context.Context, join.Seat) (dotdotdot.AgentJoinReply, error) {
	return dotdotdot.AgentJoinReply{}, games.Errorf("refused", "no seats in this test")
}
func (noSeater) Lever(context.Context, string, string, string, []byte) (json.RawMessage, error) {
	return nil, games.Errorf("refused", "no levers in this test")
}

// hostileValues are a member's values of every wrong kind.
var hostileValues = []string{`5`, `1.5`, `1e3`, `2000000.0`, `-0`, `"x"`, `""`, `true`, `null`, `[1]`, `{"a":1}`,
	`99999999999999999999`, `"\ud800"`, `"a\u0000b"`}

// Every refusal of every DOTDOTDOT door, for bodies with each member given each wrong JSON kind
// (and whole bodies that are no object), says what is wrong in the protocol's words: no Go
// decoder text (`Go struct field joinBody.format`), no package prefix, whichever door and
// whichever decoder refused it (door.Decode, the desk's answer check, the game's answer and
// lever readers, the chat seat's tool arguments).
func TestRefusalTextsCarryNoDecoderInternals(t *testing.T) {
	a, db := realArena(t)
	e, err := New(Options{Desk: a,
		Join: &join.Options{Seater: noSeater{}, Nonces: join.NewStoreNonces(db, nil), Claims: a},
		Chat: &chatseat.Options{Desk: a}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	en := &env{t: t, srv: srv}
	tok := en.register("Scanner")
	r := en.do("POST", "/v1/walkin/join", `{"table":"practice","format":"short"}`, "X-Walkin", tok)
	if r.status != 200 {
		t.Fatalf("join: %d %s", r.status, r.raw)
	}
	round, _ := r.body["round"].(string)
	if nx := en.do("GET", "/v1/walkin/next?wait=10", "", "X-Walkin", tok); nx.body["phase"] != "scouting" {
		t.Fatalf("no scouting move: %s", nx.raw)
	}
	echo := `"round":"` + round + `","turn":0,"phase":"scouting",`
	checked := 0
	scan := func(what string, r reply) {
		t.Helper()
		if r.status < 400 {
			return
		}
		checked++
		msg, _ := r.body["error"].(string)
		if msg == "" || internals.MatchString(msg) {
			t.Errorf("%s: %d refusal text %q", what, r.status, msg)
		}
	}
	routes := []struct {
		path    string
		prefix  string // members every body carries
		members []string
	}{
		{"/v1/walkin", "", []string{"name", "model"}},
		{"/v1/walkin/join", "", []string{"table", "code", "mole", "pace", "format"}},
		{"/v1/walkin/host", "", []string{"format"}},
		{"/v1/walkin/start", "", []string{"x"}},
		{"/v1/walkin/answer", "", []string{"round", "turn", "phase", "exchange"}},
		{"/v1/walkin/answer", echo, []string{"v", "seat", "exchange", "messages", "commitments", "accusation", "zzz"}},
		{"/v1/rounds/" + round + "/call", "", []string{"text"}},
		{"/v1/rounds/" + round + "/veto", "", []string{"pending_id", "ref"}},
		{"/v1/rounds/" + round + "/accuse", "", []string{"seat"}},
		{"/v1/join", "", []string{"agent", "table", "issued_at", "nonce", "name", "format", "sig"}},
		{"/v1/session/challenge", "", []string{"agent"}},
		{"/v1/session", "", []string{"agent", "challenge", "issued_at", "sig"}},
		{"/v1/walkin/claim", "", []string{"agent", "walkin", "issued_at", "nonce", "sig"}},
	}
	for _, rt := range routes {
		for _, m := range rt.members {
			for _, v := range hostileValues {
				body := `{` + rt.prefix + `"` + m + `":` + v + `}`
				scan(rt.path+" "+body, en.do("POST", rt.path, body, "X-Walkin", tok))
			}
		}
		for _, body := range []string{`[]`, `"x"`, `7`, `{`, `{"a":1}x`, "{\"a\":\"\xff\"}", `{"a":1,"a":2}`, `{"a":1,"A":2}`} {
			scan(rt.path+" "+body, en.do("POST", rt.path, body, "X-Walkin", tok))
		}
	}
	tools := map[string][]string{
		"register": {"name", "model"}, "play_practice": {"token", "format", "pace", "mole"},
		"host_table": {"token", "format"}, "join_table": {"token", "code", "table"},
		"next_move": {"token"}, "talk": {"token", "text", "to", "tone", "accuse"},
		"commit": {"token", "to", "chips", "due", "condition"}, "pass": {"token"},
		"my_record": {"token"}, "list_tables": {"token"},
	}
	for tool, members := range tools {
		for _, m := range members {
			for _, v := range hostileValues {
				args := `{"` + m + `":` + v + `}`
				if m != "token" {
					args = `{"token":"` + tok + `","` + m + `":` + v + `}`
				}
				text, refused := mcpText(t, srv, tool, args)
				if !refused {
					continue
				}
				checked++
				if text == "" || internals.MatchString(text) {
					t.Errorf("%s %s: refusal %q", tool, args, text)
				}
			}
		}
	}
	if checked < 500 {
		t.Fatalf("only %d refusals were read", checked)
	}
}

// mcpText posts one tools/call and returns the tool error's text or the JSON-RPC error's
// message, and whether the call was refused either way.
func mcpText(t *testing.T, srv *httptest.Server, tool, args string) (string, bool) {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `}}`
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var r struct {
		Result *struct {
			IsError bool `json:"isError"`
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"result"`
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatalf("tools/call %s: %d %s", tool, resp.StatusCode, raw)
	}
	switch {
	case r.Error != nil:
		return r.Error.Message, true
	case r.Result != nil && r.Result.IsError && len(r.Result.Content) > 0:
		return r.Result.Content[0].Text, true
	}
	return "", false
}
