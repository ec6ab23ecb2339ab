package blitz

import (
	"bytes"
	"encoding/json"
	"testing"

	"arena/games"
)

// A live match keeps no event list: Events() replays the inputs, taking them from Snapshot(),
// which moves them into the snapshot's JSON (logJSON). Journal (games.Journaler, what the arena's
// tables use at every commit) and Snapshot exclude each other. Events reads as a query and its
// doc promises the transcript so far, so these tests hold it to that beside Journal:

// journalFixture plays to turn 1's talk, with one line said, and returns the events handed out.
func journalFixture(t *testing.T) (*harness, []byte) {
	h := newHarness(t, hostileSetup(1))
	h.to(1, "talk", 1)
	h.mustNoDrop(1, `{"messages":[{"type":"public","text":"before the journal"}]}`)
	var handed []games.Event
	for _, st := range h.steps {
		handed = append(handed, st.Events...)
	}
	want, _ := json.Marshal(handed)
	return h, want
}

// After Journal (or RestoreJournal) the match no longer holds its inputs (the table's store does):
// Events, which replays them, says so with an error rather than reading as an empty transcript,
// and so does Snapshot. (Was: Events silently returned nil.)
func TestEventsAfterJournal(t *testing.T) {
	h, want := journalFixture(t)
	if got, _ := json.Marshal(mustEvents(h.m.Events())); !bytes.Equal(got, want) {
		t.Fatalf("before Journal, Events() is %.80s, want the events handed out (%d bytes)", got, len(want))
	}
	head, entries, err := h.m.Journal()
	if err != nil {
		t.Fatal(err)
	}
	if evs, err := h.m.Events(); err == nil || evs != nil {
		t.Errorf("after Journal, Events() of the live match: %d events, error %v; want an error saying the inputs are in the journal", len(evs), err)
	}
	rm, err := NewEngine(DefaultFees()).RestoreJournal(head, entries, h.keys)
	if err != nil {
		t.Fatal(err)
	}
	if evs, err := rm.(*Match).Events(); err == nil || evs != nil {
		t.Errorf("restored from its journal, Events(): %d events, error %v; want an error", len(evs), err)
	}
	if _, err := rm.(*Match).Snapshot(); err == nil {
		t.Error("restored from its journal, Snapshot() gave a snapshot without the inputs")
	}
}

// Asking for the events leaves the match as it was: Journal afterwards hands out every input.
// Were Events to take its inputs through Snapshot, which moves them into the snapshot's JSON, a
// later Journal would fail ("a snapshot already holds earlier inputs") and a table whose match
// was asked for its events could never commit its journal.
func TestEventsLeavesJournalPossible(t *testing.T) {
	h, want := journalFixture(t)
	if got, _ := json.Marshal(mustEvents(h.m.Events())); !bytes.Equal(got, want) {
		t.Fatalf("Events() is not the events handed out")
	}
	head, entries, err := h.m.Journal()
	if err != nil {
		t.Fatalf("Journal after Events(): %v", err)
	}
	rm, err := NewEngine(DefaultFees()).RestoreJournal(head, entries, h.keys)
	if err != nil {
		t.Fatal(err)
	}
	if promptsOf(rm.(*Match)) != promptsOf(h.m) {
		t.Fatal("the match restored from the journal differs")
	}
}
