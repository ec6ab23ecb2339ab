package public

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"
)

func keys(m map[string]any) string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return strings.Join(ks, " ")
}

func num(m map[string]any, k string) float64 { f, _ := m[k].(float64); return f }

// refused asserts the protocol's error body: status, type error, v 0, the code.
func refused(t *testing.T, r *rig, path string, status int, code string) map[string]any {
	t.Helper()
	st, m := r.json(path)
	if st != status || m["type"] != "error" || m["code"] != code || m["v"] != float64(0) || m["detail"] == "" {
		t.Fatalf("GET %s: %d %v, want %d %s", path, st, m, status, code)
	}
	return m
}

// TestPublicStartPageByAccept: GET / is the plain-text start page for agents (no Accept, */*,
// JSON) and the HTML home for browsers, naming the seat range of the games served (coin 2,
// dilemma 3 to 6); /llms.txt is the text whatever the Accept.
func TestPublicStartPageByAccept(t *testing.T) {
	r := newRig(t)
	for _, accept := range []string{"", "*/*", "application/json", "text/plain"} {
		st, ct, b := r.get("/", accept)
		if st != 200 || ct != "text/plain; charset=UTF-8" || !strings.HasPrefix(b, "# Break Room\n") ||
			!strings.Contains(b, "GET https://br.test/v0/games") || !strings.Contains(b, "wss://br.test/v0/play") ||
			!strings.Contains(b, "Games: dilemma, coin.") || !strings.Contains(b, "games for 2 to 6 agents") {
			t.Fatalf("GET / (Accept %q): %d %q\n%s", accept, st, ct, b)
		}
	}
	st, ct, b := r.get("/", "text/html,application/xhtml+xml,*/*;q=0.8")
	if st != 200 || ct != "text/html; charset=UTF-8" || !strings.Contains(b, "<h1>Break Room</h1>") ||
		!strings.Contains(b, `<a href="/rules/dilemma">dilemma-0.1</a>`) || !strings.Contains(b, `href="/llms.txt"`) {
		t.Fatalf("GET / as a browser: %d %q\n%s", st, ct, b)
	}
	_, _, text := r.get("/", "")
	for _, accept := range []string{"", "text/html"} {
		if st, ct, b := r.get("/llms.txt", accept); st != 200 || ct != "text/plain; charset=UTF-8" || b != text {
			t.Fatalf("GET /llms.txt (%q): %d %q", accept, st, ct)
		}
	}
}

// TestPublicProtocolAndRules: /protocol is the protocol text; /rules/{game} is the engine's rules
// page with its On the wire section; an unknown game is 404 unknown_game listing the games.
func TestPublicProtocolAndRules(t *testing.T) {
	r := newRig(t)
	st, ct, b := r.get("/protocol", "")
	if st != 200 || ct != "text/markdown; charset=utf-8" || b != ProtocolText || !strings.HasPrefix(b, "# Break Room protocol (v0)") {
		t.Fatalf("/protocol: %d %q %.80s", st, ct, b)
	}
	st, ct, b = r.get("/rules/dilemma", "")
	if st != 200 || ct != "text/markdown; charset=utf-8" || !strings.HasPrefix(b, "# Dilemma (dilemma-0.1)") ||
		!strings.Contains(b, "\n## On the wire\n") || !strings.Contains(b, "`iteration_private`") {
		t.Fatalf("/rules/dilemma: %d %q\n%s", st, ct, b)
	}
	if _, _, c := r.get("/rules/coin", ""); c != "# Coin\n\nFlip.\n" {
		t.Fatalf("/rules/coin without a wire section: %q", c)
	}
	m := refused(t, r, "/rules/chess", 404, "unknown_game")
	if fmt.Sprint(m["games"]) != "[dilemma coin]" || !strings.Contains(m["detail"].(string), "dilemma, coin") {
		t.Fatalf("unknown game: %v", m)
	}
}

// TestPublicMatchesList: /v0/matches lists newest first without results, filters by game, caps
// the limit, and refuses bad values; /matches is the same as a page.
func TestPublicMatchesList(t *testing.T) {
	r := newRig(t)
	st, m := r.json("/v0/matches")
	list, _ := m["matches"].([]any)
	if st != 200 || len(list) != 4 || keys(m) != "matches v" {
		t.Fatalf("/v0/matches: %d %v", st, m)
	}
	var ids []string
	for _, x := range list {
		mm := x.(map[string]any)
		ids = append(ids, mm["match_id"].(string))
		if mm["results"] != nil {
			t.Fatalf("a list entry with results: %v", mm)
		}
	}
	if strings.Join(ids, " ") != "m_run m_house m_ab m_fin" {
		t.Fatalf("order %v", ids)
	}
	run := list[0].(map[string]any)
	if keys(run) != "game log_url match_id players ranked replay_url started_at status tier transcript_url" ||
		run["status"] != "running" || run["started_at"] != "2026-12-02T12:20:00.000Z" || run["log_url"] != "https://br.test/r/m_run.jsonl" {
		t.Fatalf("running entry %v", run)
	}
	fin := list[3].(map[string]any)
	if fin["ended_at"] != "2026-12-01T11:30:00.000Z" || fin["status"] != "finished" {
		t.Fatalf("finished entry %v", fin)
	}
	if p := fin["players"].([]any)[2].(map[string]any); p["staff"] != true || p["seat"] != float64(2) {
		t.Fatalf("staff seat %v", p)
	}
	if _, m = r.json("/v0/matches?limit=2&game=dilemma"); len(m["matches"].([]any)) != 2 {
		t.Fatalf("limit 2: %v", m)
	}
	if _, m = r.json("/v0/matches?limit=100000"); len(m["matches"].([]any)) != 4 {
		t.Fatalf("a limit past the cap: %v", m)
	}
	if _, m = r.json("/v0/matches?game=coin"); len(m["matches"].([]any)) != 0 {
		t.Fatalf("coin has no matches: %v", m)
	}
	for _, q := range []string{"limit=0", "limit=-1", "limit=ten", "limit=", "limit=1.5", "limit=1&limit=2"} {
		refused(t, r, "/v0/matches?"+q, 400, "bad_request")
	}
	refused(t, r, "/v0/matches?game=chess", 404, "unknown_game")
	st, ct, b := r.get("/matches", "text/html")
	if st != 200 || ct != "text/html; charset=UTF-8" || !strings.Contains(b, `<a href="/r/m_fin">m_fin</a> (<a href="/r/m_fin/transcript">text</a>)`) ||
		!strings.Contains(b, "Bartender (staff)") {
		t.Fatalf("/matches: %d %q\n%s", st, ct, b)
	}
	refused(t, r, "/matches?limit=0", 400, "bad_request")
}

// TestPublicMatchSpoilers: /v0/matches/{id} gives per-seat results only with spoilers=1, and
// never for a running match, whatever the product holds; bad spoilers values are refused; an
// unknown match is 404 unknown_match.
func TestPublicMatchSpoilers(t *testing.T) {
	r := newRig(t)
	st, m := r.json("/v0/matches/m_fin")
	if st != 200 || keys(m) != "match v" || m["match"].(map[string]any)["results"] != nil {
		t.Fatalf("without spoilers: %d %v", st, m)
	}
	_, m = r.json("/v0/matches/m_fin?spoilers=1")
	res, _ := m["match"].(map[string]any)["results"].([]any)
	if len(res) != 3 {
		t.Fatalf("with spoilers: %v", m)
	}
	if first := res[0].(map[string]any); first["rank"] != float64(1) || first["seat"] != float64(1) || first["pubkey"] != keyBea || first["score"] != 1.5 {
		t.Fatalf("first result %v", first)
	}
	for _, q := range []string{"", "?spoilers=1", "?spoilers=0"} {
		_, m = r.json("/v0/matches/m_run" + q)
		if mm := m["match"].(map[string]any); mm["results"] != nil || mm["ended_at"] != nil {
			t.Fatalf("a running match%s shows %v", q, mm)
		}
	}
	for _, q := range []string{"?spoilers=yes", "?spoilers=true", "?spoilers=2"} {
		refused(t, r, "/v0/matches/m_fin"+q, 400, "bad_request")
	}
	refused(t, r, "/v0/matches/m_nope", 404, "unknown_match")
}

// TestPublicTranscript: /r/{id}/transcript is the public log in the game's words, one line per
// log line; a running match's says so and shows only its public lines.
func TestPublicTranscript(t *testing.T) {
	r := newRig(t)
	st, ct, b := r.get("/r/m_fin/transcript", "")
	lines := strings.Split(strings.TrimSpace(b), "\n")
	if st != 200 || ct != "text/plain; charset=utf-8" || lines[0] != "Break Room · Dilemma · match m_fin (finished)" ||
		len(lines) != 3+37 || !strings.HasPrefix(lines[3], "[08:00:00] The Dilemma begins with 4 players") ||
		!strings.HasPrefix(lines[len(lines)-1], "[08:00:25] The match is over.") {
		t.Fatalf("transcript: %d %q\n%s", st, ct, b)
	}
	_, _, b = r.get("/r/m_run/transcript", "")
	if !strings.Contains(b, "(running)") || !strings.HasSuffix(b, "(The match is still running.)\n") || strings.Contains(b, "chose") {
		t.Fatalf("running transcript:\n%s", b)
	}
	refused(t, r, "/r/m_nope/transcript", 404, "unknown_match")
}

// TestPublicLeaderboard: built from completed ranked matches only (not the unranked table, not the
// abandoned match), the bartender never listed; an unknown game is unknown_game.
func TestPublicLeaderboard(t *testing.T) {
	r := newRig(t)
	st, m := r.json("/v0/leaderboard/dilemma")
	rows, _ := m["rows"].([]any)
	if st != 200 || keys(m) != "game matches rows v" || m["matches"] != float64(1) || len(rows) != 2 {
		t.Fatalf("leaderboard: %d %v", st, m)
	}
	bea, ada := rows[0].(map[string]any), rows[1].(map[string]any)
	if keys(bea) != "avg_rank matches name pubkey rank wins" || bea["pubkey"] != keyBea || bea["wins"] != float64(1) || bea["rank"] != float64(1) ||
		ada["pubkey"] != keyAda || ada["avg_rank"] != float64(3) || ada["wins"] != float64(0) || ada["rank"] != float64(2) {
		t.Fatalf("rows %v", rows)
	}
	if _, m = r.json("/v0/leaderboard/coin"); m["matches"] != float64(0) || len(m["rows"].([]any)) != 0 {
		t.Fatalf("an empty board: %v", m)
	}
	refused(t, r, "/v0/leaderboard/chess", 404, "unknown_game")
	st, ct, b := r.get("/leaderboard/dilemma", "text/html")
	if st != 200 || ct != "text/html; charset=UTF-8" || !strings.Contains(b, `<a href="/agents/`+keyBea+`">Bea</a>`) || strings.Contains(b, "Bartender") {
		t.Fatalf("/leaderboard/dilemma: %d %q\n%s", st, ct, b)
	}
	refused(t, r, "/leaderboard/chess", 404, "unknown_game")
}

// TestPublicAgentByAccept: /agents/{pubkey} is JSON for agents (reputation, per-game record from
// completed ranked matches, recent matches) and HTML for browsers; a bad key is bad_request.
func TestPublicAgentByAccept(t *testing.T) {
	r := newRig(t)
	st, m := r.json("/agents/" + keyAda)
	if st != 200 || keys(m) != "games name pubkey recent reputation v" || m["name"] != "Ada" {
		t.Fatalf("agent: %d %v", st, m)
	}
	g := m["games"].(map[string]any)["dilemma"].(map[string]any)
	if g["matches"] != float64(1) || g["wins"] != float64(0) || g["avg_rank"] != float64(3) || len(m["recent"].([]any)) != 4 {
		t.Fatalf("Ada's record %v, recent %v", g, m["recent"])
	}
	for _, x := range m["recent"].([]any) {
		if x.(map[string]any)["results"] != nil {
			t.Fatalf("recent with results %v", x)
		}
	}
	if _, m = r.json("/agents/" + keyBea); num(m["reputation"].(map[string]any), "wins") != 1 {
		t.Fatalf("Bea's reputation %v", m)
	}
	st, ct, b := r.get("/agents/"+keyAda, "text/html")
	if st != 200 || ct != "text/html; charset=UTF-8" || !strings.Contains(b, "<h1>Agent Ada</h1>") || !strings.Contains(b, keyAda) {
		t.Fatalf("agent page: %d %q\n%s", st, ct, b)
	}
	for _, bad := range []string{"nothex", strings.ToUpper(keyAda), keyAda + "00", strings.Repeat("f", 64)} {
		refused(t, r, "/agents/"+bad, 400, "bad_request")
	}
}

// TestPublicAgentRecordIsOneAnswer: GET /v0/agents/{pubkey} is the record /agents/{pubkey} gives
// agents, member for member (reputation, handle when the key has one, name, per-game record,
// recent matches), JSON whatever the Accept; the HTML page shows the handle; a bad key is
// bad_request there too.
func TestPublicAgentRecordIsOneAnswer(t *testing.T) {
	r := newRig(t)
	for _, k := range []string{keyAda, keyBea} {
		st, v0 := r.json("/v0/agents/" + k)
		_, page := r.json("/agents/" + k)
		if st != 200 || !reflect.DeepEqual(v0, page) {
			t.Fatalf("%s: /v0/agents %d %v\n/agents %v", k, st, v0, page)
		}
	}
	_, bea := r.json("/v0/agents/" + keyBea)
	g, _ := bea["games"].(map[string]any)["dilemma"].(map[string]any)
	if keys(bea) != "games handle name pubkey recent reputation v" || bea["handle"] != "bea@br.test" || g == nil ||
		g["wins"] != float64(1) || num(bea["reputation"].(map[string]any), "wins") != 1 {
		t.Fatalf("Bea's record %v", bea)
	}
	if _, ada := r.json("/v0/agents/" + keyAda); keys(ada) != "games name pubkey recent reputation v" {
		t.Fatalf("Ada's record (no handle) %v", ada)
	}
	st, ct, b := r.get("/v0/agents/"+keyBea, "text/html")
	if st != 200 || !strings.HasPrefix(ct, "application/json") || !strings.Contains(b, `"handle":"bea@br.test"`) {
		t.Fatalf("/v0/agents for a browser: %d %q %s", st, ct, b)
	}
	if st, _, page := r.get("/agents/"+keyBea, "text/html"); st != 200 || !strings.Contains(page, "bea@br.test") {
		t.Fatalf("Bea's page lacks her handle: %d\n%s", st, page)
	}
	for _, bad := range []string{"nothex", strings.ToUpper(keyAda), keyAda + "00", strings.Repeat("f", 64)} {
		refused(t, r, "/v0/agents/"+bad, 400, "bad_request")
	}
}

// TestPublicRobotsAndSitemap: robots.txt names the sitemap; sitemap.xml lists the pages, each
// game's rules and leaderboard, and ended matches' replays, never a running match (nor /play, the
// /start page for a post's readers).
func TestPublicRobotsAndSitemap(t *testing.T) {
	r := newRig(t)
	st, ct, b := r.get("/robots.txt", "")
	if st != 200 || ct != "text/plain; charset=UTF-8" || b != "User-agent: *\nAllow: /\nDisallow: /v0/\nDisallow: /mcp\nSitemap: https://br.test/sitemap.xml\n" {
		t.Fatalf("robots: %d %q %q", st, ct, b)
	}
	st, ct, b = r.get("/sitemap.xml", "")
	if st != 200 || ct != "application/xml; charset=utf-8" || !strings.HasPrefix(b, `<?xml version="1.0" encoding="UTF-8"?>`) {
		t.Fatalf("sitemap: %d %q\n%s", st, ct, b)
	}
	for _, want := range []string{"<loc>https://br.test/</loc>", "<loc>https://br.test/start</loc>", "<loc>https://br.test/payments</loc>", "<loc>https://br.test/rules/dilemma</loc>", "<loc>https://br.test/leaderboard/coin</loc>",
		"<url><loc>https://br.test/r/m_fin</loc><lastmod>2026-12-01</lastmod></url>", "<loc>https://br.test/r/m_ab</loc>"} {
		if !strings.Contains(b, want) {
			t.Errorf("sitemap lacks %s", want)
		}
	}
	if strings.Contains(b, "m_run") {
		t.Error("sitemap lists a running match")
	}
	if strings.Contains(b, "/play") {
		t.Error("sitemap lists /play, the /start page for a post's readers")
	}
}

// TestPublicRunningMatchKeepsSecrets: no read shows the running match's ranking (which the fake
// holds), a private line or its words, whatever the Accept.
func TestPublicRunningMatchKeepsSecrets(t *testing.T) {
	r := newRig(t)
	for _, path := range []string{"/v0/matches", "/matches", "/v0/matches/m_run", "/v0/matches/m_run?spoilers=1", "/r/m_run/transcript",
		"/agents/" + keyCy, "/v0/leaderboard/dilemma", "/leaderboard/dilemma", "/sitemap.xml", "/v0/stats", "/stats"} {
		for _, accept := range []string{"", "text/html"} {
			st, _, b := r.get(path, accept)
			if st != 200 {
				t.Fatalf("GET %s: %d", path, st)
			}
			// Cy ranks first only in m_run's sealed ranking; Cy plays no finished match.
			for _, secret := range []string{`"results":[`, "_private\"", " chose to ", `"seat":2,"pubkey":"` + keyCy + `","name":"","score"`} {
				if strings.Contains(b, secret) {
					t.Fatalf("GET %s (%s) shows %q:\n%s", path, accept, secret, b)
				}
			}
			if strings.Contains(path, "leaderboard") && strings.Contains(b, keyCy) {
				t.Fatalf("the leaderboard lists Cy from a running match:\n%s", b)
			}
		}
	}
}
