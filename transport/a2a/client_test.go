package a2a

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"arena/chain/egress"
)

// fakeAgent is a JSON-RPC A2A v0.3 agent written by hand (not with a2a-go's server), so the
// client is checked against the wire shapes rather than against its own library.
type fakeAgent struct {
	t *testing.T
	// answer builds the reply to message/send from the envelope received.
	answer func(env map[string]any) any
	// task, when set, answers tasks/get polls (n counts from 1).
	task func(n int, env map[string]any) any

	mu       sync.Mutex
	env      map[string]any
	headers  http.Header
	blocking any
	polls    atomic.Int32
	delay    time.Duration
}

func (f *fakeAgent) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		ID     any             `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), 400)
		return
	}
	var result any
	switch req.Method {
	case "message/send":
		var p struct {
			Message struct {
				Parts []struct {
					Kind string         `json:"kind"`
					Data map[string]any `json:"data"`
				} `json:"parts"`
			} `json:"message"`
			Configuration map[string]any `json:"configuration"`
		}
		if err := json.Unmarshal(req.Params, &p); err != nil || len(p.Message.Parts) != 1 || p.Message.Parts[0].Kind != "data" {
			f.t.Errorf("message/send params: %s", req.Params)
			http.Error(w, "bad params", 400)
			return
		}
		f.mu.Lock()
		f.env, f.headers, f.blocking = p.Message.Parts[0].Data, r.Header.Clone(), p.Configuration["blocking"]
		f.mu.Unlock()
		if f.delay > 0 {
			select {
			case <-time.After(f.delay):
			case <-r.Context().Done():
				return
			}
		}
		result = f.answer(p.Message.Parts[0].Data)
	case "tasks/get":
		n := int(f.polls.Add(1))
		f.mu.Lock()
		env := f.env
		f.mu.Unlock()
		result = f.task(n, env)
	default:
		f.t.Errorf("unexpected method %s", req.Method)
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
}

// echoOf is an answer object echoing env, with extra members.
func echoOf(env map[string]any, extra map[string]any) map[string]any {
	out := map[string]any{"round": env["round"], "turn": env["turn"], "phase": env["phase"], "seat": env["seat"]}
	if x, ok := env["exchange"]; ok {
		out["exchange"] = x
	}
	for k, v := range extra {
		out[k] = v
	}
	return out
}

func message(data map[string]any) map[string]any {
	return map[string]any{"kind": "message", "messageId": "m1", "role": "agent",
		"parts": []any{map[string]any{"kind": "data", "data": data}}}
}

func task(state string, data map[string]any) map[string]any {
	t := map[string]any{"kind": "task", "id": "task-1", "contextId": "ctx-1", "status": map[string]any{"state": state}}
	if data != nil {
		t["artifacts"] = []any{map[string]any{"artifactId": "a1", "parts": []any{map[string]any{"kind": "data", "data": data}}}}
	}
	return t
}

const testEnvelope = `{"v":1,"round":"T-42","turn":2,"phase":"talk","exchange":3,"seat":4,"deadline":"2026-09-09T14:03:20Z","state":{"bounty":1500000},"inbox":[],"sig":"ed25519:00"}`

func start(t *testing.T, f *fakeAgent) (*Client, string) {
	f.t = t
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return New(Options{PollInterval: 10 * time.Millisecond}), srv.URL
}

func TestCallMessageAnswer(t *testing.T) {
	f := &fakeAgent{answer: func(env map[string]any) any {
		return message(echoOf(env, map[string]any{"messages": []any{map[string]any{"type": "public", "text": "hi"}}}))
	}}
	c, url := start(t, f)
	body, err := c.Call(context.Background(), url, []byte(testEnvelope), time.Now().Add(5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	json.Unmarshal(body, &got)
	if got["round"] != "T-42" || got["seat"] != float64(4) || got["exchange"] != float64(3) {
		t.Fatalf("answer %s", body)
	}
	msgs, _ := got["messages"].([]any)
	if len(msgs) != 1 {
		t.Fatalf("messages lost: %s", body)
	}
	if h := f.headers.Get(HeaderExtensions); h != BadgeExtension {
		t.Fatalf("X-A2A-Extensions = %q", h)
	}
	if f.blocking != true {
		t.Fatalf("configuration.blocking = %v, want true", f.blocking)
	}
	// The envelope arrives whole, sig included, numbers as numbers.
	if f.env["sig"] != "ed25519:00" || f.env["state"].(map[string]any)["bounty"] != float64(1500000) {
		t.Fatalf("envelope as received: %v", f.env)
	}
}

// A Task still working is polled with tasks/get; the move is read only once it completes.
func TestCallTaskWorkingThenCompleted(t *testing.T) {
	f := &fakeAgent{
		answer: func(env map[string]any) any { return task("working", echoOf(env, map[string]any{"note": "draft"})) },
		task: func(n int, env map[string]any) any {
			if n < 3 {
				return task("working", nil)
			}
			return task("completed", echoOf(env, map[string]any{"note": "final"}))
		},
	}
	c, url := start(t, f)
	body, err := c.Call(context.Background(), url, []byte(testEnvelope), time.Now().Add(5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(body), `"note":"final"`) {
		t.Fatalf("read a working task as a move: %s", body)
	}
	if n := f.polls.Load(); n != 3 {
		t.Fatalf("polls = %d, want 3", n)
	}
}

// A Task that never leaves working is no answer: the call ends at the deadline, empty.
func TestCallTaskWorkingForever(t *testing.T) {
	f := &fakeAgent{
		answer: func(env map[string]any) any { return task("working", echoOf(env, nil)) },
		task:   func(int, map[string]any) any { return task("working", nil) },
	}
	c, url := start(t, f)
	t0 := time.Now()
	deadline := t0.Add(300 * time.Millisecond)
	_, err := c.Call(context.Background(), url, []byte(testEnvelope), deadline)
	if !errors.Is(err, ErrLate) {
		t.Fatalf("err = %v, want ErrLate", err)
	}
	if over := time.Since(deadline); over > 150*time.Millisecond {
		t.Fatalf("returned %v after the deadline", over)
	}
	if f.polls.Load() < 2 {
		t.Fatalf("polled %d times", f.polls.Load())
	}
}

func TestCallTaskFailedIsEmpty(t *testing.T) {
	f := &fakeAgent{answer: func(env map[string]any) any { return task("failed", echoOf(env, nil)) }}
	c, url := start(t, f)
	if _, err := c.Call(context.Background(), url, []byte(testEnvelope), time.Now().Add(2*time.Second)); !errors.Is(err, ErrTask) {
		t.Fatalf("err = %v, want ErrTask", err)
	}
}

// A slow agent never holds the caller past the deadline.
func TestCallSlowAgentDeadline(t *testing.T) {
	f := &fakeAgent{delay: 3 * time.Second, answer: func(env map[string]any) any { return message(echoOf(env, nil)) }}
	c, url := start(t, f)
	t0 := time.Now()
	deadline := t0.Add(250 * time.Millisecond)
	_, err := c.Call(context.Background(), url, []byte(testEnvelope), deadline)
	if !errors.Is(err, ErrLate) {
		t.Fatalf("err = %v, want ErrLate", err)
	}
	if over := time.Since(deadline); over > 150*time.Millisecond {
		t.Fatalf("returned %v after the deadline", over)
	}
}

func TestCallWrongEcho(t *testing.T) {
	for name, mut := range map[string]func(map[string]any){
		"round":    func(m map[string]any) { m["round"] = "T-41" },
		"turn":     func(m map[string]any) { m["turn"] = 3 },
		"phase":    func(m map[string]any) { m["phase"] = "commit" },
		"seat":     func(m map[string]any) { m["seat"] = 5 },
		"exchange": func(m map[string]any) { m["exchange"] = 2 },
		"no seat":  func(m map[string]any) { delete(m, "seat") },
		"no round": func(m map[string]any) { delete(m, "round") },
	} {
		t.Run(name, func(t *testing.T) {
			f := &fakeAgent{answer: func(env map[string]any) any {
				a := echoOf(env, nil)
				mut(a)
				return message(a)
			}}
			c, url := start(t, f)
			if _, err := c.Call(context.Background(), url, []byte(testEnvelope), time.Now().Add(2*time.Second)); !errors.Is(err, ErrEcho) {
				t.Fatalf("err = %v, want ErrEcho", err)
			}
		})
	}
}

func TestCallNoDataPart(t *testing.T) {
	f := &fakeAgent{answer: func(map[string]any) any {
		return map[string]any{"kind": "message", "messageId": "m", "role": "agent",
			"parts": []any{map[string]any{"kind": "text", "text": "I pass"}}}
	}}
	c, url := start(t, f)
	if _, err := c.Call(context.Background(), url, []byte(testEnvelope), time.Now().Add(2*time.Second)); !errors.Is(err, ErrNoAnswer) {
		t.Fatalf("err = %v, want ErrNoAnswer", err)
	}
}

func TestCallResponseCap(t *testing.T) {
	f := &fakeAgent{answer: func(env map[string]any) any {
		return message(echoOf(env, map[string]any{"pad": strings.Repeat("x", 4096)}))
	}}
	f.t = t
	srv := httptest.NewServer(f)
	defer srv.Close()
	c := New(Options{MaxResponse: 1024})
	if _, err := c.Call(context.Background(), srv.URL, []byte(testEnvelope), time.Now().Add(2*time.Second)); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
	// The same answer under a larger cap goes through.
	if _, err := New(Options{MaxResponse: 8192}).Call(context.Background(), srv.URL, []byte(testEnvelope), time.Now().Add(2*time.Second)); err != nil {
		t.Fatal(err)
	}
}

func TestCallDeadAgent(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	url := srv.URL
	srv.Close()
	if _, err := New(Options{}).Call(context.Background(), url, []byte(testEnvelope), time.Now().Add(time.Second)); err == nil {
		t.Fatal("a dead agent answered")
	}
}

func TestCallBadEnvelope(t *testing.T) {
	c := New(Options{})
	for _, env := range []string{``, `[]`, `null`, `{"round":"T-1","turn":1,"phase":"talk"}`} {
		if _, err := c.Call(context.Background(), "http://127.0.0.1:1", []byte(env), time.Now().Add(time.Second)); !errors.Is(err, ErrEnvelope) {
			t.Errorf("%q: err = %v, want ErrEnvelope", env, err)
		}
	}
}

// The A2A client's cap (egress.CapTransport with this package's ErrTooLarge): a body exactly at
// the cap is read whole; one byte more, or a Content-Length over it, is ErrTooLarge.
func TestCapBodyExactlyAtCap(t *testing.T) {
	serve := func(body string, declared int64) http.RoundTripper {
		return roundTripFunc(func(*http.Request) (*http.Response, error) {
			return &http.Response{StatusCode: 200, Body: io.NopCloser(strings.NewReader(body)), ContentLength: declared}, nil
		})
	}
	get := func(rt http.RoundTripper) ([]byte, error) {
		req, _ := http.NewRequest("GET", "http://agent.example/", nil)
		resp, err := egress.CapTransport(rt, 4, ErrTooLarge).RoundTrip(req)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		return io.ReadAll(resp.Body)
	}
	if got, err := get(serve("abcd", -1)); err != nil || string(got) != "abcd" {
		t.Fatalf("%q %v", got, err)
	}
	if _, err := get(serve("abcde", -1)); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("one byte over: err = %v", err)
	}
	if _, err := get(serve("abcde", 5)); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("declared over: err = %v", err)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// Through the production egress policy, an endpoint on loopback (or any inside address) is
// refused before anything is sent; the dev policy admits loopback.
func TestCallThroughEgressPolicy(t *testing.T) {
	f := &fakeAgent{answer: func(env map[string]any) any { return message(echoOf(env, nil)) }}
	f.t = t
	srv := httptest.NewServer(f)
	defer srv.Close()
	prod := New(Options{HTTP: egress.NewClient(egress.Policy{AllowHTTP: true}).HTTP()})
	for _, url := range []string{srv.URL, "http://10.0.0.1/a2a", "http://169.254.169.254/a2a", "http://[::1]:9/a2a"} {
		_, err := prod.Call(context.Background(), url, []byte(testEnvelope), time.Now().Add(2*time.Second))
		if err == nil || !egress.IsRefusal(err) {
			t.Errorf("%s: err = %v, want an egress refusal", url, err)
		}
	}
	if f.env != nil {
		t.Fatal("the refused call reached the agent")
	}
	dev := New(Options{HTTP: egress.NewClient(egress.Dev()).HTTP()})
	if _, err := dev.Call(context.Background(), srv.URL, []byte(testEnvelope), time.Now().Add(2*time.Second)); err != nil {
		t.Fatalf("dev policy: %v", err)
	}
}
