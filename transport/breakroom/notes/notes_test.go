package notes

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"arena/storage"
	"arena/storage/storagetest"
	"arena/transport/breakroom"
	"arena/transport/httpapi"
)

// GET /ops/feedback answers every kept note oldest first, a replaced note once with its new
// text, and only with the operator token (401 without one, 403 with another).
func TestOperatorsReadTheNotes(t *testing.T) {
	st := storagetest.Open(t, storage.Options{NoSync: true})
	put := func(match, key, note string) {
		if err := st.PutBreakroomFeedback(match, key, []byte(note)); err != nil {
			t.Fatal(err)
		}
	}
	put("m_b", "k1", `{"at":"2026-03-04T05:00:02Z","text":"second","rating":2}`)
	put("m_a", "k2", `{"at":"2026-03-04T05:00:01Z","text":"first"}`)
	put("m_b", "k1", `{"at":"2026-03-04T05:00:03Z","text":"second, replaced","rating":5}`)
	e, err := httpapi.Build(breakroom.Site{Doors: New(st, "op-token")}, httpapi.Global{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(e)
	defer srv.Close()
	get := func(tok string) (int, []Note) {
		req, _ := http.NewRequest("GET", srv.URL+Path, nil)
		if tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var page struct{ Notes []Note }
		json.NewDecoder(resp.Body).Decode(&page)
		return resp.StatusCode, page.Notes
	}
	if code, _ := get(""); code != http.StatusUnauthorized {
		t.Errorf("no token: %d", code)
	}
	if code, _ := get("wrong"); code != http.StatusForbidden {
		t.Errorf("wrong token: %d", code)
	}
	code, ns := get("op-token")
	if code != 200 || len(ns) != 2 || ns[0].MatchID != "m_a" || ns[0].Pubkey != "k2" || ns[0].Text != "first" || ns[0].Rating != 0 ||
		ns[1].MatchID != "m_b" || ns[1].Text != "second, replaced" || ns[1].Rating != 5 {
		t.Errorf("notes: %d %+v", code, ns)
	}
}
