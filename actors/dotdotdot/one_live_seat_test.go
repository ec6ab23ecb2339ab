package dotdotdot

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"arena/actors"
	"arena/games"
	"arena/games/blitz"
)

// seatingState is what a refused seating must leave as it was: every table (id, status, seats'
// agents), every gathering table (its players) and every stored paid table (its holds).
func seatingState(t *testing.T, a *Arena) string {
	t.Helper()
	ctx := context.Background()
	ts, err := a.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, ti := range ts {
		var agents []string
		for _, s := range ti.Seats {
			agents = append(agents, s.Agent)
		}
		out = append(out, fmt.Sprintf("table %s %s %v", ti.ID, ti.Status, agents))
	}
	gs, err := a.Gatherings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range gs {
		out = append(out, fmt.Sprintf("gathering %s %s %v", g.Table, g.Kind, g.Players))
	}
	recs, err := a.Store().PaidTables()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		var holds []string
		for _, h := range r.Holds {
			holds = append(holds, h.ID+" "+h.Agent+" "+h.Status)
		}
		out = append(out, fmt.Sprintf("paid %s %s %v", r.ID, r.Status, holds))
	}
	slices.Sort(out)
	return fmt.Sprint(out)
}

// otsJoinOf is JoinOTS's request seating j's Badge off the shelf at a Practice table.
func otsJoinOf(j AgentJoin, pace games.Pace) OTSJoin {
	return OTSJoin{Agents: []OTSAgent{{Agent: j.Agent, Name: j.Name, Owner: j.Owner, Playbook: blitz.DefaultPlaybook(), Grant: otsGrant(1)}},
		Table: "practice", Format: "blitz", Pace: pace}
}

// TestJoinOTSWhileWaitingAtRatedTableIsInARound: a Badge waiting at a rated gathering table has
// its round (one live seat per Badge); an off-the-shelf Practice join of it is refused
// in_a_round and opens nothing.
func TestJoinOTSWhileWaitingAtRatedTableIsInARound(t *testing.T) {
	h := kindsHarness(t)
	ctx := context.Background()
	a := kindAgent(1, KindRated, quickPace)
	r, err := h.arena.JoinAgent(ctx, a)
	if err != nil || r.Status != "gathering" {
		t.Fatalf("rated join: %+v %v", r, err)
	}
	before := seatingState(t, h.arena)
	o, err := h.arena.JoinOTS(ctx, otsJoinOf(a, quickPace))
	if !isCode(err, CodeInARound) {
		t.Fatalf("JoinOTS of a Badge waiting at rated table %s: %+v %v, want %s", r.Table, o, err, CodeInARound)
	}
	if after := seatingState(t, h.arena); after != before {
		t.Fatalf("the refused JoinOTS changed the seating:\n%s\nwas\n%s", after, before)
	}
}

// TestBadgeWaitingAtRatedTableSitsOneLiveRound: once the rated table the Badge waited at opens,
// the Badge holds exactly one live seat, that table's (the ots join meanwhile was refused).
func TestBadgeWaitingAtRatedTableSitsOneLiveRound(t *testing.T) {
	h := kindsHarness(t)
	ctx := context.Background()
	a, b := kindAgent(1, KindRated, quickPace), kindAgent(2, KindRated, quickPace)
	g, err := h.arena.JoinAgent(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	slow := games.Pace{Name: "test", Steps: map[string]time.Duration{"scouting": time.Hour, "talk": time.Hour, "commit": time.Hour, "settle": time.Hour}}
	if o, err := h.arena.JoinOTS(ctx, otsJoinOf(a, slow)); !isCode(err, CodeInARound) {
		t.Fatalf("JoinOTS of a waiting Badge: %+v %v, want %s", o, err, CodeInARound)
	}
	if _, err := h.arena.JoinAgent(ctx, b); err != nil {
		t.Fatal(err)
	}
	h.clock.Advance(h.arena.paces().WalkinTopUp)
	h.roundOf(g.Table)
	ts, err := h.arena.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var live []string
	for _, ti := range ts {
		if ti.Status != actors.StatusLive {
			continue
		}
		for _, s := range ti.Seats {
			if s.Agent == a.Agent {
				live = append(live, ti.ID)
			}
		}
	}
	if !slices.Equal(live, []string{g.Table}) {
		t.Fatalf("%s holds live seats at %v, want only rated table %s", a.Agent, live, g.Table)
	}
	// Now it is live there: every other way to a seat is refused.
	if _, err := h.arena.JoinOTS(ctx, otsJoinOf(a, slow)); !isCode(err, CodeInARound) {
		t.Fatalf("JoinOTS of a Badge live at %s: %v, want %s", g.Table, err, CodeInARound)
	}
}

// TestPaidHoldWhileWaitingAtRatedTableIsInARound: a paid hold for a Badge waiting at a rated
// gathering table is refused in_a_round (else it is seated at both when they open), and the
// refusal writes no hold.
func TestPaidHoldWhileWaitingAtRatedTableIsInARound(t *testing.T) {
	r := newPaidOpenRig(t, nil)
	ctx := context.Background()
	j := kindAgent(1, KindRated, quickPace)
	g, err := r.h.arena.JoinAgent(ctx, j)
	if err != nil || g.Status != "gathering" {
		t.Fatalf("rated join: %+v %v", g, err)
	}
	before := seatingState(t, r.h.arena)
	pj := j
	pj.Table, pj.Format, pj.Pace = "open", "short", quickPace
	ph, err := r.p.Hold(ctx, pj, []string{j.Owner})
	if !isCode(err, CodeInARound) {
		t.Fatalf("paid hold of a Badge waiting at rated table %s: %+v %v, want %s", g.Table, ph, err, CodeInARound)
	}
	if after := seatingState(t, r.h.arena); after != before {
		t.Fatalf("the refused hold changed the seating:\n%s\nwas\n%s", after, before)
	}
}

// TestJoinWhileHoldingPaidSeatIsInARound: a Badge holding a paid seat on a table still filling
// has its round: every other way to a seat (Practice, Solo, the free, rated and badge-gated
// gatherings, an off-the-shelf Practice seat, a second paid hold) is refused in_a_round, and
// none changes the seating.
func TestJoinWhileHoldingPaidSeatIsInARound(t *testing.T) {
	r := newPaidOpenRig(t, nil)
	ctx := context.Background()
	j := kindAgent(1, KindPractice, quickPace)
	pj := j
	pj.Table, pj.Format = "open", "short"
	hold, err := r.p.Hold(ctx, pj, []string{j.Owner})
	if err != nil {
		t.Fatal(err)
	}
	before := seatingState(t, r.h.arena)
	for _, table := range []string{KindPractice, KindSolo, KindFree, KindRated, KindGated} {
		jj := j
		jj.Table = table
		g, err := r.h.arena.JoinAgent(ctx, jj)
		if !isCode(err, CodeInARound) {
			t.Errorf("%s join of a Badge holding paid seat %s: %+v %v, want %s", table, hold.Hold, g, err, CodeInARound)
		}
	}
	if o, err := r.h.arena.JoinOTS(ctx, otsJoinOf(j, quickPace)); !isCode(err, CodeInARound) {
		t.Errorf("JoinOTS of a Badge holding paid seat %s: %+v %v, want %s", hold.Hold, o, err, CodeInARound)
	}
	if ph, err := r.p.Hold(ctx, pj, []string{j.Owner}); !isCode(err, CodeInARound) {
		t.Errorf("a second paid hold of a Badge holding %s: %+v %v, want %s", hold.Hold, ph, err, CodeInARound)
	}
	if after := seatingState(t, r.h.arena); after != before {
		t.Fatalf("the refused joins changed the seating:\n%s\nwas\n%s", after, before)
	}
}

// TestJoinWhileWaitingAtGatheringIsInARound: a Badge waiting at a free gathering table is
// refused at every other way to a seat, the paid hold included.
func TestJoinWhileWaitingAtGatheringIsInARound(t *testing.T) {
	r := newPaidOpenRig(t, nil)
	ctx := context.Background()
	j := kindAgent(1, KindFree, quickPace)
	g, err := r.h.arena.JoinAgent(ctx, j)
	if err != nil || g.Status != "gathering" {
		t.Fatalf("free join: %+v %v", g, err)
	}
	before := seatingState(t, r.h.arena)
	for _, table := range []string{KindPractice, KindSolo, KindFree, KindRated} {
		jj := j
		jj.Table = table
		if rep, err := r.h.arena.JoinAgent(ctx, jj); !isCode(err, CodeInARound) {
			t.Errorf("%s join of a Badge waiting at %s: %+v %v, want %s", table, g.Table, rep, err, CodeInARound)
		}
	}
	if o, err := r.h.arena.JoinOTS(ctx, otsJoinOf(j, quickPace)); !isCode(err, CodeInARound) {
		t.Errorf("JoinOTS of a Badge waiting at %s: %+v %v, want %s", g.Table, o, err, CodeInARound)
	}
	pj := j
	pj.Table, pj.Format = "open", "short"
	if ph, err := r.p.Hold(ctx, pj, []string{j.Owner}); !isCode(err, CodeInARound) {
		t.Errorf("paid hold of a Badge waiting at %s: %+v %v, want %s", g.Table, ph, err, CodeInARound)
	}
	if after := seatingState(t, r.h.arena); after != before {
		t.Fatalf("the refused joins changed the seating:\n%s\nwas\n%s", after, before)
	}
}
