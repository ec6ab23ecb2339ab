package chatseat

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"arena/actors/dotdotdot"
	"arena/games"
	"arena/games/blitz"
)

// fakeDesk records every call and answers what the test set. It implements Desk and Hosted
// (so the chat seat takes its hosted tables from the Desk unless told otherwise).
type fakeDesk struct {
	mu      sync.Mutex
	calls   []string
	bodies  [][]byte
	joins   []dotdotdot.JoinRequest
	waits   []time.Duration
	next    dotdotdot.Next
	err     error // returned by every call when set
	panicOn string
	hosted  dotdotdot.HostedTable
	block   chan struct{} // when set, NextMove waits for it (or the caller) before answering
	waiting chan struct{} // when set, NextMove signals here once it is waiting
}

func (f *fakeDesk) rec(call string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, call)
	if f.panicOn == call {
		panic("secret panic text: /home/arena/src/thing.go:42")
	}
	return f.err
}

func (f *fakeDesk) callList() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls...)
}

func (f *fakeDesk) RegisterWalkin(ctx context.Context, name, model string) (string, error) {
	if err := f.rec("register:" + name + ":" + model); err != nil {
		return "", err
	}
	return "w_" + strings.Repeat("A", 43), nil
}

func (f *fakeDesk) JoinWalkin(ctx context.Context, token string, req dotdotdot.JoinRequest) (dotdotdot.JoinReply, error) {
	if err := f.rec("join:" + token); err != nil {
		return dotdotdot.JoinReply{Practice: 1}, err
	}
	f.mu.Lock()
	f.joins = append(f.joins, req)
	f.mu.Unlock()
	if req.Code != "" {
		return dotdotdot.JoinReply{Kind: "hosted", Format: "blitz", Pace: "chat", Status: "gathering"}, nil
	}
	if req.Table == "walkin" {
		return dotdotdot.JoinReply{Kind: "walkin", Status: "gathering", Pace: "chat", Practice: 3}, nil
	}
	return dotdotdot.JoinReply{Round: "T-7", Table: "p1", Kind: "practice", Format: orDefault(req.Format, "blitz"), Seat: 1, Pace: "chat", Status: "seated"}, nil
}

func (f *fakeDesk) NextMove(ctx context.Context, token string, wait time.Duration) (dotdotdot.Next, error) {
	if err := f.rec("next:" + token); err != nil {
		return dotdotdot.Next{}, err
	}
	f.mu.Lock()
	f.waits = append(f.waits, wait)
	n, block, waiting := f.next, f.block, f.waiting
	f.mu.Unlock()
	if block != nil {
		if waiting != nil {
			waiting <- struct{}{}
		}
		select {
		case <-block:
		case <-ctx.Done():
			return dotdotdot.Next{}, ctx.Err()
		}
	}
	return n, nil
}

func (f *fakeDesk) AnswerMove(ctx context.Context, token string, body []byte) (json.RawMessage, error) {
	if err := f.rec("answer:" + token); err != nil {
		return nil, err
	}
	f.mu.Lock()
	f.bodies = append(f.bodies, append([]byte(nil), body...))
	f.mu.Unlock()
	return json.RawMessage(`{"dropped":[]}`), nil
}

func (f *fakeDesk) WalkinRecord(ctx context.Context, token string) (json.RawMessage, error) {
	if err := f.rec("record:" + token); err != nil {
		return nil, err
	}
	return json.RawMessage(`{"name":"Ada","practice":2,"practice_needed":3,"walkin_table":false,"rounds":2}`), nil
}

func (f *fakeDesk) HostTable(ctx context.Context, token, format string, seats int) (dotdotdot.HostedTable, error) {
	if err := f.rec("host:" + format); err != nil {
		return dotdotdot.HostedTable{}, err
	}
	return f.hosted, nil
}

func (f *fakeDesk) HostedByCode(ctx context.Context, code string) (dotdotdot.HostedTable, error) {
	if err := f.rec("bycode:" + code); err != nil {
		return dotdotdot.HostedTable{}, err
	}
	return f.hosted, nil
}

func (f *fakeDesk) StartHosted(ctx context.Context, token string) (dotdotdot.HostedTable, error) {
	if err := f.rec("start"); err != nil {
		return dotdotdot.HostedTable{}, err
	}
	return f.hosted, nil
}

func (f *fakeDesk) LeaveTable(ctx context.Context, token string) error { return f.rec("leave") }

func (f *fakeDesk) ListHosted(ctx context.Context) ([]dotdotdot.HostedTable, error) {
	if err := f.rec("list"); err != nil {
		return nil, err
	}
	return []dotdotdot.HostedTable{f.hosted}, nil
}

const tok = "w_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"

// seat starts the chat seat over a real HTTP server with o (Desk and Hosted defaulting to f).
func seat(t *testing.T, f *fakeDesk, o Options) *httptest.Server {
	t.Helper()
	if o.Desk == nil {
		o.Desk = f
	}
	if o.Describer == nil { // the game the chat seat plays
		o.Describer = blitz.NewEngine(blitz.DefaultFees())
	}
	h, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// post sends a raw JSON-RPC body to /mcp and returns the status and the decoded answer.
func post(t *testing.T, srv *httptest.Server, body string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, srv.URL+Path, bytes.NewBufferString(body))
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
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode == 200 && !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("content type %q (want JSON responses): %s", ct, raw)
	}
	var m map[string]any
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatalf("answer is not JSON (%d): %s", resp.StatusCode, raw)
		}
	}
	return resp.StatusCode, m
}

// call is tools/call name with arguments args (a JSON object); it returns the text and isError.
func call(t *testing.T, srv *httptest.Server, name, args string) (string, bool) {
	t.Helper()
	code, m := post(t, srv, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"`+name+`","arguments":`+args+`}}`)
	if code != 200 || m["error"] != nil {
		t.Fatalf("%s: status %d, %v", name, code, m)
	}
	res := m["result"].(map[string]any)
	content := res["content"].([]any)
	text := content[0].(map[string]any)["text"].(string)
	isErr, _ := res["isError"].(bool)
	return text, isErr
}

// rpcError is the JSON-RPC error code and message of an answer (0 when none).
func rpcError(m map[string]any) (int, string) {
	e, ok := m["error"].(map[string]any)
	if !ok {
		return 0, ""
	}
	return int(e["code"].(float64)), e["message"].(string)
}

func mustContain(t *testing.T, s string, subs ...string) {
	t.Helper()
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			t.Fatalf("missing %q in:\n%s", sub, s)
		}
	}
}

var errNotYet = &games.Error{Code: "not_yet", Msg: "1 of 3 Practice rounds finished"}
