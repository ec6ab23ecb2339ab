package site

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"

	"arena/actors/dotdotdot"
	"arena/transport/dotdotdot/desk/desktest"
)

// BenchmarkPollAndAnswer is the door's cost of one move (a poll that finds the move, then its
// answer) through echo, the strict checks and JSON, in process against the fake desk.
func BenchmarkPollAndAnswer(b *testing.B) {
	fake := desktest.New()
	e, err := New(Options{Desk: fake})
	if err != nil {
		b.Fatal(err)
	}
	tok, _ := fake.RegisterWalkin(b.Context(), "bench", "")
	fake.JoinWalkin(b.Context(), tok, dotdotdot.JoinRequest{Table: "practice"}) // round T-2
	env := envelope("T-2", 1, "talk", 1)
	body := []byte(`{"round":"T-2","turn":1,"phase":"talk","exchange":1,"messages":[{"type":"public","text":"hello"}]}`)
	b.ReportAllocs()
	for b.Loop() {
		fake.Issue(tok, env, prompt(1, "talk", 1))
		req := httptest.NewRequest(http.MethodGet, "/v1/walkin/next?wait=0", nil)
		req.Header.Set("X-Walkin", tok)
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		if rec.Code != 200 {
			b.Fatalf("poll %d", rec.Code)
		}
		req = httptest.NewRequest(http.MethodPost, "/v1/walkin/answer", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Walkin", tok)
		rec = httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		if rec.Code != 200 {
			b.Fatalf("answer %d %s", rec.Code, rec.Body)
		}
	}
}
