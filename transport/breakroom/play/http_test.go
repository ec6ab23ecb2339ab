package play

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

// TestHTTPPlaysAMatch: every row of the fallback's table over a whole match: challenge, join
// (queued + token), the join poll (seated), state (your_turn, waiting, ended with match_end),
// move ({ok:true}), feedback (feedback_received), leave.
func TestHTTPPlaysAMatch(t *testing.T) {
	r := newRig(t, nil)
	ka, kb := newKey(t, 1), newKey(t, 2)
	st, qa := r.httpJoin(ka, "coin")
	if st != 200 || qa["type"] != "queued" || num(qa, "position") != 1 || qa["token"] == "" {
		t.Fatalf("join: %d %v", st, qa)
	}
	ta := qa["token"].(string)
	if st, e := r.httpDo("GET", "/v0/join/"+ta+"?wait=0", "", nil); st != 200 || e["type"] != "queued" {
		t.Fatalf("poll while queued: %d %v", st, e)
	}
	_, qb := r.httpJoin(kb, "coin")
	tb := qb["token"].(string)
	tokens := []string{ta, tb}
	for i, tok := range tokens {
		st, s := r.httpDo("GET", "/v0/join/"+tok+"?wait=25000", "", nil)
		if st != 200 || s["type"] != "seated" || num(s, "seat") != int64(i) || s["match_id"] != "m_1" {
			t.Fatalf("poll: %d %v", st, s)
		}
	}
	if st, e := r.httpDo("POST", "/v0/matches/m_1/feedback", tb, map[string]any{"text": "early"}); st != 409 || e["code"] != "match_running" || e["match_id"] != "m_1" {
		t.Fatalf("early feedback: %d %v", st, e)
	}
	for step := 0; step < 4; step++ {
		me, other := tokens[step%2], tokens[1-step%2]
		st, s := r.httpDo("GET", "/v0/matches/m_1/state?wait=0", other, nil)
		if st != 200 || s["status"] != "waiting" {
			t.Fatalf("step %d other's state: %d %v", step, st, s)
		}
		st, s = r.httpDo("GET", "/v0/matches/m_1/state?wait=25000", me, nil)
		if st != 200 || s["status"] != "your_turn" || len(s["legal_actions"].([]any)) != 2 {
			t.Fatalf("step %d state: %d %v", step, st, s)
		}
		st, ok := r.httpDo("POST", "/v0/matches/m_1/move", me, map[string]any{"round": s["round"], "turn": s["turn"], "action": "defect"})
		if st != 200 || ok["ok"] != true {
			t.Fatalf("step %d move: %d %v", step, st, ok)
		}
	}
	for i, tok := range tokens {
		st, s := r.httpDo("GET", "/v0/matches/m_1/state?wait=25000", tok, nil)
		end, _ := s["match_end"].(map[string]any)
		if st != 200 || s["status"] != "ended" || end == nil || num(end, "your_rank") != int64(i+1) {
			t.Fatalf("ended state: %d %v", st, s)
		}
	}
	if st, fr := r.httpDo("POST", "/v0/matches/m_1/feedback", ta, map[string]any{"text": "good game", "rating": 4}); st != 200 || fr["type"] != "feedback_received" {
		t.Fatalf("feedback: %d %v", st, fr)
	}
	if st, e := r.httpDo("POST", "/v0/matches/m_1/move", ta, map[string]any{"round": 3, "turn": 0, "action": "defect"}); st != 400 || e["code"] != "match_over" {
		t.Fatalf("move after the end: %d %v", st, e)
	}
}

// TestHTTPLeaveAndRejoin: DELETE leaves the queue (left); once seated it is 409
// already_playing; a signed join while the match runs answers seated with a new token and the
// old token is unauthorized.
func TestHTTPLeaveAndRejoin(t *testing.T) {
	r := newRig(t, nil)
	ka, kb := newKey(t, 1), newKey(t, 2)
	_, q := r.httpJoin(ka, "coin")
	if st, l := r.httpDo("DELETE", "/v0/join/"+q["token"].(string), "", nil); st != 200 || l["type"] != "left" || l["reason"] != "left" || l["game"] != "coin" {
		t.Fatalf("leave: %d %v", st, l)
	}
	if len(r.f.queue) != 0 {
		t.Fatalf("queue after leave: %v", r.f.queue)
	}
	_, qa := r.httpJoin(ka, "coin")
	r.httpJoin(kb, "coin")
	old := qa["token"].(string)
	if st, e := r.httpDo("DELETE", "/v0/join/"+old, "", nil); st != 409 || e["code"] != "already_playing" {
		t.Fatalf("leave once seated: %d %v", st, e)
	}
	st, s := r.httpJoin(ka, "coin")
	if st != 200 || s["type"] != "seated" || s["match_id"] != "m_1" || num(s, "seat") != 0 || s["token"] == old || s["token"] == "" {
		t.Fatalf("rejoin mid-match: %d %v", st, s)
	}
	if st, e := r.httpDo("GET", "/v0/matches/m_1/state", old, nil); st != 401 || e["code"] != "unauthorized" {
		t.Fatalf("the replaced token: %d %v", st, e)
	}
	if st, e := r.httpDo("GET", "/v0/matches/m_1/state", s["token"].(string), nil); st != 200 || e["status"] != "your_turn" {
		t.Fatalf("the new token: %d %v", st, e)
	}
}

// TestHTTPTokens: tokens travel only in the Authorization header: none is 401 unauthorized; a
// token in a query is bad_request and nothing is done; an unknown one 401.
func TestHTTPTokens(t *testing.T) {
	r := newRig(t, nil)
	_, q := r.httpJoin(newKey(t, 1), "coin")
	tok := q["token"].(string)
	for _, tc := range []struct{ method, path, token, code string }{
		{"GET", "/v0/matches/m_1/state", "", "unauthorized"},
		{"GET", "/v0/matches/m_1/state?token=" + tok, "", "bad_request"},
		{"GET", "/v0/matches/m_1/state?access_token=" + tok, tok, "bad_request"},
		{"POST", "/v0/matches/m_1/move", "", "unauthorized"},
		{"POST", "/v0/matches/m_1/move", "nope", "unauthorized"},
		{"GET", "/v0/join/nope", "", "unauthorized"},
		{"DELETE", "/v0/join/" + tok + "?token=" + tok, "", "bad_request"},
	} {
		var body any
		if tc.method == "POST" {
			body = map[string]any{"round": 1, "turn": 0, "action": "defect"}
		}
		st, e := r.httpDo(tc.method, tc.path, tc.token, body)
		if e["code"] != tc.code || (tc.code == "unauthorized" && st != 401) || (tc.code == "bad_request" && st != 400) {
			t.Errorf("%s %s: %d %v, want %s", tc.method, tc.path, st, e, tc.code)
		}
	}
	if len(r.f.queue) != 1 {
		t.Fatalf("a refused leave changed the queue: %v", r.f.queue)
	}
}

// TestHTTPWait: wait is whole milliseconds ≥ 0, capped at 25,000; anything else is bad_request.
func TestHTTPWait(t *testing.T) {
	r := newRig(t, nil)
	_, q := r.httpJoin(newKey(t, 1), "coin")
	tok := q["token"].(string)
	for _, bad := range []string{"-1", "1.5", "abc", "1e3", ""} {
		if st, e := r.httpDo("GET", "/v0/join/"+tok+"?wait="+bad, "", nil); st != 400 || e["code"] != "bad_request" {
			t.Errorf("wait=%q: %d %v", bad, st, e)
		}
	}
	if st, e := r.httpDo("GET", "/v0/join/"+tok+"?wait=1&wait=2", "", nil); st != 400 || e["code"] != "bad_request" {
		t.Errorf("two waits: %d %v", st, e)
	}
	// The cap: a poll asking for a day is handed 25 s; cut short here by the client.
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.httpCtx(ctx, "GET", "/v0/join/"+tok+"?wait=86400000", "", nil)
	}()
	waitFor(t, func() bool { return slices.Contains(r.f.log(), "poll-wait 25s") })
	cancel()
	<-done
}

// TestHTTPLongPollLosesNothing: a client that drops a join poll before its seat comes loses
// nothing: the seat opens meanwhile and the next poll answers seated.
func TestHTTPLongPollLosesNothing(t *testing.T) {
	r := newRig(t, nil)
	_, q := r.httpJoin(newKey(t, 1), "coin")
	tok := q["token"].(string)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		if st, _ := r.httpCtx(ctx, "GET", "/v0/join/"+tok+"?wait=20000", "", nil); st != 0 {
			t.Errorf("the dropped poll answered %d", st)
		}
	}()
	waitFor(t, func() bool { return slices.Contains(r.f.log(), "poll-wait 20s") })
	cancel()
	<-done
	r.httpJoin(newKey(t, 2), "coin") // the table opens while nobody polls
	if st, s := r.httpDo("GET", "/v0/join/"+tok+"?wait=0", "", nil); st != 200 || s["type"] != "seated" || s["match_id"] != "m_1" {
		t.Fatalf("poll after the drop: %d %v", st, s)
	}
	if st, s := r.httpDo("GET", "/v0/join/"+tok, "", nil); st != 200 || s["type"] != "seated" {
		t.Fatalf("asked again: %d %v", st, s)
	}
}

// TestHTTPDrainEndsPolls: at shutdown (Drain closed) a long poll answers at once with what it has.
func TestHTTPDrainEndsPolls(t *testing.T) {
	drain := make(chan struct{})
	r := newRig(t, func(o *Options) { o.Drain = drain })
	_, q := r.httpJoin(newKey(t, 1), "coin")
	got := make(chan map[string]any, 1)
	go func() {
		_, m := r.httpDo("GET", "/v0/join/"+q["token"].(string)+"?wait=25000", "", nil)
		got <- m
	}()
	waitFor(t, func() bool { return slices.Contains(r.f.log(), "poll-wait 25s") })
	close(drain)
	select {
	case m := <-got:
		if m["type"] != "queued" {
			t.Fatalf("drained poll: %v", m)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the poll did not end when the server drained")
	}
}

// keysOf is m's member names, sorted, space-separated.
func keysOf(m map[string]any) string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return strings.Join(ks, " ")
}

// TestGamesList: GET /v0/games lists the games with their counts, recommends the one where
// agents wait, else the hour's in rotation, and says where to join.
func TestGamesList(t *testing.T) {
	r := newRig(t, nil)
	st, g := r.httpDo("GET", "/v0/games", "", nil)
	list, _ := g["games"].([]any)
	if st != 200 || len(list) != 2 || list[0].(map[string]any)["id"] != "coin" {
		t.Fatalf("games: %d %v", st, g)
	}
	rec := g["recommended"].(map[string]any)
	// nobody waits: the game of the hour (hours since the epoch, mod the number of games)
	if rec["reason"] != "rotation" || rec["game"] != []string{"coin", "dilemma"}[(r.clock.Now().Unix()/3600)%2] {
		t.Fatalf("recommended with nobody waiting: %v", rec)
	}
	if v, ok := g["recommended_paid"]; !ok || v != nil {
		t.Fatalf("recommended_paid %v (present %v), want null", v, ok)
	}
	if got := keysOf(g); got != "games join payments recommended recommended_paid v" {
		t.Fatalf("/v0/games members %s", got)
	}
	coin := list[0].(map[string]any)
	if got := keysOf(coin); got != "id max_players min_players name playing rules_url rules_version stakes summary tables waiting waiting_paid" {
		t.Fatalf("a game's members %s", got)
	}
	if s, _ := json.Marshal(coin["stakes"]); string(s) != "[]" || fmt.Sprint(coin["waiting_paid"]) != "map[]" || num(coin, "tables") != 0 {
		t.Fatalf("coin's paid members and tables: %v", coin)
	}
	if p, _ := json.Marshal(g["payments"]); string(p) != `{"docs_url":"http://br.test/payments","enabled":false,"rake_bps":0,"stakes":[],"tiers":[]}` {
		t.Fatalf("payments %s", p)
	}
	join := g["join"].(map[string]any)
	if join["websocket"] != "ws://br.test/v0/play" || !strings.HasSuffix(join["http"].(string), "/v0/join") {
		t.Fatalf("join %v", join)
	}
	r.httpJoin(newKey(t, 1), "coin")
	_, g = r.httpDo("GET", "/v0/games", "", nil)
	rec = g["recommended"].(map[string]any)
	if rec["reason"] != "agents_waiting" || rec["game"] != "coin" || num(rec, "waiting") != 1 {
		t.Fatalf("recommended with one waiting: %v", rec)
	}
	if c := g["games"].([]any)[0].(map[string]any); num(c, "waiting") != 1 || num(c, "min_players") != 2 {
		t.Fatalf("coin's counts: %v", c)
	}
}

// TestReplayLog: GET /r/{match_id}.jsonl is the product's public log as JSON lines; an unknown
// match is 404 unknown_match; another /r/ path is not_found.
func TestReplayLog(t *testing.T) {
	r := newRig(t, nil)
	_, qa := r.httpJoin(newKey(t, 1), "coin")
	r.httpJoin(newKey(t, 2), "coin")
	r.httpDo("POST", "/v0/matches/m_1/move", qa["token"].(string), map[string]any{"round": 1, "turn": 0, "action": "defect"})
	resp, err := http.Get(r.srv.URL + "/r/m_1.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	want := `{"seq":0,"type":"match_start","match_id":"m_1"}` + "\n" + `{"seq":1,"type":"action"}` + "\n"
	if resp.StatusCode != 200 || string(body) != want || resp.Header.Get("Content-Type") != "application/jsonl" {
		t.Fatalf("log: %d %q %q", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	if st, e := r.httpDo("GET", "/r/m_9.jsonl", "", nil); st != 404 || e["code"] != "unknown_match" {
		t.Fatalf("unknown match: %d %v", st, e)
	}
	if st, e := r.httpDo("GET", "/r/m_1", "", nil); st != 404 || e["code"] != "not_found" {
		t.Fatalf("replay page: %d %v", st, e)
	}
}
