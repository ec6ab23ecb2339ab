package dotdotdot

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"arena/actors"
	"arena/chain/verify"
	"arena/games"
	"arena/games/blitz"
)

// TestFreePlayGathersAWalkinBesideAnAgent: a registered agent and a walk-in gather to one Free
// table (POST /v1/join and POST /v1/walkin/join {"table": "free"}, both "gathering"; a walk-in
// whose name the agent holds is name_taken and holds no place); the
// walk-in's place is saved before its join is answered, a second join of the waiting walk-in is
// in_a_round and its poll says gathering, before and after a restart, which keeps both places
// and the top-up counted from the first join. At the top-up the table opens with the agent in
// seat 1, the walk-in in seat 2 under a Badge the house lends (a walk-in seat on its mailbox,
// rating 0) and house
// seats in the rest; the walk-in answers its moves from its polls, the round plays to the
// reveal, its round.created carries Free play's "opened" plan, and anchor-check's plan and
// open-round anchor lines pass on the transcript; nobody is rated.
func TestFreePlayGathersAWalkinBesideAnAgent(t *testing.T) {
	h := kindsHarness(t)
	ctx := context.Background()
	j := kindAgent(1, KindFree, quickPace)
	j.Format = "short"
	first, err := h.arena.JoinAgent(ctx, j)
	if err != nil || first.Status != "gathering" || first.Kind != KindFree {
		t.Fatalf("the agent's join %+v %v", first, err)
	}
	same, err := h.arena.RegisterWalkin(ctx, "kind 1", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.arena.JoinWalkin(ctx, same, JoinRequest{Table: KindFree, Format: "short"}); codeOf(err) != CodeNameTaken {
		t.Fatalf("a walk-in named as the waiting agent: %v, want %s (the names at one table are distinct)", err, CodeNameTaken)
	}
	if n, err := h.arena.NextMove(ctx, same, 0); err != nil || n.Status != NextIdle {
		t.Fatalf("the refused walk-in's poll %+v %v: it holds no place", n, err)
	}
	twin := kindAgent(2, KindFree, quickPace)
	twin.Format, twin.Name = "short", "KIND 1"
	if _, err := h.arena.JoinAgent(ctx, twin); codeOf(err) != CodeNameTaken {
		t.Fatalf("an agent named as the waiting agent: %v, want %s", err, CodeNameTaken)
	}
	tok, err := h.arena.RegisterWalkin(ctx, "Wanda", "")
	if err != nil {
		t.Fatal(err)
	}
	hash, _ := walkinTokenHash(tok)
	if _, err := h.arena.JoinWalkin(ctx, tok, JoinRequest{Table: KindFree, Format: "short", Pace: "chat"}); codeOf(err) != games.CodeBadRequest {
		t.Fatalf("a Free join on the chat clock: %v", err)
	}
	jr, err := h.arena.JoinWalkin(ctx, tok, JoinRequest{Table: KindFree, Format: "short"})
	// The place as the agent's gathering answer gives it: the table, second in the order of
	// joins, and the table's starts_by.
	if err != nil || jr.Status != "gathering" || jr.Kind != KindFree || jr.Round != "" || jr.Table != first.Table || jr.Seat != 2 ||
		!jr.StartsBy.Equal(first.StartsBy) || jr.StartsBy.IsZero() {
		t.Fatalf("the walk-in's join %+v %v (the agent's %+v)", jr, err, first)
	}
	recs, err := h.arena.Store().Gatherings()
	if err != nil || len(recs) != 1 || recs[0].Table != first.Table || len(recs[0].Agents) != 2 || recs[0].Agents[1].Walkin != hash ||
		recs[0].Agents[1].Name != "Wanda" || recs[0].Agents[1].Agent != "" {
		t.Fatalf("stored gathering once the walk-in's join is answered: %+v %v", recs, err)
	}
	waiting := func(when string) {
		t.Helper()
		if _, err := h.arena.JoinWalkin(ctx, tok, JoinRequest{Table: KindFree, Format: "short"}); codeOf(err) != CodeInARound {
			t.Fatalf("%s: a second Free join: %v", when, err)
		}
		if _, err := h.arena.JoinWalkin(ctx, tok, JoinRequest{Format: "short"}); codeOf(err) != CodeInARound {
			t.Fatalf("%s: a Practice join while waiting: %v", when, err)
		}
		if n, err := h.arena.NextMove(ctx, tok, 0); err != nil || n.Status != NextGathering {
			t.Fatalf("%s: poll %+v %v", when, n, err)
		}
		gs, err := h.arena.Gatherings(ctx)
		if err != nil || len(gs) != 1 || gs[0].Table != first.Table || !reflect.DeepEqual(gs[0].Players, []string{"Kind 1", "Wanda"}) ||
			!gs[0].StartsBy.Equal(first.StartsBy) {
			t.Fatalf("%s: gatherings %+v %v", when, gs, err)
		}
	}
	waiting("before the restart")
	h.clock.Advance(30 * time.Second)
	h.stop()
	h.start()
	waiting("after the restart")

	h.clock.Advance(h.arena.paces().WalkinTopUp - 30*time.Second)
	round := h.roundOf(first.Table)
	taken := h.seatsTaken(round)
	if len(taken) != 3 || taken[1]["agent"] != j.Agent || taken[2]["name"] != "Wanda" || taken[2]["human"] != true || taken[2]["rating"] != 0.0 || taken[3]["kind"] != "arena" {
		t.Fatalf("seats %v", taken)
	}
	st, err := h.arena.Stored(first.Table)
	if err != nil || st.Kind != KindFree || !st.Seats[1].Lent || st.Seats[1].Channel != ChannelMailbox || st.Seats[1].Kind != "walkin" ||
		st.Seats[1].Seat.Agent != taken[2]["agent"] {
		t.Fatalf("the Free table %+v %v: the walk-in on its mailbox under a lent Badge", st, err)
	}
	if e := h.waitEvent("round.created", and(roundIs(round), typeIs("round.created"))); !json.Valid(e.Payload) ||
		!reflect.DeepEqual(anchorsOf(t, e.Payload), "opened") {
		t.Fatalf("Free play's round.created %s", e.Payload)
	}
	answered := 0
	for deadline := time.Now().Add(waitMax); ; {
		n, err := h.arena.NextMove(ctx, tok, 0)
		if err != nil {
			t.Fatal(err)
		}
		if n.Status == NextRevealed {
			if n.Round != round || n.Seat != 2 {
				t.Fatalf("the walk-in's result %+v", n)
			}
			break
		}
		if n.Status == NextMove {
			body := map[string]any{"round": round, "turn": n.Prompt.Move.Turn, "phase": n.Prompt.Move.Phase}
			if n.Prompt.Move.Exchange > 0 {
				body["exchange"] = n.Prompt.Move.Exchange
			}
			b, _ := json.Marshal(body)
			if _, err := h.arena.AnswerMove(ctx, tok, b); err != nil {
				t.Fatalf("answer %s: %v", b, err)
			}
			answered++
			deadline = time.Now().Add(waitMax)
			continue
		}
		if time.Now().After(deadline) {
			t.Fatalf("the round did not reach the reveal: last poll %+v", n)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if answered < 7 { // scouting, then two exchanges and a commit a turn
		t.Fatalf("the walk-in answered %d moves", answered)
	}
	h.revealed(round)
	h.waitStatus(first.Table, actors.StatusFinished)
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
	anchors := 0
	for _, l := range rep.Lines {
		switch {
		case l.Check == "open-round anchor" && !l.OK:
			t.Fatalf("anchor-check: %s", l)
		case l.Check == "events" && !l.OK:
			t.Fatalf("anchor-check: %s", l)
		case len(l.Check) > 7 && l.Check[:7] == "anchor ":
			anchors++
		}
	}
	if anchors != 1 {
		t.Fatalf("anchor-check plans %d anchors, want the opened one alone:\n%v", anchors, rep.Lines)
	}
	var rec struct {
		Rounds, Practice int
		Last             []struct{ Round, Kind string }
	}
	for deadline := time.Now().Add(waitMax); rec.Rounds == 0; time.Sleep(5 * time.Millisecond) {
		b, err := h.arena.WalkinRecord(ctx, tok)
		if err != nil || json.Unmarshal(b, &rec) != nil || time.Now().After(deadline) {
			t.Fatalf("the walk-in's record %s %v", b, err)
		}
	}
	if rec.Rounds != 1 || rec.Practice != 0 || len(rec.Last) != 1 || rec.Last[0].Round != round || rec.Last[0].Kind != KindFree {
		t.Fatalf("the walk-in's record %+v: one Free round, no Practice", rec)
	}
	if err := h.arena.rateTable(first.Table); err != nil {
		t.Fatal(err)
	}
	if all, err := h.arena.Ratings(); err != nil || len(all) != 0 {
		t.Fatalf("Free play rated %+v %v", all, err)
	}
	if recs, _ := h.arena.Store().Gatherings(); len(recs) != 0 {
		t.Fatalf("gathering records left %+v", recs)
	}
}

func anchorsOf(t *testing.T, payload json.RawMessage) any {
	t.Helper()
	var p map[string]any
	if err := json.Unmarshal(payload, &p); err != nil {
		t.Fatal(err)
	}
	return p["anchors"]
}
