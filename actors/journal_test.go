package actors

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"arena/games"
	"arena/games/blitz"
	"arena/storage"
)

// playBlitzShort plays a Short round of house seats on the harness clock; with restart, the arena
// is shut down and started again (boot recovery) after a few clock steps. It returns the
// transcript. It runs in a synctest bubble (driveToEnd).
func playBlitzShort(t *testing.T, restart bool) ([]games.Event, *harness) {
	h := newHarness(t)
	h.eng2 = blitz.NewEngine(blitz.DefaultFees())
	h.stop()
	h.start()
	var sp []SeatSpec
	for i := 1; i <= 3; i++ {
		// Walkin: the arena signs house seats' commitments, as the desk's practice tables do
		sp = append(sp, SeatSpec{Seat: games.Seat{Seat: i, Name: fmt.Sprintf("House %d", i), Entry: 100_000_000, Options: blitz.SeatOptions{Kind: "house", Walkin: true, Collateral: 60_000_000}.JSON()}, Kind: "house", Channel: ChannelHouse})
	}
	round := h.open(TableSpec{ID: "bj", Game: blitz.ID, Format: "short", Kind: "practice", Seats: sp,
		Seed: fixedSeed(11), Pace: games.Pace{Name: "chat", Steps: map[string]time.Duration{"scouting": 10 * time.Second, "talk": 15 * time.Second, "commit": 20 * time.Second, "settle": 5 * time.Second}}})
	if restart {
		h.driveSteps(8) // scouting, turn 1's phases, into turn 2
		h.stop()
		rec := h.record("bj")
		entries, err := inputData(h.store.Inputs("bj"))
		if err != nil {
			t.Fatal(err)
		}
		// The record holds no snapshot; the journal's first entry is its head, the rest the inputs.
		var head map[string]json.RawMessage
		if !rec.Journal || len(rec.Match) != 0 || len(entries) < 5 || json.Unmarshal(entries[0], &head) != nil ||
			head["log"] != nil || head["setup"] == nil {
			t.Fatalf("record journal=%v match %d bytes, %d entries", rec.Journal, len(rec.Match), len(entries))
		}
		h.start()
	}
	h.driveToEnd("bj", 300)
	evs, revealed, err := h.arena.Transcript(context.Background(), round)
	if err != nil || !revealed {
		t.Fatalf("transcript: revealed %v err %v", revealed, err)
	}
	return evs, h
}

// A Blitz table keeps a journal (its input log, games.ReplayLog): stopped mid-round and restored from its head
// and stored entries, it finishes its round, and the transcript hash the restored match computed
// (over the events it replayed from the journal and the rest) is the hash of the transcript the
// store holds (events persisted before the restart and after): the replay reproduced every event
// byte for byte. (House seats answer concurrently, so two runs' transcripts may order the seats
// of one move differently; the hash is the check that holds.)
func TestBlitzTableRestoresFromItsJournal(t *testing.T) {
	inBubble(t, blitzTableRestoresFromItsJournal)
}

func blitzTableRestoresFromItsJournal(t *testing.T) {
	evs, h := playBlitzShort(t, true)
	rec := h.record("bj")
	if rec.Status != StatusFinished || rec.Result == nil {
		t.Fatalf("record after the restart: %s", rec.Status)
	}
	got, err := blitz.TranscriptHash(evs)
	if err != nil || got != rec.Result.TranscriptHash {
		t.Fatalf("stored transcript hashes to %s (%v), the restored match says %s", got, err, rec.Result.TranscriptHash)
	}
	sealed := 0
	for _, e := range evs {
		if e.Type == "commitment.sealed" && e.Visibility == "public" {
			sealed++
		}
	}
	if sealed == 0 || len(evs) < 60 {
		t.Fatalf("%d events, %d commitments sealed: the round did not play", len(evs), sealed)
	}
}

// driveSteps moves the fake clock n deadlines on, waiting for the arena to go quiet before each
// (as driveToEnd does).
func (h *harness) driveSteps(n int) {
	h.t.Helper()
	for i := 0; i < n; i++ {
		h.quiet()
		if at, ok := h.clock.NextAt(); ok {
			h.clock.Set(at)
		}
	}
}

// inputData is the bytes of a table's logged inputs, in order (storage.Inputs less the seqs).
func inputData(in []storage.Input, err error) ([][]byte, error) {
	out := make([][]byte, len(in))
	for i := range in {
		out[i] = in[i].Data
	}
	return out, err
}
