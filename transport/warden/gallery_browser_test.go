package warden

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"arena/games/warden/claims"
	"arena/games/warden/dilemma"
	"arena/games/warden/feed"
	"arena/games/warden/feed/feedtest"
)

// The Gallery's page in a real browser: headless Debian Chromium driven by chromedp. The
// screenshot goes to a temp dir, or to docs/screenshots/ with ARENA_SCREENSHOTS=1 (how the
// committed PNG was made: ARENA_SCREENSHOTS=1 go test -run TestGalleryPageInBrowser ./transport/warden/).

func galleryChromium(t *testing.T) string {
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
	t.Skip("SKIPPED LOUDLY: no Chromium (/usr/bin/chromium); scripts/install-test-deps.sh installs Debian's chromium. The Gallery page was NOT tested in a browser.")
	return ""
}

func galleryBrowser(t *testing.T) context.Context {
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(galleryChromium(t)),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 1000),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelB := chromedp.NewContext(actx)
	ctx, cancelT := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(func() { cancelT(); cancelB(); cancelA() })
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("chromium did not start: %v", err)
	}
	return ctx
}

func gEval[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}

// gWait waits until a script is true in the page (it draws as events arrive).
func gWait(t *testing.T, ctx context.Context, what, js string) {
	t.Helper()
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if _, err := chromedp.Run(wctx, chromedp.Poll[bool](js)); err != nil {
		t.Fatalf("waiting for %s (%s): %v\npage text:\n%.3000s", what, js, err, gEval[string](t, ctx, "document.body.innerText"))
	}
}

// TestGalleryPageInBrowser: the dashboard, fed by the real SSE door, shows every match's public
// state: four settled matches and two live ones (a Game I match before its third reveal, a Game
// II match before its reveal), each with its seats, balances, rounds and pot chart, and the
// standings in leaderboard order; a new event reaches the page live. Nothing not yet public is on
// the page: no seed, salt or message text of the live matches, no valuation or ask of an
// unrevealed round.
func TestGalleryPageInBrowser(t *testing.T) {
	ctx := galleryBrowser(t)
	r := newGalleryRig(t, &Gallery{LobbyEvery: -1})
	played := playMatches(t, 9, 6)
	live1, live2 := played[4], played[5] // Game I, Game II
	if live1.Script.Game != claims.GameID || live2.Script.Game != dilemma.GameID {
		t.Fatal("the live matches are not one of each game")
	}
	cut := map[*feedtest.Played]int{live1: live1.Reveals["round_revealed/3"], live2: live2.Reveals["choices_revealed/1"]}
	appended := 0
	for _, p := range played {
		n, ok := cut[p]
		if !ok {
			n = len(p.Feed)
		}
		for i := range n {
			r.appendPlayed(p, i)
		}
		appended += n
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(r.srv.URL+"/gallery")); err != nil {
		t.Fatal(err)
	}
	gWait(t, ctx, "every stored event", fmt.Sprintf("window.galleryEvents === %d && document.querySelectorAll('.card.match').length === 6", appended))

	card := func(p *feedtest.Played) string { return "#match-" + p.Script.MatchID }
	count := func(sel string) int {
		return gEval[int](t, ctx, fmt.Sprintf("document.querySelectorAll(%q).length", sel))
	}
	text := func(sel string) string {
		return gEval[string](t, ctx, fmt.Sprintf("(document.querySelector(%q) || {textContent: '<none>'}).textContent", sel))
	}
	attr := func(sel, name string) string {
		return gEval[string](t, ctx, fmt.Sprintf("(document.querySelector(%q) || {getAttribute: () => '<none>'}).getAttribute(%q)", sel, name))
	}
	envs := func(p *feedtest.Played) []feed.Envelope {
		e, err := p.Envelopes()
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	usdc := func(n int64) string {
		s := fmt.Sprintf("%d.%06d", n/1_000_000, n%1_000_000)
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
		return s
	}

	// The live Game I match: two rounds revealed, the third under way, its balances those of the
	// second reveal, seats named.
	c1 := card(live1)
	if got := attr(c1, "data-status"); got != "live" {
		t.Fatalf("live Game I card status %q", got)
	}
	if n := count(c1 + " .pot-bar"); n != 2 {
		t.Fatalf("live Game I pot bars %d, want 2", n)
	}
	if n := count(c1 + ` .round[data-revealed="1"]`); n != 2 {
		t.Fatalf("live Game I revealed rounds %d, want 2", n)
	}
	if v := text(c1 + ` .round[data-round="3"] .valuations`); v != "hidden" {
		t.Fatalf("round 3's valuations shown as %q", v)
	}
	var r2 feed.RoundRevealed
	e1 := envs(live1)
	if err := json.Unmarshal(e1[live1.Reveals["round_revealed/2"]].Data, &r2); err != nil {
		t.Fatal(err)
	}
	if got, want := text(c1+` .round[data-round="2"] .valuations`), fmt.Sprintf("%d%% / %d%%", r2.Valuations.A/100, r2.Valuations.B/100); got != want {
		t.Fatalf("round 2 valuations %q, want %q", got, want) // valuations are whole percents (§3.1)
	}
	if got, want := attr(c1+` .pot-bar[data-round="2"]`, "data-pot"), fmt.Sprint(r2.Pot); got != want {
		t.Fatalf("round 2 pot bar %s, want %s", got, want)
	}
	if got := text(c1 + " .seat-A .name"); got != live1.Script.A.Name {
		t.Fatalf("seat A %q, want %q", got, live1.Script.A.Name)
	}
	if got := text(c1 + " .seat-B .name"); got != live1.Script.B.Name {
		t.Fatalf("seat B %q, want %q", got, live1.Script.B.Name)
	}

	// The live Game II match: staked and committing, no choice shown.
	c2 := card(live2)
	if got := attr(c2, "data-status"); got != "live" || count(c2+" .choices") != 0 {
		t.Fatalf("live Game II card: status %q, choices %d", got, count(c2+" .choices"))
	}

	// A settled Game I match: five pot bars, its result as match_finished says.
	settled := played[0]
	c0 := card(settled)
	var fin feed.MatchFinished
	e0 := envs(settled)
	if err := json.Unmarshal(e0[settled.Reveals["match_finished"]].Data, &fin); err != nil {
		t.Fatal(err)
	}
	if got := attr(c0, "data-status"); got != "settled" || count(c0+" .pot-bar") != 5 {
		t.Fatalf("settled card: status %q, %d pot bars", got, count(c0+" .pot-bar"))
	}
	res := text(c0 + " .result")
	if !strings.Contains(res, fin.Seats.A.Result) || !strings.Contains(res, fin.Seats.B.Result) {
		t.Fatalf("result %q, want %s and %s", res, fin.Seats.A.Result, fin.Seats.B.Result)
	}
	if got, want := text(c0+" .seat-A .balance"), usdc(fin.Seats.A.GrossReturn); got != want {
		t.Fatalf("final balance A %q, want %q", got, want)
	}

	// Standings: every Contender, in leaderboard order (tier, then net), the settled ones' tiers
	// from their match_settled.
	if n := count("#standings tbody tr"); n != 12 {
		t.Fatalf("%d standings rows, want 12", n)
	}
	tiers := gEval[[]string](t, ctx, `[...document.querySelectorAll("#standings tbody tr .tier")].map(e => e.textContent)`)
	order := map[string]int{"ELITE": 0, "SOLVENT": 1, "UNDERWATER": 2, "UNPROVEN": 3}
	for i := 1; i < len(tiers); i++ {
		if order[tiers[i]] < order[tiers[i-1]] {
			t.Fatalf("standings out of order: %v", tiers)
		}
	}
	if tiers[len(tiers)-1] != "UNPROVEN" || tiers[len(tiers)-4] != "UNPROVEN" || tiers[len(tiers)-5] == "UNPROVEN" {
		t.Fatalf("the four Contenders of the live matches are the UNPROVEN ones: %v", tiers)
	}

	// Nothing of the live matches' secrets is on the page.
	page := gEval[string](t, ctx, "document.documentElement.outerHTML")
	for p, n := range cut {
		if s, bad := leaks(p, n, page); bad {
			t.Fatalf("the page shows %s's %s %q before its moment", p.Script.MatchID, s.What, s.Text)
		}
	}
	dir := t.TempDir()
	if os.Getenv("ARENA_SCREENSHOTS") == "1" {
		dir = filepath.Join("..", "..", "docs", "screenshots")
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if len(png) < 1000 || string(png[1:4]) != "PNG" {
		t.Fatalf("screenshot: %d bytes, not a PNG", len(png))
	}
	if err := os.WriteFile(filepath.Join(dir, "warden-gallery.png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", filepath.Join(dir, "warden-gallery.png"))

	// Live: round 3's reveal reaches the page.
	r.appendPlayed(live1, cut[live1])
	gWait(t, ctx, "round 3's reveal", fmt.Sprintf("document.querySelectorAll(%q).length === 3", c1+" .pot-bar"))
}
