package dotdotdot

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

	"arena/actors"
	"arena/actors/ledger"
	"arena/games"
	"arena/games/blitz"
)

const (
	testHouseOwner = "ccd:4221332d34e1694168c2a0c0b3fd0f27:3kBxHouseAccount"
	testAgentOwner = "ccd:4221332d34e1694168c2a0c0b3fd0f27:3kBxAliceAccount"
)

// seatTaken is one seat.taken payload's members that name who sits (§15).
type seatTaken struct {
	Seat  int     `json:"seat"`
	Kind  string  `json:"kind"`
	Owner *string `json:"owner"`
	Human bool    `json:"human"`
}

func seatTakenOf(t *testing.T, evs []games.Event) map[int]seatTaken {
	t.Helper()
	out := map[int]seatTaken{}
	for _, e := range evs {
		if e.Type != "seat.taken" {
			continue
		}
		var p seatTaken
		if err := json.Unmarshal(e.Payload, &p); err != nil {
			t.Fatal(err)
		}
		out[p.Seat] = p
	}
	return out
}

func ownerOf(p seatTaken) string {
	if p.Owner == nil {
		return "<null>"
	}
	return *p.Owner
}

// TestSeatTakenNamesOwnerAndKind: seat.taken names each seat's Badge owner and its kind in §15's
// words. An agent's Practice: the agent's seat is owned by its registry owner (AgentJoin.Owner)
// and is its own (byo); the house seats are the roster (arena), owned by the house identity
// account (Options.HouseOwner), as is a walk-in's lent Badge, whose seat is the walk-in's own
// (byo).
func TestSeatTakenNamesOwnerAndKind(t *testing.T) {
	h, _ := blitzHarness(t)
	h.product.HouseOwner = testHouseOwner
	h.stop()
	h.start()
	ctx := context.Background()
	r, err := h.arena.JoinAgent(ctx, AgentJoin{Agent: joinAgentID, Name: "Ada", Endpoint: "https://ada.example/a2a",
		Owner: testAgentOwner, Table: "practice", Format: "short", Human: true})
	if err != nil {
		t.Fatal(err)
	}
	token, err := h.arena.RegisterWalkin(ctx, "Ivo", "test-model")
	if err != nil {
		t.Fatal(err)
	}
	j, err := h.arena.JoinWalkin(ctx, token, JoinRequest{Format: "short"})
	if err != nil {
		t.Fatal(err)
	}
	h.clock.Advance(time.Second)
	for _, round := range []string{r.Round, j.Round} {
		h.waitEvent("scouting of "+round, func(e games.Event) bool { return e.Type == "scouting.started" && e.Round == round })
	}
	for _, c := range []struct {
		round string
		want  map[int][2]string // seat → kind, owner
	}{
		{r.Round, map[int][2]string{1: {"byo", testAgentOwner}, 2: {"arena", testHouseOwner}, 3: {"arena", testHouseOwner}}},
		{j.Round, map[int][2]string{1: {"byo", testHouseOwner}, 2: {"arena", testHouseOwner}, 3: {"arena", testHouseOwner}}},
	} {
		evs, _, err := h.arena.Transcript(ctx, c.round)
		if err != nil {
			t.Fatal(err)
		}
		got := seatTakenOf(t, evs)
		if len(got) != len(c.want) {
			t.Fatalf("%s: seat.taken %+v", c.round, got)
		}
		for seat, w := range c.want {
			if p := got[seat]; p.Kind != w[0] || ownerOf(p) != w[1] {
				t.Errorf("%s seat %d: kind %q owner %s, want %q %s", c.round, seat, p.Kind, ownerOf(p), w[0], w[1])
			}
		}
	}
}

// TestPaidSeatKeepsItsOwnerAcrossARestart: a paid seat's owner (the join's AgentJoin.Owner) is
// kept with its hold, so the table opened after a restart still names it in the seat's options
// (and so in seat.taken); the house seats are the house account's.
func TestPaidSeatKeepsItsOwnerAcrossARestart(t *testing.T) {
	h, _ := blitzHarness(t)
	h.product.HouseOwner = testHouseOwner
	h.stop()
	h.start()
	ctx := context.Background()
	deps := &fakeDeposits{deps: map[string][]EscrowDeposit{}}
	opts := func(opened chan [2]string) PaidOptions {
		return PaidOptions{Deposits: deps, Entry: 100_000_000, Gather: time.Minute, Format: "short", Escrow: chainID + ":12810.0",
			OnOpen: func(table, round string, err error) {
				if err != nil {
					t.Errorf("open: %v", err)
				}
				opened <- [2]string{table, round}
			}}
	}
	p, err := NewPaidTables(h.arena, opts(make(chan [2]string, 1)))
	if err != nil {
		t.Fatal(err)
	}
	hold, err := p.Hold(ctx, AgentJoin{Agent: chainID + "/cis-2:AgentOne", Name: "Agent One", Endpoint: "https://one.example/a2a",
		Owner: owner1, Human: true}, []string{owner1})
	if err != nil {
		t.Fatal(err)
	}
	deps.add(hold.SeatToken, EscrowDeposit{Payer: "3kBxOwnerOne", Amount: 100_000_000, At: t0.Add(5 * time.Second), Finalized: true})
	recs, err := h.arena.Store().PaidTables()
	if err != nil || len(recs) != 1 || len(recs[0].Holds) != 1 || recs[0].Holds[0].Owner != owner1 {
		t.Fatalf("the stored paid table %+v (%v) does not keep the hold's owner %s", recs, err, owner1)
	}
	// The process stops: its paid tables with it (they share the test's clock otherwise).
	if err := p.root.StopFuture(p.pid).Wait(); err != nil {
		t.Fatal(err)
	}
	h.stop()
	h.start()
	opened := make(chan [2]string, 1)
	p, err = NewPaidTables(h.arena, opts(opened))
	if err != nil {
		t.Fatal(err)
	}
	h.clock.Set(t0.Add(time.Minute))
	var tr [2]string
	select {
	case tr = <-opened:
	case <-time.After(waitMax):
		t.Fatal("the paid table did not open")
	}
	opts2 := storedSeatOptions(t, h.arena, tr[0])
	for i, want := range []string{owner1, testHouseOwner, testHouseOwner} {
		if opts2[i].Owner != want {
			t.Errorf("seat %d: owner %q, want %q", i+1, opts2[i].Owner, want)
		}
	}
	// The hold made before the restart is staked once, beside the house seats' entries.
	if err := ledger.Audit(ctx, p.Ledger()); err != nil {
		t.Fatal(err)
	}
	lst, err := p.Ledger().State(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := lst.Units[PaidUnit]; got != (ledger.Totals{Received: 300_000_000, Staked: 300_000_000}) {
		t.Fatalf("ledger totals %+v", got)
	}
}

// storedSeatOptions are the Blitz options of each seat of table id as its record holds them.
func storedSeatOptions(t *testing.T, a *Arena, id string) []blitz.SeatOptions {
	t.Helper()
	b, err := a.Store().LoadTable(id)
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Spec actors.TableSpec `json:"spec"`
	}
	if err := json.Unmarshal(b[:bytes.IndexByte(b, '\n')], &rec); err != nil {
		t.Fatal(err)
	}
	var out []blitz.SeatOptions
	for _, s := range rec.Spec.Seats {
		o, err := blitz.SeatOptionsOf(s.Seat)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, o)
	}
	return out
}
