package site

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"arena/games"
	"arena/transport/dotdotdot/desk"
)

func prompt(turn int, phase string, exchange int) games.Prompt {
	return games.Prompt{Seat: 1, Move: games.Move{Turn: turn, Phase: phase, Exchange: exchange}}
}

// envelope is a signed-envelope-shaped byte string with irregular spacing, so byte-for-byte
// delivery is observable.
func envelope(round string, turn int, phase string, exchange int) []byte {
	s := `{ "v": 1,  "round": "` + round + `", "turn": ` + itoa(turn) + `, "phase": "` + phase + `"`
	if exchange > 0 {
		s += `, "exchange": ` + itoa(exchange)
	}
	return []byte(s + `, "seat": 1, "deadline": "2026-11-30T05:00:00.000Z", "state": {}, "inbox": [], "sig": "ed25519:` + strings.Repeat("ab", 64) + `" }`)
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestRegister(t *testing.T) {
	en := newEnv(t, desk.Options{})
	r := en.do("POST", "/v1/walkin", `{"name":"Ada","model":"claude"}`)
	if r.status != http.StatusCreated || r.body["name"] != "Ada" || !strings.HasPrefix(r.body["token"].(string), "w_") {
		t.Fatalf("register: %d %s", r.status, r.raw)
	}
	if r.header.Get("Cache-Control") != "no-store" {
		t.Errorf("token answered without Cache-Control: no-store")
	}
}

func TestRegisterNameRequired(t *testing.T) {
	en := newEnv(t, desk.Options{})
	refused(t, en.do("POST", "/v1/walkin", `{"model":"x"}`), 400, "bad_request")
	en.unchanged(0)
}

func TestJoinPractice(t *testing.T) {
	en := newEnv(t, desk.Options{})
	tok := en.register("Ada")
	r := en.do("POST", "/v1/walkin/join", `{"table":"practice","mole":2,"pace":"agent","format":"short"}`, "X-Walkin", tok)
	if r.status != 200 || r.body["round"] == "" || r.body["pace"] != "agent" || r.body["seat"] != float64(1) {
		t.Fatalf("join: %d %s", r.status, r.raw)
	}
}

func TestJoinNotYetCarriesCount(t *testing.T) {
	en := newEnv(t, desk.Options{})
	tok := en.register("Ada")
	before := en.desk.Changes()
	r := en.do("POST", "/v1/walkin/join", `{"table":"walkin"}`, "X-Walkin", tok)
	refused(t, r, 409, "not_yet")
	if r.body["practice"] != float64(0) || r.body["needed"] != float64(3) || r.body["retry"] != false {
		t.Fatalf("not_yet body %s", r.raw)
	}
	en.unchanged(before)
}

func TestJoinInARound(t *testing.T) {
	en := newEnv(t, desk.Options{})
	tok, _ := en.joined("Ada")
	before := en.desk.Changes()
	refused(t, en.do("POST", "/v1/walkin/join", `{"table":"practice"}`, "X-Walkin", tok), 409, "in_a_round")
	en.unchanged(before)
}

func TestJoinTableRequired(t *testing.T) {
	en := newEnv(t, desk.Options{})
	tok := en.register("Ada")
	refused(t, en.do("POST", "/v1/walkin/join", `{"pace":"chat"}`, "X-Walkin", tok), 400, "bad_request")
}

func TestNextWaiting(t *testing.T) {
	en := newEnv(t, desk.Options{})
	tok, round := en.joined("Ada")
	r := en.do("GET", "/v1/walkin/next?wait=0", "", "X-Walkin", tok)
	if r.status != 200 || r.body["waiting"] != true || r.body["round"] != round || r.body["status"] != "scouting" {
		t.Fatalf("waiting: %d %s", r.status, r.raw)
	}
	if _, ok := r.body["brief"]; ok {
		t.Errorf("brief without format=brief: %s", r.raw)
	}
	r = en.do("GET", "/v1/walkin/next?wait=0&format=brief", "", "X-Walkin", tok)
	if r.body["waiting"] != true || r.body["brief"] == "" || r.body["brief"] == nil {
		t.Fatalf("waiting brief: %s", r.raw)
	}
}

func TestNextEnvelopeByteForByte(t *testing.T) {
	en := newEnv(t, desk.Options{})
	tok, round := en.joined("Ada")
	env := envelope(round, 1, "talk", 2)
	en.desk.Issue(tok, env, prompt(1, "talk", 2))
	for i := range 3 { // a poll never consumes: the same bytes every time
		r := en.do("GET", "/v1/walkin/next?wait=1", "", "X-Walkin", tok)
		if r.status != 200 || string(r.raw) != string(env) {
			t.Fatalf("poll %d: %d %q, want the envelope byte for byte", i, r.status, r.raw)
		}
	}
}

func TestNextBrief(t *testing.T) {
	en := newEnv(t, desk.Options{})
	tok, round := en.joined("Ada")
	en.desk.Issue(tok, envelope(round, 2, "talk", 3), prompt(2, "talk", 3))
	r := en.do("GET", "/v1/walkin/next?wait=1&format=brief", "", "X-Walkin", tok)
	want := map[string]any{"round": round, "turn": float64(2), "phase": "talk", "exchange": float64(3),
		"deadline": "2026-11-30T05:00:00.000Z", "brief": "You are seat 1. Say something."}
	for k, v := range want {
		if r.body[k] != v {
			t.Errorf("%s = %v, want %v (body %s)", k, r.body[k], v, r.raw)
		}
	}
	// The fake's answer names only the round: the door fills in the rest of the echo.
	if a, ok := r.body["answer"].(map[string]any); !ok || a["round"] != round || a["turn"] != float64(2) ||
		a["phase"] != "talk" || a["exchange"] != float64(3) {
		t.Errorf("answer = %v, want the full echo", r.body["answer"])
	}
	if _, ok := r.body["sig"]; ok {
		t.Errorf("brief carries the envelope's sig")
	}
	// The commit phase has no exchange member.
	en.desk.Issue(tok, envelope(round, 2, "commit", 0), prompt(2, "commit", 0))
	r = en.do("GET", "/v1/walkin/next?wait=1&format=brief", "", "X-Walkin", tok)
	if _, ok := r.body["exchange"]; ok || r.body["phase"] != "commit" {
		t.Errorf("commit brief: %s", r.raw)
	}
}

func TestNextLongPollWakesOnMove(t *testing.T) {
	en := newEnv(t, desk.Options{})
	tok, round := en.joined("Ada")
	env := envelope(round, 1, "commit", 0)
	go func() { // the move comes while the poll is held
		if err := en.desk.WaitHeld(t.Context(), tok, 1); err == nil {
			en.desk.Issue(tok, env, prompt(1, "commit", 0))
		}
	}()
	start := time.Now()
	r := en.do("GET", "/v1/walkin/next?wait=10", "", "X-Walkin", tok)
	if string(r.raw) != string(env) {
		t.Fatalf("long poll: %d %s", r.status, r.raw)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("long poll answered after %v, not when the move came", d)
	}
}

func TestNextWaitIsCapped(t *testing.T) {
	en := newEnv(t, desk.Options{LongPoll: 200 * time.Millisecond})
	tok, _ := en.joined("Ada")
	start := time.Now()
	r := en.do("GET", "/v1/walkin/next?wait=9223372036854775807", "", "X-Walkin", tok)
	if r.status != 200 || r.body["waiting"] != true {
		t.Fatalf("capped wait: %d %s", r.status, r.raw)
	}
	if d := time.Since(start); d > 3*time.Second || d < 150*time.Millisecond {
		t.Fatalf("wait=MaxInt64 held %v; want the cap, 200ms", d)
	}
}

func TestNextAfterTheRound(t *testing.T) {
	en := newEnv(t, desk.Options{})
	tok, round := en.joined("Ada")
	en.desk.End(tok, games.Result{Standings: []games.Standing{{Seat: 1, Rank: 1}, {Seat: 2, Rank: 2}}, SeedHash: "sha256:00"})
	r := en.do("GET", "/v1/walkin/next?wait=0&format=brief", "", "X-Walkin", tok)
	res, _ := r.body["result"].(map[string]any)
	if r.status != 200 || r.body["round"] != round || r.body["status"] != "revealed" || res == nil || res["seed_hash"] != "sha256:00" {
		t.Fatalf("ended: %d %s", r.status, r.raw)
	}
	if b, _ := r.body["brief"].(string); b == "" {
		t.Errorf("the end of the round carries no brief: %s", r.raw)
	}
}

func TestNextBadQuery(t *testing.T) {
	en := newEnv(t, desk.Options{})
	tok, _ := en.joined("Ada")
	for _, q := range []string{"wait=abc", "wait=-1", "wait=1.5", "wait=", "format=xml", "wiat=3"} {
		t.Run(q, func(t *testing.T) {
			refused(t, en.do("GET", "/v1/walkin/next?"+q, "", "X-Walkin", tok), 400, "bad_request")
			if en.desk.Polls(tok) != 0 {
				t.Fatal("a refused poll reached the desk")
			}
		})
	}
}

func TestAnswer(t *testing.T) {
	en := newEnv(t, desk.Options{})
	tok, round := en.joined("Ada")
	en.desk.Issue(tok, envelope(round, 1, "talk", 1), prompt(1, "talk", 1))
	before := en.desk.Changes()
	r := en.do("POST", "/v1/walkin/answer", `{"round":"`+round+`","turn":1,"phase":"talk","exchange":1,"messages":[]}`, "X-Walkin", tok)
	if r.status != 200 || string(r.raw) != `{"dropped":[]}` {
		t.Fatalf("answer: %d %s", r.status, r.raw)
	}
	if en.desk.Changes() != before+1 {
		t.Fatal("answer not applied")
	}
	// The same answer again: the move is no longer waiting.
	refused(t, en.do("POST", "/v1/walkin/answer", `{"round":"`+round+`","turn":1,"phase":"talk","exchange":1}`, "X-Walkin", tok), 409, "stale")
	en.unchanged(before + 1)
}

func TestAnswerForAnotherMoveIsStale(t *testing.T) {
	en := newEnv(t, desk.Options{})
	tok, round := en.joined("Ada")
	en.desk.Issue(tok, envelope(round, 2, "commit", 0), prompt(2, "commit", 0))
	before := en.desk.Changes()
	for _, body := range []string{
		`{"round":"` + round + `","turn":1,"phase":"commit"}`,
		`{"round":"` + round + `","turn":2,"phase":"talk","exchange":1}`,
		`{"round":"T-999999","turn":2,"phase":"commit"}`,
	} {
		refused(t, en.do("POST", "/v1/walkin/answer", body, "X-Walkin", tok), 409, "stale")
	}
	en.unchanged(before)
}

func TestAnswerNoMoveWaiting(t *testing.T) {
	en := newEnv(t, desk.Options{})
	tok, round := en.joined("Ada")
	refused(t, en.do("POST", "/v1/walkin/answer", `{"round":"`+round+`","turn":1,"phase":"talk","exchange":1}`, "X-Walkin", tok), 409, "stale")
}

func TestAnswerEchoRefusals(t *testing.T) {
	en := newEnv(t, desk.Options{})
	tok, round := en.joined("Ada")
	en.desk.Issue(tok, envelope(round, 1, "talk", 1), prompt(1, "talk", 1))
	before := en.desk.Changes()
	cases := map[string]string{
		"no round":          `{"turn":1,"phase":"talk","exchange":1}`,
		"round not T-n":     `{"round":"X-1","turn":1,"phase":"talk"}`,
		"turn as string":    `{"round":"` + round + `","turn":"1","phase":"talk"}`,
		"turn fractional":   `{"round":"` + round + `","turn":1.5,"phase":"talk"}`,
		"negative turn":     `{"round":"` + round + `","turn":-1,"phase":"talk"}`,
		"phase null":        `{"round":"` + round + `","turn":1,"phase":null}`,
		"phase empty":       `{"round":"` + round + `","turn":1,"phase":""}`,
		"exchange zero":     `{"round":"` + round + `","turn":1,"phase":"talk","exchange":0}`,
		"duplicate turn":    `{"round":"` + round + `","turn":1,"turn":2,"phase":"talk"}`,
		"folded twin":       `{"round":"` + round + `","turn":1,"Turn":2,"phase":"talk"}`,
		"array":             `[{"round":"` + round + `"}]`,
		"trailing":          `{"round":"` + round + `","turn":1,"phase":"talk","exchange":1}{}`,
		"unsafe integer":    `{"round":"` + round + `","turn":1,"phase":"talk","exchange":1,"amount":9007199254740993}`,
		"invalid utf-8":     "{\"round\":\"" + round + "\",\"turn\":1,\"phase\":\"t\xffk\"}",
		"string not object": `"answer"`,
		"null":              `null`,
	}
	for name, body := range cases {
		t.Run(name, func(t *testing.T) {
			refused(t, en.do("POST", "/v1/walkin/answer", body, "X-Walkin", tok), 400, "bad_request")
			en.unchanged(before)
		})
	}
}

func TestMeBoardAndName(t *testing.T) {
	en := newEnv(t, desk.Options{})
	tok := en.register("Ada")
	if r := en.do("GET", "/v1/walkin/me", "", "X-Walkin", tok); r.status != 200 || r.body["name"] != "Ada" {
		t.Fatalf("me: %d %s", r.status, r.raw)
	}
	refused(t, en.do("GET", "/v1/walkin/me", ""), 401, "no_token")
	if r := en.do("GET", "/v1/walkin/board", ""); r.status != 200 || r.body["week"] != "2026-W48" {
		t.Fatalf("board: %d %s", r.status, r.raw)
	}
	if r := en.do("GET", "/v1/walkin/name/Ada", ""); r.status != 200 || r.body["name"] != "Ada" {
		t.Fatalf("name: %d %s", r.status, r.raw)
	}
	refused(t, en.do("GET", "/v1/walkin/name/Bob", ""), 404, "unknown_name")
	for name, path := range map[string]string{"a/b c%": "a%2Fb%20c%25", "100%": "100%25", "Zoë": "Zo%C3%AB"} {
		en.register(name)
		if r := en.do("GET", "/v1/walkin/name/"+path, ""); r.status != 200 || r.body["name"] != name {
			t.Errorf("page of %q at %s: %d %s", name, path, r.status, r.raw)
		}
	}
}

func TestRegisterRefusesATokenShapedName(t *testing.T) {
	en := newEnv(t, desk.Options{})
	refused(t, en.do("POST", "/v1/walkin", `{"name":"w_0123456789abcdefgh"}`), 400, "bad_request")
	en.unchanged(0)
}

func TestLevers(t *testing.T) {
	en := newEnv(t, desk.Options{})
	tok, round := en.joined("Ada")
	if r := en.do("POST", "/v1/rounds/"+round+"/call", `{"text":"seat 3 is lying"}`, "X-Walkin", tok); r.status != 200 {
		t.Fatalf("call: %d %s", r.status, r.raw)
	}
	if r := en.do("POST", "/v1/rounds/"+round+"/accuse", `{"seat":3}`, "X-Walkin", tok); r.status != 200 {
		t.Fatalf("accuse: %d %s", r.status, r.raw)
	}
	r := en.do("POST", "/v1/rounds/"+round+"/veto", `{"pending_id":"sha256:00"}`, "X-Walkin", tok)
	refused(t, r, 409, "not_now")
	if r.body["retry"] != true {
		t.Errorf("not_now inside a round must say retry: true: %s", r.raw)
	}
	got := en.desk.Levers()
	want := []string{"call " + round + ` {"text":"seat 3 is lying"}`, "accuse " + round + ` {"seat":3}`}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("levers %q, want %q", got, want)
	}
}

func TestLeverRefusals(t *testing.T) {
	en := newEnv(t, desk.Options{})
	tok, round := en.joined("Ada")
	other, _ := en.joined("Bob")
	before := en.desk.Changes()
	t.Run("foreign token", func(t *testing.T) {
		refused(t, en.do("POST", "/v1/rounds/"+round+"/call", `{"text":"hi"}`, "X-Walkin", other), 403, "not_seated")
	})
	t.Run("round in the body does not override the path", func(t *testing.T) {
		refused(t, en.do("POST", "/v1/rounds/T-1/call", `{"text":"hi","round":"`+round+`"}`, "X-Walkin", tok), 400, "bad_request")
	})
	t.Run("malformed round", func(t *testing.T) {
		refused(t, en.do("POST", "/v1/rounds/round-1/call", `{"text":"hi"}`, "X-Walkin", tok), 400, "bad_request")
	})
	t.Run("accuse seat as string", func(t *testing.T) {
		refused(t, en.do("POST", "/v1/rounds/"+round+"/accuse", `{"seat":"3"}`, "X-Walkin", tok), 400, "bad_request")
	})
	t.Run("accuse seat zero", func(t *testing.T) {
		refused(t, en.do("POST", "/v1/rounds/"+round+"/accuse", `{"seat":0}`, "X-Walkin", tok), 400, "bad_request")
	})
	t.Run("veto without id", func(t *testing.T) {
		refused(t, en.do("POST", "/v1/rounds/"+round+"/veto", `{}`, "X-Walkin", tok), 400, "bad_request")
	})
	t.Run("veto with both id and ref", func(t *testing.T) {
		refused(t, en.do("POST", "/v1/rounds/"+round+"/veto", `{"pending_id":"sha256:00","ref":"a"}`, "X-Walkin", tok), 400, "bad_request")
	})
	t.Run("no token", func(t *testing.T) {
		refused(t, en.do("POST", "/v1/rounds/"+round+"/call", `{"text":"hi"}`), 401, "no_token")
	})
	en.unchanged(before)
	if len(en.desk.Levers()) != 0 {
		t.Fatal("a refused lever was applied")
	}
}

func TestTranscript(t *testing.T) {
	en := newEnv(t, desk.Options{})
	evs := []games.Event{{Seq: 1, Round: "T-5", Type: "round.created", Visibility: "public", Payload: json.RawMessage(`{}`)},
		{Seq: 2, Round: "T-5", Type: "message.private", Visibility: "sealed", Payload: json.RawMessage(`{"text":"psst"}`)}}
	en.desk.SetTranscript("T-5", evs, false)
	refused(t, en.do("GET", "/v1/rounds/T-5/transcript", ""), 409, "not_revealed")
	refused(t, en.do("GET", "/v1/rounds/T-6/transcript", ""), 404, "unknown_round")
	en.desk.SetTranscript("T-5", evs, true)
	r := en.do("GET", "/v1/rounds/T-5/transcript", "")
	var got struct {
		Round  string        `json:"round"`
		Events []games.Event `json:"events"`
	}
	if err := json.Unmarshal(r.raw, &got); err != nil || r.status != 200 {
		t.Fatalf("transcript: %d %s", r.status, r.raw)
	}
	if got.Round != "T-5" || len(got.Events) != 2 || string(got.Events[1].Payload) != `{"text":"psst"}` {
		t.Fatalf("transcript %s", r.raw)
	}
}

func TestWellKnown(t *testing.T) {
	en := newEnv(t, desk.Options{})
	for _, p := range []string{"/.well-known/agent.json", "/.well-known/agent-card.json"} {
		r := en.do("GET", p, "")
		want := "ed25519:" + hex.EncodeToString(en.key.Public().(ed25519.PublicKey))
		if r.status != 200 || r.body["signing_key"] != want || r.body["agent"] != "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:abc" ||
			r.body["name"] != "arena-test" || r.body["kind"] != "arena" || r.body["v"] != float64(1) {
			t.Fatalf("%s: %d %s", p, r.status, r.raw)
		}
	}
}

func TestHealthz(t *testing.T) {
	en := newEnv(t, desk.Options{})
	if r := en.do("GET", "/healthz", ""); r.status != 200 || r.body["status"] != "ok" {
		t.Fatalf("healthz: %d %s", r.status, r.raw)
	}
	en.health = games.Errorf("x", "database closed")
	if r := en.do("GET", "/healthz", ""); r.status != 503 || r.body["status"] != "unavailable" {
		t.Fatalf("unhealthy: %d %s", r.status, r.raw)
	}
}

func TestMetrics(t *testing.T) {
	en := newEnv(t, desk.Options{})
	en.do("GET", "/healthz", "")
	en.do("GET", "/v1/no/such/route/"+strings.Repeat("x", 10), "")
	r := en.do("GET", "/metrics", "")
	if r.status != 200 || !strings.Contains(string(r.raw), `arena_http_requests_total{code="200",route="/healthz"} 1`) {
		t.Fatalf("metrics: %d %s", r.status, r.raw)
	}
	if strings.Contains(string(r.raw), "xxxxxxxxxx") {
		t.Fatalf("an unrouted path became a metric label: %s", r.raw)
	}
}

func TestOps(t *testing.T) {
	en := newEnv(t, desk.Options{})
	auth := []string{"Authorization", "Bearer " + opToken}
	refused(t, en.do("GET", "/ops/tables", ""), 401, "unauthorized")
	refused(t, en.do("GET", "/ops/tables", "", "Authorization", "Bearer wrong-token-000000000"), 403, "forbidden")
	refused(t, en.do("GET", "/ops/tables", "", "Authorization", "Basic "+opToken), 401, "unauthorized")
	r := en.do("GET", "/ops/tables", "", auth...)
	tables, _ := r.body["tables"].([]any)
	if r.status != 200 || len(tables) != 1 || tables[0].(map[string]any)["id"] != "tbl-1" || tables[0].(map[string]any)["status"] != "live" {
		t.Fatalf("ops tables: %d %s", r.status, r.raw)
	}
	if r := en.do("POST", "/ops/tables/tbl-1/restart", "", auth...); r.status != 200 || r.body["status"] != "restarted" {
		t.Fatalf("restart: %d %s", r.status, r.raw)
	}
	if r := en.do("POST", "/ops/tables/tbl-1/stop", "", auth...); r.status != 200 || r.body["status"] != "stopped" {
		t.Fatalf("stop: %d %s", r.status, r.raw)
	}
	refused(t, en.do("POST", "/ops/tables/tbl-2/restart", "", auth...), 404, "unknown_table")
	refused(t, en.do("POST", "/ops/tables/tbl-1/restart", ""), 401, "unauthorized")
	refused(t, en.do("POST", "/ops/tables/%20bad/stop", "", auth...), 400, "bad_request")
	if len(en.ops.restarted) != 1 || len(en.ops.stopped) != 1 {
		t.Fatalf("restarted %v stopped %v", en.ops.restarted, en.ops.stopped)
	}
}

func TestUnknownRouteAndMethod(t *testing.T) {
	en := newEnv(t, desk.Options{})
	refused(t, en.do("GET", "/v1/nothing", ""), 404, "not_found")
	refused(t, en.do("DELETE", "/v1/walkin", ""), 405, "method_not_allowed")
}

func TestDeskFailureIsInternalAndSilent(t *testing.T) {
	en := newEnv(t, desk.Options{})
	en.desk.Err = errString("bbolt: database not open at /secret/path")
	r := en.do("GET", "/v1/walkin/board", "")
	refused(t, r, 500, "internal")
	if strings.Contains(string(r.raw), "secret") {
		t.Fatalf("an internal error leaked its text: %s", r.raw)
	}
}

type errString string

func (e errString) Error() string { return string(e) }

// A drain (the server shutting down) ends a long poll at once with a waiting answer.
func TestNextDrain(t *testing.T) {
	drain := make(chan struct{})
	en := newEnv(t, desk.Options{Drain: drain})
	tok, _ := en.joined("Ada")
	go func() { // the drain comes while the poll is held
		if err := en.desk.WaitHeld(t.Context(), tok, 1); err == nil {
			close(drain)
		}
	}()
	start := time.Now()
	r := en.do("GET", "/v1/walkin/next?wait=30&format=brief", "", "X-Walkin", tok)
	if r.status != 200 || r.body["waiting"] != true || r.body["status"] != "draining" || r.body["brief"] == nil {
		t.Fatalf("drained poll: %d %s", r.status, r.raw)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("drained poll held %v", d)
	}
}

// One token may hold a few long polls at once, not an unbounded number.
func TestNextPollsPerToken(t *testing.T) {
	en := newEnv(t, desk.Options{PollsPerToken: 2})
	tok, round := en.joined("Ada")
	done := make(chan reply, 2)
	for range 2 {
		go func() { done <- en.poll("/v1/walkin/next?wait=30", tok) }()
	}
	// Both polls held, each in the desk's NextMove (so past the door's count), before the one
	// too many is sent: a probe sent sooner would take a place itself and turn a long poll away.
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	if err := en.desk.WaitHeld(ctx, tok, 2); err != nil {
		t.Fatalf("%d of 2 long polls held: %v", en.desk.Held(tok), err)
	}
	r := en.do("GET", "/v1/walkin/next?wait=0", "", "X-Walkin", tok)
	refused(t, r, 429, "too_many_polls")
	if r.body["retry"] != true {
		t.Errorf("too_many_polls must say retry: %s", r.raw)
	}
	env := envelope(round, 1, "talk", 1)
	en.desk.Issue(tok, env, prompt(1, "talk", 1))
	for range 2 {
		if got := <-done; string(got.raw) != string(env) {
			t.Fatalf("held poll answered %d %s", got.status, got.raw)
		}
	}
	// Released: a new poll is served again.
	if r := en.do("GET", "/v1/walkin/next?wait=0", "", "X-Walkin", tok); string(r.raw) != string(env) {
		t.Fatalf("poll after release: %d %s", r.status, r.raw)
	}
}
