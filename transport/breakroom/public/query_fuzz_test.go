package public

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
)

// FuzzPublicQueries: any query on the reads that take one is answered 200, or refused with the
// protocol's error body and bad_request or unknown_game; nothing panics.
func FuzzPublicQueries(f *testing.F) {
	for _, s := range []string{"limit=50", "limit=0", "limit=-1", "limit=9999999999999999999999", "game=dilemma&limit=1",
		"game=%00", "days=365", "days=366", "days=1&days=1", "spoilers=1", "spoilers=%ff", "limit=1e2", "game=dilemma;x"} {
		f.Add(s)
	}
	r := newRig(f)
	f.Fuzz(func(t *testing.T, q string) {
		if _, err := url.ParseQuery(q); err != nil {
			return // the site's guard refuses a query that does not parse (transport/door)
		}
		for _, path := range []string{"/v0/matches", "/matches", "/v0/matches/m_fin", "/v0/stats", "/stats"} {
			req := httptest.NewRequest("GET", path, nil)
			req.URL.RawQuery = q
			rec := httptest.NewRecorder()
			r.h.ServeHTTP(rec, req)
			if rec.Code == http.StatusOK {
				continue
			}
			var e struct{ Type, Code string }
			if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e.Type != "error" ||
				(e.Code != "bad_request" && e.Code != "unknown_game") {
				t.Fatalf("GET %s?%s: %d %s", path, q, rec.Code, rec.Body)
			}
		}
	})
}
