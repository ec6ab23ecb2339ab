package actors

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"testing"
	"testing/synctest"
	"time"

	"arena/games"
	"arena/games/blitz"
	"arena/games/canon"
)

// A live table holds no snapshot (actors/commit.go drops rec.Match; reload and
// recordPanic read the record back from the store) and a live Blitz match keeps no event list.
// These play whole Blitz rounds of six house seats (chat pace, every phase closes early, the
// clock never moves) through a crash mid-round and through failed commits, and require the
// transcript of the clean round, a stored snapshot that replays to exactly the stored events,
// and a record that still carries its snapshot after a panic.

func bzHarness(t *testing.T) *harness {
	h := newHarness(t)
	h.stop()
	h.eng2 = blitz.NewEngine(blitz.DefaultFees())
	h.start()
	return h
}

func bzHouseSpec(id string) TableSpec {
	spec := TableSpec{ID: id, Game: blitz.ID, Format: "blitz", Kind: "practice", Seed: fixedSeed(9),
		Pace: games.Pace{Name: "chat", CloseEarly: true, Steps: map[string]time.Duration{"scouting": time.Minute, "talk": time.Minute, "commit": time.Minute, "settle": time.Minute}}}
	for s := 1; s <= 6; s++ {
		spec.Seats = append(spec.Seats, SeatSpec{Seat: games.Seat{Seat: s, Name: "house " + strconv.Itoa(s),
			Entry: 200_000_000, Options: blitz.SeatOptions{Kind: "house", Collateral: 100_000_000}.JSON()},
			Kind: "house", Channel: ChannelHouse})
	}
	return spec
}

// bzWalkinSeat makes a bzHouseSpec seat a walk-in's: its Blitz options say walkin, and the
// arena holds its key.
func bzWalkinSeat(s *SeatSpec) {
	o, err := blitz.SeatOptionsOf(s.Seat)
	if err != nil {
		panic(err)
	}
	o.Kind, o.Walkin = "walkin", true
	s.Seat.Options, s.Kind, s.Lent = o.JSON(), "walkin", true
}

// bzStoredReplays checks the table's stored state: the record's snapshot (or its journal's head
// and the entries stored beside it, written out as the snapshot they make) restores, and the
// restored match's Events() are the stored events byte for byte. The test must run in a
// synctest bubble (inBubble).
func bzStoredReplays(t *testing.T, h *harness, id, round string) {
	t.Helper()
	// A finished table may still commit (an anchor's line after the reveal): compare once the
	// arena is at rest.
	synctest.Wait()
	rec := h.record(id)
	if len(rec.Match) == 0 && !rec.Journal {
		t.Fatalf("table %s: the stored record has no snapshot and no journal", id)
	}
	keys, err := testKeys{}.Keyring(id, rec.Spec.Seats, rec.BYO)
	if err != nil {
		t.Fatal(err)
	}
	var m games.Match
	if rec.Journal { // the stored state is the table's input log: its head and entries
		entries, err := inputData(h.store.Inputs(id))
		if err != nil {
			t.Fatal(err)
		}
		head := bytes.TrimSpace(rec.Match)
		if len(head) == 0 { // the log's first entry is its head
			if len(entries) == 0 {
				t.Fatalf("table %s: a journal record with no entries", id)
			}
			head, entries = bytes.TrimSpace(entries[0]), entries[1:]
		}
		m, err = games.ReplayLog(h.eng2, head, entries, keys)
	} else {
		m, err = h.eng2.(*blitz.Engine).Restore(rec.Match, keys)
	}
	if err != nil {
		t.Fatalf("table %s: stored state does not restore: %v", id, err)
	}
	replayed, err := m.(*blitz.Match).Events()
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(replayed)
	evs, err := h.store.Events(round)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(evs)
	if !bytes.Equal(got, want) {
		t.Fatalf("table %s: the stored state replays to %d bytes of events, the store holds %d", id, len(got), len(want))
	}
}

func bzTranscript(t *testing.T, h *harness, round string) []byte {
	t.Helper()
	evs, revealed, err := h.arena.Transcript(context.Background(), round)
	if err != nil || !revealed {
		t.Fatalf("transcript: %v %v", revealed, err)
	}
	for i, e := range evs {
		if e.Seq != int64(i+1) {
			t.Fatalf("event %d has seq %d", i, e.Seq)
		}
	}
	b, _ := json.Marshal(evs)
	return b
}

// TestBlitzCrashMidRoundKeepsTranscript: a Blitz table that panics mid-round comes back from the
// stored record (read from the store, not the heap) and plays on: what was committed before the
// crash is the start of the final transcript, unchanged, and the stored state replays to the
// stored events. (Six house seats answer concurrently, so two runs may order their answers
// differently: the round is compared with itself, not with a clean run.)
func TestBlitzCrashMidRoundKeepsTranscript(t *testing.T) {
	inBubble(t, blitzCrashMidRoundKeepsTranscript)
}

func blitzCrashMidRoundKeepsTranscript(t *testing.T) {
	h := bzHarness(t)
	round := h.open(bzHouseSpec("bz"))
	h.waitEvent("turn 2 talk", and(roundIs(round), typeIs("phase.started"), turnIs(2)))
	before, err := h.store.Events(round)
	if err != nil || len(before) == 0 {
		t.Fatalf("events before the crash: %d, %v", len(before), err)
	}
	h.arena.System().Root.Send(h.arena.TablePID("bz"), &CrashTable{Tag: "mid-round"})
	h.waitEvent("round.revealed", and(roundIs(round), typeIs("round.revealed")))
	h.waitStatus("bz", StatusFinished)
	bzStoredReplays(t, h, "bz", round)
	after := bzTranscript(t, h, round)
	pre, _ := json.Marshal(before)
	if !bytes.HasPrefix(after, pre[:len(pre)-1]) {
		t.Fatalf("the transcript committed before the crash (%d events) is not the start of the final one", len(before))
	}
	rec := h.record("bz")
	if rec.Restarts != 1 || rec.Status != StatusFinished || (len(rec.Match) == 0 && !rec.Journal) {
		t.Fatalf("record after a crash: restarts %d, status %s, snapshot %d bytes, journal %v", rec.Restarts, rec.Status, len(rec.Match), rec.Journal)
	}
}

// TestBlitzFailedCommitsThenReload: seat 1 is a walk-in's mailbox that answers once, so the table
// waits on deadlines. Mid-round the disk fails: the walk-in's answer is refused as unavailable,
// the deadline's commit fails and the table reloads its match from the store (its snapshot is no
// longer on the heap), several times over. Once the disk is back the round plays to its end
// from exactly the committed state: nothing from the failed steps is in the transcript, the
// stored state replays to the stored events, and every prompt the walk-in got, redelivered ones
// included, is whole: its encoding is JCS and carries the prompt's state as a JSON object.
func TestBlitzFailedCommitsThenReload(t *testing.T) { inBubble(t, blitzFailedCommitsThenReload) }

func blitzFailedCommitsThenReload(t *testing.T) {
	h := bzHarness(t)
	mb := h.mailbox("mb-bf-1")
	spec := bzHouseSpec("bf")
	spec.Seats[0].Channel, spec.Seats[0].Actor = ChannelMailbox, "mb-bf-1"
	bzWalkinSeat(&spec.Seats[0])
	spec.Pace.CloseEarly = false
	round := h.open(spec)
	// the first talk prompt of turn 1
	nextPrompt(t, mb, 0) // scouting
	h.clock.Advance(time.Minute)
	p := nextPrompt(t, mb, 1)
	if p.Prompt.Move.Phase != "talk" {
		t.Fatalf("turn 1 opens with %+v", p.Prompt.Move)
	}
	for seat := 2; seat <= 6; seat++ { // the house seats' lines of this exchange are committed
		from := []byte(`"from":` + strconv.Itoa(seat) + `,`)
		h.waitEvent("house line", func(e games.Event) bool {
			return e.Type == "message.public" && e.Turn == 1 && bytes.Contains(e.Payload, from)
		})
	}
	h.state("bf")
	committed, err := h.store.Events(round)
	if err != nil {
		t.Fatal(err)
	}
	h.failCommit.Store(true)
	r, err := h.arena.Submit(context.Background(), SubmitAnswer{Table: "bf", Round: round,
		Input: games.Input{Seat: 1, Kind: "answer", Move: p.Prompt.Move, Body: json.RawMessage(`{"messages":[{"type":"public","text":"during the failure"}]}`)}})
	if err != nil || r.Code != "unavailable" {
		t.Fatalf("answer during a disk failure: %+v %v", r, err)
	}
	for i := 0; i < 4; i++ {
		h.clock.Advance(time.Minute) // a deadline: its commit fails, the table reloads
		h.state("bf")
	}
	if evs, _ := h.store.Events(round); len(evs) != len(committed) {
		t.Fatalf("events were stored during the disk failure: %d → %d", len(committed), len(evs))
	}
	h.failCommit.Store(false)
	for i := 0; i < 200 && h.record("bf").Status != StatusFinished; i++ {
		h.clock.Advance(time.Minute)
		h.state("bf")
	}
	h.waitEvent("round.revealed", and(roundIs(round), typeIs("round.revealed")))
	h.waitStatus("bf", StatusFinished)
	bzStoredReplays(t, h, "bf", round)
	evs, err := h.store.Events(round)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		if bytes.Contains(e.Payload, []byte("during the failure")) {
			t.Fatalf("the refused answer reached the transcript: %s", e.Payload)
		}
	}
	bzTranscript(t, h, round)
	// every prompt the walk-in got, redelivered ones included, is whole
	for n := len(mb); n > 0; n-- {
		if d, ok := (<-mb).(*delivered); ok {
			var got struct {
				State map[string]json.RawMessage `json:"state"`
			}
			if c, err := canon.Canonical(d.Wire); err != nil || !bytes.Equal(c, d.Wire) || json.Unmarshal(d.Wire, &got) != nil || len(got.State) == 0 {
				t.Fatalf("prompt %+v delivered as %.300s (%v)", d.Prompt.Move, d.Wire, err)
			}
		}
	}
}

// TestBlitzPanicRecordKeepsSnapshot: after a panic the record written (restarts, last error,
// poison) keeps the snapshot it had, so the restarted table and a later boot both restore.
func TestBlitzPanicRecordKeepsSnapshot(t *testing.T) { inBubble(t, blitzPanicRecordKeepsSnapshot) }

func blitzPanicRecordKeepsSnapshot(t *testing.T) {
	h := bzHarness(t)
	round := h.open(bzHouseSpec("bp"))
	h.waitEvent("turn 1 commit", and(roundIs(round), typeIs("phase.started"), turnIs(1)))
	h.arena.System().Root.Send(h.arena.TablePID("bp"), &CrashTable{Tag: "once"})
	h.waitEvent("round.revealed", and(roundIs(round), typeIs("round.revealed")))
	h.waitStatus("bp", StatusFinished)
	rec := h.record("bp")
	if rec.Restarts != 1 || (len(rec.Match) == 0 && !rec.Journal) {
		t.Fatalf("record after a panic: restarts %d, snapshot %d bytes, journal %v", rec.Restarts, len(rec.Match), rec.Journal)
	}
	bzStoredReplays(t, h, "bp", round)
	// a deploy: the finished table's record still restores on boot
	h.stop()
	h.start()
	bzStoredReplays(t, h, "bp", round)
}
