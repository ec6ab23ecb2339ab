package dotdotdot

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"arena/actors"
	"arena/chain/verify"
	"arena/games"
	"arena/games/blitz"
)

// TestGatedTableEndToEnd: two Badges of distinct owners play GateRounds rated rounds, then join
// a badge-gated table on the agent clock; house seats top it up once both have come, it scouts
// 30 s (§5.2), seat.taken and the envelopes' state.agents[] show each Badge's rating, and the round plays to the reveal with a
// result. The badge-gated round is not rated: every rating and rated-round count is the one
// before it, RecomputeRatings gives the stored ratings and CheckRatings finds nothing. Its
// round.created names no anchor plan (it anchors every move, as a rated round), and
// anchor-check's events and open-round anchor lines pass on its transcript.
func TestGatedTableEndToEnd(t *testing.T) {
	h := kindsHarness(t)
	ctx := context.Background()
	a, b := kindAgent(1, KindRated, quickPace), kindAgent(2, KindRated, quickPace)
	for n := 1; n <= GateRounds; n++ {
		h.playRated([]AgentJoin{a, b})
		h.waitRated(a.Agent, n)
		h.waitRated(b.Agent, n)
	}
	before, err := h.arena.Ratings()
	if err != nil || len(before) != 2 {
		t.Fatalf("ratings before the gated round %+v %v", before, err)
	}
	for _, r := range before {
		if r.Rounds != GateRounds {
			t.Fatalf("%s has %d rated rounds, want %d", r.Agent, r.Rounds, GateRounds)
		}
	}

	ga, gb := a, b
	ga.Table, gb.Table, ga.Pace, gb.Pace = KindGated, KindGated, games.Pace{}, games.Pace{}
	var table string
	for i, j := range []AgentJoin{ga, gb} {
		r, err := h.arena.JoinAgent(ctx, j)
		if err != nil || r.Status != "gathering" || r.Kind != KindGated || r.Pace != "agent" || r.Seat != i+1 {
			t.Fatalf("gated join %d: %+v %v", i, r, err)
		}
		if table != "" && r.Table != table {
			t.Fatalf("gated join %d at %s, the first at %s", i, r.Table, table)
		}
		table = r.Table
	}
	// One seat per owner at a badge-gated table too.
	twin := kindAgent(3, KindGated, games.Pace{})
	twin.Owner = a.Owner
	if _, err := h.arena.JoinAgent(ctx, twin); !isCode(err, CodeBadTable) {
		t.Fatalf("a second Badge of one owner at a badge-gated table: %v, want bad_table", err)
	}
	h.clock.Advance(h.arena.paces().WalkinTopUp)
	round := h.roundOf(table)
	if ti, err := h.arena.Table(ctx, table); err != nil || ti.Kind != KindGated {
		t.Fatalf("table %+v %v", ti, err)
	}
	if d := scoutingMS(h, round); d != 30_000 {
		t.Fatalf("badge-gated scouting %d ms, want 30000", d)
	}
	if e := h.waitEvent("round.created", and(roundIs(round), typeIs("round.created"))); strings.Contains(string(e.Payload), `"anchors"`) {
		t.Fatalf("a badge-gated round anchors every move, yet its round.created names its anchors: %s", e.Payload)
	}
	taken := h.seatsTaken(round)
	if len(taken) != 6 {
		t.Fatalf("seats %v", taken)
	}
	display := map[string]int{}
	for _, r := range before {
		display[r.Agent] = r.Display
	}
	for i, j := range []AgentJoin{a, b} {
		if p := taken[i+1]; p["agent"] != j.Agent || p["kind"] != "byo" || p["rating"] != float64(display[j.Agent]) || display[j.Agent] == 0 {
			t.Fatalf("seat %d %v: want %s rated %d", i+1, p, j.Agent, display[j.Agent])
		}
	}
	for s := 3; s <= 6; s++ {
		if taken[s]["kind"] != "arena" {
			t.Fatalf("seat %d %v: want a house seat", s, taken[s])
		}
	}

	h.playOnTheClock(table, round)
	// §5.4: every envelope's state.agents[] carries each Badge's rating too.
	for i, j := range []AgentJoin{a, b} {
		if got := envelopeRating(t, h, a.Endpoint, round, i+1); got != display[j.Agent] {
			t.Fatalf("agents[%d].rating %d in an envelope of the badge-gated round, its Badge's %d", i, got, display[j.Agent])
		}
	}
	st, err := h.arena.Stored(table)
	if err != nil || st.Kind != KindGated || st.Result == nil || len(st.Result.Standings) != 6 {
		t.Fatalf("the badge-gated table's result %+v %v", st.Result, err)
	}

	// Not rated: telling the product the table finished changes nothing either.
	if err := h.arena.rateTable(table); err != nil {
		t.Fatal(err)
	}
	after, err := h.arena.Ratings()
	if err != nil || !reflect.DeepEqual(after, before) {
		t.Fatalf("ratings after the badge-gated round %+v %v, before %+v", after, err, before)
	}
	again, err := h.arena.RecomputeRatings()
	if err != nil || len(again) != len(before) {
		t.Fatalf("recomputed %+v %v", again, err)
	}
	for _, s := range before {
		if again[s.Agent] != s {
			t.Fatalf("%s stored %+v, recomputed %+v", s.Agent, s, again[s.Agent])
		}
	}
	if fs, err := h.arena.CheckRatings(ctx); err != nil || len(fs) != 0 {
		t.Fatalf("check: %+v %v", fs, err)
	}

	evs, revealed, err := h.arena.Transcript(ctx, round)
	if err != nil || !revealed {
		t.Fatalf("transcript %v %v", err, revealed)
	}
	raw, _ := json.Marshal(evs)
	vt, err := verify.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	rep := verify.Check(ctx, vt, verify.Options{Game: blitz.NewEngine(blitz.DefaultFees())})
	// The plan is the register plan of every anchored kind: the opening, each exchange and
	// sealed commitment, the mid-round turn and the transcript (the harness has no chain, so
	// the anchors themselves are absent; their plan is what is checked here).
	seen := map[string]bool{}
	plan := map[string]int{}
	for _, l := range rep.Lines {
		switch {
		case (l.Check == "open-round anchor" || l.Check == "events") && !l.OK:
			t.Fatalf("anchor-check: %s", l)
		case strings.HasPrefix(l.Check, "anchor #"):
			if f := strings.Fields(l.Check); len(f) == 3 {
				plan[f[2]]++
			}
		}
		seen[l.Check] = true
	}
	if !seen["events"] || !seen["open-round anchor"] || plan["opened"] != 1 || plan["transcript"] != 1 || plan["turn"] != 1 ||
		plan["exchange"] < 3 || plan["commitment"] == 0 {
		t.Fatalf("anchor-check's plan %v (want the register plan):\n%v", plan, rep.Lines)
	}
}

// playOnTheClock plays round of table on its own clock, moving the fake clock on a second at a
// time, until the round is revealed and the table finished.
func (h *harness) playOnTheClock(table, round string) {
	h.t.Helper()
	for _, e := range h.log {
		if e.Round == round && e.Type == "round.revealed" {
			h.waitStatus(table, actors.StatusFinished)
			return
		}
	}
	for i := 0; ; i++ {
		if i > 20000 {
			h.t.Fatalf("round %s not revealed after %d fake seconds", round, i)
		}
		h.clock.Advance(time.Second)
		select {
		case e := <-h.events:
			h.log = append(h.log, e)
			if e.Round == round && e.Type == "round.revealed" {
				h.waitStatus(table, actors.StatusFinished)
				return
			}
		case <-time.After(time.Millisecond):
		}
		for len(h.events) > 0 {
			e := <-h.events
			h.log = append(h.log, e)
			if e.Round == round && e.Type == "round.revealed" {
				h.waitStatus(table, actors.StatusFinished)
				return
			}
		}
	}
}
