package pages_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The pages in a real browser: headless Debian Chromium driven by chromedp. Screenshots go to
// a temp dir, or to docs/screenshots/ with ARENA_SCREENSHOTS=1 (how the committed PNGs were
// made: ARENA_SCREENSHOTS=1 go test -run TestPagesInBrowser ./transport/dotdotdot/pages/).

func chromium(t *testing.T) string {
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
	t.Skip("SKIPPED LOUDLY: no Chromium (/usr/bin/chromium); scripts/install-test-deps.sh installs Debian's chromium. The pages were NOT tested in a browser.")
	return ""
}

// browser starts headless Chromium with a fresh profile and returns its context.
func browser(t *testing.T) context.Context {
	exe := chromium(t)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1100, 900),
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

// do runs actions that return nothing.
func do(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

// text is the visible text of the first element matching a CSS selector.
func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		t.Fatalf("text of %s: %v", sel, err)
	}
	return v
}

func evalInt(t *testing.T, ctx context.Context, js string) int {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[int](js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}

func outerHTML(t *testing.T, ctx context.Context) string {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.OuterHTML(chromedp.CSS("html")))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func shotDir(t *testing.T) string {
	if os.Getenv("ARENA_SCREENSHOTS") == "1" {
		d := filepath.Join("..", "..", "docs", "screenshots")
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}

// shoot saves a full-page PNG and checks it is one.
func shoot(t *testing.T, ctx context.Context, dir, name string) {
	t.Helper()
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

// brief is GET /v1/walkin/next?format=brief in any of its forms.
type brief struct {
	Waiting  bool            `json:"waiting"`
	Round    string          `json:"round"`
	Status   string          `json:"status"`
	Turn     int             `json:"turn"`
	Phase    string          `json:"phase"`
	Exchange int             `json:"exchange"`
	Answer   json.RawMessage `json:"answer"`
	Result   json.RawMessage `json:"result"`
}

const secretLine = "SECRET-PRIV-7731 only seat 2 may read this"

// step polls each walk-in once and answers its move if one waits: Ann says a public line and
// a private one (secretLine) to seat 2 on every talk, and promises seat 2 three chips on
// every commit; the others answer with the brief's body and a line of their own. It returns
// how many walk-ins have their result.
func (s *stack) step(toks []string, names []string) int {
	s.t.Helper()
	done := 0
	for i, tok := range toks {
		var b brief
		s.must(200, "GET", "/v1/walkin/next?wait=0&format=brief", tok, "", &b)
		if b.Status == "revealed" {
			done++
			continue
		}
		if len(b.Answer) == 0 {
			continue
		}
		var ans map[string]any
		if err := json.Unmarshal(b.Answer, &ans); err != nil {
			s.t.Fatalf("answer %s: %v", b.Answer, err)
		}
		switch b.Phase {
		case "talk":
			msgs := []any{map[string]any{"type": "public", "tone": "neutral",
				"text": "hello from " + names[i] + ", turn " + strconv.Itoa(b.Turn) + " exchange " + strconv.Itoa(b.Exchange)}}
			if i == 0 {
				msgs = append(msgs, map[string]any{"type": "private", "to": 2, "tone": "neutral", "text": secretLine})
			}
			ans["messages"] = msgs
		case "commit":
			if i == 0 {
				ans["commitments"] = []any{map[string]any{"payee": 2, "chips": 3, "condition": map[string]any{"always": true}, "due": b.Turn}}
			} else {
				delete(ans, "commitments")
			}
		}
		body, _ := json.Marshal(ans)
		code, rb := s.do("POST", "/v1/walkin/answer", tok, string(body))
		if code != 200 && code != 409 { // 409 stale: the phase closed between poll and answer
			s.t.Fatalf("answer %s: %d %s", body, code, rb)
		}
	}
	return done
}

// await long-polls every walk-in at once and returns as soon as one of them has something to
// do (a move, or its result), so the next step has work: the round's own pace sets how often
// the walk-ins are polled, not a pause. It fails when none has anything within the long poll.
func (s *stack) await(toks []string) {
	s.t.Helper()
	ctx, cancel := context.WithCancel(s.t.Context())
	defer cancel() // the other polls end with it
	ready := make(chan bool, len(toks))
	for _, tok := range toks {
		go func() {
			req, err := http.NewRequestWithContext(ctx, "GET", s.srv.URL+"/v1/walkin/next?wait=10&format=brief", nil)
			if err != nil {
				ready <- false
				return
			}
			req.Header.Set("x-walkin", tok)
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				ready <- false
				return
			}
			defer res.Body.Close()
			var b brief
			err = json.NewDecoder(res.Body).Decode(&b)
			ready <- err == nil && res.StatusCode == 200 && (b.Status == "revealed" || len(b.Answer) > 0)
		}()
	}
	for range toks {
		if <-ready {
			return
		}
	}
	s.t.Fatal("no walk-in had a move or its result within a 10 s long poll: the round is stuck")
}

// TestPagesInBrowser: a hosted table's page and the lobby show the code and every way to join;
// the host starts it; the live round page follows the public feed as the round is played over
// HTTP, never shows a sealed value (the private line, the commitment, the mole's seat or task),
// and shows the reveal at the end. A screenshot of each page is saved.
func TestPagesInBrowser(t *testing.T) {
	ctx := browser(t)
	dir := shotDir(t)
	s := newStack(t)
	names := []string{"Ann", "Bo", "Cy"}
	toks := []string{s.register("Ann"), s.register("Bo"), s.register("Cy")}
	var h table
	s.must(201, "POST", "/v1/walkin/host", toks[0], `{"format":"short"}`, &h)
	s.must(200, "POST", "/v1/walkin/join", toks[1], `{"code":"`+h.Code+`"}`, nil)
	// A second table gathering, for the lobby.
	other := s.register("Dee")
	s.must(201, "POST", "/v1/walkin/host", other, "", nil)

	// The table's page, gathering.
	do(t, ctx, chromedp.Navigate(s.srv.URL+"/t/"+strings.ToLower(h.Code)), chromedp.WaitVisible(chromedp.CSS("#code")))
	code, claude, curlJoin := text(t, ctx, "#code"), text(t, ctx, "#claude"), text(t, ctx, "#curl-join")
	mcp, status := text(t, ctx, "#mcp"), text(t, ctx, "#status")
	if code != h.Code || claude != "claude mcp add --transport http arena "+s.srv.URL+"/mcp" || mcp != s.srv.URL+"/mcp" ||
		!strings.Contains(curlJoin, `{"code":"`+h.Code+`"}`) || !strings.Contains(curlJoin, "x-walkin: $TOKEN") ||
		!strings.Contains(status, "2 seated, 1 open") {
		t.Fatalf("table page: code %q claude %q mcp %q curl %q status %q", code, claude, mcp, curlJoin, status)
	}
	shoot(t, ctx, dir, "table.png")

	s.must(200, "POST", "/v1/walkin/join", toks[2], `{"code":"`+h.Code+`"}`, nil) // full: it starts
	var got table
	s.must(200, "GET", "/v1/tables/hosted/"+h.Code, "", "", &got)
	if got.Status != "started" {
		t.Fatalf("a full table: %+v", got)
	}

	// The lobby: the other table gathering, this round live.
	do(t, ctx, chromedp.Navigate(s.srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS("#gathering")))
	gathering, live := text(t, ctx, "#gathering"), text(t, ctx, "#live")
	if !strings.Contains(gathering, "Dee") || !strings.Contains(live, got.Round) || !strings.Contains(live, "Ann, Bo, Cy") {
		t.Fatalf("lobby: gathering %q live %q", gathering, live)
	}
	shoot(t, ctx, dir, "lobby.png")

	// The started table's page points at the round.
	do(t, ctx, chromedp.Navigate(s.srv.URL+"/t/"+h.Code))
	watch := text(t, ctx, "#watch")
	if watch != got.Round {
		t.Fatalf("started table page: %q", watch)
	}

	// The round page, opened before anyone spoke, once the round's opening events are stored:
	// the table starts the round on its own actor, so "started" may come back before them.
	for deadline := time.Now().Add(15 * time.Second); ; {
		evs, _, err := s.a.Transcript(t.Context(), got.Round)
		if err != nil {
			t.Fatal(err)
		}
		if len(evs) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the started round stored no event within 15 s")
		}
		time.Sleep(20 * time.Millisecond) // polling the store: the round runs on its own actor
	}
	do(t, ctx, chromedp.Navigate(s.srv.URL+"/r/"+got.Round), chromedp.WaitVisible(chromedp.CSS("#feed")))
	before := evalInt(t, ctx, `document.querySelectorAll("#feed li").length`)
	if before == 0 {
		t.Fatal("the round page shows no event at all")
	}
	// Play until Ann's first public line is in the public transcript.
	for i := 0; ; i++ {
		s.step(toks, names)
		evs, _, err := s.a.Transcript(t.Context(), got.Round)
		if err != nil {
			t.Fatal(err)
		}
		said := false
		for _, e := range evs {
			said = said || (e.Type == "message.public" && strings.Contains(string(e.Payload), "hello from Ann"))
		}
		if said {
			break
		}
		if i > 500 {
			t.Fatal("no public line after 500 steps")
		}
		s.await(toks)
	}
	// The feed moves in the page without a reload: the line arrives by SSE.
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`Array.from(document.querySelectorAll("#feed li .what")).some(e => e.textContent.includes("hello from Ann"))`,
		chromedp.WithPollingTimeout(15*time.Second))); err != nil {
		t.Fatalf("the feed did not move: %v", err)
	}
	after := evalInt(t, ctx, `document.querySelectorAll("#feed li").length`)
	html := outerHTML(t, ctx)
	if after <= before {
		t.Fatalf("feed: %d events before, %d after", before, after)
	}
	// The private line was sent and is in the transcript, sealed.
	evs, revealed, err := s.a.Transcript(t.Context(), got.Round)
	if err != nil || revealed {
		t.Fatalf("transcript: revealed %v err %v", revealed, err)
	}
	liveHTML := html
	shoot(t, ctx, dir, "round-live.png")

	// Play to the end; the page reloads into the reveal.
	for i := 0; s.step(toks, names) < len(toks); i++ {
		if i > 3000 {
			t.Fatal("the round did not end")
		}
		s.await(toks)
	}
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS("#reveal"))); err != nil {
		t.Fatalf("no reveal on the round page: %v", err)
	}
	reveal := text(t, ctx, "#reveal")
	html = outerHTML(t, ctx)
	if !strings.Contains(reveal, "The mole was seat") {
		t.Fatalf("reveal %q", reveal)
	}
	shoot(t, ctx, dir, "round-revealed.png")

	// Unrated (§4.5): the round is in each walk-in's record, and not on this week's board.
	var me struct {
		Rounds int `json:"rounds"`
		Last   []struct {
			Kind  string `json:"kind"`
			Round string `json:"round"`
		} `json:"last"`
	}
	// The record is written just after the result, by the walk-in's own actor (the mailbox tells
	// it through the desk), and the door has no signal for it: poll it, bounded.
	s.eventually(5*time.Second, func() bool {
		s.must(200, "GET", "/v1/walkin/me", toks[1], "", &me)
		return me.Rounds != 0
	})
	if me.Rounds != 1 || len(me.Last) != 1 || me.Last[0].Kind != "hosted" || me.Last[0].Round != got.Round {
		t.Fatalf("Bo's record %+v", me)
	}
	var board struct {
		Lines []json.RawMessage `json:"lines"`
	}
	s.must(200, "GET", "/v1/walkin/board", "", "", &board)
	if len(board.Lines) != 0 {
		t.Fatalf("a hosted round on the board: %+v", board)
	}

	// The protocol, as a browser asks for it (an HTML page around the embedded text); the
	// screenshot is of the first screen only (the text is long).
	do(t, ctx, chromedp.Navigate(s.srv.URL+"/protocol/v1"), chromedp.WaitVisible(chromedp.CSS("#protocol")))
	if p := text(t, ctx, "#protocol"); !strings.Contains(p, "4.5 The chat seat (MCP) and hosted tables") {
		t.Fatalf("protocol page: %d characters", len(p))
	}
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil || len(png) < 1000 {
		t.Fatalf("protocol screenshot: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "protocol.png"), png, 0o644); err != nil {
		t.Fatal(err)
	}

	// No sealed value was ever in the page: the full transcript (now public) names them.
	all, revealed, err := s.a.Transcript(t.Context(), got.Round)
	if err != nil || !revealed {
		t.Fatalf("transcript after: %v %v", revealed, err)
	}
	var moleSeat int
	amount := "" // Ann's sealed promise, in microCCD
	var task struct{ Kind string }
	sealedSeen := map[string]bool{}
	for _, e := range all {
		if e.Visibility != "public" {
			sealedSeen[e.Type] = true
		}
		if e.Type == "commitment.sealed" && e.Visibility == "sealed" {
			var c struct {
				Amount int64 `json:"amount"`
			}
			_ = json.Unmarshal(e.Payload, &c)
			amount = strconv.FormatInt(c.Amount, 10)
		}
		if e.Type == "round.revealed" {
			var r struct {
				Mole int `json:"mole"`
				Task struct {
					Kind string `json:"kind"`
				} `json:"task"`
			}
			_ = json.Unmarshal(e.Payload, &r)
			moleSeat, task.Kind = r.Mole, r.Task.Kind
		}
	}
	if !sealedSeen["message.private"] || !sealedSeen["commitment.sealed"] || !sealedSeen["role.assigned"] || moleSeat == 0 || task.Kind == "" || len(amount) < 6 {
		t.Fatalf("the round had no sealed values to hide: %v mole %d task %q (the test proves nothing)", sealedSeen, moleSeat, task.Kind)
	}
	for _, pageHTML := range []string{liveHTML, html} {
		for _, bad := range []string{"SECRET-PRIV", "t-message.private", "t-role.assigned", "t-commitment.pending",
			"t-call.delivered", "t-accusation.sealed", "\"amount\"", "w_", amount} {
			if strings.Contains(pageHTML, bad) {
				t.Fatalf("the round page shows a sealed value: %q", bad)
			}
		}
	}
	for _, bad := range []string{"The mole was", task.Kind, "mole_seat"} {
		if strings.Contains(liveHTML, bad) {
			t.Fatalf("before the reveal the page shows %q", bad)
		}
	}
	_ = evs
}
