package feedback_test

import (
	"encoding/json"
	"strings"
	"testing"

	"arena/storage"
	"arena/transport/door"
)

// TestFeedbackTrimmedByOperators: an operator deletes the notes it has read (DELETE
// /ops/feedback?through=<seq>, behind the operator token), which makes room in a box that was
// full; the notes after keep their seq, and a page may start after any seq ever given.
func TestFeedbackTrimmedByOperators(t *testing.T) {
	r := newRig(t, door.Rate{})
	for i := 0; i < 3; i++ {
		if code, body, _ := r.do("POST", "/v1/feedback", `{"text":"note"}`, nil); code != 201 {
			t.Fatalf("POST: %d %s", code, body)
		}
	}
	if code, _, _ := r.do("DELETE", "/ops/feedback?through=2", "", nil); code != 401 {
		t.Fatalf("trim without the operator token: %d, want 401", code)
	}
	op := map[string]string{"Authorization": "Bearer " + opToken}
	for _, q := range []string{"", "?through=x", "?through=1&through=2", "?after=1"} {
		if code, _, _ := r.do("DELETE", "/ops/feedback"+q, "", op); code != 400 {
			t.Errorf("trim%s: %d, want 400", q, code)
		}
	}
	if notes, _ := r.store.FeedbackNotes(0, 0); len(notes) != 3 {
		t.Fatalf("the refused trims deleted notes: %+v", notes)
	}
	code, body, _ := r.do("DELETE", "/ops/feedback?through=2", "", op)
	if code != 200 || !strings.Contains(body, `"trimmed":2`) {
		t.Fatalf("trim through 2: %d %s", code, body)
	}
	var page struct {
		Notes []storage.FeedbackNote `json:"notes"`
		Next  uint64                 `json:"next"`
	}
	code, body, _ = r.do("GET", "/ops/feedback", "", op)
	if code != 200 || json.Unmarshal([]byte(body), &page) != nil || len(page.Notes) != 1 || page.Notes[0].Seq != 3 || page.Next != 3 {
		t.Fatalf("after the trim: %d %s", code, body)
	}
	if code, body, _ := r.do("GET", "/ops/feedback?after=250000", "", op); code != 200 {
		t.Fatalf("a page after a seq past MaxFeedbackNotes: %d %s", code, body)
	}
}
