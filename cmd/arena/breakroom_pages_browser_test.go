package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The Break Room match page (GET /r/{match_id}) in a real browser: headless Debian Chromium
// driven by chromedp, over the real product (readsSite). Screenshots go to a temp dir, or to
// docs/screenshots/ with ARENA_SCREENSHOTS=1 (how the committed PNGs were made:
// ARENA_SCREENSHOTS=1 go test -run TestBreakroomPagesInBrowser ./cmd/arena/).

func brChromium(t *testing.T) string {
	t.Helper()
	for _, p := range []string{os.Getenv("CHROMIUM"), "/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if p == "" {
			continue
		}
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	t.Skip("SKIPPED LOUDLY: no Chromium (/usr/bin/chromium); scripts/install-test-deps.sh installs Debian's chromium. The Break Room pages were NOT tested in a browser.")
	return ""
}

// brBrowser starts headless Chromium with a fresh profile and returns its context.
func brBrowser(t *testing.T) context.Context {
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(brChromium(t)), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 900),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelB := chromedp.NewContext(actx)
	ctx, cancelT := context.WithTimeout(ctx, 120*time.Second)
	t.Cleanup(func() { cancelT(); cancelB(); cancelA() })
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("chromium did not start: %v", err)
	}
	return ctx
}

// brEval is a script's value in the page.
func brEval[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}

// brWait waits until a script is true in the page (the page draws as lines arrive).
func brWait(t *testing.T, ctx context.Context, what, js string) {
	t.Helper()
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if _, err := chromedp.Run(wctx, chromedp.Poll[bool](js)); err != nil {
		t.Fatalf("waiting for %s (%s): %v\npage text:\n%.3000s", what, js, err, brEval[string](t, ctx, "document.body.innerText"))
	}
}

func brShoot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := t.TempDir()
	if os.Getenv("ARENA_SCREENSHOTS") == "1" {
		dir = filepath.Join("..", "..", "docs", "screenshots")
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	if len(png) < 1000 || string(png[1:4]) != "PNG" {
		t.Fatalf("screenshot %s: %d bytes, not a PNG", name, len(png))
	}
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// brTable seats three agents (Ada, Bea, Cy) at one Dilemma table over HTTP: the match and
// each agent's token.
func brTable(t *testing.T, srv *httptest.Server, names []string) (string, []string) {
	t.Helper()
	tokens := make([]string, len(names))
	for i, n := range names {
		k := newBrKey(byte(41 + i))
		_, ch := brHTTP(t, srv, "GET", "/v0/challenge", "", "")
		nonce, _ := ch["nonce"].(string)
		body, _ := json.Marshal(map[string]any{"game": "dilemma", "author_pubkey": k.pub, "nonce": nonce, "sig": k.sign(nonce), "agent_name": n})
		st, q := brHTTP(t, srv, "POST", "/v0/join", "", string(body))
		if st != 200 || q["type"] != "queued" {
			t.Fatalf("join %s: %d %v", n, st, q)
		}
		tokens[i] = q["token"].(string)
	}
	match := ""
	for _, tok := range tokens {
		for match == "" {
			if _, m := brHTTP(t, srv, "GET", "/v0/join/"+tok+"?wait=2000", "", ""); m["type"] == "seated" {
				match = m["match_id"].(string)
			}
		}
	}
	return match, tokens
}

// brPlay answers every your_turn (Ada always cooperates, the others alternate and say so) until
// stop says so or every seat has ended; the moves made.
func brPlay(t *testing.T, srv *httptest.Server, match string, tokens []string, stop func(moves int) bool) int {
	t.Helper()
	moves := 0
	deadline := time.Now().Add(90 * time.Second)
	for {
		if time.Now().After(deadline) {
			t.Fatal("the match did not end")
		}
		ended := 0
		for i, tok := range tokens {
			if stop(moves) {
				return moves
			}
			_, s := brHTTP(t, srv, "GET", "/v0/matches/"+match+"/state", tok, "")
			switch s["status"] {
			case "ended":
				ended++
			case "your_turn":
				action := "cooperate"
				if i > 0 && (moves+i)%2 == 0 {
					action = "defect"
				}
				mv, _ := json.Marshal(map[string]any{"round": s["round"], "turn": s["turn"], "action": action,
					"message": fmt.Sprintf("I %s, round %v.", action, s["round"])})
				if st, r := brHTTP(t, srv, "POST", "/v0/matches/"+match+"/move", tok, string(mv)); st != 200 {
					t.Fatalf("move: %d %v", st, r)
				}
				moves++
			}
		}
		if ended == len(tokens) {
			return moves
		}
	}
}

// TestBreakroomPagesInBrowser: three agents play a Dilemma match on the real product. Midway, the
// match's page in Chromium is its live page: the three seats by name around the table, three
// points bars (sealed), the round's pairs, the narrated feed, the winner hidden, and nothing
// sealed in the document; lines logged after it loaded arrive, once each. After the end the same
// address is the replay: paused at its first line the winner is hidden and the bars count
// nothing; played at 16× it reaches the end, names the winner the results name, shows each
// seat's points as the ranking has them, and draws each seat's standing.
func TestBreakroomPagesInBrowser(t *testing.T) {
	srv, _ := readsSite(t)
	ctx := brBrowser(t)
	names := []string{"Ada", "Bea", "Cy"}
	match, tokens := brTable(t, srv, names)
	brPlay(t, srv, match, tokens, func(moves int) bool { return moves >= 2 })

	// Live.
	if _, err := chromedp.Run(ctx, chromedp.Navigate(srv.URL+"/r/"+match)); err != nil {
		t.Fatal(err)
	}
	brWait(t, ctx, "the seats", `document.querySelectorAll('#picture .seat-name').length === 3`)
	seats := brEval[[]string](t, ctx, `Array.from(document.querySelectorAll('#picture .seat-name')).map(e => e.textContent)`)
	sort.Strings(seats)
	if strings.Join(seats, ",") != "Ada,Bea,Cy" {
		t.Fatalf("live seats: %q", seats)
	}
	if n := brEval[int](t, ctx, `document.querySelectorAll('#bars .bar-row').length`); n != 3 {
		t.Fatalf("live: %d points bars, want 3", n)
	}
	if n := brEval[int](t, ctx, `document.querySelectorAll('#bars .bar.sealed').length`); n != 3 {
		t.Fatalf("live: %d sealed bars, want 3 (points are sealed while the match runs)", n)
	}
	if n := brEval[int](t, ctx, `document.querySelectorAll('#picture .pair').length`); n != 1 {
		t.Fatalf("live: %d pairs drawn, want 1 (three seats: one pair and a bye)", n)
	}
	if !brEval[bool](t, ctx, `document.getElementById('winner').hidden && document.getElementById('winner').textContent === ''`) {
		t.Fatal("live: the winner is shown while the match runs")
	}
	if st := brEval[string](t, ctx, `document.getElementById('status').textContent`); st != "Live" {
		t.Fatalf("live: status %q", st)
	}
	feed := brEval[string](t, ctx, `document.getElementById('feed').innerText`)
	if !strings.Contains(feed, "The Dilemma begins with 3 players") || !strings.Contains(feed, "Round 1: ") {
		t.Fatalf("live feed:\n%s", feed)
	}
	doc := brEval[string](t, ctx, `document.documentElement.outerHTML`)
	for _, secret := range []string{`"action_private"`, `"iteration_private"`, `"timeout_private"`, " chose to ", `"ranking"`, "The match is over"} {
		if strings.Contains(doc, secret) {
			t.Fatalf("the live page holds %q while the match runs", secret)
		}
	}
	if text := brEval[string](t, ctx, `document.body.innerText`); strings.Contains(text, "Winner") || strings.Contains(text, "In the lead") {
		t.Fatalf("the live page names a winner while the match runs:\n%s", text)
	}
	brShoot(t, ctx, "breakroom-dilemma-live.png")

	// The live page follows the match: lines logged after it loaded arrive, once each.
	before := brEval[int](t, ctx, `document.querySelectorAll('#feed li').length`)
	brPlay(t, srv, match, tokens, func(m int) bool { return m >= 4 })
	brWait(t, ctx, "a line logged after the page loaded", `document.querySelectorAll('#feed li.new').length > 0`)
	if dup := brEval[int](t, ctx, `(() => { const s = Array.from(document.querySelectorAll('#feed li')).filter(l => l.dataset.type !== 'message').map(l => l.textContent); return s.length - new Set(s).size; })()`); dup != 0 {
		t.Fatalf("the live feed shows %d lines twice:\n%s", dup, brEval[string](t, ctx, `document.getElementById('feed').innerText`))
	}
	if after := brEval[int](t, ctx, `document.querySelectorAll('#feed li').length`); after <= before {
		t.Fatalf("the live feed did not grow: %d lines, then %d", before, after)
	}

	brPlay(t, srv, match, tokens, func(int) bool { return false })
	_, mj := brHTTP(t, srv, "GET", "/v0/matches/"+match+"?spoilers=1", "", "")
	res, _ := mj["match"].(map[string]any)["results"].([]any)
	var first []string
	points := map[string]float64{}
	for _, r := range res {
		r := r.(map[string]any)
		if r["rank"].(float64) == 1 {
			first = append(first, r["name"].(string))
		}
		points[r["name"].(string)] = r["points"].(float64)
	}
	if len(res) != 3 || len(first) == 0 {
		t.Fatalf("results: %v", res)
	}

	// Replay, paused at its first line.
	if _, err := chromedp.Run(ctx, chromedp.Navigate(srv.URL+"/r/"+match+"?speed=0")); err != nil {
		t.Fatal(err)
	}
	brWait(t, ctx, "the log", `/^1 \/ \d+$/.test(document.getElementById('progress').textContent)`)
	if st := brEval[string](t, ctx, `document.getElementById('status').textContent`); st != "Replay" {
		t.Fatalf("replay: status %q", st)
	}
	if !brEval[bool](t, ctx, `document.getElementById('winner').hidden`) {
		t.Fatal("replay: the winner is shown before playback")
	}
	if v := brEval[string](t, ctx, `Array.from(document.querySelectorAll('#bars .bar-val')).map(e => e.textContent).join(',')`); v != "0,0,0" {
		t.Fatalf("replay at its start: bars %q", v)
	}
	if _, err := chromedp.Run(ctx, chromedp.Click(chromedp.CSS(`button[data-speed="16"]`))); err != nil {
		t.Fatal(err)
	}
	brWait(t, ctx, "the end of the replay", `!document.getElementById('winner').hidden`)
	want := "Winner: " + strings.Join(first, " and ")
	if got := brEval[string](t, ctx, `document.getElementById('winner').textContent`); got != want {
		t.Fatalf("replay: banner %q, want %q", got, want)
	}
	type bar struct{ Name, Val string }
	bars := brEval[[]bar](t, ctx, `Array.from(document.querySelectorAll('#bars .bar-row')).map(r => ({Name: r.querySelector('.bar-name').textContent, Val: r.querySelector('.bar-val').textContent}))`)
	if len(bars) != 3 {
		t.Fatalf("replay: %d bars", len(bars))
	}
	for _, b := range bars {
		if b.Val != fmt.Sprint(points[b.Name]) {
			t.Fatalf("replay: %s's bar says %s, the results %v", b.Name, b.Val, points[b.Name])
		}
	}
	if n := brEval[int](t, ctx, `document.querySelectorAll('#chart-svg polyline.standing').length`); n != 3 {
		t.Fatalf("replay: %d standing lines, want 3", n)
	}
	if n := brEval[int](t, ctx, `document.querySelectorAll('#feed li[data-type="action_private"]').length`); n == 0 {
		t.Fatal("replay: no revealed choice in the feed")
	}
	brShoot(t, ctx, "breakroom-dilemma-replay.png")
}
