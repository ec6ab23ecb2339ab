package identity

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/btcsuite/btcd/btcec/v2"
	"github.com/btcsuite/btcd/btcec/v2/schnorr"

	"arena/games/breakroom/wire"
	"arena/storage"
	"arena/transport/breakroom"
	"arena/transport/breakroom/auth"
	"arena/transport/breakroom/openapi/openapitest"
	"arena/transport/httpapi"
)

// records is the product's reputations as the tests set them.
type records struct {
	mu   sync.Mutex
	reps map[string]wire.Reputation
}

func (r *records) Reputation(key string) (wire.Reputation, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.reps[key], nil
}

func (r *records) set(key string, rep wire.Reputation) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reps[key] = rep
}

// key is an agent's Nostr key.
type key struct {
	sk  *btcec.PrivateKey
	pub string
}

func newKey(seed byte) key {
	sk, _ := btcec.PrivKeyFromBytes(bytes.Repeat([]byte{seed}, 32))
	return key{sk: sk, pub: hex.EncodeToString(schnorr.SerializePubKey(sk.PubKey()))}
}

// sign is BIP-340 over sha256(utf8(nonce)), hex.
func (k key) sign(t *testing.T, nonce string) string {
	t.Helper()
	d := sha256.Sum256([]byte(nonce))
	sig, err := schnorr.Sign(k.sk, d[:])
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(sig.Serialize())
}

// selfKey is the rigs' Break Room key.
var selfKey = newKey(0x5e)

const (
	testOrigin = "https://breakroom.test"
	testToken  = "ops-secret"
)

// rig is the identity doors on the Break Room site (its refusal table and shape) over a real
// store and the product's records as the test sets them.
type rig struct {
	t      *testing.T
	store  *storage.Store
	path   string
	recs   *records
	nonces *auth.Nonces
	now    time.Time
	srv    *httptest.Server
}

func newRig(t *testing.T) *rig {
	t.Helper()
	r := &rig{t: t, recs: &records{reps: map[string]wire.Reputation{}}, nonces: auth.New(auth.Options{}),
		now: time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)}
	r.path = t.TempDir() + "/arena.db"
	r.open()
	return r
}

// open opens the store at the rig's path and serves the doors on it (again after reopen).
func (r *rig) open() {
	r.t.Helper()
	s, err := storage.Open(r.path, storage.Options{NoSync: true})
	if err != nil {
		r.t.Fatal(err)
	}
	r.store = s
	d, err := New(Options{Store: s, Records: r.recs, Nonces: r.nonces, SelfKey: selfKey.pub, PublicURL: testOrigin,
		OperatorToken: testToken, Now: func() time.Time { return r.now }})
	if err != nil {
		r.t.Fatal(err)
	}
	e, err := httpapi.Build(breakroom.Site{Doors: d}, httpapi.Global{})
	if err != nil {
		r.t.Fatal(err)
	}
	r.srv = httptest.NewServer(e)
	srv := r.srv
	r.t.Cleanup(func() { srv.Close(); s.Close() })
}

// reopen closes the server and the store and opens both again on the same file: a restart.
func (r *rig) reopen() {
	r.t.Helper()
	r.srv.Close()
	if err := r.store.Close(); err != nil {
		r.t.Fatal(err)
	}
	r.open()
}

// do is one HTTP call: the response and its body.
func (r *rig) do(method, path string, hdr map[string]string, body any) (*http.Response, []byte) {
	r.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		raw, _ := json.Marshal(b)
		rd = bytes.NewReader(raw)
	}
	req, _ := http.NewRequest(method, r.srv.URL+path, rd)
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if !strings.HasPrefix(path, "/ops/") { // the operators' routes are not the public API
		openapitest.Check(r.t, req, resp.StatusCode, resp.Header, raw)
	}
	return resp, raw
}

// json is a call whose answer is a JSON object: its status and members.
func (r *rig) json(method, path string, hdr map[string]string, body any) (int, map[string]any) {
	r.t.Helper()
	resp, raw := r.do(method, path, hdr, body)
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		r.t.Fatalf("%s %s: %d not JSON: %s", method, path, resp.StatusCode, raw)
	}
	return resp.StatusCode, m
}

// nonce is a fresh challenge.
func (r *rig) nonce() string {
	r.t.Helper()
	n, err := r.nonces.Issue("test")
	if err != nil {
		r.t.Fatal(err)
	}
	return n
}

// claimBody is k's signed claim of name with nonce.
func (r *rig) claimBody(k key, name, nonce string) map[string]any {
	return map[string]any{"pubkey": k.pub, "name": name, "nonce": nonce, "sig": k.sign(r.t, nonce)}
}

// claim is k's signed claim of name with a fresh nonce: status and answer.
func (r *rig) claim(k key, name string) (int, map[string]any) {
	r.t.Helper()
	return r.json("POST", "/v0/handle", nil, r.claimBody(k, name, r.nonce()))
}

// names is nostr.json's names for name (the query as given).
func (r *rig) names(query string) map[string]any {
	r.t.Helper()
	resp, raw := r.do("GET", "/.well-known/nostr.json"+query, nil, nil)
	if resp.StatusCode != 200 || resp.Header.Get("Access-Control-Allow-Origin") != "*" {
		r.t.Fatalf("nostr.json%s: %d, ACAO %q: %s", query, resp.StatusCode, resp.Header.Get("Access-Control-Allow-Origin"), raw)
	}
	var doc struct {
		Names map[string]any `json:"names"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil || doc.Names == nil {
		r.t.Fatalf("nostr.json%s: %s", query, raw)
	}
	return doc.Names
}

// eligible is a reputation with enough matches for a handle.
var eligible = wire.Reputation{Matches: MinMatches, Wins: 4, AvgRank: 1.9}
