package site

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"arena/actors"
	"arena/games"
	"arena/transport/dotdotdot/desk"
	"arena/transport/dotdotdot/desk/desktest"
	"arena/transport/meta"
	"arena/transport/ops"
)

const opToken = "op_test_token_0123456789"

type fakeOps struct{ restarted, stopped []string }

func (f *fakeOps) Tables(ctx context.Context) ([]actors.TableInfo, error) {
	return []actors.TableInfo{{ID: "tbl-1", Game: "blitz", Round: "T-7", Phase: "talk", Status: "live", Seats: make([]actors.SeatInfo, 6)}}, nil
}
func (f *fakeOps) RestartTable(ctx context.Context, id string) error {
	if id != "tbl-1" {
		return games.Errorf("unknown_table", "no table %s", id)
	}
	f.restarted = append(f.restarted, id)
	return nil
}
func (f *fakeOps) StopTable(ctx context.Context, id string) error {
	if id != "tbl-1" {
		return games.Errorf("unknown_table", "no table %s", id)
	}
	f.stopped = append(f.stopped, id)
	return nil
}

type env struct {
	t      *testing.T
	srv    *httptest.Server
	desk   *desktest.Fake
	ops    *fakeOps
	reg    *prometheus.Registry
	key    ed25519.PrivateKey
	health error
}

func newEnv(t *testing.T, dopts desk.Options) *env {
	t.Helper()
	en := &env{t: t, desk: desktest.New(), ops: &fakeOps{}, reg: prometheus.NewRegistry(),
		key: ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, 32))}
	e, err := New(Options{
		Desk: en.desk, DeskOptions: dopts,
		Ops: en.ops, OpsOptions: ops.Options{Token: opToken},
		Meta: meta.Options{
			Identity: meta.Identity{Agent: "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:abc", Name: "arena-test", Key: en.key.Public().(ed25519.PublicKey)},
			Gatherer: en.reg,
			Health:   func(ctx context.Context) error { return en.health },
		},
		Metrics: en.reg,
	})
	if err != nil {
		t.Fatal(err)
	}
	en.srv = httptest.NewServer(e)
	t.Cleanup(en.srv.Close)
	return en
}

type reply struct {
	status int
	header http.Header
	raw    []byte
	body   map[string]any
}

// do sends one request. hdr holds header pairs; a body string is sent as application/json
// unless hdr sets Content-Type.
func (en *env) do(method, path string, body string, hdr ...string) reply {
	en.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(en.t.Context(), method, en.srv.URL+path, rd)
	if err != nil {
		en.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i] == "X-Walkin+" {
			req.Header.Add("X-Walkin", hdr[i+1])
			continue
		}
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		en.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	r := reply{status: resp.StatusCode, header: resp.Header, raw: raw}
	_ = json.Unmarshal(raw, &r.body)
	return r
}

// poll is a GET with the walk-in's token, for a goroutine other than the test's: a failure to
// send is a reply of status 0 with the error as its body, for the test to report.
func (en *env) poll(path, tok string) reply {
	req, err := http.NewRequestWithContext(en.t.Context(), "GET", en.srv.URL+path, nil)
	if err != nil {
		return reply{raw: []byte(err.Error())}
	}
	req.Header.Set("X-Walkin", tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return reply{raw: []byte(err.Error())}
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	r := reply{status: resp.StatusCode, header: resp.Header, raw: raw}
	_ = json.Unmarshal(raw, &r.body)
	return r
}

// register makes a walk-in and returns its token.
func (en *env) register(name string) string {
	en.t.Helper()
	r := en.do("POST", "/v1/walkin", `{"name":"`+name+`"}`)
	if r.status != 201 {
		en.t.Fatalf("register: %d %s", r.status, r.raw)
	}
	return r.body["token"].(string)
}

// joined registers a walk-in and seats it at practice; it returns the token and the round.
func (en *env) joined(name string) (string, string) {
	en.t.Helper()
	tok := en.register(name)
	r := en.do("POST", "/v1/walkin/join", `{"table":"practice"}`, "X-Walkin", tok)
	if r.status != 200 {
		en.t.Fatalf("join: %d %s", r.status, r.raw)
	}
	return tok, r.body["round"].(string)
}

// refused asserts r is a JSON refusal with the status and code.
func refused(t *testing.T, r reply, status int, code string) {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d (body %s)", r.status, status, r.raw)
	}
	if r.body["code"] != code {
		t.Fatalf("code %v, want %q (body %s)", r.body["code"], code, r.raw)
	}
	if msg, _ := r.body["error"].(string); msg == "" {
		t.Fatalf("refusal without an error text: %s", r.raw)
	}
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("refusal Content-Type %q, want JSON", ct)
	}
}

// unchanged asserts the fake desk saw no state change since before.
func (en *env) unchanged(before int) {
	en.t.Helper()
	if got := en.desk.Changes(); got != before {
		en.t.Fatalf("a refused request changed the desk: %d changes, want %d", got, before)
	}
}
