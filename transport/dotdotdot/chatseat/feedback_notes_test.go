package chatseat

import (
	"strings"
	"testing"
	"time"

	"arena/storage"
	"arena/storage/storagetest"
	"arena/transport/door"
	"arena/transport/dotdotdot/feedback"
)

// The feedback tool keeps its note where POST /v1/feedback does (feedback.Keep on the store):
// kept as Via mcp with its round and the token's record key, never the token; a round that is
// no round id is refused, kept nowhere and spends no budget; past the per-address limit the tool answers
// rate_limited and keeps nothing.
func TestFeedbackToolKeepsTheNote(t *testing.T) {
	st := storagetest.Open(t, storage.Options{NoSync: true})
	now := time.Date(2026, 9, 9, 14, 0, 0, 0, time.UTC)
	lim := door.NewLimiter(door.Rate{Burst: 2, Every: time.Minute}, door.LimiterOptions{Now: func() time.Time { return now }})
	srv := seat(t, &fakeDesk{}, Options{Feedback: feedback.Keep(st, func() time.Time { return now }), Notes: lim})
	if out, isErr := call(t, srv, "feedback", `{"token":"`+tok+`","round":"T-7","text":" too slow a clock "}`); isErr {
		t.Fatal(out)
	}
	if out, isErr := call(t, srv, "feedback", `{"text":"hi","round":"tomorrow"}`); !isErr || !strings.Contains(out, "round") {
		t.Fatalf("a round that is no round id: %s", out)
	}
	// The refused note spent none of the budget of two: a second note is kept, a third is not.
	if out, isErr := call(t, srv, "feedback", `{"text":"second"}`); isErr {
		t.Fatal(out)
	}
	if out, isErr := call(t, srv, "feedback", `{"text":"one too many"}`); !isErr || !strings.Contains(out, "rate_limited") {
		t.Fatalf("past the limit: %s", out)
	}
	notes, err := st.FeedbackNotes(0, 0)
	if err != nil || len(notes) != 2 || notes[1].Text != "second" {
		t.Fatalf("notes %+v %v", notes, err)
	}
	if n := notes[0]; n.Via != storage.FeedbackMCP || n.Round != "T-7" || n.Text != "too slow a clock" || n.From != feedback.From(tok) || !n.At.Equal(now) {
		t.Fatalf("note %+v", n)
	}
}
