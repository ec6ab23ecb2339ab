package play

import (
	"bytes"
	"context"
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
	"github.com/gorilla/websocket"

	"arena/transport/breakroom"
	"arena/transport/breakroom/auth"
	"arena/transport/breakroom/openapi/openapitest"
	"arena/transport/httpapi"
)

// clock is a fake clock the tests move by hand.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// rig is the doors on the Break Room site (its real refusal table and shape) over a fake
// product, served by httptest.
type rig struct {
	t      *testing.T
	f      *fake
	d      *Door
	nonces *auth.Nonces
	clock  *clock
	srv    *httptest.Server
}

func newRig(t *testing.T, tweak func(*Options)) *rig {
	t.Helper()
	r := &rig{t: t, f: newFake(), clock: &clock{t: time.Date(2026, 3, 4, 5, 0, 0, 0, time.UTC)}}
	r.nonces = auth.New(auth.Options{})
	o := Options{Backend: r.f, Nonces: r.nonces, Now: r.clock.Now, PublicURL: "http://br.test"}
	if tweak != nil {
		tweak(&o)
	}
	d, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	r.d = d
	e, err := httpapi.Build(breakroom.Site{Doors: d}, httpapi.Global{})
	if err != nil {
		t.Fatal(err)
	}
	r.srv = httptest.NewServer(e)
	t.Cleanup(r.srv.Close)
	return r
}

// key is an agent's Nostr key.
type key struct {
	sk  *btcec.PrivateKey
	pub string
}

func newKey(t *testing.T, seed byte) key {
	t.Helper()
	b := bytes.Repeat([]byte{seed}, 32)
	sk, _ := btcec.PrivKeyFromBytes(b)
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

// joinMsg is a signed join of game as a JSON object (socket frame when withType).
func (k key) joinMsg(t *testing.T, game, nonce string, withType bool) map[string]any {
	m := map[string]any{"game": game, "author_pubkey": k.pub, "nonce": nonce, "sig": k.sign(t, nonce)}
	if withType {
		m["type"], m["v"] = "join", 0
	}
	return m
}

// sock is a test client socket.
type sock struct {
	t *testing.T
	c *websocket.Conn
}

func (r *rig) dial() *sock {
	r.t.Helper()
	u := "ws" + strings.TrimPrefix(r.srv.URL, "http") + "/v0/play"
	c, resp, err := websocket.DefaultDialer.Dial(u, nil)
	if err != nil {
		r.t.Fatalf("dial: %v (%v)", err, resp)
	}
	s := &sock{t: r.t, c: c}
	r.t.Cleanup(func() { c.Close() })
	return s
}

// read is the next message, decoded; it fails the test after 10 s.
func (s *sock) read() map[string]any {
	s.t.Helper()
	_ = s.c.SetReadDeadline(time.Now().Add(10 * time.Second))
	_, b, err := s.c.ReadMessage()
	if err != nil {
		s.t.Fatalf("read: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		s.t.Fatalf("not JSON: %s", b)
	}
	if m["v"] != float64(0) {
		s.t.Fatalf("message without v 0: %s", b)
	}
	return m
}

// expect reads the next message and checks its type.
func (s *sock) expect(typ string) map[string]any {
	s.t.Helper()
	m := s.read()
	if m["type"] != typ {
		s.t.Fatalf("got %v, want a %s", m, typ)
	}
	return m
}

func (s *sock) sendRaw(raw string) {
	s.t.Helper()
	if err := s.c.WriteMessage(websocket.TextMessage, []byte(raw)); err != nil {
		s.t.Fatal(err)
	}
}

func (s *sock) send(m map[string]any) {
	s.t.Helper()
	b, _ := json.Marshal(m)
	s.sendRaw(string(b))
}

// joinAs reads the challenge and sends k's signed join of game.
func (s *sock) joinAs(k key, game string) {
	s.t.Helper()
	ch := s.expect("challenge")
	s.send(k.joinMsg(s.t, game, ch["nonce"].(string), true))
}

// httpDo is one HTTP call: its status and decoded body.
func (r *rig) httpDo(method, path, token string, body any) (int, map[string]any) {
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
	return r.httpCtx(context.Background(), method, path, token, rd)
}

func (r *rig) httpCtx(ctx context.Context, method, path, token string, rd io.Reader) (int, map[string]any) {
	r.t.Helper()
	req, _ := http.NewRequestWithContext(ctx, method, r.srv.URL+path, rd)
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return 0, nil
		}
		r.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	openapitest.Check(r.t, req, resp.StatusCode, resp.Header, raw)
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		r.t.Fatalf("%s %s: %d not JSON: %s", method, path, resp.StatusCode, raw)
	}
	if m["v"] != float64(0) {
		r.t.Fatalf("%s %s: answer without v 0: %s", method, path, raw)
	}
	return resp.StatusCode, m
}

// httpJoin fetches a challenge and joins k at game over HTTP: the answer.
func (r *rig) httpJoin(k key, game string) (int, map[string]any) {
	r.t.Helper()
	st, ch := r.httpDo("GET", "/v0/challenge", "", nil)
	if st != 200 {
		r.t.Fatalf("challenge: %d %v", st, ch)
	}
	return r.httpDo("POST", "/v0/join", "", k.joinMsg(r.t, game, ch["nonce"].(string), false))
}

// num is a JSON number member as int64.
func num(m map[string]any, k string) int64 {
	f, _ := m[k].(float64)
	return int64(f)
}
