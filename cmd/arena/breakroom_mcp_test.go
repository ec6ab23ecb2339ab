package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"arena/actors"
	"arena/actors/breakroom"
	"arena/games"
	brgames "arena/games/breakroom"
	brdilemma "arena/games/breakroom/dilemma"
	"arena/storage"
	"arena/storage/storagetest"
	brsite "arena/transport/breakroom"
	"arena/transport/breakroom/auth"
	brmcp "arena/transport/breakroom/mcp"
	"arena/transport/breakroom/play"
	"arena/transport/httpapi"
)

// skewClock is the wall clock moved forward by a settable offset (timers run in real time):
// a test lets a match end, then jumps past the feedback window.
type skewClock struct{ skew atomic.Int64 }

func (c *skewClock) Now() time.Time { return time.Now().Add(time.Duration(c.skew.Load())) }

func (c *skewClock) AfterFunc(d time.Duration, f func()) func() bool {
	return time.AfterFunc(d, f).Stop
}

// mcpRig is the Break Room site with every door (play's and the MCP door, as serve wires them
// through doorSet) over a real Room playing the Dilemma: a lone agent gets house bots
// after 50 ms.
type mcpRig struct {
	srv   *httptest.Server
	store *storage.Store
	clock *skewClock
}

func newMCPRig(t *testing.T) *mcpRig {
	t.Helper()
	st := storagetest.Open(t, storage.Options{NoSync: true})
	br, err := games.NewBracket(brdilemma.Engine{})
	if err != nil {
		t.Fatal(err)
	}
	info := brdilemma.Engine{}.Info()
	room, err := breakroom.New(breakroom.Options{PublicURL: "http://breakroom.test", HousePause: time.Millisecond,
		LobbyWait: 50 * time.Millisecond, HouseAfter: 50 * time.Millisecond,
		Games: []breakroom.Game{{ID: info.ID, Name: info.Name, RulesVersion: info.RulesVersion, TableSize: info.TableSize,
			Min: info.MinPlayers, Rules: info.Rules, Pace: games.Pace{Steps: map[string]time.Duration{"turn": 20 * time.Second}}}}})
	if err != nil {
		t.Fatal(err)
	}
	clk := &skewClock{}
	a, err := actors.Start(actors.Options{DB: st, Bracket: br, Clock: clk, InstanceKey: ed25519.NewKeyFromSeed(make([]byte, 32)),
		Products: []actors.Product{room.Product()}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Shutdown(context.Background()) })
	<-room.Ready()
	catalog := []brgames.GameInfo{info}
	pd, err := play.New(play.Options{Backend: roomDoors{room: room, catalog: catalog, public: "http://breakroom.test"},
		Nonces: auth.New(auth.Options{})})
	if err != nil {
		t.Fatal(err)
	}
	md, err := brmcp.New(brmcp.Options{Door: pd, Rules: rulesOf(catalog), PublicURL: "http://breakroom.test", Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	e, err := httpapi.Build(brsite.Site{Doors: doorSet{pd, md}}, httpapi.Global{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return &mcpRig{srv: srv, store: st, clock: clk}
}

// rpc posts one JSON-RPC body to path and answers the HTTP status and the decoded answer.
func (r *mcpRig) rpc(t *testing.T, path, body string) (int, map[string]any, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, r.srv.URL+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var m map[string]any
	if len(bytes.TrimSpace(raw)) > 0 {
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatalf("%s: answer is no JSON: %v: %s", body, err, raw)
		}
	}
	return resp.StatusCode, m, string(raw)
}

// call calls tool with args at path and answers the result's text, whether it is a tool
// error, and its JSON object (nil when the text is not one).
func (r *mcpRig) call(t *testing.T, path, tool string, args any) (text string, isErr bool, obj map[string]any) {
	t.Helper()
	a, _ := json.Marshal(args)
	_, m, raw := r.rpc(t, path, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"`+tool+`","arguments":`+string(a)+`}}`)
	res, ok := m["result"].(map[string]any)
	if !ok {
		t.Fatalf("%s %s: no result: %s", tool, a, raw)
	}
	content := res["content"].([]any)
	text = content[0].(map[string]any)["text"].(string)
	isErr, _ = res["isError"].(bool)
	_ = json.Unmarshal([]byte(text), &obj)
	return text, isErr, obj
}

// refusedWith checks a tool error carries the protocol's error message with code.
func refusedWith(t *testing.T, what string, isErr bool, obj map[string]any, code string) {
	t.Helper()
	if !isErr || obj["type"] != "error" || obj["code"] != code || obj["v"] != float64(0) || obj["detail"] == "" {
		t.Errorf("%s: want a tool error %s, got isError=%v %v", what, code, isErr, obj)
	}
}

// playOut loops wait_for_turn and make_move (always cooperating) until the match ends; it
// answers the final state, the match id and how many moves it made, checking each refusal-free.
func (r *mcpRig) playOut(t *testing.T, path, session string) (end map[string]any, match string, moves int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		_, isErr, st := r.call(t, path, "wait_for_turn", map[string]any{"session": session, "wait_ms": 5000})
		if isErr {
			t.Fatalf("wait_for_turn refused: %v", st)
		}
		switch st["status"] {
		case "your_turn":
			match = st["match_id"].(string)
			var names []string
			for _, la := range st["legal_actions"].([]any) {
				names = append(names, la.(map[string]any)["action"].(string))
			}
			if strings.Join(names, ",") != "cooperate,defect" {
				t.Fatalf("legal_actions %v", names)
			}
			_, isErr, ok := r.call(t, path, "make_move", map[string]any{"session": session, "match_id": match,
				"round": st["round"], "turn": st["turn"], "action": "cooperate", "message": "cooperating"})
			if isErr || ok["ok"] != true {
				t.Fatalf("make_move refused: %v", ok)
			}
			moves++
		case "ended":
			return st, st["match_id"].(string), moves
		}
	}
	t.Fatal("the match did not end in two minutes")
	return nil, "", 0
}

// An agent plays a whole Dilemma match against house bots through /mcp: list_games and
// get_rules, join_game (a key made for it), wait_for_turn and make_move to match_end, then
// send_feedback (kept; sent again, replaced), and a second join with the key passed back keeps
// the identity.
func TestMCPPlaysADilemmaMatchOnTheRoom(t *testing.T) {
	r := newMCPRig(t)
	_, isErr, gl := r.call(t, brmcp.Path, "list_games", map[string]any{})
	if isErr || len(gl["games"].([]any)) != 1 || gl["games"].([]any)[0].(map[string]any)["id"] != "dilemma" {
		t.Fatalf("list_games: %v", gl)
	}
	rules, isErr, _ := r.call(t, brmcp.Path, "get_rules", map[string]any{"game": "dilemma"})
	if isErr || rules != brdilemma.RulesText {
		t.Fatalf("get_rules: not the Dilemma's rules text: %.80q", rules)
	}
	_, isErr, j := r.call(t, brmcp.Path, "join_game", map[string]any{"game": "dilemma", "agent_name": "Tooly"})
	if isErr || j["type"] != "queued" || len(j["secret_key"].(string)) != 64 || len(j["pubkey"].(string)) != 64 || j["session"] == "" {
		t.Fatalf("join_game: %v", j)
	}
	session, sk, pub := j["session"].(string), j["secret_key"].(string), j["pubkey"].(string)
	end, match, moves := r.playOut(t, brmcp.Path, session)
	me := end["match_end"].(map[string]any)
	if moves == 0 || me["match_id"] != match || len(me["ranking"].([]any)) != brdilemma.MinPlayers {
		t.Fatalf("match_end after %d moves: %v", moves, me)
	}
	found := false
	for _, row := range me["ranking"].([]any) {
		if row.(map[string]any)["pubkey"] == pub {
			found = true
		}
	}
	if !found {
		t.Fatalf("the agent's key %s is not in the ranking %v", pub, me["ranking"])
	}
	_, isErr, fr := r.call(t, brmcp.Path, "send_feedback", map[string]any{"session": session, "text": "clear rules", "rating": 4})
	if isErr || fr["type"] != "feedback_received" || fr["match_id"] != match {
		t.Fatalf("send_feedback: %v", fr)
	}
	_, isErr, _ = r.call(t, brmcp.Path, "send_feedback", map[string]any{"session": session, "match_id": match, "text": "on second thought: great", "rating": 5})
	if isErr {
		t.Fatal("second send_feedback refused")
	}
	note, err := r.store.BreakroomFeedback(match, pub)
	if err != nil {
		t.Fatal(err)
	}
	var n struct {
		Text   string
		Rating int
	}
	if json.Unmarshal(note, &n) != nil || n.Text != "on second thought: great" || n.Rating != 5 {
		t.Fatalf("stored note %s", note)
	}
	// The window closes 24 h after match_end.
	r.clock.skew.Store(int64(24*time.Hour + time.Second))
	_, isErr, closed := r.call(t, brmcp.Path, "send_feedback", map[string]any{"session": session, "text": "late"})
	refusedWith(t, "feedback after 24 h", isErr, closed, "feedback_closed")
	r.clock.skew.Store(0)
	// The key passed back is the same identity; the server makes no new one.
	_, isErr, j2 := r.call(t, brmcp.FreePath, "join_game", map[string]any{"game": "dilemma", "secret_key": sk})
	if isErr || j2["pubkey"] != pub || j2["secret_key"] != nil || j2["type"] != "queued" {
		t.Fatalf("join_game with the key passed back: %v", j2)
	}
	_, isErr, left := r.call(t, brmcp.FreePath, "leave_queue", map[string]any{"session": j2["session"]})
	if isErr || left["type"] != "left" || left["reason"] != "left" {
		t.Fatalf("leave_queue: %v", left)
	}
}

// Every tool's refusals carry the protocol's code as the HTTP door's do, and change nothing:
// a refused move leaves the turn open.
func TestMCPToolsRefuseWithTheProtocolsCodes(t *testing.T) {
	r := newMCPRig(t)
	_, isErr, m := r.call(t, brmcp.Path, "get_rules", map[string]any{"game": "chess"})
	refusedWith(t, "get_rules chess", isErr, m, "unknown_game")
	if gs, _ := m["games"].([]any); len(gs) != 1 || gs[0] != "dilemma" {
		t.Errorf("unknown_game lists %v", m["games"])
	}
	_, isErr, m = r.call(t, brmcp.Path, "join_game", map[string]any{"game": "chess"})
	refusedWith(t, "join chess", isErr, m, "unknown_game")
	_, isErr, m = r.call(t, brmcp.Path, "join_game", map[string]any{"game": "dilemma", "stake_sats": 10})
	refusedWith(t, "paid join", isErr, m, "payments_disabled")
	_, isErr, m = r.call(t, brmcp.Path, "confirm_payment", map[string]any{"session": "x", "payment_hash": "ab"})
	refusedWith(t, "confirm_payment", isErr, m, "payments_disabled")
	_, isErr, m = r.call(t, brmcp.Path, "join_game", map[string]any{"game": "dilemma", "secret_key": strings.Repeat("0", 64)})
	refusedWith(t, "zero secret key", isErr, m, "bad_request")
	_, isErr, m = r.call(t, brmcp.Path, "join_game", map[string]any{"game": "dilemma", "agent_name": strings.Repeat("n", 41)})
	refusedWith(t, "long agent_name", isErr, m, "bad_request")
	_, isErr, m = r.call(t, brmcp.Path, "wait_for_turn", map[string]any{"session": "nobody"})
	refusedWith(t, "unknown session", isErr, m, "unauthorized")
	_, isErr, m = r.call(t, brmcp.Path, "leave_queue", map[string]any{"session": ""})
	refusedWith(t, "empty session", isErr, m, "unauthorized")

	_, _, j := r.call(t, brmcp.Path, "join_game", map[string]any{"game": "dilemma"})
	s := j["session"].(string)
	_, isErr, m = r.call(t, brmcp.Path, "join_game", map[string]any{"game": "dilemma", "secret_key": j["secret_key"]})
	if isErr || m["type"] != "queued" {
		t.Fatalf("a second join of a queued key: %v", m)
	}
	s = m["session"].(string) // the newer join replaced the older session
	var st map[string]any
	for range 50 {
		_, _, st = r.call(t, brmcp.Path, "wait_for_turn", map[string]any{"session": s, "wait_ms": 5000})
		if st["status"] == "your_turn" {
			break
		}
	}
	if st["status"] != "your_turn" {
		t.Fatalf("never my turn: %v", st)
	}
	match := st["match_id"].(string)
	_, isErr, m = r.call(t, brmcp.Path, "send_feedback", map[string]any{"session": s, "text": "early"})
	refusedWith(t, "feedback while running", isErr, m, "match_running")
	_, isErr, m = r.call(t, brmcp.Path, "leave_queue", map[string]any{"session": s})
	refusedWith(t, "leave once seated", isErr, m, "already_playing")
	mv := func(extra map[string]any) map[string]any {
		a := map[string]any{"session": s, "match_id": match, "round": st["round"], "turn": st["turn"], "action": "cooperate"}
		for k, v := range extra {
			a[k] = v
		}
		return a
	}
	_, isErr, m = r.call(t, brmcp.Path, "make_move", mv(map[string]any{"action": "fold"}))
	refusedWith(t, "illegal action", isErr, m, "illegal_move")
	if m["match_id"] != match {
		t.Errorf("a move's refusal names its match: %v", m)
	}
	_, isErr, m = r.call(t, brmcp.Path, "make_move", mv(map[string]any{"turn": st["turn"].(float64) + 7}))
	refusedWith(t, "stale turn", isErr, m, "stale_turn")
	_, isErr, m = r.call(t, brmcp.Path, "make_move", mv(map[string]any{"message": strings.Repeat("m", 281)}))
	refusedWith(t, "long message", isErr, m, "bad_message")
	_, isErr, m = r.call(t, brmcp.Path, "make_move", mv(map[string]any{"params": map[string]any{"round": 1}}))
	refusedWith(t, "envelope in params", isErr, m, "bad_request")
	_, isErr, m = r.call(t, brmcp.Path, "make_move", mv(map[string]any{"match_id": "m_nope"}))
	if !isErr || (m["code"] != "unknown_match" && m["code"] != "not_seated") {
		t.Errorf("another match: %v", m)
	}
	// The turn is still open after every refusal: the move is taken.
	_, isErr, m = r.call(t, brmcp.Path, "make_move", mv(nil))
	if isErr || m["ok"] != true {
		t.Fatalf("the move after the refusals: %v", m)
	}
	_, isErr, m = r.call(t, brmcp.Path, "send_feedback", map[string]any{"session": s, "match_id": match, "text": strings.Repeat("é", 2001)})
	refusedWith(t, "2001 characters", isErr, m, "bad_request")
	_, isErr, m = r.call(t, brmcp.Path, "send_feedback", map[string]any{"session": s, "match_id": match, "text": "x", "rating": 6})
	refusedWith(t, "rating 6", isErr, m, "bad_request")
	_, isErr, m = r.call(t, brmcp.Path, "send_feedback", map[string]any{"session": s, "match_id": match, "text": ""})
	refusedWith(t, "empty text", isErr, m, "bad_request")
	// Another agent's session is no player of this match.
	_, _, o := r.call(t, brmcp.Path, "join_game", map[string]any{"game": "dilemma"})
	_, isErr, m = r.call(t, brmcp.Path, "send_feedback", map[string]any{"session": o["session"], "match_id": match, "text": "not mine"})
	if !isErr || (m["code"] != "not_seated" && m["code"] != "unknown_match") {
		t.Errorf("feedback from a non-player: %v", m)
	}
}

// /mcp/free has no confirm_payment and its join_game no stake_sats: asking for either is
// refused before dispatch; /mcp lists both.
func TestMCPFreeServesNoMoney(t *testing.T) {
	r := newMCPRig(t)
	names := func(path string) (string, string) {
		_, m, _ := r.rpc(t, path, `{"jsonrpc":"2.0","id":"l","method":"tools/list"}`)
		var ns []string
		join := ""
		for _, tl := range m["result"].(map[string]any)["tools"].([]any) {
			tm := tl.(map[string]any)
			ns = append(ns, tm["name"].(string))
			if tm["name"] == "join_game" {
				b, _ := json.Marshal(tm["inputSchema"])
				join = string(b)
			}
		}
		return strings.Join(ns, ","), join
	}
	paid, paidJoin := names(brmcp.Path)
	free, freeJoin := names(brmcp.FreePath)
	if paid != "confirm_payment,get_rules,join_game,leave_queue,list_games,make_move,send_feedback,wait_for_turn" ||
		free != "get_rules,join_game,leave_queue,list_games,make_move,send_feedback,wait_for_turn" {
		t.Fatalf("tools: %s | %s", paid, free)
	}
	if !strings.Contains(paidJoin, "stake_sats") || strings.Contains(freeJoin, "stake_sats") {
		t.Errorf("join_game schemas: %s | %s", paidJoin, freeJoin)
	}
	_, m, _ := r.rpc(t, brmcp.FreePath, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"join_game","arguments":{"game":"dilemma","stake_sats":10}}}`)
	if e, _ := m["error"].(map[string]any); e == nil || e["code"] != float64(-32602) || m["id"] != float64(2) {
		t.Errorf("stake_sats at /mcp/free: %v", m)
	}
	_, m, _ = r.rpc(t, brmcp.FreePath, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"confirm_payment","arguments":{"session":"x"}}}`)
	if e, _ := m["error"].(map[string]any); e == nil || e["code"] != float64(-32602) {
		t.Errorf("confirm_payment at /mcp/free: %v", m)
	}
}

// The server card names the registry entry and both endpoints on the site's origin.
func TestMCPServerCard(t *testing.T) {
	r := newMCPRig(t)
	resp, err := http.Get(r.srv.URL + brmcp.CardPath)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var card struct {
		Name    string
		Remotes []struct{ Type, URL string }
		Tools   []struct{ Name string }
	}
	if resp.StatusCode != 200 || json.NewDecoder(resp.Body).Decode(&card) != nil {
		t.Fatalf("status %d", resp.StatusCode)
	}
	if card.Name != "lol.breakroom/arena" || len(card.Remotes) != 2 || card.Remotes[0].URL != "http://breakroom.test/mcp" ||
		card.Remotes[1].URL != "http://breakroom.test/mcp/free" || card.Remotes[0].Type != "streamable-http" || len(card.Tools) != 8 {
		t.Errorf("card %+v", card)
	}
}
