package market

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/asynkron/protoactor-go/actor"

	"arena/actors"
	am "arena/actors/market"
	gm "arena/games/market"
	"arena/storage"
	"arena/storage/storagetest"
	"arena/transport/httpapi"
)

const opToken = "op-token-for-tests"

// rig is a market site on a real store and a real market actor, served over real HTTP.
type rig struct {
	t     testing.TB
	store *storage.Store
	doors *Doors
	auth  *Authenticator
	srv   *httptest.Server
	// public collects every body a public door answered, for the privacy scan (guarded by mu:
	// tests send from many goroutines).
	mu     sync.Mutex
	public [][]byte
}

func (r *rig) keep(b []byte) {
	r.mu.Lock()
	r.public = append(r.public, b)
	r.mu.Unlock()
}

func testConfig() gm.Config {
	return gm.Config{GameID: "doors-market", Assets: []gm.Asset{{ID: "credits", UnitPrice: 1}, {ID: "wood", UnitPrice: 4}},
		StartingAssets: []gm.Holding{{AssetID: "credits", Quantity: 100}, {AssetID: "wood", Quantity: 20}}}
}

var testSeed = [32]byte{9, 9, 9}

// newRig starts the site; gw is the trusted gateway (zero: none).
func newRig(t testing.TB, gw Gateway) *rig {
	t.Helper()
	sys := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger {
		return slog.New(slog.DiscardHandler)
	}))
	t.Cleanup(sys.Shutdown)
	store := storagetest.Open(t, storage.Options{})
	m, err := am.Start(sys, store, actors.RealClock(), testConfig(), testSeed, am.Options{})
	if err != nil {
		t.Fatal(err)
	}
	seam, err := NewSeam(m, 0)
	if err != nil {
		t.Fatal(err)
	}
	auth, err := NewAuthenticator(store, gw)
	if err != nil {
		t.Fatal(err)
	}
	d := &Doors{Seam: seam, Auth: auth,
		Card: Card("http://market.test/a2a"),
		Ops:  &Ops{Token: opToken, Auth: auth, Keys: store, Admin: AdminFromStore(store, testConfig(), testSeed)}}
	e, err := httpapi.Build(Site{Doors: d}, httpapi.Global{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	d.Card = Card(srv.URL + "/a2a") // before any request: the card names this server
	return &rig{t: t, store: store, doors: d, auth: auth, srv: srv}
}

// key issues a key for owner (Delegate name) through the ops route and returns it.
func (r *rig) key(owner, name string) string {
	r.t.Helper()
	b, _ := json.Marshal(map[string]string{"owner": owner, "name": name})
	st, body := r.do(http.MethodPost, "/ops/market/keys", "Bearer "+opToken, nil, b)
	if st != http.StatusOK {
		r.t.Fatalf("issue key: %d %s", st, body)
	}
	var out struct{ Key string }
	json.Unmarshal(body, &out)
	return out.Key
}

// do sends one request; hdr adds headers.
func (r *rig) do(method, path, authz string, hdr map[string]string, body []byte) (int, []byte) {
	r.t.Helper()
	req, _ := http.NewRequest(method, r.srv.URL+path, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if authz != "" {
		req.Header.Set("Authorization", authz)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// post sends a request through POST /v2/request with key and returns the status and envelope.
func (r *rig) post(key string, hdr map[string]string, body string) (int, []byte) {
	r.t.Helper()
	authz := ""
	if key != "" {
		authz = "Bearer " + key
	}
	st, b := r.do(http.MethodPost, "/v2/request", authz, hdr, []byte(body))
	r.keep(b)
	return st, b
}

// send sends a request as the request part of an A2A message/send and returns the status and
// the envelope the answer's response part carries (the whole HTTP body when there is none).
func (r *rig) send(key string, hdr map[string]string, body string) (int, []byte) {
	r.t.Helper()
	frame, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": map[string]any{
		"message": map[string]any{"kind": "message", "messageId": "m1", "role": "user",
			"parts": []any{map[string]any{"kind": "text", "text": body, "metadata": map[string]any{"name": "request"}}}}}})
	authz := ""
	if key != "" {
		authz = "Bearer " + key
	}
	st, b := r.do(http.MethodPost, "/a2a", authz, hdr, frame)
	r.keep(b)
	var out struct {
		Result *a2a.Message `json:"result"`
	}
	if json.Unmarshal(b, &out) != nil || out.Result == nil || len(out.Result.Parts) != 1 {
		return st, b
	}
	tp, ok := out.Result.Parts[0].(a2a.TextPart)
	if !ok || tp.Metadata["name"] != "response" {
		r.t.Fatalf("a2a answer without a text part named response: %s", b)
	}
	return st, []byte(tp.Text)
}

// envelope is a decoded response envelope.
type envelope struct {
	OK           bool            `json:"ok"`
	StateVersion uint64          `json:"stateVersion"`
	Result       json.RawMessage `json:"result"`
	Error        *struct {
		Code string `json:"code"`
	} `json:"error"`
}

func decode(t testing.TB, b []byte) envelope {
	t.Helper()
	var e envelope
	if err := json.Unmarshal(b, &e); err != nil {
		t.Fatalf("not an envelope: %v: %s", err, b)
	}
	return e
}

func (e envelope) code() string {
	if e.Error == nil {
		return ""
	}
	return e.Error.Code
}

// field reads a string member of the result.
func (e envelope) field(t testing.TB, name string) string {
	t.Helper()
	var m map[string]any
	json.Unmarshal(e.Result, &m)
	return fmt.Sprint(m[name])
}

// holdings reads an Enrolment's or Inventory's holdings as asset → quantity.
func (e envelope) holdings(t testing.TB) map[string]int64 {
	t.Helper()
	var v struct {
		Holdings []struct {
			AssetID  string `json:"assetId"`
			Quantity int64  `json:"quantity"`
		} `json:"holdings"`
	}
	if err := json.Unmarshal(e.Result, &v); err != nil {
		t.Fatal(err)
	}
	out := map[string]int64{}
	for _, h := range v.Holdings {
		out[h.AssetID] = h.Quantity
	}
	return out
}

// noSecrets fails when any public body names one of secrets.
func (r *rig) noSecrets(secrets ...string) {
	r.t.Helper()
	for _, b := range r.public {
		for _, s := range secrets {
			if s != "" && strings.Contains(string(b), s) {
				r.t.Errorf("a public answer names %q: %s", s, b)
			}
		}
	}
}

func mustPrefix(s string) netip.Prefix { return netip.MustParsePrefix(s) }

var inAnHour = func() string { return time.Now().Add(time.Hour).UTC().Format("2006-01-02T15:04:05.000Z") }
