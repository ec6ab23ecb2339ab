package pages_test

import (
	"bufio"
	"net/http"
	"strings"
	"testing"
	"time"

	"arena/transport/dotdotdot/pages"
)

// TestFeedEndsAtAbandon: a round the table abandoned ends its live feed at round.abandoned, with
// the line in the game's words and an end event whose reason is "abandoned"; its page is over
// (no live feed script), says it was abandoned, and shows no reveal card.
func TestFeedEndsAtAbandon(t *testing.T) {
	f := &fakeSource{}
	f.add("seat.taken", "public", `{"seat":1,"name":"Ann","kind":"byo"}`)
	f.add("message.public", "public", `{"from":1,"text":"hi all","tone":"neutral"}`)
	srv := fakeServer(t, f, pages.Options{})

	// A feed that never ends fails the test when the client gives up, not by hanging it.
	client := &http.Client{Timeout: 30 * time.Second}
	res, err := client.Get(srv.URL + "/v1/rounds/T-7/events")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	r := bufio.NewReader(res.Body)
	if got := readSSE(t, r, 2); len(got) != 2 || got[1].id != "2" {
		t.Fatalf("before the abandon: %+v", got)
	}
	f.add("round.abandoned", "public", `{"reason":"server_shutdown","seed":"00"}`)
	got := readSSE(t, r, 2)
	if len(got) != 2 || got[0].id != "3" || got[1].event != "end" || got[1].data != `{"reason":"abandoned"}` {
		t.Fatalf("the abandon: %+v", got)
	}
	if want := "The round was abandoned (server_shutdown): nothing settles and every entry is returned."; !strings.Contains(got[0].data, want) {
		t.Fatalf("the abandon's line %s, want %q", got[0].data, want)
	}
	if more := readSSE(t, r, 1); len(more) != 0 {
		t.Fatalf("the feed went on after its end: %+v", more)
	}

	_, page := get(t, srv.URL+"/r/T-7", nil)
	for _, want := range []string{`<span class="pill">abandoned</span>`, "The round was abandoned: it ended early and nothing settled.", "The round was abandoned (server_shutdown)"} {
		if !strings.Contains(page, want) {
			t.Errorf("the abandoned round's page lacks %q", want)
		}
	}
	for _, bad := range []string{"EventSource", `id="reveal"`, `id="live-pill"`} {
		if strings.Contains(page, bad) {
			t.Errorf("the abandoned round's page has %q", bad)
		}
	}
}
