package blitz

import (
	"bytes"
	"encoding/json"
	"testing"

	"arena/games"
)

// A live match keeps no event list: Events() replays the inputs, taking them from Snapshot(),
// which moves them into the snapshot's JSON (logJSON). A table keeps the input log itself
// (games.Logged entries, restored with games.ReplayLog) and has the match let its inputs go
// (DropInputs, games.InputKeeper), after which the match has nothing to replay.

// inputLogFixture plays to turn 1's talk, with one line said, and returns the events handed out.
func inputLogFixture(t *testing.T) (*harness, []byte) {
	h := newHarness(t, hostileSetup(1))
	h.to(1, "talk", 1)
	h.mustNoDrop(1, `{"messages":[{"type":"public","text":"before the input log"}]}`)
	var handed []games.Event
	for _, st := range h.steps {
		handed = append(handed, st.Events...)
	}
	want, _ := json.Marshal(handed)
	return h, want
}

// After DropInputs (the table's log holds them) the match no longer holds its inputs: Events,
// which replays them, says so with an error rather than reading as an empty transcript, and so
// does Snapshot; a match rebuilt from the table's log (games.ReplayLog) and told the same says
// the same.
func TestEventsAfterDropInputs(t *testing.T) {
	h, want := inputLogFixture(t)
	if got, _ := json.Marshal(mustEvents(h.m.Events())); !bytes.Equal(got, want) {
		t.Fatalf("before DropInputs, Events() is %.80s, want the events handed out (%d bytes)", got, len(want))
	}
	h.m.DropInputs()
	if evs, err := h.m.Events(); err == nil || evs != nil {
		t.Errorf("after DropInputs, Events() of the live match: %d events, error %v; want an error saying the inputs are in the table's log", len(evs), err)
	}
	rm := h.replayLog()
	rm.DropInputs()
	if evs, err := rm.Events(); err == nil || evs != nil {
		t.Errorf("restored from the input log, Events(): %d events, error %v; want an error", len(evs), err)
	}
	if _, err := rm.Snapshot(); err == nil {
		t.Error("restored from the input log, Snapshot() gave a snapshot without the inputs")
	}
}

// Asking for the events leaves the match as it was (Events reads the inputs without moving them
// into the snapshot's JSON): asked again, the same events; its input log afterwards rebuilds the
// same match.
func TestEventsLeavesTheMatchAsItWas(t *testing.T) {
	h, want := inputLogFixture(t)
	if got, _ := json.Marshal(mustEvents(h.m.Events())); !bytes.Equal(got, want) {
		t.Fatalf("Events() is not the events handed out")
	}
	if got, _ := json.Marshal(mustEvents(h.m.Events())); !bytes.Equal(got, want) {
		t.Fatalf("Events() asked twice is not the events handed out")
	}
	h.m.DropInputs()
	if promptsOf(h.replayLog()) != promptsOf(h.m) {
		t.Fatal("the match restored from the input log differs")
	}
}
