package actors

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"arena/games"
	"arena/games/canon"
)

func TestHouseRoundPlaysToEnd(t *testing.T) {
	h := newHarness(t)
	seed := fixedSeed(7)
	round := h.open(TableSpec{ID: "h1", Kind: "practice", Seats: seats(ChannelHouse, ChannelHouse, ChannelHouse),
		Pace: games.Pace{Name: "chat", CloseEarly: true, Steps: map[string]time.Duration{"commit": 20 * time.Second}}, Seed: seed})
	if round != "T-1" {
		t.Fatalf("round = %q, want T-1", round)
	}
	if _, revealed, err := h.arena.Transcript(context.Background(), round); err != nil || revealed {
		t.Fatalf("transcript of a round just opened: revealed %v, %v", revealed, err)
	}
	h.waitEvent("round.revealed", and(roundIs(round), typeIs("round.revealed")))
	h.waitStatus("h1", StatusFinished)

	evs, revealed, err := h.arena.Transcript(context.Background(), round)
	if err != nil || !revealed {
		t.Fatalf("Transcript: revealed=%v err=%v", revealed, err)
	}
	counts := map[string]int{}
	totals := map[int]int{}
	for i, e := range evs {
		if e.Seq != int64(i+1) {
			t.Fatalf("event %d has seq %d", i, e.Seq)
		}
		counts[e.Type]++
		if e.Type == "answer" {
			var p struct{ Seat, N int }
			_ = json.Unmarshal(e.Payload, &p)
			// House play is drawn from the round seed: recompute it.
			prompt := games.Prompt{Seat: p.Seat, Move: games.Move{Turn: e.Turn, Phase: "move"}}
			if want := int(houseSeed(seed, &prompt) % 10); p.N != want {
				t.Fatalf("seat %d turn %d answered %d, house policy says %d", p.Seat, e.Turn, p.N, want)
			}
			if string(e.Visibility) != fmt.Sprintf("private:%d", p.Seat) {
				t.Fatalf("answer visibility %q", e.Visibility)
			}
			totals[p.Seat] += p.N
		}
	}
	if counts["answer"] != 9 || counts["turn.closed"] != 3 || counts["turn.started"] != 3 || counts["round.revealed"] != 1 {
		t.Fatalf("event counts %v", counts)
	}
	var revealedTotals map[int]int
	_ = json.Unmarshal(evs[len(evs)-1].Payload, &revealedTotals)
	if fmt.Sprint(revealedTotals) != fmt.Sprint(totals) {
		t.Fatalf("revealed totals %v, answers sum to %v", revealedTotals, totals)
	}
	infos, err := h.arena.Tables(context.Background())
	if err != nil || len(infos) != 1 {
		t.Fatalf("Tables: %v %v", infos, err)
	}
	if in := infos[0]; in.Status != StatusFinished || in.Round != round || len(in.Seats) != 3 || in.Game != "countdown" ||
		!strings.HasPrefix(in.Seats[0].Agent, "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:") {
		t.Fatalf("table info %+v", in)
	}
	if r := h.record("h1"); r.Result == nil || len(r.Result.Ranking()) != 3 {
		t.Fatalf("record result %+v", r.Result)
	}
	for _, c := range []struct {
		name   string
		labels []string
		want   func(float64) bool
	}{
		{"arena_moves_total", nil, func(v float64) bool { return v == 9 }},
		{"arena_rounds_started_total", nil, func(v float64) bool { return v == 1 }},
		{"arena_rounds_finished_total", nil, func(v float64) bool { return v == 1 }},
		{"arena_tables", []string{"status", "finished"}, func(v float64) bool { return v == 1 }},
		{"arena_tables", []string{"status", "live"}, func(v float64) bool { return v == 0 }},
		{"arena_snapshot_commit_seconds", nil, func(v float64) bool { return v >= 4 }}, // at least one per turn
		{"arena_timer_lateness_seconds", nil, func(v float64) bool { return v == 0 }},  // closeEarly: no timer fired
	} {
		if v := h.metric(c.name, c.labels...); !c.want(v) {
			t.Errorf("metric %s%v = %v", c.name, c.labels, v)
		}
	}
	// An answer after the end is refused with round_over, whether the actor is still draining
	// or gone.
	if r := h.submit("h1", round, 1, 3, `{"n":1}`); r.Code != games.CodeRoundOver {
		t.Fatalf("answer after the end: %+v", r)
	}
}

// TestMailboxSeatPromptAndAnswers: a seat on its own channel actor is handed its prompt (the
// table, the round, the seat, the move and its deadline, the state, an empty inbox), and the
// answers reach the table. (The §4 envelope a DOTDOTDOT channel makes of such a prompt is
// actors/dotdotdot/envelope's TestEnvelopeOfAnotherGamesPrompt.)
func TestMailboxSeatPromptAndAnswers(t *testing.T) {
	h := newHarness(t)
	mb := h.mailbox("mbox-m1-1")
	sp := seats(ChannelMailbox, ChannelHouse)
	sp[0].Actor = "mbox-m1-1"
	round := h.open(TableSpec{ID: "m1", Seats: sp, Pace: games.Pace{CloseEarly: true, Steps: map[string]time.Duration{"commit": 20 * time.Second}}})

	d := nextPrompt(t, mb, 1)
	if d.Table != "m1" || d.Round != round || d.Seat != 1 {
		t.Fatalf("DeliverPrompt %+v", d)
	}
	p := d.Prompt
	state, err := canon.Canonical(p.State.Bytes())
	if err != nil || p.Move != (games.Move{Turn: 1, Phase: "move"}) || !p.Deadline.Equal(time.Date(2026, 9, 9, 14, 0, 20, 0, time.UTC)) ||
		string(state) != `{"total":0,"turn":1}` || len(p.Inbox) != 0 {
		t.Fatalf("prompt %+v, state %s (%v)", p, state, err)
	}
	var got map[string]json.RawMessage
	if err := json.Unmarshal(d.Wire, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"round": `"` + round + `"`, "seat": `1`, "move": `{"phase":"move","turn":1}`,
		"deadline": `"2026-09-09T14:00:20Z"`, "state": `{"total":0,"turn":1}`, "inbox": `[]`}
	for k, v := range want {
		if string(got[k]) != v {
			t.Errorf("delivered %s = %s, want %s", k, got[k], v)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("delivered members: %s", d.Wire)
	}

	// Before the house seat has answered, the transcript shows only public events.
	h.waitEvent("house answer t1", and(roundIs(round), typeIs("answer"), turnIs(1)))
	evs, revealed, err := h.arena.Transcript(context.Background(), round)
	if err != nil || revealed {
		t.Fatalf("Transcript mid-round: revealed=%v err=%v", revealed, err)
	}
	for _, e := range evs {
		if e.Visibility != "public" {
			t.Fatalf("unrevealed transcript leaks %s event %s", e.Visibility, e.Type)
		}
	}
	if len(evs) == 0 {
		t.Fatal("no public event in the transcript")
	}

	if r := h.submit("m1", round, 1, 1, `{"n":11}`); r.Code != games.CodeBadRequest {
		t.Fatalf("bad body: %+v", r)
	}
	if r := h.submit("m1", "T-999", 1, 1, `{"n":7}`); r.Code != games.CodeStale {
		t.Fatalf("other round: %+v", r)
	}
	if r := h.submit("m1", round, 1, 1, `{"n":7}`); r.Code != "" || string(r.Reply) != `{"dropped":[]}` {
		t.Fatalf("answer: %+v", r)
	}
	if r := h.submit("m1", round, 1, 1, `{"n":7}`); r.Code != games.CodeStale {
		t.Fatalf("second answer to a closed move: %+v", r)
	}
	if _, err := h.arena.Submit(context.Background(), SubmitAnswer{Table: "nope"}); !errors.Is(err, ErrNoTable) {
		t.Fatalf("unknown table: %v", err)
	}
	for turn := 2; turn <= 3; turn++ {
		nextPrompt(t, mb, turn)
		if r := h.submit("m1", round, 1, turn, `{"n":9}`); r.Code != "" {
			t.Fatalf("turn %d: %+v", turn, r)
		}
	}
	end := nextRoundEnded(t, mb)
	if end.Round != round || end.Seat != 1 || len(end.Result.Ranking()) != 2 || end.Result.ScoreOf(1) != 25 {
		t.Fatalf("RoundEnded %+v", end)
	}
	if _, _, err := h.arena.Transcript(context.Background(), "T-404"); !errors.Is(err, ErrNoRound) {
		t.Fatalf("unknown round: %v", err)
	}
}

func TestOpenTableRefusals(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	cases := []struct {
		spec TableSpec
		want error
	}{
		{TableSpec{ID: "a", Game: "chess", Seats: seats(ChannelHouse, ChannelHouse)}, ErrBadSpec},
		{TableSpec{ID: "a/b", Game: "countdown", Seats: seats(ChannelHouse, ChannelHouse)}, ErrBadSpec},
		{TableSpec{ID: "a b", Game: "countdown", Seats: seats(ChannelHouse, ChannelHouse)}, ErrBadSpec},
		{TableSpec{ID: "é", Game: "countdown", Seats: seats(ChannelHouse, ChannelHouse)}, ErrBadSpec},
		{TableSpec{ID: strings.Repeat("a", 129), Game: "countdown", Seats: seats(ChannelHouse, ChannelHouse)}, ErrBadSpec},
		{TableSpec{ID: "", Game: "countdown", Seats: seats(ChannelHouse, ChannelHouse)}, ErrBadSpec},
		{TableSpec{ID: "a", Game: "countdown", Seats: seats(ChannelHouse)}, ErrBadSpec},                 // game refuses 1 seat
		{TableSpec{ID: "a", Game: "countdown", Seats: seats(ChannelMailbox, ChannelHouse)}, ErrBadSpec}, // no mailbox id
		{TableSpec{ID: "a", Game: "countdown", Seats: seats("carrier-pigeon", ChannelHouse)}, ErrBadSpec},
		{TableSpec{ID: "a", Game: "countdown", Seats: seats(ChannelHouse, ChannelHouse), Seed: []byte{1}}, ErrBadSpec},
	}
	for i, c := range cases {
		if _, err := h.arena.OpenTable(ctx, c.spec); !errors.Is(err, c.want) {
			t.Errorf("case %d: err = %v, want %v", i, err, c.want)
		}
	}
	h.open(TableSpec{ID: "a", Seats: seats(ChannelHouse, ChannelHouse), Pace: games.Pace{Steps: map[string]time.Duration{"commit": time.Minute}}})
	if _, err := h.arena.OpenTable(ctx, TableSpec{ID: "a", Game: "countdown", Seats: seats(ChannelHouse, ChannelHouse)}); !errors.Is(err, ErrTableExists) {
		t.Fatalf("duplicate id: %v", err)
	}
	if infos, _ := h.arena.Tables(ctx); len(infos) != 1 {
		t.Fatalf("refused specs left tables behind: %+v", infos)
	}
}

// Write before you speak: a step whose commit fails lets nothing out: no reply but a retryable
// refusal, no prompt, no event; the deadline is retried a second later.
func TestWriteBeforeSpeak(t *testing.T) {
	h := newHarness(t)
	a, b := h.mailbox("mb-w-1"), h.mailbox("mb-w-2")
	sp := seats(ChannelMailbox, ChannelMailbox)
	sp[0].Actor, sp[1].Actor = "mb-w-1", "mb-w-2"
	round := h.open(TableSpec{ID: "w1", Seats: sp, Pace: games.Pace{Steps: map[string]time.Duration{"commit": 20 * time.Second}}})
	nextPrompt(t, a, 1)
	nextPrompt(t, b, 1)

	h.failCommit.Store(true)
	r := h.submit("w1", round, 1, 1, `{"n":5}`)
	if r.Code != "unavailable" || !r.Retry {
		t.Fatalf("answer during a disk failure: %+v", r)
	}
	h.clock.Advance(20 * time.Second) // turn 1's deadline: its commit fails too
	if st := h.state("w1"); st.Turn != 1 || st.Prompts != 2 {
		t.Fatalf("after failed commits the table shows turn %d with %d open prompts", st.Turn, st.Prompts)
	}
	h.failCommit.Store(false)
	h.clock.Advance(time.Second) // the retry
	for _, ch := range []chan any{a, b} {
		p := nextPrompt(t, ch, 2)
		// A prompt from the failed attempt would carry 14:00:40; the committed retry 14:00:41.
		if got := p.Prompt.Deadline; !got.Equal(t0.Add(41 * time.Second)) {
			t.Fatalf("first turn-2 prompt has deadline %v: the failed step spoke", got)
		}
	}
	evs, _ := h.store.Events(round)
	var closed []string
	for _, e := range evs {
		if e.Type == "answer" {
			t.Fatalf("the refused answer reached the transcript: %s", e.Payload)
		}
		if e.Type == "turn.closed" {
			closed = append(closed, e.At+string(e.Payload))
		}
	}
	if fmt.Sprint(closed) != `[2026-09-09T14:00:21.000Z{"answered":0}]` {
		t.Fatalf("turn.closed events %v", closed)
	}
	// The same answer now goes through in turn 2.
	if r := h.submit("w1", round, 1, 2, `{"n":5}`); r.Code != "" {
		t.Fatalf("answer after recovery: %+v", r)
	}
}

func TestStaleTimerDropped(t *testing.T) {
	h := newHarness(t)
	a := h.mailbox("mb-s-1")
	sp := seats(ChannelMailbox, ChannelHouse)
	sp[0].Actor = "mb-s-1"
	round := h.open(TableSpec{ID: "s1", Seats: sp, Pace: games.Pace{Steps: map[string]time.Duration{"commit": 20 * time.Second}}})
	nextPrompt(t, a, 1)
	h.waitEvent("house answer", and(roundIs(round), typeIs("answer"), turnIs(1)))
	before := h.state("s1")
	root, pid := h.arena.System().Root, h.arena.TablePID("s1")
	root.Send(pid, &phaseDue{Round: round, Gen: before.Gen - 1, At: t0})                       // an older generation
	root.Send(pid, &phaseDue{Round: round, Gen: before.Gen + 1, At: t0.Add(20 * time.Second)}) // not armed yet
	root.Send(pid, &phaseDue{Round: "T-0", Gen: before.Gen, At: t0.Add(20 * time.Second)})     // another round
	after := h.state("s1")
	if after.Gen != before.Gen || after.Turn != 1 || after.Prompts != before.Prompts {
		t.Fatalf("stale timers changed the table: %+v → %+v", before, after)
	}
	if got := counterValue(h.arena.env.m.staleTimers); got != 3 {
		t.Fatalf("stale timer metric = %v, want 3", got)
	}
	for _, e := range h.log {
		if e.Type == "turn.closed" {
			t.Fatal("a stale timer closed the turn")
		}
	}
	// The live timer still works.
	h.clock.Advance(20 * time.Second)
	nextPrompt(t, a, 2)
	if h.clock.Pending() != 1 {
		t.Fatalf("%d timers armed, want exactly the turn-2 one", h.clock.Pending())
	}
}

// playCrash plays a round of one mailbox seat (answering n = turn+2) against one house seat; with
// crash it panics the table after the house seat has answered turn 2. It returns the transcript.
func playCrash(t *testing.T, crash bool) ([]games.Event, *harness) {
	h := newHarness(t)
	mb := h.mailbox("mb-c-1")
	sp := seats(ChannelMailbox, ChannelHouse)
	sp[0].Actor = "mb-c-1"
	round := h.open(TableSpec{ID: "c1", Seats: sp, Seed: fixedSeed(3),
		Pace: games.Pace{CloseEarly: true, Steps: map[string]time.Duration{"commit": 20 * time.Second}}})
	for turn := 1; turn <= 3; turn++ {
		nextPrompt(t, mb, turn)
		h.waitEvent("house answer", and(roundIs(round), typeIs("answer"), turnIs(turn)))
		if crash && turn == 2 {
			h.arena.System().Root.Send(h.arena.TablePID("c1"), &CrashTable{Tag: "mid-round"})
			nextPrompt(t, mb, 2) // the restarted table redelivers the open move
		}
		if r := h.submit("c1", round, 1, turn, fmt.Sprintf(`{"n":%d}`, turn+2)); r.Code != "" {
			t.Fatalf("turn %d: %+v", turn, r)
		}
	}
	nextRoundEnded(t, mb)
	evs, revealed, err := h.arena.Transcript(context.Background(), round)
	if err != nil || !revealed {
		t.Fatalf("transcript: %v %v", revealed, err)
	}
	return evs, h
}

func TestRestartMidRoundSameTranscript(t *testing.T) {
	clean, _ := playCrash(t, false)
	crashed, h := playCrash(t, true)
	a, _ := json.Marshal(clean)
	b, _ := json.Marshal(crashed)
	if string(a) != string(b) {
		t.Fatalf("transcripts differ\nclean:   %s\ncrashed: %s", a, b)
	}
	if len(clean) != 13 {
		t.Fatalf("%d events, want 13", len(clean))
	}
	rec := h.record("c1")
	if rec.Restarts != 1 || !strings.Contains(rec.LastError, "CrashTable mid-round") || rec.Status != StatusFinished {
		t.Fatalf("record after a crash: restarts %d, last error %q, status %s", rec.Restarts, rec.LastError, rec.Status)
	}
}

func TestDeadlinePassedWhileDownFiresAtOnce(t *testing.T) {
	h := newHarness(t)
	a, b := h.mailbox("mb-d-1"), h.mailbox("mb-d-2")
	sp := seats(ChannelMailbox, ChannelMailbox)
	sp[0].Actor, sp[1].Actor = "mb-d-1", "mb-d-2"
	round := h.open(TableSpec{ID: "d1", Seats: sp, Pace: games.Pace{Steps: map[string]time.Duration{"commit": 20 * time.Second}}})
	nextPrompt(t, a, 1)
	nextPrompt(t, b, 1)
	if r := h.submit("d1", round, 1, 1, `{"n":4}`); r.Code != "" {
		t.Fatal(r)
	}
	h.stop()
	if n := h.clock.Pending(); n != 0 {
		t.Fatalf("%d timers survive shutdown", n)
	}
	h.clock.Advance(35 * time.Second) // turn 1's deadline (14:00:20) passes while down
	h.start()
	// No clock movement: the restarted table closes turn 1 at once and opens turn 2.
	p := nextPrompt(t, a, 2)
	nextPrompt(t, b, 2)
	if !p.Prompt.Deadline.Equal(t0.Add(55 * time.Second)) {
		t.Fatalf("turn 2 deadline %v, want 14:00:55", p.Prompt.Deadline)
	}
	closed := h.waitEvent("turn 1 closed", and(roundIs(round), typeIs("turn.closed"), turnIs(1)))
	if closed.At != "2026-09-09T14:00:35.000Z" || string(closed.Payload) != `{"answered":1}` {
		t.Fatalf("turn.closed %s %s", closed.At, closed.Payload)
	}
}

func TestIsolationParksRepeatOffenderOthersPlayOn(t *testing.T) {
	h := newHarness(t)
	var armed atomic.Bool
	armed.Store(true)
	var victim atomic.Value
	victim.Store("")
	h.eng.Hook = func(round string, turn int, op string) {
		if armed.Load() && round == victim.Load() && turn == 2 && op == "advance" {
			panic("boom on closing turn 2")
		}
	}
	pace := games.Pace{Steps: map[string]time.Duration{"commit": 20 * time.Second}}
	ids := []string{"v", "o1", "o2", "o3"}
	rounds := map[string]string{}
	for _, id := range ids {
		rounds[id] = h.open(TableSpec{ID: id, Seats: seats(ChannelHouse, ChannelHouse), Pace: pace})
	}
	victim.Store(rounds["v"])
	answers := func(turn int, tables ...string) {
		for _, id := range tables {
			h.waitEvents(id+" answers", 2, and(roundIs(rounds[id]), typeIs("answer"), turnIs(turn)))
		}
	}
	answers(1, ids...)
	h.clock.Advance(20 * time.Second)
	answers(2, ids...)
	h.clock.Advance(20 * time.Second) // the victim panics closing turn 2, restarts, panics again
	h.waitStatus("v", StatusFailed)
	rec := h.record("v")
	if rec.Status != StatusFailed || rec.Restarts != 2 || !strings.Contains(rec.LastError, "boom on closing turn 2") ||
		rec.Poison == nil || rec.Poison.Input != "advance@2026-09-09T14:00:40Z" {
		t.Fatalf("victim record: status %s restarts %d last error %q poison %+v", rec.Status, rec.Restarts, rec.LastError, rec.Poison)
	}
	if _, err := h.arena.Submit(context.Background(), SubmitAnswer{Table: "v", Round: rounds["v"]}); !errors.Is(err, ErrTableDown) {
		t.Fatalf("submit to a failed table: %v", err)
	}
	others := ids[1:]
	answers(3, others...)
	h.clock.Advance(20 * time.Second)
	for _, id := range others {
		h.waitStatus(id, StatusFinished)
		h.waitEvents(id+" turns closed", 3, and(roundIs(rounds[id]), typeIs("turn.closed")))
		// Never missed a deadline: every turn closed exactly at its instant.
		var at []string
		for _, e := range h.log {
			if e.Round == rounds[id] && e.Type == "turn.closed" {
				at = append(at, e.At)
			}
		}
		if fmt.Sprint(at) != "[2026-09-09T14:00:20.000Z 2026-09-09T14:00:40.000Z 2026-09-09T14:01:00.000Z]" {
			t.Fatalf("table %s closed its turns at %v", id, at)
		}
	}
	infos, _ := h.arena.Tables(context.Background())
	status := map[string]string{}
	for _, in := range infos {
		status[in.ID] = in.Status
	}
	if fmt.Sprint(status) != "map[o1:finished o2:finished o3:finished v:failed]" {
		t.Fatalf("statuses %v", status)
	}

	// The operator fixes the bug and restarts the table: it resumes from its snapshot; the
	// deadline that passed while it was parked fires at once.
	armed.Store(false)
	if err := h.arena.RestartTable(context.Background(), "v"); err != nil {
		t.Fatal(err)
	}
	closed := h.waitEvent("victim turn 2 closed", and(roundIs(rounds["v"]), typeIs("turn.closed"), turnIs(2)))
	if closed.At != "2026-09-09T14:01:00.000Z" {
		t.Fatalf("victim closed turn 2 at %s", closed.At)
	}
	answers(3, "v")
	h.clock.Advance(20 * time.Second)
	h.waitStatus("v", StatusFinished)
	if rec := h.record("v"); rec.Restarts != 0 || rec.Poison != nil {
		t.Fatalf("ops restart left restarts %d poison %+v", rec.Restarts, rec.Poison)
	}
}

func TestBootRecoveryResumesEveryLiveTable(t *testing.T) {
	h := newHarness(t)
	ids := []string{"b1", "b2", "b3"}
	mbs := map[string]chan any{}
	rounds := map[string]string{}
	wires := map[string][]byte{}
	for _, id := range ids {
		mbs[id] = h.mailbox("mb-" + id)
		sp := seats(ChannelMailbox, ChannelHouse)
		sp[0].Actor = "mb-" + id
		rounds[id] = h.open(TableSpec{ID: id, Seats: sp, Pace: games.Pace{CloseEarly: true, Steps: map[string]time.Duration{"commit": 20 * time.Second}}})
	}
	for _, id := range ids {
		nextPrompt(t, mbs[id], 1)
		h.waitEvent("house answer", and(roundIs(rounds[id]), typeIs("answer"), turnIs(1)))
		if r := h.submit(id, rounds[id], 1, 1, `{"n":1}`); r.Code != "" {
			t.Fatal(r)
		}
		wires[id] = nextPrompt(t, mbs[id], 2).Wire
	}
	h.stop()
	h.start()
	for _, id := range ids {
		again := nextPrompt(t, mbs[id], 2)
		if string(again.Wire) != string(wires[id]) {
			t.Fatalf("table %s redelivered a different prompt:\n%s\n%s", id, wires[id], again.Wire)
		}
		for turn := 2; turn <= 3; turn++ {
			if turn > 2 {
				nextPrompt(t, mbs[id], turn)
			}
			h.waitEvent("house answer", and(roundIs(rounds[id]), typeIs("answer"), turnIs(turn)))
			if r := h.submit(id, rounds[id], 1, turn, `{"n":2}`); r.Code != "" {
				t.Fatalf("%s turn %d: %+v", id, turn, r)
			}
		}
		nextRoundEnded(t, mbs[id])
		h.waitStatus(id, StatusFinished)
	}
}

func TestOpsStopAndRestart(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	mb := h.mailbox("mb-o-1")
	sp := seats(ChannelMailbox, ChannelHouse)
	sp[0].Actor = "mb-o-1"
	round := h.open(TableSpec{ID: "o1", Seats: sp, Pace: games.Pace{Steps: map[string]time.Duration{"commit": 20 * time.Second}}})
	nextPrompt(t, mb, 1)
	if err := h.arena.StopTable(ctx, "o1"); err != nil {
		t.Fatal(err)
	}
	// The walk-in's mailbox is told: its open move cannot be answered now.
	for stopped := false; !stopped; {
		select {
		case m := <-mb:
			if ts, ok := m.(*TableStopped); ok {
				if ts.Table != "o1" || ts.Round != round || ts.Seat != 1 || ts.Status != StatusStopped {
					t.Fatalf("TableStopped %+v", ts)
				}
				stopped = true
			}
		case <-time.After(waitMax):
			t.Fatal("the mailbox was not told the table stopped")
		}
	}
	if in, _ := h.arena.Table(ctx, "o1"); in.Status != StatusStopped {
		t.Fatalf("status after stop: %s", in.Status)
	}
	if _, err := h.arena.Submit(ctx, SubmitAnswer{Table: "o1", Round: round}); !errors.Is(err, ErrTableDown) {
		t.Fatalf("submit to a stopped table: %v", err)
	}
	// A stopped table stays down across a reboot.
	h.stop()
	h.start()
	if _, err := h.arena.Submit(ctx, SubmitAnswer{Table: "o1", Round: round}); !errors.Is(err, ErrTableDown) {
		t.Fatalf("stopped table came back on boot: %v", err)
	}
	if err := h.arena.RestartTable(ctx, "o1"); err != nil {
		t.Fatal(err)
	}
	nextPrompt(t, mb, 1) // redelivered by the restarted table
	if r := h.submit("o1", round, 1, 1, `{"n":3}`); r.Code != "" {
		t.Fatalf("answer after ops restart: %+v", r)
	}
	// Restarting a running table reloads it from its snapshot; the answer above survives.
	if err := h.arena.RestartTable(ctx, "o1"); err != nil {
		t.Fatal(err)
	}
	if r := h.submit("o1", round, 1, 1, `{"n":3}`); r.Code != games.CodeStale {
		t.Fatalf("the answer was lost by a restart: %+v", r)
	}
	if err := h.arena.RestartTable(ctx, "nope"); !errors.Is(err, ErrNoTable) {
		t.Fatalf("restart unknown: %v", err)
	}
	if err := h.arena.StopTable(ctx, "nope"); !errors.Is(err, ErrNoTable) {
		t.Fatalf("stop unknown: %v", err)
	}
}

// An input sent without a sender (a plain Send) is applied and answered to no one; the table
// neither panics nor restarts.
func TestSubmitWithoutSender(t *testing.T) {
	h := newHarness(t)
	mb := h.mailbox("mb-n-1")
	sp := seats(ChannelMailbox, ChannelHouse)
	sp[0].Actor = "mb-n-1"
	round := h.open(TableSpec{ID: "n1", Seats: sp, Pace: games.Pace{Steps: map[string]time.Duration{"commit": 20 * time.Second}}})
	nextPrompt(t, mb, 1)
	pid := h.arena.TablePID("n1")
	h.arena.System().Root.Send(pid, &SubmitAnswer{Table: "n1", Round: "T-0"}) // refused: other round
	h.arena.System().Root.Send(pid, &SubmitAnswer{Table: "n1", Round: round,
		Input: games.Input{Seat: 1, Kind: "answer", Move: games.Move{Turn: 1, Phase: "move"}, Body: json.RawMessage(`{"n":6}`)}})
	h.waitEvent("seat 1 answer", func(e games.Event) bool {
		return e.Round == round && e.Type == "answer" && e.Visibility == "private:1"
	})
	if r := h.record("n1"); r.Restarts != 0 {
		t.Fatalf("table restarted %d times: %s", r.Restarts, r.LastError)
	}
}

// TestSubmitAtTheEndIsRoundOver: an answer that reaches a table as its round ends is refused
// with round_over, never unavailable (which tells the player to send it again): the table's
// actor stops after its round's end is committed, and an answer it is handed while stopping is
// answered by the record, as one that finds it gone is.
func TestSubmitAtTheEndIsRoundOver(t *testing.T) {
	h := newHarness(t)
	const tables = 8
	var rounds []string
	for i := 0; i < tables; i++ {
		rounds = append(rounds, h.open(TableSpec{ID: fmt.Sprintf("end%d", i), Seats: seats(ChannelHouse, ChannelHouse, ChannelHouse),
			Pace: games.Pace{CloseEarly: true}}))
	}
	var wg sync.WaitGroup
	for i := 0; i < tables; i++ {
		wg.Add(1)
		go func(id, round string) {
			defer wg.Done()
			for over := 0; over < 20; {
				r, err := h.arena.Submit(context.Background(), SubmitAnswer{Table: id, Round: round,
					Input: games.Input{Seat: 1, Kind: "answer", Move: games.Move{Turn: 3, Phase: "move"}, Body: json.RawMessage(`{"n":1}`)}})
				switch {
				case err != nil:
					t.Errorf("%s: %v", id, err)
					return
				case r.Code == "unavailable":
					t.Errorf("%s: an answer at the round's end: %+v", id, r)
					return
				case r.Code == games.CodeRoundOver:
					over++
				}
			}
		}(fmt.Sprintf("end%d", i), rounds[i])
	}
	wg.Wait()
}
