package actors

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"arena/games"
	"arena/games/blitz"
	"arena/games/warden/dilemma"
)

// driveToEnd moves the fake clock from deadline to deadline until table id finishes. Between
// moves it waits for the arena to go quiet (quiet): house seats answer as soon as their prompt
// arrives, so a quiet table is waiting for its clock. The test must run in a synctest bubble.
func (h *harness) driveToEnd(id string, maxSteps int) {
	h.t.Helper()
	for i := 0; i < maxSteps; i++ {
		if h.last[id] == StatusFinished {
			return
		}
		h.quiet()
		if h.last[id] == StatusFinished {
			return
		}
		if at, ok := h.clock.NextAt(); ok {
			h.clock.Set(at)
		}
	}
	h.t.Fatalf("table %s not finished after %d clock steps", id, maxSteps)
}

// quiet waits until every goroutine of the test's synctest bubble is blocked (synctest.Wait: the
// actors are idle, nothing is left to commit), then collects the events and statuses sent.
// Only a test run in a bubble (inBubble) may call it.
func (h *harness) quiet() {
	synctest.Wait()
	for {
		select {
		case e := <-h.events:
			h.log = append(h.log, e)
		case s := <-h.status:
			h.last[s[0]] = s[1]
		default:
			return
		}
	}
}

func TestBlitzShortRoundOfHouseSeats(t *testing.T) { inBubble(t, blitzShortRoundOfHouseSeats) }

func blitzShortRoundOfHouseSeats(t *testing.T) {
	h := newHarness(t)
	h.eng2 = blitz.NewEngine(blitz.DefaultFees())
	h.stop()
	h.start()
	var sp []SeatSpec
	for i := 1; i <= 3; i++ {
		sp = append(sp, SeatSpec{Seat: games.Seat{Seat: i, Name: fmt.Sprintf("House %d", i),
			Entry: 100_000_000, Options: blitz.SeatOptions{Kind: "house", Collateral: 60_000_000}.JSON()}, Kind: "house", Channel: ChannelHouse})
	}
	round := h.open(TableSpec{ID: "blitz-1", Game: blitz.ID, Format: "short", Kind: "practice", Seats: sp,
		Seed: fixedSeed(9), Pace: games.Pace{Name: "chat", CloseEarly: true, Steps: map[string]time.Duration{"scouting": 10 * time.Second, "talk": 15 * time.Second, "commit": 20 * time.Second, "settle": 5 * time.Second}}})
	h.driveToEnd("blitz-1", 200)
	evs, revealed, err := h.arena.Transcript(context.Background(), round)
	if err != nil || !revealed {
		t.Fatalf("transcript: revealed %v err %v", revealed, err)
	}
	types := map[string]int{}
	for i, e := range evs {
		if e.Seq != int64(i+1) || e.Round != round {
			t.Fatalf("event %d: seq %d round %s", i, e.Seq, e.Round)
		}
		types[e.Type]++
	}
	if types["round.revealed"] != 1 || types["round.created"] != 1 || types["seat.taken"] != 3 {
		t.Fatalf("event types %v", types)
	}
	t.Logf("blitz short: %d events, moves %v, types %v", len(evs), counterValue(h.arena.env.m.moves), types)
	rec := h.record("blitz-1")
	if rec.Status != StatusFinished || rec.Result == nil || len(rec.Result.Ranking()) != 3 {
		t.Fatalf("record: %s %+v", rec.Status, rec.Result)
	}
	if got := counterValue(h.arena.env.m.moves); got < 3*3 {
		t.Fatalf("only %v house moves were accepted", got)
	}
}

func TestDilemmaRoundOfHouseSeats(t *testing.T) { inBubble(t, dilemmaRoundOfHouseSeats) }

func dilemmaRoundOfHouseSeats(t *testing.T) {
	h := newHarness(t)
	h.eng2 = dilemma.Engine{}
	h.stop()
	h.start()
	sp := []SeatSpec{
		{Seat: games.Seat{Seat: 1, Agent: "a1", Name: "A", Entry: 1_000_000, Options: blitz.SeatOptions{Kind: "house", Collateral: 1_000_000}.JSON()}, Kind: "house", Channel: ChannelHouse},
		{Seat: games.Seat{Seat: 2, Agent: "a2", Name: "B", Entry: 1_000_000, Options: blitz.SeatOptions{Kind: "house", Collateral: 1_000_000}.JSON()}, Kind: "house", Channel: ChannelHouse},
	}
	m := dilemma.Engine{}.Manifest()
	round := h.open(TableSpec{ID: "dl-1", Game: m.ID, Format: m.Formats[0].Name, Seats: sp, Seed: fixedSeed(4),
		Pace: games.Pace{CloseEarly: true, Steps: map[string]time.Duration{"commit": 20 * time.Second, "settle": 5 * time.Second}}})
	h.driveToEnd("dl-1", 50)
	evs, revealed, err := h.arena.Transcript(context.Background(), round)
	if err != nil || !revealed || len(evs) == 0 {
		t.Fatalf("transcript: %d events revealed %v err %v", len(evs), revealed, err)
	}
	rec := h.record("dl-1")
	if rec.Result == nil || len(rec.Result.Ranking()) != 2 {
		t.Fatalf("result %+v", rec.Result)
	}
	if b, _ := json.Marshal(rec.Result); len(b) == 0 {
		t.Fatal("result does not encode")
	}
}
