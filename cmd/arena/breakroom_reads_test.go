package main

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
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
	"arena/transport/breakroom/live"
	"arena/transport/breakroom/play"
	"arena/transport/breakroom/public"
	"arena/transport/httpapi"
)

// readsSite is the Break Room site with the playing doors, the public reads and the live reads
// over a real Room (the Dilemma at tables of three, at most two iterations a pairing, opened by a
// 50 ms lobby timer), wired as serve wires them (roomDoors, roomReads, roomLive, the counters in
// the store).
func readsSite(t *testing.T) (*httptest.Server, *public.Stats) {
	t.Helper()
	srv, stats, _ := liveSite(t)
	return srv, stats
}

// liveSite is readsSite with its live door.
func liveSite(t *testing.T) (*httptest.Server, *public.Stats, *live.Door) {
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
			Options: json.RawMessage(`{"max_iterations":2,"stop_one_in":2}`),
			Pace:    games.Pace{Steps: map[string]time.Duration{"turn": 20 * time.Second}}}}})
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
	stats := public.NewStats(st, nil)
	catalog := []brgames.GameInfo{info}
	rd, err := public.New(public.Options{Backend: roomReads{room: room, catalog: catalog}, PublicURL: "http://breakroom.test", Stats: stats})
	if err != nil {
		t.Fatal(err)
	}
	pd, err := play.New(play.Options{Backend: roomDoors{room: room, catalog: catalog, public: "http://breakroom.test", stats: stats},
		Nonces: auth.New(auth.Options{}), Page: rd.ReplayPage, OnGames: countGames(stats)})
	if err != nil {
		t.Fatal(err)
	}
	drain := make(chan struct{})
	lv, err := live.New(live.Options{Backend: roomLive{room: room, reads: roomReads{room: room, catalog: catalog}}, Drain: drain})
	if err != nil {
		t.Fatal(err)
	}
	e, err := httpapi.Build(brsite.Site{Doors: doorSet{pd, rd, lv}}, httpapi.Global{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(drain) }) // before srv.Close: a stream left open ends
	return srv, stats, lv
}

// getRaw is GET path's status, content type and body.
func getRaw(t *testing.T, srv *httptest.Server, path, accept string) (int, string, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", srv.URL+path, nil)
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Content-Type"), string(b)
}

// TestBreakroomPublicReadsKeepSecretsOnTheRoom: three agents play a whole Dilemma match over HTTP
// on the real product. Before every move each public read of the match (the lists, the match
// with spoilers, its page (live while it runs), transcript and log, the leaderboard, the agents' pages, stats, sitemap) is
// read, and none holds a private line, a chosen action, a ranking or the seed, which the end
// reveals; after the end the match has its results with spoilers, the leaderboard and the
// agents' records count it, and the day's counters have the joins, agents and match.
func TestBreakroomPublicReadsKeepSecretsOnTheRoom(t *testing.T) {
	srv, _ := readsSite(t)
	keys := []brKey{newBrKey(21), newBrKey(22), newBrKey(23)}
	tokens := make([]string, 3)
	for i, k := range keys {
		_, ch := brHTTP(t, srv, "GET", "/v0/challenge", "", "")
		nonce, _ := ch["nonce"].(string)
		body, _ := json.Marshal(map[string]any{"game": "dilemma", "author_pubkey": k.pub, "nonce": nonce, "sig": k.sign(nonce),
			"agent_name": fmt.Sprintf("Reader%d", i)})
		st, q := brHTTP(t, srv, "POST", "/v0/join", "", string(body))
		if st != 200 || q["type"] != "queued" {
			t.Fatalf("join %d: %d %v", i, st, q)
		}
		tokens[i] = q["token"].(string)
	}
	match := ""
	for _, tok := range tokens {
		for match == "" {
			_, m := brHTTP(t, srv, "GET", "/v0/join/"+tok+"?wait=2000", "", "")
			if m["type"] == "seated" {
				match = m["match_id"].(string)
			}
		}
	}
	routes := []string{"/v0/matches", "/v0/matches?game=dilemma&limit=1", "/matches", "/v0/matches/" + match,
		"/v0/matches/" + match + "?spoilers=1", "/r/" + match, "/r/" + match + "/transcript", "/r/" + match + ".jsonl",
		"/v0/leaderboard/dilemma", "/leaderboard/dilemma", "/v0/stats?days=1", "/stats", "/sitemap.xml", "/v0/games",
		"/agents/" + keys[0].pub, "/v0/agents/" + keys[0].pub, "/v0/live"}
	// A narrated spectator follows the match from its seating to its end.
	spectator, st, _ := openSSE(t, srv, "/r/"+match+"/live?narrate=1")
	if st != 200 {
		t.Fatalf("/r/%s/live: %d", match, st)
	}
	watched := follow(spectator)
	var seen []string // every body read while the match ran
	readAll := func() {
		for _, r := range routes {
			for _, accept := range []string{"", "text/html"} {
				st, _, b := getRaw(t, srv, r, accept)
				if st != 200 {
					t.Fatalf("GET %s (%s) while running: %d %s", r, accept, st, b)
				}
				seen = append(seen, r+"\n"+b)
			}
		}
	}
	ended, moves := 0, 0
	deadline := time.Now().Add(90 * time.Second)
	for ended < 3 {
		if time.Now().After(deadline) {
			t.Fatal("the match did not end")
		}
		ended = 0
		for i, tok := range tokens {
			_, s := brHTTP(t, srv, "GET", "/v0/matches/"+match+"/state", tok, "")
			switch s["status"] {
			case "ended":
				ended++
			case "your_turn":
				readAll()
				action := []string{"cooperate", "defect"}[(i+moves)%2]
				mv, _ := json.Marshal(map[string]any{"round": s["round"], "turn": s["turn"], "action": action, "message": "hello " + action})
				if st, r := brHTTP(t, srv, "POST", "/v0/matches/"+match+"/move", tok, string(mv)); st != 200 {
					t.Fatalf("move: %d %v", st, r)
				}
				moves++
			}
		}
	}
	if moves < 3 || len(seen) == 0 {
		t.Fatalf("%d moves, %d reads", moves, len(seen))
	}
	// The stream up to match_end is read while the match ran.
	var blocks []sseEvent
	select {
	case blocks = <-watched:
	case <-time.After(30 * time.Second):
		t.Fatal("the spectator's stream did not close after the end")
	}
	if len(blocks) < 3 || blocks[len(blocks)-1].Event != "end" {
		t.Fatalf("the spectator's stream: %d blocks", len(blocks))
	}
	for _, b := range blocks {
		if strings.Contains(b.Data, `"type":"match_end"`) {
			break
		}
		seen = append(seen, "/r/"+match+"/live?narrate=1\n"+b.Data)
	}
	_, _, log := getRaw(t, srv, "/r/"+match+".jsonl", "")
	var seed string
	for _, l := range strings.Split(strings.TrimSpace(log), "\n") {
		var m struct{ Type, Seed string }
		_ = json.Unmarshal([]byte(l), &m)
		if m.Type == "match_end" {
			seed = m.Seed
		}
	}
	if len(seed) < 16 || !strings.Contains(log, `"type":"action_private"`) {
		t.Fatalf("the ended log reveals no seed or private line:\n%s", log)
	}
	for _, b := range seen {
		for _, secret := range []string{seed, `"action_private"`, `"iteration_private"`, `"timeout_private"`, " chose to ",
			`"results":[`, `"ranking"`, "The match is over"} {
			if strings.Contains(b, secret) {
				t.Fatalf("a public read held %q while the match ran:\n%.2000s", secret, b)
			}
		}
	}

	// After the end.
	_, mj := brHTTP(t, srv, "GET", "/v0/matches/"+match+"?spoilers=1", "", "")
	m := mj["match"].(map[string]any)
	if res, _ := m["results"].([]any); m["status"] != "finished" || len(res) != 3 || m["ended_at"] == nil {
		t.Fatalf("the ended match with spoilers: %v", m)
	}
	if _, mj = brHTTP(t, srv, "GET", "/v0/matches/"+match, "", ""); mj["match"].(map[string]any)["results"] != nil {
		t.Fatalf("results without spoilers: %v", mj)
	}
	_, lb := brHTTP(t, srv, "GET", "/v0/leaderboard/dilemma", "", "")
	if rows, _ := lb["rows"].([]any); len(rows) != 3 || lb["matches"].(float64) != 1 {
		t.Fatalf("leaderboard %v", lb)
	}
	_, ag := brHTTP(t, srv, "GET", "/agents/"+keys[0].pub, "", "")
	if g, _ := ag["games"].(map[string]any)["dilemma"].(map[string]any); g == nil || g["matches"].(float64) != 1 || ag["name"] != "Reader0" {
		t.Fatalf("agent %v", ag)
	}
	_, _, tr := getRaw(t, srv, "/r/"+match+"/transcript", "")
	if !strings.Contains(tr, "The match is over.") || !strings.Contains(tr, " chose to ") || !strings.Contains(tr, "(finished)") {
		t.Fatalf("transcript after the end:\n%s", tr)
	}
	_, sj := brHTTP(t, srv, "GET", "/v0/stats?days=1", "", "")
	day := sj["series"].([]any)[0].(map[string]any)
	joins := day["joins"].(map[string]any)
	mc := day["matches"].(map[string]any)
	if joins["http"].(float64) != 3 || day["distinct_agents"].(float64) != 3 || mc["started"].(float64) != 1 || mc["finished"].(float64) != 1 {
		t.Fatalf("today's counters %v", day)
	}
}
