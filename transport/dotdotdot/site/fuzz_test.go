package site

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"

	"arena/actors/dotdotdot"
	"arena/transport/dotdotdot/desk"
	"arena/transport/dotdotdot/desk/desktest"
)

// FuzzAnswerBody posts arbitrary bytes to /v1/walkin/answer while a move is open: the server
// never panics and never answers 5xx; it answers 200 only for a body that echoes the open
// move, and every other answer is a JSON refusal.
func FuzzAnswerBody(f *testing.F) {
	for _, s := range []string{
		`{"round":"T-2","turn":1,"phase":"talk","exchange":1}`,
		`{"round":"T-2","turn":1,"phase":"talk","exchange":1,"messages":[{"type":"public","text":"hi"}]}`,
		`{"round":"T-2","turn":1,"phase":"commit","commitments":[{"payee":2,"chips":5,"condition":{"always":true},"due":3}]}`,
		`{"round":"T-2","turn":1,"turn":1}`, `[]`, `null`, `{"round":"T-2"}x`, "\xff", `{"round":"T-99999999999999999999"}`,
		`{"round":"T-2","turn":1e400,"phase":"talk"}`, `{"round":"T-2","turn":-0,"phase":"talk","exchange":1}`,
	} {
		f.Add([]byte(s))
	}
	fake := desktest.New()
	e, err := New(Options{Desk: fake})
	if err != nil {
		f.Fatal(err)
	}
	tok, _ := fake.RegisterWalkin(f.Context(), "fuzz", "")
	fake.JoinWalkin(f.Context(), tok, dotdotdot.JoinRequest{Table: "practice"}) // round T-2
	f.Fuzz(func(t *testing.T, body []byte) {
		fake.Issue(tok, []byte(`{"v":1}`), prompt(1, "talk", 1))
		req := httptest.NewRequest(http.MethodPost, "/v1/walkin/answer", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Walkin", tok)
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("status %d for %q: %s", rec.Code, body, rec.Body.Bytes())
		}
		if rec.Code != 200 && !bytes.Contains(rec.Body.Bytes(), []byte(`"code":`)) {
			t.Fatalf("status %d without a code for %q: %s", rec.Code, body, rec.Body.Bytes())
		}
		if rec.Code == 200 {
			a, err := desk.DecodeAnswer(body)
			if err != nil || a.Round != "T-2" || a.Turn != 1 || a.Phase != "talk" || a.Exchange != 1 {
				t.Fatalf("accepted %q: echo %+v, %v", body, a, err)
			}
		}
	})
}
