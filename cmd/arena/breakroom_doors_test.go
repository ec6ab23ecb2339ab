package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/btcsuite/btcd/btcec/v2"
	"github.com/btcsuite/btcd/btcec/v2/schnorr"
	"github.com/gorilla/websocket"

	"arena/actors"
	"arena/actors/breakroom"
	"arena/games"
	brgames "arena/games/breakroom"
	brdilemma "arena/games/breakroom/dilemma"
	"arena/storage"
	"arena/storage/storagetest"
	brsite "arena/transport/breakroom"
	"arena/transport/breakroom/auth"
	"arena/transport/breakroom/openapi/openapitest"
	"arena/transport/breakroom/play"
	"arena/transport/httpapi"
)

// roomSite is the Break Room site with its doors over a real Room (the Dilemma, tables of three
// opened by a 50 ms lobby timer, no house fill), wired as serve wires them (roomDoors).
func roomSite(t *testing.T) *httptest.Server {
	t.Helper()
	st := storagetest.Open(t, storage.Options{NoSync: true})
	br, err := games.NewBracket(brdilemma.Engine{})
	if err != nil {
		t.Fatal(err)
	}
	info := brdilemma.Engine{}.Info()
	room, err := breakroom.New(breakroom.Options{PublicURL: "http://breakroom.test", HousePause: 5 * time.Millisecond,
		LobbyWait: 50 * time.Millisecond, HouseAfter: time.Hour,
		Games: []breakroom.Game{{ID: info.ID, Name: info.Name, RulesVersion: info.RulesVersion, TableSize: 3, Min: 3,
			Pace: games.Pace{Steps: map[string]time.Duration{"turn": 20 * time.Second}}}}})
	if err != nil {
		t.Fatal(err)
	}
	a, err := actors.Start(actors.Options{DB: st, Bracket: br, InstanceKey: ed25519.NewKeyFromSeed(make([]byte, 32)),
		Products: []actors.Product{room.Product()}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Shutdown(context.Background()) })
	<-room.Ready()
	d, err := play.New(play.Options{Backend: roomDoors{room: room, catalog: []brgames.GameInfo{info}, public: "http://breakroom.test"},
		Nonces: auth.New(auth.Options{})})
	if err != nil {
		t.Fatal(err)
	}
	e, err := httpapi.Build(brsite.Site{Doors: d}, httpapi.Global{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return srv
}

// brKey is an agent's Nostr key; sign is BIP-340 over sha256(utf8(nonce)).
type brKey struct {
	sk  *btcec.PrivateKey
	pub string
}

func newBrKey(seed byte) brKey {
	sk, _ := btcec.PrivKeyFromBytes(bytes.Repeat([]byte{seed}, 32))
	return brKey{sk: sk, pub: hex.EncodeToString(schnorr.SerializePubKey(sk.PubKey()))}
}

func (k brKey) sign(nonce string) string {
	d := sha256.Sum256([]byte(nonce))
	sig, _ := schnorr.Sign(k.sk, d[:])
	return hex.EncodeToString(sig.Serialize())
}

// brSock is a test socket whose messages a goroutine reads into a channel.
type brSock struct {
	c   *websocket.Conn
	msg chan map[string]any
}

func dialRoom(t *testing.T, srv *httptest.Server) *brSock {
	t.Helper()
	c, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(srv.URL, "http")+"/v0/play", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	s := &brSock{c: c, msg: make(chan map[string]any, 256)}
	go func() {
		defer close(s.msg)
		for {
			_, b, err := c.ReadMessage()
			if err != nil {
				return
			}
			var m map[string]any
			json.Unmarshal(b, &m)
			s.msg <- m
		}
	}()
	return s
}

// next is the next message of type typ (events and others skipped), failing after 20 s.
func (s *brSock) next(t *testing.T, typ string) map[string]any {
	t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case m, ok := <-s.msg:
			if !ok {
				t.Fatalf("socket closed waiting for %s", typ)
			}
			if m["type"] == typ {
				return m
			}
		case <-timeout:
			t.Fatalf("no %s within 20 s", typ)
		}
	}
}

func brHTTP(t *testing.T, srv *httptest.Server, method, path, token, body string) (int, map[string]any) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, _ := http.NewRequest(method, srv.URL+path, rd)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	openapitest.Check(t, req, resp.StatusCode, resp.Header, raw)
	var m map[string]any
	json.Unmarshal(raw, &m)
	return resp.StatusCode, m
}

// roomRefusals are bad messages for the seat on turn of match MATCH (round ROUND, turn TURN): the
// product's refusals and the decoder's, sent through both doors. Each is refused with its code
// and the turn stays open.
var roomRefusals = []struct{ name, kind, raw, code string }{
	{"not json", "move", `{"type":"move",`, "bad_request"},
	{"v 2", "move", `{"type":"move","v":2,"match_id":"MATCH","round":ROUND,"turn":TURN,"action":"cooperate"}`, "bad_version"},
	{"turn a string", "move", `{"type":"move","v":0,"match_id":"MATCH","round":ROUND,"turn":"TURN","action":"cooperate"}`, "bad_request"},
	{"illegal action", "move", `{"type":"move","v":0,"match_id":"MATCH","round":ROUND,"turn":TURN,"action":"fold"}`, "illegal_move"},
	{"no action", "move", `{"type":"move","v":0,"match_id":"MATCH","round":ROUND,"turn":TURN}`, "illegal_move"},
	{"stale round", "move", `{"type":"move","v":0,"match_id":"MATCH","round":999,"turn":TURN,"action":"cooperate"}`, "stale_turn"},
	{"talk too long", "move", `{"type":"move","v":0,"match_id":"MATCH","round":ROUND,"turn":TURN,"action":"cooperate","message":"` + strings.Repeat("a", 281) + `"}`, "bad_message"},
	{"another match", "move", `{"type":"move","v":0,"match_id":"T-999","round":ROUND,"turn":TURN,"action":"cooperate"}`, "unknown_match"},
	{"feedback too early", "feedback", `{"type":"feedback","v":0,"match_id":"MATCH","text":"hi"}`, "match_running"},
}

// fillTurn writes the turn's values into raw.
func fillTurn(raw, match string, round, turn int64) string {
	return strings.NewReplacer("MATCH", match, "ROUND", jsonNum(round), "TURN", jsonNum(turn)).Replace(raw)
}

func jsonNum(n int64) string { b, _ := json.Marshal(n); return string(b) }

// TestDoorsRefuseAlikeOnTheRoom: the real product behind both doors: a seat on its turn sends
// every roomRefusals message over the socket and, at another table, over HTTP; each door
// answers each with the same code, and the seat's right move is taken after them all.
func TestDoorsRefuseAlikeOnTheRoom(t *testing.T) {
	srv := roomSite(t)
	num := func(m map[string]any, k string) int64 { f, _ := m[k].(float64); return int64(f) }

	// The socket door: three sockets fill a table; the one prompted first refuses the table.
	var socks []*brSock
	for i := range 3 {
		s := dialRoom(t, srv)
		nonce := s.next(t, "challenge")["nonce"].(string)
		k := newBrKey(byte(i + 1))
		j, _ := json.Marshal(map[string]any{"type": "join", "v": 0, "game": "dilemma", "author_pubkey": k.pub, "nonce": nonce, "sig": k.sign(nonce)})
		s.c.WriteMessage(websocket.TextMessage, j)
		s.next(t, "queued")
		socks = append(socks, s)
	}
	var on *brSock
	var yt map[string]any
	for on == nil {
		for _, s := range socks {
			select {
			case m := <-s.msg:
				if m["type"] == "your_turn" {
					on, yt = s, m
				}
			case <-time.After(10 * time.Millisecond):
			}
		}
	}
	match, round, turn := yt["match_id"].(string), num(yt, "round"), num(yt, "turn")
	sockCodes := map[string]string{}
	for _, tc := range roomRefusals {
		on.c.WriteMessage(websocket.TextMessage, []byte(fillTurn(tc.raw, match, round, turn)))
		sockCodes[tc.name] = on.next(t, "error")["code"].(string)
	}
	on.c.WriteMessage(websocket.TextMessage, []byte(fillTurn(`{"type":"move","v":0,"match_id":"MATCH","round":ROUND,"turn":TURN,"action":"cooperate"}`, match, round, turn)))
	on.next(t, "event")

	// The HTTP door: three HTTP agents fill another table; the one whose state is your_turn
	// refuses the table.
	var tokens []string
	for i := range 3 {
		k := newBrKey(byte(i + 11))
		_, ch := brHTTP(t, srv, "GET", "/v0/challenge", "", "")
		nonce := ch["nonce"].(string)
		j, _ := json.Marshal(map[string]any{"game": "dilemma", "author_pubkey": k.pub, "nonce": nonce, "sig": k.sign(nonce)})
		st, q := brHTTP(t, srv, "POST", "/v0/join", "", string(j))
		if st != 200 || q["token"] == nil {
			t.Fatalf("HTTP join: %d %v", st, q)
		}
		tokens = append(tokens, q["token"].(string))
	}
	var tok string
	var state map[string]any
	for _, tk := range tokens {
		st, s := brHTTP(t, srv, "GET", "/v0/join/"+tk+"?wait=20000", "", "")
		if st != 200 || s["type"] != "seated" {
			t.Fatalf("join poll: %d %v", st, s)
		}
		match = s["match_id"].(string)
	}
	for deadline := time.Now().Add(20 * time.Second); tok == ""; {
		for _, tk := range tokens {
			if _, s := brHTTP(t, srv, "GET", "/v0/matches/"+match+"/state", tk, ""); s["status"] == "your_turn" {
				tok, state = tk, s
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("no HTTP seat on turn within 20 s")
		}
	}
	round, turn = num(state, "round"), num(state, "turn")
	for _, tc := range roomRefusals {
		raw := fillTurn(tc.raw, match, round, turn)
		path := "/v0/matches/" + match + "/" + tc.kind
		if strings.Contains(raw, `"T-999"`) {
			path = "/v0/matches/T-999/" + tc.kind
		}
		st, e := brHTTP(t, srv, "POST", path, tok, raw)
		want := map[string]int{"unknown_match": 404, "match_running": 409}[tc.code]
		if want == 0 {
			want = 400
		}
		if e["code"] != tc.code || sockCodes[tc.name] != tc.code || st != want {
			t.Errorf("%s: socket %s, HTTP %d %v; want %s (%d)", tc.name, sockCodes[tc.name], st, e, tc.code, want)
		}
	}
	body := fillTurn(`{"round":ROUND,"turn":TURN,"action":"defect"}`, match, round, turn)
	if st, ok := brHTTP(t, srv, "POST", "/v0/matches/"+match+"/move", tok, body); st != 200 || ok["ok"] != true {
		t.Fatalf("the right move after the refusals: %d %v", st, ok)
	}
}
