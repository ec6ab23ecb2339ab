package warden

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"arena/transport/door"
)

// Any cursor either is refused with bad_request or is one String writes back byte for byte.
func FuzzParseBoardKey(f *testing.F) {
	f.Add("1.280000.5000.2." + quill.id)
	f.Add("0.-5.0.1." + cyd.id)
	f.Add("3.0.0.0." + dot.id)
	f.Add("1.-0.0.0." + dot.id)
	f.Add("1.9007199254740993.0.0.x")
	f.Add("....")
	f.Fuzz(func(t *testing.T, s string) {
		k, err := ParseBoardKey(s)
		if err != nil {
			if r, ok := door.AsRefusal(err); !ok || r.Code != "bad_request" {
				t.Fatalf("%q: %v, not a bad_request", s, err)
			}
			return
		}
		if k.String() != s || k.Tier < 0 || k.Tier > 3 || k.WinRate < 0 || k.WinRate > 10000 || k.Matches < 0 {
			t.Fatalf("%q read as %+v, written back %q", s, k, k.String())
		}
	})
}

// Any limit is refused or is 1..MaxLimit and its canonical decimal.
func FuzzParseLimit(f *testing.F) {
	for _, s := range []string{"", "1", "500", "501", "0", "01", "-1", "+5", "99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := ParseLimit(s)
		switch {
		case err != nil:
		case s == "" && n == DefaultLimit:
		case n < 1 || n > MaxLimit || strconv.Itoa(n) != s:
			t.Fatalf("%q read as %d", s, n)
		}
	})
}

// Any query string on the list reads is answered 200, or with a §7.3 code at its status; never
// 500 or a panic.
func FuzzReadQueries(f *testing.F) {
	for _, q := range []string{"limit=3&after=3", "contender=" + ada.id, "match=wm_0000000000000002", "tier=ELITE&game=warden.claims",
		"cursor=1.280000.5000.2." + quill.id, "temperament=shark", "limit=%zz", "after=18446744073709551616", "a=1&a=2"} {
		f.Add(q)
	}
	r := newReadRig(f, fourMatches(), dot)
	e := r.srv.Config.Handler
	f.Fuzz(func(t *testing.T, q string) {
		for _, path := range []string{"/v1/warden/ledger", "/v1/warden/leaderboard", "/v1/warden/temperaments"} {
			req, err := http.NewRequest("GET", path, nil)
			if err != nil {
				t.Fatal(err)
			}
			req.URL.RawQuery = q
			rec := httptest.NewRecorder()
			e.ServeHTTP(rec, req)
			var out map[string]any
			if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
				t.Fatalf("%s?%s: undecodable answer %q", path, q, rec.Body.Bytes())
			}
			code, _ := out["error"].(string)
			if rec.Code != 200 && (rec.Code >= 500 || rec.Code != Statuses.Status(code)) {
				t.Fatalf("%s?%s: %d %v", path, q, rec.Code, out)
			}
		}
	})
}
