package dotdotdot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"arena/actors"
	"arena/games"
	"arena/games/blitz"
	"arena/games/rating"
)

// Each table kind end to end: registered agents (answering A2A agents) and house seats play
// whole rounds at CPU speed on a clock that closes each phase once every seat answered.

// quickPace closes every phase once every seat answered (the house and the agents answer at
// once), so a round plays at CPU speed.
var quickPace = games.Pace{Name: "chat", CloseEarly: true, Steps: map[string]time.Duration{
	"scouting": time.Minute, "talk": time.Minute, "commit": time.Minute, "settle": time.Minute}}

func kindsHarness(t *testing.T) *harness {
	h := newHarness(t)
	h.eng2 = blitz.NewEngine(blitz.DefaultFees())
	h.agents = &answeringCaller{envs: map[string][][]byte{}}
	h.stop()
	h.start()
	return h
}

// kindAgent is registered agent n with an owner of its own.
func kindAgent(n int, table string, pace games.Pace) AgentJoin {
	return AgentJoin{Agent: fmt.Sprintf("%s/cis-2:AgentKind%d", chainID, n), Name: fmt.Sprintf("Kind %d", n),
		Endpoint: fmt.Sprintf("https://kind%d.example/a2a", n), Owner: fmt.Sprintf("%s:3kBxKindOwner%d", chainID, n),
		Table: table, Format: "blitz", Pace: pace, Human: true}
}

// seatsTaken are a round's seat.taken payloads by seat.
func (h *harness) seatsTaken(round string) map[int]map[string]any {
	h.t.Helper()
	out := map[int]map[string]any{}
	for _, e := range h.log {
		if e.Round != round || e.Type != "seat.taken" {
			continue
		}
		var p map[string]any
		if err := json.Unmarshal(e.Payload, &p); err != nil {
			h.t.Fatal(err)
		}
		out[int(p["seat"].(float64))] = p
	}
	return out
}

// roundOf waits for the round of table to open and answers it.
func (h *harness) roundOf(table string) string {
	h.t.Helper()
	e := h.waitEvent("round.created at "+table, func(e games.Event) bool {
		if e.Type != "round.created" {
			return false
		}
		ti, err := h.arena.Table(context.Background(), table)
		return err == nil && ti.Round == e.Round
	})
	// seat.taken comes before scouting.started, in the same step.
	h.waitEvent("scouting.started "+e.Round, and(roundIs(e.Round), typeIs("scouting.started")))
	return e.Round
}

func (h *harness) revealed(round string) {
	h.t.Helper()
	h.waitEvent("round.revealed "+round, and(roundIs(round), typeIs("round.revealed")))
}

// waitRated waits until table's round is in the ratings (rated off the table's goroutine).
func (h *harness) waitRated(agent string, rounds int) RatingRecord {
	h.t.Helper()
	deadline := time.Now().Add(waitMax)
	for {
		r, ok, err := h.arena.Rating(agent)
		if err != nil {
			h.t.Fatal(err)
		}
		if ok && r.Rounds >= rounds {
			return r
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("%s never rated %d times (%+v %v)", agent, rounds, r, ok)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// playRated plays one rated round of agents (two or more, each owner distinct) topped up by
// house seats: they join, the table gathers until its top-up, opens and plays out. It answers
// the table and round.
func (h *harness) playRated(agents []AgentJoin) (string, string) {
	h.t.Helper()
	ctx := context.Background()
	var table string
	for i, j := range agents {
		r, err := h.arena.JoinAgent(ctx, j)
		if err != nil {
			h.t.Fatalf("join %d: %v", i, err)
		}
		if r.Status != "gathering" || r.Kind != KindRated || r.Seat != i+1 || r.Round != "" {
			h.t.Fatalf("join %d: %+v", i, r)
		}
		if table == "" {
			table = r.Table
		} else if r.Table != table {
			h.t.Fatalf("join %d at %s, the first at %s", i, r.Table, table)
		}
	}
	h.clock.Advance(h.arena.paces().WalkinTopUp)
	round := h.roundOf(table)
	h.revealed(round)
	h.waitStatus(table, actors.StatusFinished)
	return table, round
}

// A rated table: registered Badges only (a second Badge of one owner refused), house seats
// top it up once two have come, the round plays out and each Badge's rating moves by Glicko-2
// pairwise by rank (the house seats are not rated); the next round shows the rating in
// seat.taken; the stored ratings equal the ratings recomputed from the rated rounds alone.
func TestRatedTableEndToEnd(t *testing.T) {
	h := kindsHarness(t)
	ctx := context.Background()
	a, b := kindAgent(1, KindRated, quickPace), kindAgent(2, KindRated, quickPace)

	// One seat per owner.
	if _, err := h.arena.JoinAgent(ctx, a); err != nil {
		t.Fatal(err)
	}
	twin := kindAgent(3, KindRated, quickPace)
	twin.Owner = a.Owner
	if _, err := h.arena.JoinAgent(ctx, twin); !isCode(err, CodeBadTable) {
		t.Fatalf("a second Badge of one owner: %v, want bad_table", err)
	}
	// Waiting is holding a place: no second join, no Practice meanwhile.
	if _, err := h.arena.JoinAgent(ctx, a); !isCode(err, CodeInARound) {
		t.Fatalf("a second join while waiting: %v", err)
	}
	pr := a
	pr.Table = KindPractice
	if _, err := h.arena.JoinAgent(ctx, pr); !isCode(err, CodeInARound) {
		t.Fatalf("Practice while waiting: %v", err)
	}
	// One agent alone is not topped up: the table waits another period.
	gs, err := h.arena.Gatherings(ctx)
	if err != nil || len(gs) != 1 || gs[0].Kind != KindRated || !reflect.DeepEqual(gs[0].Players, []string{"Kind 1"}) || gs[0].Seats != 6 {
		t.Fatalf("gathering %+v %v", gs, err)
	}
	h.clock.Advance(h.arena.paces().WalkinTopUp)
	if gs, _ := h.arena.Gatherings(ctx); len(gs) != 1 || len(gs[0].Players) != 1 {
		t.Fatalf("after the top-up with one agent: %+v", gs)
	}

	r, err := h.arena.JoinAgent(ctx, b)
	if err != nil || r.Status != "gathering" || r.Seat != 2 {
		t.Fatalf("second agent: %+v %v", r, err)
	}
	h.clock.Advance(h.arena.paces().WalkinTopUp)
	round := h.roundOf(r.Table)
	if e := h.waitEvent("round.created", and(roundIs(round), typeIs("round.created"))); strings.Contains(string(e.Payload), `"anchors"`) {
		t.Fatalf("a rated round anchors every move, yet its round.created names its anchors: %s", e.Payload)
	}
	taken := h.seatsTaken(round)
	if len(taken) != 6 || taken[1]["agent"] != a.Agent || taken[2]["agent"] != b.Agent || taken[1]["rating"] != 0.0 {
		t.Fatalf("seats %v", taken)
	}
	for s := 3; s <= 6; s++ {
		if taken[s]["kind"] != "arena" {
			t.Fatalf("seat %d %v: want a house seat", s, taken[s])
		}
	}
	h.revealed(round)
	h.waitStatus(r.Table, actors.StatusFinished)
	ra, rb := h.waitRated(a.Agent, 1), h.waitRated(b.Agent, 1)

	// The ratings are Glicko-2 over the two Badges' places in the standings.
	st, err := h.arena.Stored(r.Table)
	if err != nil {
		t.Fatal(err)
	}
	rank := map[int]int{}
	for _, s := range st.Result.Standings {
		rank[s.Seat] = s.Rank
	}
	want, err := rating.Default().Round([]rating.Rating{rating.Default().New(), rating.Default().New()}, []int{rank[1], rank[2]})
	if err != nil {
		t.Fatal(err)
	}
	if ra.Rating != want[0] || rb.Rating != want[1] || ra.Rounds != 1 || ra.Last != round || ra.Name != "Kind 1" || ra.Display != rating.Display(want[0]) {
		t.Fatalf("ratings %+v %+v, want %+v", ra, rb, want)
	}
	if ra.RD >= 350 {
		t.Fatalf("RD %v after a rated round", ra.RD)
	}
	all, err := h.arena.Ratings()
	if err != nil || len(all) != 2 {
		t.Fatalf("ratings %+v %v: the house seats are not rated", all, err)
	}

	// Two more rated rounds; each shows the Badges' ratings in seat.taken.
	for n := 2; n <= 3; n++ {
		before := map[string]int{}
		for _, j := range []AgentJoin{a, b} {
			r, _, _ := h.arena.Rating(j.Agent)
			before[j.Agent] = r.Display
		}
		_, round := h.playRated([]AgentJoin{a, b})
		taken := h.seatsTaken(round)
		for i, j := range []AgentJoin{a, b} {
			if got := taken[i+1]["rating"]; got != float64(before[j.Agent]) || before[j.Agent] == 0 {
				t.Fatalf("round %d: seat %d shows rating %v, its Badge's %d", n, i+1, got, before[j.Agent])
			}
			// §5.4: every envelope's state.agents[] carries it too.
			if got := envelopeRating(t, h, a.Endpoint, round, i+1); got != before[j.Agent] {
				t.Fatalf("round %d: agents[%d].rating %d in an envelope, its Badge's %d", n, i, got, before[j.Agent])
			}
		}
		h.waitRated(a.Agent, n)
		h.waitRated(b.Agent, n)
	}
	// Recomputed from the rated rounds alone, the ratings are the stored ones, exactly.
	stored, err := h.arena.Ratings()
	if err != nil {
		t.Fatal(err)
	}
	again, err := h.arena.RecomputeRatings()
	if err != nil {
		t.Fatal(err)
	}
	if len(again) != len(stored) {
		t.Fatalf("recomputed %d ratings, stored %d", len(again), len(stored))
	}
	for _, s := range stored {
		if again[s.Agent] != s {
			t.Fatalf("%s stored %+v, recomputed %+v", s.Agent, s, again[s.Agent])
		}
		if s.Rounds != 3 {
			t.Fatalf("%s rounds %d", s.Agent, s.Rounds)
		}
	}
	if fs, err := h.arena.CheckRatings(ctx); err != nil || len(fs) != 0 {
		t.Fatalf("check: %+v %v", fs, err)
	}
	// A rated round is rated once: telling the product the table finished again changes nothing.
	if err := h.arena.rateTable(r.Table); err != nil {
		t.Fatal(err)
	}
	if after, _ := h.arena.Ratings(); !reflect.DeepEqual(after, stored) {
		t.Fatalf("rated twice: %+v, was %+v", after, stored)
	}

	// Those Badges may now sit at a badge-gated table, on the agent clock, which scouts 30 s
	// (§5.2); a Badge with no rated round may not.
	fresh := kindAgent(9, KindGated, games.Pace{})
	if _, err := h.arena.JoinAgent(ctx, fresh); !isCode(err, CodeBadTable) {
		t.Fatalf("a Badge never rated at a badge-gated table: %v, want bad_table", err)
	}
	ga, gb := a, b
	ga.Table, gb.Table, ga.Pace, gb.Pace = KindGated, KindGated, games.Pace{}, games.Pace{}
	var gated string
	for _, j := range []AgentJoin{ga, gb} {
		r, err := h.arena.JoinAgent(ctx, j)
		if err != nil || r.Status != "gathering" || r.Kind != KindGated || r.Pace != "agent" {
			t.Fatalf("gated join: %+v %v", r, err)
		}
		gated = r.Table
	}
	h.clock.Advance(h.arena.paces().WalkinTopUp)
	round = h.roundOf(gated)
	if d := scoutingMS(h, round); d != 30_000 {
		t.Fatalf("badge-gated scouting %d ms, want 30000", d)
	}
	if got := h.seatsTaken(round)[1]["rating"]; got != float64(h.waitRated(a.Agent, 3).Display) {
		t.Fatalf("gated seat 1 rating %v", got)
	}
}

func scoutingMS(h *harness, round string) int {
	h.t.Helper()
	e := h.waitEvent("scouting.started "+round, and(roundIs(round), typeIs("scouting.started")))
	var p struct {
		DurationMS int `json:"duration_ms"`
	}
	if err := json.Unmarshal(e.Payload, &p); err != nil {
		h.t.Fatal(err)
	}
	return p.DurationMS
}

// On the agent clock a full rated table opens at once and scouts 60 s; Practice 90 s (§5.2).
func TestRatedScoutingOnTheAgentClock(t *testing.T) {
	h := kindsHarness(t)
	ctx := context.Background()
	var table string
	for n := 1; n <= 6; n++ {
		r, err := h.arena.JoinAgent(ctx, kindAgent(n, KindRated, games.Pace{}))
		if err != nil {
			t.Fatal(err)
		}
		table = r.Table
	}
	round := h.roundOf(table)
	if d := scoutingMS(h, round); d != 60_000 {
		t.Fatalf("rated scouting %d ms, want 60000", d)
	}
	for s, p := range h.seatsTaken(round) {
		if p["kind"] != "byo" {
			t.Fatalf("seat %d %v: a full rated table has no house seat", s, p)
		}
	}
	pr, err := h.arena.JoinAgent(ctx, kindAgent(7, KindPractice, games.Pace{}))
	if err != nil {
		t.Fatal(err)
	}
	if d := scoutingMS(h, pr.Round); d != 90_000 {
		t.Fatalf("practice scouting %d ms, want 90000", d)
	}
}

// Free play: one registered agent is enough; house seats fill the table at its top-up, the round
// plays out and nobody is rated.
func TestFreePlayEndToEnd(t *testing.T) {
	h := kindsHarness(t)
	ctx := context.Background()
	j := kindAgent(1, KindFree, quickPace)
	r, err := h.arena.JoinAgent(ctx, j)
	if err != nil || r.Status != "gathering" || r.Kind != KindFree {
		t.Fatalf("%+v %v", r, err)
	}
	h.clock.Advance(h.arena.paces().WalkinTopUp)
	round := h.roundOf(r.Table)
	if ti, _ := h.arena.Table(ctx, r.Table); ti.Kind != KindFree {
		t.Fatalf("kind %q", ti.Kind)
	}
	// §5.5: Free play anchors its opening and nothing more (the engine then asks for no other
	// anchor: games/blitz TestAnchorsOpenedAlone), and its round.created says so.
	if e := h.waitEvent("round.created", and(roundIs(round), typeIs("round.created"))); !strings.Contains(string(e.Payload), `"anchors":"opened"`) {
		t.Fatalf("Free play's round.created %s", e.Payload)
	}
	h.revealed(round)
	h.waitStatus(r.Table, actors.StatusFinished)
	if err := h.arena.rateTable(r.Table); err != nil {
		t.Fatal(err)
	}
	if all, err := h.arena.Ratings(); err != nil || len(all) != 0 {
		t.Fatalf("Free play rated %+v %v", all, err)
	}
	if gs, _ := h.arena.Gatherings(ctx); len(gs) != 0 {
		t.Fatalf("still gathering %+v", gs)
	}
}

// A Solo: one agent against the house roster, opened at once, blitz only, unrated.
func TestSoloEndToEnd(t *testing.T) {
	h := kindsHarness(t)
	ctx := context.Background()
	j := kindAgent(1, KindSolo, quickPace)
	short := j
	short.Format = "short"
	if _, err := h.arena.JoinAgent(ctx, short); !isCode(err, games.CodeBadRequest) {
		t.Fatalf("a short Solo: %v", err)
	}
	r, err := h.arena.JoinAgent(ctx, j)
	if err != nil || r.Status != "seated" || r.Kind != KindSolo || r.Round == "" {
		t.Fatalf("%+v %v", r, err)
	}
	taken := h.seatsTaken(h.roundOf(r.Table))
	if len(taken) != 6 || taken[1]["agent"] != j.Agent {
		t.Fatalf("seats %v", taken)
	}
	for s := 2; s <= 6; s++ {
		if taken[s]["kind"] != "arena" {
			t.Fatalf("seat %d %v", s, taken[s])
		}
	}
	h.revealed(r.Round)
	h.waitStatus(r.Table, actors.StatusFinished)
	if all, _ := h.arena.Ratings(); len(all) != 0 {
		t.Fatalf("a Solo rated %+v", all)
	}
}

// A Showcase: in-house seats only, each holding its human's levers: their accusations ride in
// their answers and resolve at the reveal (§11.1, §12). A Practice table's house seats hold no
// levers and accuse nobody.
func TestShowcaseEndToEnd(t *testing.T) {
	h := kindsHarness(t)
	ctx := context.Background()
	table, round, err := h.arena.OpenShowcase(ctx, "blitz", 6, quickPace)
	if err != nil {
		t.Fatal(err)
	}
	for s, p := range h.seatsTaken(h.roundOf(table)) {
		if p["kind"] != "arena" {
			t.Fatalf("seat %d %v", s, p)
		}
	}
	h.revealed(round)
	resolved := 0
	for _, e := range h.log {
		if e.Round == round && e.Type == "accusation.resolved" {
			resolved++
		}
	}
	if resolved == 0 {
		t.Fatal("no accusation of an in-house seat resolved at a Showcase")
	}
	if _, _, err := h.arena.OpenShowcase(ctx, "marathon", 0, quickPace); !isCode(err, games.CodeBadRequest) {
		t.Fatalf("unknown format: %v", err)
	}

	pr, err := h.arena.JoinAgent(ctx, kindAgent(1, KindPractice, quickPace))
	if err != nil {
		t.Fatal(err)
	}
	h.revealed(pr.Round)
	for _, e := range h.log {
		if e.Round == pr.Round && e.Type == "accusation.resolved" {
			t.Fatalf("an accusation at a Practice table whose house seats hold no levers and whose human made none: %s", e.Payload)
		}
	}
}

// A gathering survives a restart: its agents keep their places and the table opens at its
// top-up, counted from the first join, not from the restart.
func TestGatheringSurvivesARestart(t *testing.T) {
	h := kindsHarness(t)
	ctx := context.Background()
	a, b := kindAgent(1, KindRated, quickPace), kindAgent(2, KindRated, quickPace)
	first, err := h.arena.JoinAgent(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.arena.JoinAgent(ctx, b); err != nil {
		t.Fatal(err)
	}
	h.stop()
	h.start()
	gs, err := h.arena.Gatherings(ctx)
	if err != nil || len(gs) != 1 || gs[0].Table != first.Table || !reflect.DeepEqual(gs[0].Players, []string{"Kind 1", "Kind 2"}) ||
		!gs[0].StartsBy.Equal(first.StartsBy) {
		t.Fatalf("after the restart %+v %v (first %+v)", gs, err, first)
	}
	if _, err := h.arena.JoinAgent(ctx, a); !isCode(err, CodeInARound) {
		t.Fatalf("a join of a restored place: %v", err)
	}
	h.clock.Advance(h.arena.paces().WalkinTopUp)
	round := h.roundOf(first.Table)
	h.revealed(round)
	h.waitRated(a.Agent, 1)
	if recs, _ := h.arena.Store().Gatherings(); len(recs) != 0 {
		t.Fatalf("records left %+v", recs)
	}
}

// CheckRatings finds a rated round that is not its table's result and a rating that is not the
// one its rounds give.
func TestCheckRatingsFindsTampering(t *testing.T) {
	h := kindsHarness(t)
	ctx := context.Background()
	a, b := kindAgent(1, KindRated, quickPace), kindAgent(2, KindRated, quickPace)
	table, round := h.playRated([]AgentJoin{a, b})
	h.waitRated(a.Agent, 1)
	if fs, err := h.arena.CheckRatings(ctx); err != nil || len(fs) != 0 {
		t.Fatalf("before: %+v %v", fs, err)
	}
	// A round nobody played, written with a rating its rounds do not give.
	ghost := RatedRound{Table: "rghost", Round: "T-99", Seats: []RatedSeat{{Seat: 1, Agent: a.Agent, Name: "Kind 1", Rank: 1}, {Seat: 2, Agent: b.Agent, Name: "Kind 2", Rank: 2}}}
	gb, _ := json.Marshal(ghost)
	if _, err := h.arena.Store().RateRound("rghost", gb, []string{a.Agent, b.Agent}, func(old [][]byte) ([][]byte, error) {
		return [][]byte{[]byte(`{"agent":"` + a.Agent + `","rating":2500,"rd":30,"volatility":0.06,"display":2500,"rounds":2}`), old[1]}, nil
	}); err != nil {
		t.Fatal(err)
	}
	fs, err := h.arena.CheckRatings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, f := range fs {
		kinds[f.Kind+" "+f.Table+f.Agent]++
	}
	// Both Badges differ: a's was written wrong, and b's stored one is missing the ghost round
	// the recomputation plays.
	if kinds[RatingRoundDiffers+" rghost"] != 1 || kinds[RatingDiffers+" "+a.Agent] != 1 || kinds[RatingDiffers+" "+b.Agent] != 1 || len(fs) != 3 {
		t.Fatalf("findings %+v (the played round %s of %s is the table's)", fs, round, table)
	}
}

// envelopeRating is agents[].rating of seat in the first envelope of round sent to endpoint.
func envelopeRating(t *testing.T, h *harness, endpoint, round string, seat int) int {
	t.Helper()
	c := h.agents.(*answeringCaller)
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, env := range c.envs[endpoint] {
		var e struct {
			Round string `json:"round"`
			State struct {
				Agents []struct {
					Seat   int `json:"seat"`
					Rating int `json:"rating"`
				} `json:"agents"`
			} `json:"state"`
		}
		if json.Unmarshal(env, &e) != nil || e.Round != round {
			continue
		}
		for _, ag := range e.State.Agents {
			if ag.Seat == seat {
				return ag.Rating
			}
		}
	}
	t.Fatalf("no envelope of %s at %s names seat %d", round, endpoint, seat)
	return 0
}

// A rated round that finished but was not rated (the process died first) is rated at the next
// start, once: its ratings are the ones it would have had.
func TestRatedRoundCaughtUpAtStart(t *testing.T) {
	h := kindsHarness(t)
	h.arena.rate = func(string) error { return errors.New("the process died before rating") }
	a, b := kindAgent(1, KindRated, quickPace), kindAgent(2, KindRated, quickPace)
	table, _ := h.playRated([]AgentJoin{a, b})
	if _, ok, _ := h.arena.Rating(a.Agent); ok {
		t.Fatal("rated though the rating failed")
	}
	if fs, err := h.arena.CheckRatings(context.Background()); err != nil || len(fs) != 1 || fs[0].Kind != RatingUnrated || fs[0].Table != table {
		t.Fatalf("check before the restart: %+v %v", fs, err)
	}
	h.stop()
	h.start()
	ra := h.waitRated(a.Agent, 1)
	st, err := h.arena.Stored(table)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := ratedRoundOf(table, st)
	got, err := rateRound(want, [][]byte{nil, nil})
	if err != nil {
		t.Fatal(err)
	}
	var w RatingRecord
	_ = json.Unmarshal(got[0], &w)
	if ra != w {
		t.Fatalf("caught up %+v, want %+v", ra, w)
	}
	if fs, err := h.arena.CheckRatings(context.Background()); err != nil || len(fs) != 0 {
		t.Fatalf("check after the restart: %+v %v", fs, err)
	}
}
