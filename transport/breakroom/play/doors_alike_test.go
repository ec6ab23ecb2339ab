package play

import (
	"fmt"
	"strings"
	"testing"

	"arena/games/breakroom/wire"
)

// refusalCases is one table of bad inputs for both doors: each raw message is sent as a socket
// frame and as the body of its HTTP route, and must be refused with the same code and detail
// ("every door of a protocol refuses the same bytes the same way"). NONCE and SIG are a fresh
// challenge and key C's signature of it; PUB is C's key.
var refusalCases = []struct {
	name string
	kind wire.Kind // the HTTP route: join → POST /v0/join, move → POST /v0/matches/{match}/move, feedback → …/feedback
	raw  string
	code string
}{
	{"not json", wire.KindMove, `hello`, "bad_request"},
	{"array", wire.KindMove, `[1,2]`, "bad_request"},
	{"trailing data", wire.KindMove, `{"type":"move","v":0,"match_id":"m_1","round":1,"turn":0,"action":"cooperate"} 1`, "bad_request"},
	{"duplicate member", wire.KindMove, `{"type":"move","v":0,"match_id":"m_1","round":1,"round":1,"turn":0,"action":"cooperate"}`, "bad_request"},
	{"v 1", wire.KindMove, `{"type":"move","v":1,"match_id":"m_1","round":1,"turn":0,"action":"cooperate"}`, "bad_version"},
	{"round a string", wire.KindMove, `{"type":"move","v":0,"match_id":"m_1","round":"1","turn":0,"action":"cooperate"}`, "bad_request"},
	{"no turn", wire.KindMove, `{"type":"move","v":0,"match_id":"m_1","round":1,"action":"cooperate"}`, "bad_request"},
	{"over 8 KB", wire.KindMove, `{"type":"move","v":0,"match_id":"m_1","round":1,"turn":0,"action":"cooperate","message":"` + strings.Repeat("a", wire.MaxFrame) + `"}`, "too_large"},
	{"illegal action", wire.KindMove, `{"type":"move","v":0,"match_id":"m_1","round":1,"turn":0,"action":"fold"}`, "illegal_move"},
	{"no action", wire.KindMove, `{"type":"move","v":0,"match_id":"m_1","round":1,"turn":0}`, "illegal_move"},
	{"stale turn", wire.KindMove, `{"type":"move","v":0,"match_id":"m_1","round":2,"turn":0,"action":"cooperate"}`, "stale_turn"},
	{"another match", wire.KindMove, `{"type":"move","v":0,"match_id":"m_7","round":1,"turn":0,"action":"cooperate"}`, "unknown_match"},
	{"feedback too early", wire.KindFeedback, `{"type":"feedback","v":0,"match_id":"m_1","text":"hi"}`, "match_running"},
	{"feedback rating 9", wire.KindFeedback, `{"type":"feedback","v":0,"match_id":"m_1","text":"hi","rating":9}`, "bad_request"},
	{"feedback empty", wire.KindFeedback, `{"type":"feedback","v":0,"match_id":"m_1","text":""}`, "bad_request"},
	{"join unknown game", wire.KindJoin, `{"type":"join","v":0,"game":"chess","author_pubkey":"PUB","nonce":"NONCE","sig":"SIG"}`, "unknown_game"},
	{"join paid", wire.KindJoin, `{"type":"join","v":0,"game":"coin","author_pubkey":"PUB","nonce":"NONCE","sig":"SIG","stake_sats":10}`, "payments_disabled"},
	{"join bad sig", wire.KindJoin, `{"type":"join","v":0,"game":"coin","author_pubkey":"PUB","nonce":"NONCE","sig":"` + strings.Repeat("0", 128) + `"}`, "auth_failed"},
	{"join upper-case key", wire.KindJoin, `{"type":"join","v":0,"game":"coin","author_pubkey":"UPPUB","nonce":"NONCE","sig":"SIG"}`, "bad_request"},
	{"join unknown nonce", wire.KindJoin, `{"type":"join","v":0,"game":"coin","author_pubkey":"PUB","nonce":"nope","sig":"SIG"}`, "auth_failed"},
	{"join name too long", wire.KindJoin, `{"type":"join","v":0,"game":"coin","author_pubkey":"PUB","nonce":"NONCE","sig":"SIG","agent_name":"` + strings.Repeat("n", 41) + `"}`, "bad_request"},
	{"join unknown member", wire.KindJoin, `{"type":"join","v":0,"game":"coin","author_pubkey":"PUB","nonce":"NONCE","sig":"SIG","colour":"red"}`, "bad_request"},
}

// TestDoorsRefuseAlike runs refusalCases through both doors: the same code, the same detail,
// and nothing changed (the seat on turn still plays its move after every refusal).
func TestDoorsRefuseAlike(t *testing.T) {
	ka, kb, kc := newKey(t, 1), newKey(t, 2), newKey(t, 3)
	fill := func(raw, nonce string) string {
		sig := kc.sign(t, nonce)
		if strings.Contains(raw, `"nonce":"nope"`) {
			sig = kc.sign(t, "nope")
		}
		return strings.NewReplacer("UPPUB", strings.ToUpper(kc.pub), "PUB", kc.pub, "NONCE", nonce, "SIG", sig).Replace(raw)
	}
	// The socket door: a seats on a socket first (seat 0, on turn).
	rs := newRig(t, nil)
	a := rs.dial()
	a.joinAs(ka, "coin")
	a.expect("queued")
	rs.httpJoin(kb, "coin")
	a.expect("seated")
	yt := a.expect("your_turn")
	sock := map[string][2]string{}
	var sockGames string // the unknown_game error's games member
	for _, tc := range refusalCases {
		s := a
		if tc.kind == wire.KindJoin {
			s = rs.dial()
			s.sendRaw(fill(tc.raw, s.expect("challenge")["nonce"].(string)))
		} else {
			s.sendRaw(tc.raw)
		}
		e := s.expect("error")
		sock[tc.name] = [2]string{e["code"].(string), e["detail"].(string)}
		if tc.code == "unknown_game" {
			sockGames = fmt.Sprint(e["games"])
		}
	}
	playTurn(a, yt)
	a.expect("event")

	// The HTTP door: a seats over HTTP first.
	rh := newRig(t, nil)
	_, q := rh.httpJoin(ka, "coin")
	rh.httpJoin(kb, "coin")
	tok := q["token"].(string)
	for _, tc := range refusalCases {
		var st int
		var e map[string]any
		switch tc.kind {
		case wire.KindJoin:
			_, ch := rh.httpDo("GET", "/v0/challenge", "", nil)
			st, e = rh.httpDo("POST", "/v0/join", "", fill(tc.raw, ch["nonce"].(string)))
		default:
			match := "m_1"
			if strings.Contains(tc.raw, `"m_7"`) {
				match = "m_7"
			}
			st, e = rh.httpDo("POST", "/v0/matches/"+match+"/"+string(tc.kind), tok, tc.raw)
		}
		got := [2]string{e["code"].(string), e["detail"].(string)}
		if got[0] != tc.code || sock[tc.name][0] != tc.code {
			t.Errorf("%s: socket %q, HTTP %d %q; want %s", tc.name, sock[tc.name], st, got, tc.code)
			continue
		}
		if tc.code == "unknown_game" && (fmt.Sprint(e["games"]) != "[coin dilemma]" || sockGames != "[coin dilemma]") {
			t.Errorf("%s: games on the socket %s, over HTTP %v", tc.name, sockGames, e["games"])
		}
		if got[1] != sock[tc.name][1] {
			t.Errorf("%s: the detail differs:\n socket %q\n HTTP   %q", tc.name, sock[tc.name][1], got[1])
		}
		if want := map[string]int{"too_large": 413, "unknown_game": 404, "auth_failed": 401, "payments_disabled": 403,
			"unknown_match": 404, "match_running": 409}[tc.code]; want != 0 && st != want || want == 0 && st != 400 {
			t.Errorf("%s: HTTP status %d", tc.name, st)
		}
	}
	if st, ok := rh.httpDo("POST", "/v0/matches/m_1/move", tok, map[string]any{"round": 1, "turn": 0, "action": "cooperate"}); st != 200 || ok["ok"] != true {
		t.Fatalf("the turn after the refusals: %d %v", st, ok)
	}
}
