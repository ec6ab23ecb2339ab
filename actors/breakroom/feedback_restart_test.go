package breakroom

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"

	"arena/actors"
	"arena/games/breakroom/wire"
	"arena/storage/storagetest"
)

// skewClock is the wall clock moved on by skew (the runtime's clock: the feedback window is
// read from it).
type skewClock struct{ skew atomic.Int64 }

func (c *skewClock) Now() time.Time { return time.Now().Add(time.Duration(c.skew.Load())) }
func (c *skewClock) AfterFunc(d time.Duration, f func()) func() bool {
	return time.AfterFunc(d, f).Stop
}

// TestFeedbackTokenAfterRestart: three HTTP agents play a match out; the server restarts (the
// room forgets every token). A note sent with a token the match's seat held is still its key's:
// kept within 24 h of the end, feedback_closed past it, never unauthorized; so is a note from a
// socket that joined again (signed: its key sat at the match); a token no seat of the match held
// stays unauthorized.
func TestFeedbackTokenAfterRestart(t *testing.T) {
	clk := &skewClock{}
	h := &harness{t: t, path: storagetest.Path(t), lobby: actors.NewFakeClock(time.Date(2026, 10, 2, 8, 0, 0, 0, time.UTC)), clock: clk}
	h.start(shortDilemma(3, 3))
	t.Cleanup(func() { h.stop() })
	as := []*agent{newAgent(h, "Ada"), newAgent(h, "Bea"), newAgent(h, "Cy")}
	tokens := make([]string, len(as))
	for i, a := range as {
		tokens[i] = a.join(ViaHTTP).Conn
	}
	id := ""
	for deadline := time.Now().Add(20 * time.Second); id == "" && time.Now().Before(deadline); {
		ms, err := h.room.Matches(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(ms) == 1 && ms[0].ID != "" {
			id = ms[0].ID
		} else {
			time.Sleep(5 * time.Millisecond)
		}
	}
	if id == "" {
		t.Fatal("no table formed")
	}
	ends := make(chan string, len(as))
	for _, tok := range tokens {
		go func() {
			for {
				st, err := h.room.State(context.Background(), tok, id, 2*time.Second)
				if codeOf(err) == "not_seated" { // the table is opening
					time.Sleep(5 * time.Millisecond)
					continue
				}
				if err != nil {
					t.Errorf("state: %v", err)
					ends <- ""
					return
				}
				if st.Status == wire.StatusEnded {
					ends <- st.MatchID
					return
				}
				if st.Status == wire.StatusYourTurn {
					_ = h.room.Move(context.Background(), tok, &wire.Move{MatchID: st.MatchID, Round: st.Round, Turn: st.Turn,
						Body: json.RawMessage(`{"action":"cooperate"}`)})
				}
			}
		}()
	}
	match := ""
	for range as {
		if m := <-ends; m != "" {
			match = m
		}
	}
	if match == "" {
		t.Fatal("the match did not end")
	}

	h.stop()
	h.start(shortDilemma(3, 3))
	for i, a := range as {
		a.h = h
		if _, err := h.room.State(context.Background(), tokens[i], match, 0); codeOf(err) != "unauthorized" {
			t.Fatalf("%s's old token after the restart: %v, want unauthorized", a.name, err)
		}
	}
	if _, err := h.room.Feedback(context.Background(), tokens[1], &wire.Feedback{MatchID: match, Text: "after the restart", Rating: 4}); err != nil {
		t.Fatalf("a note with a seat's token after the restart: %v", err)
	}
	note, err := h.store.BreakroomFeedback(match, as[1].key)
	var n struct {
		Text   string
		Rating int
	}
	if err != nil || json.Unmarshal(note, &n) != nil || n.Text != "after the restart" || n.Rating != 4 {
		t.Fatalf("Bea's note %s (%v)", note, err)
	}
	// A socket agent joins again (signed): its new connection is its key's, a player of the match.
	sock := as[0].join(ViaWebSocket).Conn
	if _, err := h.room.Feedback(context.Background(), sock, &wire.Feedback{MatchID: match, Text: "over the socket"}); err != nil {
		t.Fatalf("a note from a re-joined socket: %v", err)
	}
	if ada, err := h.store.BreakroomFeedback(match, as[0].key); err != nil || json.Unmarshal(ada, &n) != nil || n.Text != "over the socket" {
		t.Fatalf("Ada's note %s (%v)", ada, err)
	}
	if _, err := h.room.Feedback(context.Background(), "not-a-token", &wire.Feedback{MatchID: match, Text: "hi"}); codeOf(err) != "unauthorized" {
		t.Fatalf("a token no seat held: %v, want unauthorized", err)
	}
	clk.skew.Store(int64(FeedbackOpen + time.Minute))
	for i, a := range as {
		if _, err := h.room.Feedback(context.Background(), tokens[i], &wire.Feedback{MatchID: match, Text: "late"}); codeOf(err) != "feedback_closed" {
			t.Fatalf("%s's note past 24 h: %v, want feedback_closed", a.name, err)
		}
	}
	if _, err := h.room.Feedback(context.Background(), sock, &wire.Feedback{MatchID: match, Text: "late"}); codeOf(err) != "feedback_closed" {
		t.Fatalf("the re-joined socket's note past 24 h: %v, want feedback_closed", err)
	}
	if again, _ := h.store.BreakroomFeedback(match, as[1].key); string(again) != string(note) {
		t.Fatalf("a refused note changed the stored one: %s", again)
	}
}
