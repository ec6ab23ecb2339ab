package dotdotdot

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"arena/actors/ledger"
	"arena/chain/verify"
	"arena/games"
	"arena/games/blitz"
	"arena/storage"
	"arena/transport/dotdotdot/housemodel/modelstub"
)

// TestOTSPaidSeatPlaybookEditableUntilScoutingEnds: an off-the-shelf agent holds a paid seat
// (its playbook kept with the hold), its owner deposits the entry and the table opens. GET
// {check} (the seat token's) then carries the seat's playbook token, and none before the
// table is open. While scouting lasts (the model holds its scouting answer back) the owner's
// human edits the playbook with it; once scouting has closed an edit is playbook_locked and
// changes nothing. The reveal publishes the edited playbook, and the open-round anchor
// recomputed from the reveal (anchor-check's "open-round anchor" line, verify.Check with the
// Blitz engine) equals the one announced in round.opened; the ledger invariant holds.
func TestOTSPaidSeatPlaybookEditableUntilScoutingEnds(t *testing.T) {
	var p *PaidTables
	release := make(chan struct{})
	_, model := stubModel(t, func(r modelstub.Request) modelstub.Reply {
		e := envelopeOf(t, r)
		if e.Phase == "scouting" {
			<-release
		}
		return modelstub.Reply{Content: playingAnswer(e)}
	})
	released := false
	free := func() {
		if !released {
			released = true
			close(release)
		}
	}
	t.Cleanup(free) // before the stub closes (cleanups run last first)
	h := otsHarness(t, model)
	h.product.OnStatus = func(table, status string) {
		if p != nil {
			p.TableStatus(table, status)
		}
	}
	h.stop()
	h.start()
	ctx := context.Background()
	deps := &fakeDeposits{deps: map[string][]EscrowDeposit{}}
	opened := make(chan [2]string, 1)
	pace := games.Pace{Name: "chat", CloseEarly: true, Steps: map[string]time.Duration{"scouting": time.Minute, "talk": time.Minute, "commit": time.Minute, "settle": time.Minute}}
	var err error
	p, err = NewPaidTables(h.arena, PaidOptions{Deposits: deps, Entry: 1000_000_000, Gather: time.Minute, Format: "short",
		Escrow: chainID + ":12810.0", Pace: pace, OnOpen: func(table, round string, err error) {
			if err != nil {
				t.Errorf("open: %v", err)
			}
			opened <- [2]string{table, round}
		}})
	if err != nil {
		t.Fatal(err)
	}
	held := blitz.Playbook{Text: "Play it safe.", Dials: blitz.Dials{Boldness: 1, Trust: 5, Chatter: 3}}
	hold, err := p.Hold(ctx, AgentJoin{Agent: otsAgent(1), Name: "Shelf One", Kind: "ots", Owner: owner1, Human: true, Playbook: &held, OTSGrant: otsGrant(1)}, []string{owner1})
	if err != nil {
		t.Fatal(err)
	}
	if c, err := p.Check(ctx, hold.Hold, hold.SeatToken); err != nil || c.Status != storage.PaidHolding || c.PlaybookToken != "" {
		t.Fatalf("check before the table opens: %+v %v (want holding, no playbook token)", c, err)
	}
	deps.add(hold.SeatToken, EscrowDeposit{Payer: "3kBxOwnerOne", Amount: 1000_000_000, At: t0.Add(5 * time.Second), Finalized: true})
	h.clock.Set(t0.Add(time.Minute))
	var tr [2]string
	select {
	case tr = <-opened:
	case <-time.After(waitMax):
		t.Fatal("the paid table did not open")
	}
	h.waitEvent("scouting.started", and(roundIs(tr[1]), typeIs("scouting.started")))
	var c PaidCheck
	for deadline := time.Now().Add(waitMax); ; time.Sleep(10 * time.Millisecond) {
		if c, err = p.Check(ctx, hold.Hold, hold.SeatToken); err == nil && c.Status == storage.PaidSeated {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the hold is not seated: %+v %v", c, err)
		}
	}
	if want := h.arena.playbookToken(tr[0], 1); c.Seat != 1 || c.PlaybookToken != want {
		t.Fatalf("seated check: seat %d playbook token %q, want seat 1 and %q", c.Seat, c.PlaybookToken, want)
	}
	if _, err := p.Check(ctx, hold.Hold, "st_not-the-token"); codeOf(err) != "forbidden" {
		t.Fatalf("a check with another seat token: %v", err)
	}
	edited := blitz.Playbook{Text: "Trust seat 2 once; never twice.", Dials: blitz.Dials{Boldness: 7, Trust: 2, Chatter: 9}}
	reply, err := h.arena.EditPlaybook(ctx, c.PlaybookToken, edited.JSON())
	if err != nil || string(reply) != `{"playbook":`+string(edited.JSON())+`}` {
		t.Fatalf("edit during scouting: %s %v", reply, err)
	}
	h.waitEvent("playbook.set", and(roundIs(tr[1]), typeIs("playbook.set"), func(e games.Event) bool { return e.Visibility == "private:1" }))
	free() // the model answers scouting: the round plays on
	h.waitEvent("round.opened", and(roundIs(tr[1]), typeIs("round.opened")))
	if _, err := h.arena.EditPlaybook(ctx, c.PlaybookToken, held.JSON()); codeOf(err) != blitz.CodePlaybookLocked {
		t.Fatalf("edit after scouting: %v, want %s", err, blitz.CodePlaybookLocked)
	}
	h.waitEvent("round.revealed", and(roundIs(tr[1]), typeIs("round.revealed")))
	evs, revealed, err := h.arena.Transcript(ctx, tr[1])
	if err != nil || !revealed {
		t.Fatalf("transcript: %v revealed %v", err, revealed)
	}
	var reveal blitz.Reveal
	sets := 0
	for _, e := range evs {
		switch e.Type {
		case "round.revealed":
			if err := json.Unmarshal(e.Payload, &reveal); err != nil {
				t.Fatal(err)
			}
		case "playbook.set":
			sets++
		}
	}
	if got := string(reveal.Playbooks["1"]); got != string(edited.JSON()) || len(reveal.Playbooks) != 1 || sets != 1 {
		t.Fatalf("reveal.playbooks %v (%d playbook.set), want seat 1's edited %s alone, set once", reveal.Playbooks, sets, edited.JSON())
	}
	op, err := blitz.NewEngine(blitz.DefaultFees()).Open(evs)
	if err != nil || !op.Found || op.Stated != op.Announced || op.Stated == "" {
		t.Fatalf("open-round anchor from the reveal: %+v %v", op, err)
	}
	raw, err := json.Marshal(evs)
	if err != nil {
		t.Fatal(err)
	}
	vt, err := verify.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	rep := verify.Check(ctx, vt, verify.Options{Game: blitz.NewEngine(blitz.DefaultFees())})
	found := false
	for _, l := range rep.Lines {
		if l.Check == "open-round anchor" {
			found = true
			if !l.OK || !strings.Contains(l.What, "round.opened") {
				t.Fatalf("anchor-check: %s", l)
			}
		}
	}
	if !found {
		t.Fatalf("anchor-check has no open-round anchor line:\n%v", rep.Lines)
	}
	if err := ledger.Audit(ctx, p.Ledger()); err != nil {
		t.Fatal(err)
	}
}
