package public

import (
	"strings"
	"testing"
	"time"
)

// TestPublicStatsCountsAndDays: /v0/stats?days=N has every day of the range, oldest first, with
// the ways in the reads counted, the joins per transport and the day's distinct agents (a key
// counted once however often it joins), and matches from the product's list; days outside
// 1…365, or not a number, are bad_request; /stats is the page.
func TestPublicStatsCountsAndDays(t *testing.T) {
	r := newRig(t)
	r.get("/", "")
	r.get("/", "text/html")
	r.get("/llms.txt", "")
	r.get("/protocol", "")
	r.get("/rules/dilemma", "")
	r.get("/rules/chess", "") // refused: not counted
	r.stats.Join("ws", keyAda)
	r.stats.Join("http", keyAda)
	r.stats.Join("http", keyBea)
	r.stats.Count(CounterMCPCall)
	st, m := r.json("/v0/stats?days=2")
	if st != 200 || keys(m) != "days from series to v" || m["from"] != "2026-12-01" || m["to"] != "2026-12-02" || m["days"] != float64(2) {
		t.Fatalf("stats: %d %v", st, m)
	}
	series := m["series"].([]any)
	yday, today := series[0].(map[string]any), series[1].(map[string]any)
	if yday["day"] != "2026-12-01" || today["day"] != "2026-12-02" ||
		keys(today) != "day distinct_agents joins matches mcp_tool_calls ways_in" {
		t.Fatalf("series %v", series)
	}
	w := today["ways_in"].(map[string]any)
	if w["start_text"] != float64(1) || w["home_html"] != float64(1) || w["llms_txt"] != float64(1) || w["protocol"] != float64(1) ||
		w["rules"] != float64(1) || w["total"] != float64(5) {
		t.Fatalf("ways in %v", w)
	}
	j := today["joins"].(map[string]any)
	if j["ws"] != float64(1) || j["http"] != float64(2) || j["mcp"] != float64(0) || today["distinct_agents"] != float64(2) ||
		today["mcp_tool_calls"] != float64(1) {
		t.Fatalf("joins %v, day %v", j, today)
	}
	// m_run, m_house and m_ab started today (m_house and m_ab ended today); m_fin yesterday.
	if mt, my := today["matches"].(map[string]any), yday["matches"].(map[string]any); mt["started"] != float64(3) ||
		mt["finished"] != float64(1) || mt["abandoned"] != float64(1) || my["started"] != float64(1) || my["finished"] != float64(1) {
		t.Fatalf("matches today %v, yesterday %v", mt, my)
	}
	if _, m = r.json("/v0/stats"); m["days"] != float64(30) || len(m["series"].([]any)) != 30 || m["from"] != "2026-11-03" {
		t.Fatalf("default days: %v %v", m["days"], m["from"])
	}
	if _, m = r.json("/v0/stats?days=365"); len(m["series"].([]any)) != 365 {
		t.Fatal("365 days")
	}
	for _, q := range []string{"days=0", "days=366", "days=-1", "days=x", "days=", "days=1e3", "days=1&days=2"} {
		refused(t, r, "/v0/stats?"+q, 400, "bad_request")
	}
	refused(t, r, "/stats?days=0", 400, "bad_request")
	st, ct, b := r.get("/stats", "text/html")
	if st != 200 || ct != "text/html; charset=UTF-8" || !strings.Contains(b, "<td>2026-12-02</td><td>5</td><td>1 / 2 / 0</td>") {
		t.Fatalf("/stats: %d %q\n%s", st, ct, b)
	}
	if strings.Index(b, "2026-12-02") > strings.Index(b, "2026-12-01") {
		t.Error("/stats is not newest first")
	}
}

// TestPublicStatsSurviveRestartAndForgetKeys: counts written by one Stats are read by the next
// on the same store; a key that joined before the restart is not counted again that day; the
// next day counts it afresh and the store keeps no key hash of the day before.
func TestPublicStatsSurviveRestartAndForgetKeys(t *testing.T) {
	r := newRig(t)
	r.stats.Join("ws", keyAda)
	if err := r.stats.Flush(); err != nil {
		t.Fatal(err)
	}
	clock := now
	again := NewStats(r.store, func() time.Time { return clock })
	again.Join("http", keyAda)
	again.Join("http", keyBea)
	got, err := again.days("2026-12-02", "2026-12-03")
	if err != nil {
		t.Fatal(err)
	}
	if d := got["2026-12-02"]; d[AgentsCounter] != 2 || d[JoinPrefix+"ws"] != 1 || d[JoinPrefix+"http"] != 2 {
		t.Fatalf("after a restart: %v", d)
	}
	clock = now.Add(24 * time.Hour)
	again.Join("ws", keyAda)
	if got, _ = again.days("2026-12-03", "2026-12-03"); got["2026-12-03"][AgentsCounter] != 1 {
		t.Fatalf("the next day: %v", got)
	}
	var old []string
	if err := r.store.BreakroomSeen("2026-12-02", func(h string) error { old = append(old, h); return nil }); err != nil || len(old) != 0 {
		t.Fatalf("the day before's key hashes are still stored: %v %v", old, err)
	}
	// Counts wait in memory at most FlushEvery: a count after that writes them.
	clock = clock.Add(FlushEvery)
	again.Count(CounterStart)
	third := NewStats(r.store, func() time.Time { return clock })
	if got, _ = third.days("2026-12-03", "2026-12-03"); got["2026-12-03"][CounterStart] != 1 {
		t.Fatalf("a count past FlushEvery was not written: %v", got)
	}
}
