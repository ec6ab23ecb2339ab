package public

import (
	"strings"
	"testing"
)

// TestPublicStartPlayAndPaymentsPages: the links the server hands out resolve. /start and /play
// (match_end.nostr_post's link) are how to play, as text for agents and a page for browsers,
// with every door and the MCP install links; /play?ref=<key> links to that agent's record and
// ignores a ref that is not a key; /payments says this server runs no paid table.
func TestPublicStartPlayAndPaymentsPages(t *testing.T) {
	r := newRig(t)
	const cursor = "cursor://anysphere.cursor-deeplink/mcp/install?name=breakroom&config=eyJ1cmwiOiJodHRwczovL2JyLnRlc3QvbWNwIn0="
	const vscode = "vscode:mcp/install?%7B%22name%22%3A%22breakroom%22%2C%22type%22%3A%22http%22%2C%22url%22%3A%22https%3A%2F%2Fbr.test%2Fmcp%22%7D"
	_, _, startText := r.get("/start", "")
	for _, path := range []string{"/start", "/play", "/play?ref=" + keyBea} {
		for _, accept := range []string{"", "*/*", "application/json"} {
			st, ct, b := r.get(path, accept)
			if st != 200 || ct != "text/plain; charset=UTF-8" || !strings.HasPrefix(b, "# How to play in the Break Room\n") ||
				!strings.Contains(b, "Open wss://br.test/v0/play;") || !strings.Contains(b, "POST https://br.test/v0/join") ||
				!strings.Contains(b, "claude mcp add --transport http breakroom https://br.test/mcp\n") ||
				!strings.Contains(b, "- Cursor: "+cursor+"\n") || !strings.Contains(b, "- VS Code: "+vscode+"\n") ||
				!strings.Contains(b, "Games: dilemma, coin.") {
				t.Fatalf("GET %s (Accept %q): %d %q\n%s", path, accept, st, ct, b)
			}
		}
		st, ct, b := r.get(path, "text/html,*/*;q=0.8")
		if st != 200 || ct != "text/html; charset=UTF-8" || !strings.Contains(b, "<h1>How to play</h1>") ||
			!strings.Contains(b, `<a href="`+strings.ReplaceAll(cursor, "&", "&amp;")+`">Add to Cursor</a>`) || !strings.Contains(b, `<a href="`+vscode+`">Add to VS Code</a>`) ||
			!strings.Contains(b, "<code>wss://br.test/v0/play</code>") {
			t.Fatalf("GET %s as a browser: %d %q\n%s", path, st, ct, b)
		}
	}
	if _, _, b := r.get("/play", ""); b != startText {
		t.Fatalf("/play differs from /start:\n%s", b)
	}
	_, _, b := r.get("/play?ref="+keyBea, "")
	if b != startText+"\nYou came from the post of agent "+keyBea+": its record is https://br.test/agents/"+keyBea+"\n" {
		t.Fatalf("/play?ref=<key>:\n%s", b)
	}
	if _, _, h := r.get("/play?ref="+keyBea, "text/html"); !strings.Contains(h, `see <a href="/agents/`+keyBea+`">its record</a>`) {
		t.Fatalf("/play?ref=<key> as a browser:\n%s", h)
	}
	for _, bad := range []string{"%3Cscript%3E", strings.ToUpper(keyBea), keyBea + "00", "x"} {
		for _, accept := range []string{"", "text/html"} {
			if _, _, b := r.get("/play?ref="+bad, accept); strings.Contains(b, "came from") || strings.Contains(b, "<script") {
				t.Fatalf("/play?ref=%s (%q) used the ref:\n%s", bad, accept, b)
			}
		}
	}
	if _, _, b := r.get("/start?ref="+keyBea, ""); b != startText {
		t.Fatalf("/start uses a ref:\n%s", b)
	}

	st, ct, b := r.get("/payments", "")
	if st != 200 || ct != "text/plain; charset=UTF-8" || !strings.HasPrefix(b, "# Payments\n\nPaid tables are not enabled on this server.") ||
		!strings.Contains(b, "payments_disabled") || !strings.Contains(b, "GET https://br.test/v0/games says so in payments.enabled (false).") ||
		!strings.Contains(b, "payment_required") || !strings.Contains(b, "your stake comes back in full") {
		t.Fatalf("/payments: %d %q\n%s", st, ct, b)
	}
	st, ct, b = r.get("/payments", "text/html")
	if st != 200 || ct != "text/html; charset=UTF-8" || !strings.Contains(b, "<b>Paid tables are not enabled on this server.</b>") {
		t.Fatalf("/payments as a browser: %d %q\n%s", st, ct, b)
	}
}
