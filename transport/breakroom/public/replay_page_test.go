package public

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
)

// pageData reads the data a match page's script starts from.
func pageDataOf(t *testing.T, html string) pageData {
	t.Helper()
	m := regexp.MustCompile(`(?s)<script id="br-data" type="application/json">(.*?)</script>`).FindStringSubmatch(html)
	if m == nil {
		t.Fatalf("no br-data in the page:\n%.1500s", html)
	}
	var d pageData
	if err := json.Unmarshal([]byte(m[1]), &d); err != nil {
		t.Fatalf("br-data is not JSON: %v\n%s", err, m[1])
	}
	return d
}

// TestPublicMatchPageRunning: a running match's page is its live page: the seats by name, the
// public lines so far with their words, the live stream's address, and nothing sealed (no
// private line, no ranking, no result words), the winner's banner empty and hidden.
func TestPublicMatchPageRunning(t *testing.T) {
	r := newRig(t)
	st, ct, b := r.get("/r/m_run", "text/html")
	if st != 200 || !strings.HasPrefix(ct, "text/html") {
		t.Fatalf("GET /r/m_run: %d %s", st, ct)
	}
	d := pageDataOf(t, b)
	if !d.Live || d.Status != StatusRunning || d.LiveURL != "/r/m_run/live?narrate=1" || d.Words != nil {
		t.Fatalf("live page data: %+v", d)
	}
	if len(d.Players) != 3 || d.Players[0].Name != "Ada" || d.Players[2].Name != "Cy" {
		t.Fatalf("players: %+v", d.Players)
	}
	if len(d.Lines) != 2 || !strings.Contains(string(d.Lines[1].E), `"round_start"`) ||
		len(d.Lines[1].N) != 1 || !strings.HasPrefix(d.Lines[1].N[0], "Round 1: ") {
		t.Fatalf("lines: %+v", d.Lines)
	}
	if !strings.Contains(b, `<p id="winner" hidden></p>`) {
		t.Fatal("the winner's banner is not empty and hidden")
	}
	for _, secret := range []string{`"action_private"`, `"iteration_private"`, `"timeout_private"`, `"ranking"`, " chose to ", "The match is over", "Winner: Cy"} {
		if strings.Contains(b, secret) {
			t.Fatalf("the live page holds %q", secret)
		}
	}
}

// TestPublicMatchPageReplay: an ended match's page is its replay: it reads the public log
// (.jsonl) and carries the words of each of its lines by index, revealed lines included, and
// shows no result before playback reaches it (the banner empty and hidden).
func TestPublicMatchPageReplay(t *testing.T) {
	r := newRig(t)
	st, _, b := r.get("/r/m_fin?speed=0", "text/html")
	if st != 200 {
		t.Fatalf("GET /r/m_fin: %d %s", st, b)
	}
	raw, err := os.ReadFile("../../../games/breakroom/dilemma/testdata/worked_example.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	n := len(strings.Split(strings.TrimSpace(string(raw)), "\n"))
	d := pageDataOf(t, b)
	if d.Live || d.Lines != nil || d.LogURL != "/r/m_fin.jsonl" || len(d.Words) != n {
		t.Fatalf("replay data: live %v, %d lines, log %q, %d words for %d lines", d.Live, len(d.Lines), d.LogURL, len(d.Words), n)
	}
	if w := d.Words[2]; len(w) != 1 || w[0] != "Agent 1 chose to cooperate (round 1, iteration 1)." {
		t.Fatalf("words of line 2: %q", w)
	}
	if last := d.Words[len(d.Words)-1]; len(last) != 1 || !strings.HasPrefix(last[0], "The match is over. 1. Agent 4 ") {
		t.Fatalf("words of match_end: %q", last)
	}
	if !strings.Contains(b, `<p id="winner" hidden></p>`) || !strings.Contains(b, `window.BRSpeed = "0"`) {
		t.Fatal("the replay shows its winner before playback, or lost its speed")
	}
	for path, want := range map[string]int{"/r/m_nope": 404, "/r/m_fin?speed=2": 400} {
		if st, _, b := r.get(path, "text/html"); st != want {
			t.Fatalf("GET %s: %d %s, want %d", path, st, b, want)
		}
	}
}

// TestPublicMatchPageEscapes: names and words from agents reach the page as data, never as
// markup: a name and a line that try to close the script come back whole from the page's data
// and nowhere as a tag.
func TestPublicMatchPageEscapes(t *testing.T) {
	evil := `</script><img src=x onerror=alert(1)>`
	d := pageData{MatchID: "m_x", Game: "dilemma", GameName: "Dilemma", Live: true, Status: StatusRunning,
		Players: []pagePlayer{{Seat: 0, Name: evil}},
		Lines:   []pageLine{{E: json.RawMessage(`{"seq":0,"type":"message","seat":0,"text":` + strconvQuote(evil) + `}`), N: []string{evil + " says: " + evil}}}}
	var b strings.Builder
	if err := matchPage.Execute(&b, map[string]any{"Data": d, "Speed": "1", "Script": "", "Picture": "", "Title": evil}); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	if strings.Contains(html, "<img") || strings.Count(html, "</script>") != 4 {
		t.Fatalf("hostile text became markup:\n%s", html)
	}
	got := pageDataOf(t, html)
	if got.Players[0].Name != evil || got.Lines[0].N[0] != evil+" says: "+evil || !strings.Contains(string(got.Lines[0].E), `onerror`) {
		t.Fatalf("the data lost the text: %+v", got)
	}
}

func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
