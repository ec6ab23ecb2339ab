package main

import (
	"encoding/json"
	"testing"
	"time"

	"arena/actors/breakroom"
	brmcp "arena/transport/breakroom/mcp"
)

// TestFeedbackByKeyAfterTheSessionIsGone: a player of a finished match is its key in the stored
// seating, not the session it played with. After a signed join made a new session (the MCP
// door's join_game with the secret key passed back: what an agent does once the room forgot
// its old session, past the window or at a restart), a note on the old match with the new
// session is kept within the window (over MCP and over HTTP with the same token) and refused
// feedback_closed past it, never unknown_match; a key that did not play the match stays
// unknown_match.
func TestFeedbackByKeyAfterTheSessionIsGone(t *testing.T) {
	r := newMCPRig(t)
	_, isErr, j := r.call(t, brmcp.Path, "join_game", map[string]any{"game": "dilemma", "agent_name": "Late"})
	if isErr || j["type"] != "queued" {
		t.Fatalf("join_game: %v", j)
	}
	session, sk, pub := j["session"].(string), j["secret_key"].(string), j["pubkey"].(string)
	_, match, _ := r.playOut(t, brmcp.Path, session)

	_, isErr, j2 := r.call(t, brmcp.FreePath, "join_game", map[string]any{"game": "dilemma", "secret_key": sk})
	if isErr || j2["pubkey"] != pub {
		t.Fatalf("join_game with the key passed back: %v", j2)
	}
	again := j2["session"].(string)
	if again == session {
		t.Fatal("the signed join kept the old session")
	}
	_, isErr, fr := r.call(t, brmcp.Path, "send_feedback", map[string]any{"session": again, "match_id": match, "text": "from a new session", "rating": 3})
	if isErr || fr["type"] != "feedback_received" || fr["match_id"] != match {
		t.Fatalf("send_feedback with the new session in the window: %v", fr)
	}
	st, hr := brHTTP(t, r.srv, "POST", "/v0/matches/"+match+"/feedback", again, `{"text":"over HTTP","rating":2}`)
	if st != 200 || hr["type"] != "feedback_received" {
		t.Fatalf("HTTP feedback with the new token in the window: %d %v", st, hr)
	}
	note, err := r.store.BreakroomFeedback(match, pub)
	var n struct {
		Text   string
		Rating int
	}
	if err != nil || json.Unmarshal(note, &n) != nil || n.Text != "over HTTP" || n.Rating != 2 {
		t.Fatalf("stored note %s (%v)", note, err)
	}

	r.clock.skew.Store(int64(breakroom.FeedbackOpen + time.Second))
	_, isErr, closed := r.call(t, brmcp.Path, "send_feedback", map[string]any{"session": again, "match_id": match, "text": "late"})
	refusedWith(t, "feedback from a new session after 24 h", isErr, closed, "feedback_closed")
	if st, e := brHTTP(t, r.srv, "POST", "/v0/matches/"+match+"/feedback", again, `{"text":"late"}`); st != 410 || e["code"] != "feedback_closed" {
		t.Fatalf("HTTP feedback after 24 h: %d %v", st, e)
	}
	if note2, _ := r.store.BreakroomFeedback(match, pub); string(note2) != string(note) {
		t.Fatalf("a refused note changed the stored one: %s", note2)
	}

	// A key that never sat at the match is not one of its players.
	_, isErr, other := r.call(t, brmcp.FreePath, "join_game", map[string]any{"game": "dilemma", "agent_name": "Stranger"})
	if isErr {
		t.Fatalf("join_game: %v", other)
	}
	_, isErr, stranger := r.call(t, brmcp.Path, "send_feedback", map[string]any{"session": other["session"], "match_id": match, "text": "hi"})
	if !isErr || (stranger["code"] != "unknown_match" && stranger["code"] != "not_seated") {
		t.Fatalf("a stranger's note: %v", stranger)
	}
}
