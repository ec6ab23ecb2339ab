package dotdotdot

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"arena/actors"
	"arena/actors/internal/ask"
	"arena/chain/anchor"
	"arena/games"
	"arena/storage"
)

// replayChain is an Options.Replays that keeps every job; next hands the test the next one and,
// when answer is set, answers it as the chain actor does (an actors.Anchored with a transaction
// hash: SHA-256 of the anchor's 50 bytes, so the same anchor is the same transaction).
type replayChain struct {
	h      *harness
	jobs   chan actors.AnchorJob
	answer atomic.Bool
}

func (c *replayChain) Anchor(j actors.AnchorJob) { c.jobs <- j }

func (c *replayChain) next(t *testing.T) actors.AnchorJob {
	t.Helper()
	select {
	case j := <-c.jobs:
		if c.answer.Load() {
			k, _ := anchor.ParseKind(j.Request.Kind)
			n, _ := anchor.ParseRound(j.Round)
			data, _ := anchor.Anchor{Kind: k, Round: n, Seq: j.Request.Seq, Hash: j.Request.Hash}.Encode()
			tx := sha256.Sum256(data)
			c.h.arena.System().Root.Send(j.ReplyTo, &actors.Anchored{Table: j.Table, Round: j.Round, Request: j.Request, Tx: hex.EncodeToString(tx[:])})
		}
		return j
	case <-time.After(waitMax):
		t.Fatal("no replay anchor asked of the chain")
		return actors.AnchorJob{}
	}
}

func showingHarness(t *testing.T, answer bool) (*harness, *replayChain) {
	h := kindsHarness(t)
	rc := &replayChain{h: h, jobs: make(chan actors.AnchorJob, 64)}
	rc.answer.Store(answer)
	h.product.Replays = rc
	h.stop()
	h.start()
	return h, rc
}

// playedRound plays a Short Showcase (house seats only) to its reveal and its table's finish.
func (h *harness) playedRound() (table, round string) {
	h.t.Helper()
	table, round, err := h.arena.OpenShowcase(context.Background(), "short", 0, quickPace)
	if err != nil {
		h.t.Fatal(err)
	}
	h.revealed(round)
	h.waitStatus(table, actors.StatusFinished)
	return table, round
}

// waitShowing polls the store until the showing's record satisfies ok.
func (h *harness) waitShowing(round string, seq uint32, what string, ok func(storage.Showing) bool) storage.Showing {
	h.t.Helper()
	deadline := time.Now().Add(waitMax)
	for {
		rec, err := h.store.Showing(round, seq)
		if err == nil && ok(rec) {
			return rec
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("showing %s/%d never %s: %+v %v", round, seq, what, rec, err)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// A showing of a revealed round starts now, saved before it is answered, and asks the chain for
// its replay anchor (§5.5 kind 5): the round, seq the Unix second it started, the recorded
// transcript's hash (the one the round's result fixed at its reveal); the answer's transaction
// is saved and listed in the round's replays. It shows the round's public events up to the
// reveal, nothing sealed, and ends. Refusals: a round being played (not_revealed), a speed out
// of range, an unknown round, a second start in the same second.
func TestShowingRegistersItsReplayAnchor(t *testing.T) {
	h, rc := showingHarness(t, true)
	ctx := context.Background()
	table, round := h.playedRound()
	st, err := h.arena.Stored(table)
	if err != nil || st.Result == nil {
		t.Fatal(st, err)
	}
	h.clock.Advance(90 * time.Second)
	start := h.clock.Now()
	rec, err := h.arena.StartShowing(ctx, round, 4)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Round != round || rec.Table != table || rec.Seq != uint32(start.Unix()) || rec.Speed != 4 || !rec.Started.Equal(start) ||
		"sha256:"+rec.Hash != st.Result.TranscriptHash {
		t.Fatalf("showing %+v; want round %s table %s seq %d speed 4 hash %s", rec, round, table, start.Unix(), st.Result.TranscriptHash)
	}
	j := rc.next(t)
	if j.Round != round || j.Table != table || j.Request.Kind != "replay" || j.Request.Seq != rec.Seq || hex.EncodeToString(j.Request.Hash[:]) != rec.Hash || j.ReplyTo == nil {
		t.Fatalf("replay anchor job %+v, want kind replay, round %s, seq %d, hash %s", j, round, rec.Seq, rec.Hash)
	}
	n, _ := anchor.ParseRound(round)
	data, err := anchor.Anchor{Kind: anchor.Replay, Round: n, Seq: rec.Seq, Hash: j.Request.Hash}.Encode()
	if err != nil {
		t.Fatal(err)
	}
	tx := sha256.Sum256(data)
	done := h.waitShowing(round, rec.Seq, "ended with its transaction", func(s storage.Showing) bool { return s.Ended && s.Tx != "" })
	if done.Tx != hex.EncodeToString(tx[:]) {
		t.Fatalf("saved tx %s, the chain answered %x", done.Tx, tx)
	}
	rs, err := h.arena.Replays(ctx, round)
	want := Replay{Showing: ShowingPath(round, rec.Seq), Round: round, Seq: rec.Seq, Hash: rec.Hash, Tx: done.Tx, Speed: 4, Started: start.UTC().Format(time.RFC3339)}
	if err != nil || len(rs) != 1 || rs[0] != want {
		t.Fatalf("replays %+v %v, want [%+v]", rs, err, want)
	}

	sh, err := h.arena.ShowingOf(ctx, round, rec.Seq)
	if err != nil {
		t.Fatal(err)
	}
	evs, _, _ := h.arena.Transcript(ctx, round)
	var pub []games.Event
	for _, e := range evs {
		if e.Visibility == games.Public {
			pub = append(pub, e)
		}
		if e.Type == "round.revealed" {
			break
		}
	}
	if len(sh.Events) != len(pub) || sh.Total != len(pub) || sh.Events[len(pub)-1].Type != "round.revealed" || !sh.Ended {
		t.Fatalf("the ended showing shows %d of %d events (ended %v), want the %d public ones to the reveal", len(sh.Events), sh.Total, sh.Ended, len(pub))
	}
	for i, e := range sh.Events {
		if e.Seq != pub[i].Seq || e.Visibility != games.Public {
			t.Fatalf("event %d shown: seq %d %s %s, want seq %d", i, e.Seq, e.Type, e.Visibility, pub[i].Seq)
		}
	}

	// Refusals, each changing nothing.
	if _, err := h.arena.StartShowing(ctx, round, 4); !isCode(err, CodeBusy) || !strings.Contains(err.Error(), "this second") {
		t.Fatalf("a second start in the same second: %v", err)
	}
	for _, sp := range []int{0, -1, MaxShowingSpeed + 1} {
		if _, err := h.arena.StartShowing(ctx, round, sp); !isCode(err, games.CodeBadRequest) {
			t.Fatalf("speed %d: %v", sp, err)
		}
	}
	if _, err := h.arena.StartShowing(ctx, "T-999999", 1); !errors.Is(err, actors.ErrNoRound) {
		t.Fatalf("unknown round: %v", err)
	}
	if _, err := h.arena.ShowingOf(ctx, round, rec.Seq+1); !errors.Is(err, actors.ErrNoRound) {
		t.Fatalf("no such showing: %v", err)
	}
	live, liveRound, err := h.arena.OpenShowcase(ctx, "short", 0, games.Pace{}) // the agent clock: it waits at scouting
	if err != nil {
		t.Fatal(err)
	}
	h.roundOf(live)
	_, err = h.arena.StartShowing(ctx, liveRound, 2)
	var ge *games.Error
	if !errors.As(err, &ge) || ge.Code != CodeNotRevealed || !strings.Contains(ge.Msg, "is still being played: only a revealed round's recording can be shown") {
		t.Fatalf("a showing of a round being played: %v", err)
	}
	if all, _ := h.store.Showings(""); len(all) != 1 {
		t.Fatalf("refusals saved showings: %+v", all)
	}
	select {
	case j := <-rc.jobs:
		t.Fatalf("a refused showing asked for an anchor: %+v", j)
	default:
	}
}

// synthetic is a recording of n public events one second apart from t0 (round is any id: the
// showings actor is handed its events directly).
func synthetic(round string, n int) []games.Event {
	out := make([]games.Event, n)
	for i := range out {
		out[i] = games.Event{Seq: int64(i + 1), Round: round, Type: fmt.Sprintf("step.%d", i+1), Visibility: games.Public,
			At: t0.Add(time.Duration(i) * time.Second).Format(time.RFC3339Nano)}
	}
	return out
}

// startSynthetic hands the showings actor a showing of events at speed, started now.
func (h *harness) startSynthetic(round string, evs []games.Event, speed int) (storage.Showing, error) {
	h.t.Helper()
	now := h.clock.Now()
	rec := storage.Showing{Round: round, Table: "tb-" + round, Seq: uint32(now.Unix()), Speed: speed, Started: now, Hash: strings.Repeat("ab", 32)}
	res, err := h.arena.System().Root.RequestFuture(h.arena.showings, &showStart{rec: rec, events: evs}, ask.Timeout(context.Background(), waitMax)).Result()
	if err != nil {
		h.t.Fatal(err)
	}
	r := res.(*showStartReply)
	return r.rec, r.err
}

// shownAfter is how many events the showing shows once the actor has caught up with the clock.
func (h *harness) shownAfter(round string, seq uint32, want int) Showing {
	h.t.Helper()
	deadline := time.Now().Add(waitMax)
	for {
		sh, err := h.arena.ShowingOf(context.Background(), round, seq)
		if err != nil {
			h.t.Fatal(err)
		}
		if len(sh.Events) == want {
			return sh
		}
		if len(sh.Events) > want || time.Now().After(deadline) {
			h.t.Fatalf("showing %s shows %d events, want %d", round, len(sh.Events), want)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// A showing plays its events in order at its speed, each at its recorded instant's distance
// from the first divided by the speed, moved on by its timer on the runtime's clock: at 2×, a
// recording of events one second apart shows one more event every half second, none early; it
// ends after the last. At most MaxShowings run at once and one per round; past that a start is
// busy, and once one ends another may start.
func TestShowingPlaysAtItsSpeed(t *testing.T) {
	h, _ := showingHarness(t, true)
	evs := synthetic("T-900", 5)
	rec, err := h.startSynthetic("T-900", evs, 2)
	if err != nil {
		t.Fatal(err)
	}
	sh := h.shownAfter("T-900", rec.Seq, 1) // the first event at once
	if sh.Total != 5 || sh.Ended {
		t.Fatalf("showing %+v", sh)
	}
	for i := 2; i <= 4; i++ {
		h.clock.Advance(499 * time.Millisecond)
		if sh := h.shownAfter("T-900", rec.Seq, i-1); sh.Events[i-2].Type != fmt.Sprintf("step.%d", i-1) {
			t.Fatalf("event %d shown as %s", i-1, sh.Events[i-2].Type)
		}
		h.clock.Advance(time.Millisecond)
		sh := h.shownAfter("T-900", rec.Seq, i)
		for k, e := range sh.Events {
			if e.Seq != int64(k+1) {
				t.Fatalf("shown out of order: %d at %d", e.Seq, k)
			}
		}
	}
	h.clock.Advance(499 * time.Millisecond)
	h.shownAfter("T-900", rec.Seq, 4)
	h.clock.Advance(time.Millisecond) // the last event: the showing ends
	h.waitShowing("T-900", rec.Seq, "ended", func(s storage.Showing) bool { return s.Ended })

	// The cap: MaxShowings at once, one per round.
	var seqs []uint32
	for i := range MaxShowings {
		r := fmt.Sprintf("T-%d", 910+i)
		rec, err := h.startSynthetic(r, synthetic(r, 3), 1)
		if err != nil {
			t.Fatalf("showing %d of %d: %v", i+1, MaxShowings, err)
		}
		seqs = append(seqs, rec.Seq)
		h.shownAfter(r, rec.Seq, 1) // its timer is armed before the clock moves on
	}
	if _, err := h.startSynthetic("T-999", synthetic("T-999", 3), 1); !isCode(err, CodeBusy) || !strings.Contains(err.Error(), "the most at once") {
		t.Fatalf("one showing past the cap: %v", err)
	}
	h.clock.Advance(time.Second)
	for i, s := range seqs {
		h.shownAfter(fmt.Sprintf("T-%d", 910+i), s, 2)
	}
	if _, err := h.startSynthetic("T-910", synthetic("T-910", 3), 1); !isCode(err, CodeBusy) || !strings.Contains(err.Error(), "is being shown now") {
		t.Fatalf("a second showing of a round being shown: %v", err)
	}
	h.clock.Advance(2 * time.Second) // every capped showing has shown its last event
	for i, s := range seqs {
		h.waitShowing(fmt.Sprintf("T-%d", 910+i), s, "ended", func(s storage.Showing) bool { return s.Ended })
	}
	deadline := time.Now().Add(waitMax)
	for {
		_, err := h.startSynthetic("T-999", synthetic("T-999", 3), 1)
		if err == nil {
			break
		}
		if !isCode(err, CodeBusy) || time.Now().After(deadline) {
			t.Fatalf("a showing once the others ended: %v", err)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// Across a restart a showing keeps its start, its speed and its anchor: one whose transaction
// was never saved (the chain did not answer before the stop) is asked for the same anchor again,
// and nothing new is registered for one that has its transaction.
func TestShowingAnchorAskedAgainAfterARestart(t *testing.T) {
	h, rc := showingHarness(t, false)
	_, round := h.playedRound()
	rec, err := h.arena.StartShowing(context.Background(), round, 1)
	if err != nil {
		t.Fatal(err)
	}
	first := rc.next(t)
	h.waitShowing(round, rec.Seq, "ended", func(s storage.Showing) bool { return s.Ended && s.Tx == "" })
	rc.answer.Store(true)
	h.stop()
	h.start()
	again := rc.next(t)
	if again.Round != first.Round || again.Request != first.Request || again.Table != first.Table {
		t.Fatalf("after the restart the anchor asked is %+v, before %+v", again, first)
	}
	done := h.waitShowing(round, rec.Seq, "saved its transaction", func(s storage.Showing) bool { return s.Tx != "" })
	if done.Seq != rec.Seq || done.Speed != 1 || !done.Started.Equal(rec.Started) || !done.Ended {
		t.Fatalf("after the restart %+v, before %+v", done, rec)
	}
	h.stop()
	h.start()
	// The showings actor restores before it answers anything: once ShowingOf is answered, any
	// anchor it would ask again has been asked.
	if _, err := h.arena.ShowingOf(context.Background(), round, rec.Seq); err != nil {
		t.Fatal(err)
	}
	select {
	case j := <-rc.jobs:
		t.Fatalf("a showing with its transaction asked again: %+v", j)
	default:
	}
}

// playedOnTheClock plays a Short Showcase on the agent clock, moving the fake clock on a second
// at a time, so that its events carry instants minutes apart; it returns the table and round
// once the round is revealed and the table finished.
func (h *harness) playedOnTheClock() (table, round string) {
	h.t.Helper()
	table, round, err := h.arena.OpenShowcase(context.Background(), "short", 0, games.Pace{})
	if err != nil {
		h.t.Fatal(err)
	}
	h.roundOf(table)
	h.playOnTheClock(table, round)
	return table, round
}

// A showing running when the server stops resumes at the next start where its clock says it is:
// the same start and speed, every event due by now shown, the rest at their instants; its anchor
// was registered once, at its start, and is not asked again.
func TestShowingResumesAfterARestart(t *testing.T) {
	h, rc := showingHarness(t, true)
	ctx := context.Background()
	_, round := h.playedOnTheClock()
	rec, err := h.arena.StartShowing(ctx, round, 2)
	if err != nil {
		t.Fatal(err)
	}
	rc.next(t)
	h.waitShowing(round, rec.Seq, "saved its transaction", func(s storage.Showing) bool { return s.Tx != "" })
	first, err := h.arena.ShowingOf(ctx, round, rec.Seq)
	if err != nil {
		t.Fatal(err)
	}
	t0 := first.Events[0].At
	last, _ := time.Parse(time.RFC3339Nano, mustLast(t, h, round).At)
	start, _ := time.Parse(time.RFC3339Nano, t0)
	length := last.Sub(start) / 2 // the showing's length at 2×
	if length < time.Minute || first.Ended || len(first.Events) >= first.Total {
		t.Fatalf("a showing %v long at 2×, %d of %d shown at its start", length, len(first.Events), first.Total)
	}
	// dueBy is how many events are due by the clock, by their recorded instants at 2×.
	evs, _, _ := h.arena.Transcript(ctx, round)
	dueBy := func() int {
		n := 0
		for _, e := range recording(evs) {
			at, _ := time.Parse(time.RFC3339Nano, e.At)
			if !rec.Started.Add(at.Sub(start) / 2).After(h.clock.Now()) {
				n++
			}
		}
		return n
	}
	// Half way through, the server stops; the clock goes on while it is down, past more events.
	h.clock.Advance(length / 2)
	mid := dueBy()
	h.shownSoFar(round, rec.Seq, func(n int) bool { return n == mid })
	h.stop()
	for dueBy() == mid {
		h.clock.Advance(time.Second)
	}
	due := dueBy()
	h.start()
	resumed := h.shownSoFar(round, rec.Seq, func(n int) bool { return n == due })
	if resumed <= mid || resumed >= first.Total {
		t.Fatalf("after the restart %d events shown (%d before the stop), %d due by the clock (of %d)", resumed, mid, due, first.Total)
	}
	h.clock.Advance(length)
	done := h.waitShowing(round, rec.Seq, "ended", func(s storage.Showing) bool { return s.Ended })
	if done.Seq != rec.Seq || done.Speed != 2 || !done.Started.Equal(rec.Started) || done.Tx == "" {
		t.Fatalf("the resumed showing %+v, started as %+v", done, rec)
	}
	select {
	case j := <-rc.jobs:
		t.Fatalf("the resumed showing asked for an anchor again: %+v", j)
	default:
	}
}

// mustLast is the last public event of round's recording.
func mustLast(t *testing.T, h *harness, round string) games.Event {
	t.Helper()
	evs, _, err := h.arena.Transcript(context.Background(), round)
	if err != nil {
		t.Fatal(err)
	}
	r := recording(evs)
	return r[len(r)-1]
}

// shownSoFar waits until the showing shows a count ok accepts, and returns it.
func (h *harness) shownSoFar(round string, seq uint32, ok func(int) bool) int {
	h.t.Helper()
	deadline := time.Now().Add(waitMax)
	for {
		sh, err := h.arena.ShowingOf(context.Background(), round, seq)
		if err != nil {
			h.t.Fatal(err)
		}
		if ok(len(sh.Events)) {
			return len(sh.Events)
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("showing %s/%d stays at %d events", round, seq, len(sh.Events))
		}
		time.Sleep(2 * time.Millisecond)
	}
}
