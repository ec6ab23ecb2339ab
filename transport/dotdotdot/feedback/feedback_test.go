package feedback_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"arena/storage"
	"arena/storage/storagetest"
	"arena/transport/door"
	"arena/transport/dotdotdot/codes"
	"arena/transport/dotdotdot/feedback"
)

const opToken = "op-secret"

type rig struct {
	t     *testing.T
	store *storage.Store
	srv   *httptest.Server
}

func newRig(t *testing.T, limit door.Rate) *rig {
	t.Helper()
	st := storagetest.Open(t, storage.Options{NoSync: true})
	e := echo.New()
	e.HTTPErrorHandler = codes.ErrorHandler(nil)
	e.Pre(door.UniqueQuery()) // as the site does
	now := time.Date(2026, 9, 9, 14, 0, 0, 0, time.UTC)
	feedback.Mount(e, feedback.Options{Notes: st, OperatorToken: opToken, Now: func() time.Time { return now },
		Limiter: door.NewLimiter(limit, door.LimiterOptions{Now: func() time.Time { return now }})})
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return &rig{t: t, store: st, srv: srv}
}

func (r *rig) do(method, path, body string, hdr map[string]string) (int, string, http.Header) {
	r.t.Helper()
	req, _ := http.NewRequest(method, r.srv.URL+path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b), res.Header
}

// TestFeedbackIsKeptAndRead: the notice's link answers how to send a note; a note is stored
// (201, its seq) with its round and, given a walk-in token, the token's record key and never the
// token; the operators read the notes in order, paged, behind their token.
func TestFeedbackIsKeptAndRead(t *testing.T) {
	r := newRig(t, door.Rate{})
	if code, body, _ := r.do("GET", "/v1/feedback", "", nil); code != 200 || !strings.Contains(body, `"post":"/v1/feedback"`) {
		t.Fatalf("GET /v1/feedback: %d %s", code, body)
	}
	code, body, _ := r.do("POST", "/v1/feedback", `{"text":"  the bell rang twice  ","round":"T-42"}`, nil)
	if code != 201 || !strings.Contains(body, `"seq":1`) || !strings.Contains(body, "Nell") {
		t.Fatalf("POST: %d %s", code, body)
	}
	tok := "w_" + strings.Repeat("A", 43)
	if code, body, _ := r.do("POST", "/v1/feedback", `{"text":"é 😀 from a walk-in"}`, map[string]string{"x-walkin": tok}); code != 201 {
		t.Fatalf("POST with a token: %d %s", code, body)
	}
	notes, err := r.store.FeedbackNotes(0, 0)
	if err != nil || len(notes) != 2 {
		t.Fatalf("stored %+v %v", notes, err)
	}
	if n := notes[0]; n.Text != "the bell rang twice" || n.Round != "T-42" || n.Via != storage.FeedbackHTTP || n.From != "" {
		t.Errorf("first note %+v", n)
	}
	if n := notes[1]; n.From != feedback.From(tok) || !strings.HasPrefix(n.From, "walkin:") || strings.Contains(n.From, tok) {
		t.Errorf("second note's sender %q", n.From)
	}

	for _, c := range []struct {
		hdr  map[string]string
		code int
	}{
		{nil, 401},
		{map[string]string{"Authorization": "Bearer wrong"}, 403},
	} {
		if code, _, _ := r.do("GET", "/ops/feedback", "", c.hdr); code != c.code {
			t.Errorf("ops feedback with %v: %d, want %d", c.hdr, code, c.code)
		}
	}
	op := map[string]string{"Authorization": "Bearer " + opToken}
	var page struct {
		Notes []storage.FeedbackNote `json:"notes"`
		Next  uint64                 `json:"next"`
	}
	code, body, _ = r.do("GET", "/ops/feedback?limit=1", "", op)
	if code != 200 || json.Unmarshal([]byte(body), &page) != nil || len(page.Notes) != 1 || page.Notes[0].Seq != 1 || page.Next != 1 {
		t.Fatalf("first page: %d %s", code, body)
	}
	code, body, _ = r.do("GET", "/ops/feedback?after=1", "", op)
	if code != 200 || json.Unmarshal([]byte(body), &page) != nil || len(page.Notes) != 1 || page.Notes[0].Text != "é 😀 from a walk-in" || page.Next != 2 {
		t.Fatalf("second page: %d %s", code, body)
	}
	for _, q := range []string{"?after=x", "?limit=501", "?after=1&after=2", "?from=1"} {
		if code, _, _ := r.do("GET", "/ops/feedback"+q, "", op); code != 400 {
			t.Errorf("ops feedback%s: %d, want 400", q, code)
		}
	}
}

// TestFeedbackRefusesBadNotes: every malformed note is refused with the protocol's code and
// nothing is stored: strict JSON (unknown, repeated or wrongly typed members, trailing data), an
// empty, blank or over-long text, a round that is no round id, a token that is no token, a body
// over the cap, a body that is not JSON.
func TestFeedbackRefusesBadNotes(t *testing.T) {
	r := newRig(t, door.Rate{})
	long := strings.Repeat("é", storage.MaxFeedbackText+1)
	for _, c := range []struct {
		body string
		hdr  map[string]string
		code int
	}{
		{`{"text":"hi","extra":1}`, nil, 400},
		{`{"text":"hi","text":"again"}`, nil, 400},
		{`{"Text":"hi"}`, nil, 400},
		{`{"text":7}`, nil, 400},
		{`{"text":"hi"} {}`, nil, 400},
		{`{"text":""}`, nil, 400},
		{`{"text":"   "}`, nil, 400},
		{`{"text":"` + long + `"}`, nil, 400},
		{`{"text":"hi","round":"round 7"}`, nil, 400},
		{`{"text":"hi","round":"T-007"}`, nil, 400},
		{`{"text":"\ud800 lone"}`, nil, 400},
		{`{"text":"hi"}`, map[string]string{"x-walkin": "not-a-token"}, 401},
		{`{"text":"` + strings.Repeat("x", feedback.DefaultMaxBody) + `"}`, nil, 413},
		{`text=hi`, nil, 400},
	} {
		if code, body, _ := r.do("POST", "/v1/feedback", c.body, c.hdr); code != c.code {
			b := c.body
			if len(b) > 60 {
				b = b[:60] + "…"
			}
			t.Errorf("%s: %d %s, want %d", b, code, body, c.code)
		}
	}
	if notes, err := r.store.FeedbackNotes(0, 0); err != nil || len(notes) != 0 {
		t.Fatalf("stored after refusals: %+v %v", notes, err)
	}
}

// TestFeedbackIsRateLimited: past its burst an address is refused rate_limited (429, retry,
// Retry-After), and the refused note is not stored.
func TestFeedbackIsRateLimited(t *testing.T) {
	r := newRig(t, door.Rate{Burst: 2, Every: time.Minute})
	for i := range 2 {
		if code, body, _ := r.do("POST", "/v1/feedback", `{"text":"note"}`, nil); code != 201 {
			t.Fatalf("note %d: %d %s", i, code, body)
		}
	}
	code, body, hdr := r.do("POST", "/v1/feedback", `{"text":"one too many"}`, nil)
	if code != 429 || !strings.Contains(body, `"rate_limited"`) || hdr.Get("Retry-After") == "" {
		t.Fatalf("past the burst: %d %s (Retry-After %q)", code, body, hdr.Get("Retry-After"))
	}
	if notes, _ := r.store.FeedbackNotes(0, 0); len(notes) != 2 {
		t.Fatalf("%d notes stored, want 2", len(notes))
	}
}
