package dotdotdot

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"arena/actors/ledger"
	"arena/games"
	"arena/games/blitz"
	"arena/storage"
	"arena/transport/dotdotdot/housemodel/modelstub"
)

// TestOTSSeatAtAPaidTablePaysTheInferenceFee: an off-the-shelf agent holds a seat at a paid
// Short table (entry 1000 CCD, paid by its owner), its playbook kept with the hold; the table
// opens with it on the ots channel (kind ots, the playbook in the table's options) beside two
// house seats, the round plays to the end on the house model (a local stub) and settles in the
// ledger. The seat's fees are §14's table and inference fees, the
// house's take in the ledger is the game's (action, table and inference fees) with the house
// seats' payouts, the owner is paid the seat's payout, and the ledger invariant holds.
func TestOTSSeatAtAPaidTablePaysTheInferenceFee(t *testing.T) {
	var p *PaidTables
	_, model := stubModel(t, func(r modelstub.Request) modelstub.Reply {
		return modelstub.Reply{Content: playingAnswer(envelopeOf(t, r))}
	})
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
	pb := blitz.Playbook{Text: "Play it safe.", Dials: blitz.Dials{Boldness: 1, Trust: 5, Chatter: 3}}
	if _, err := p.Hold(ctx, AgentJoin{Agent: otsAgent(1), Name: "Shelf One", Kind: "ots", Owner: owner1, Human: true}, []string{owner1}); codeOf(err) != games.CodeBadRequest {
		t.Fatalf("an ots hold with no playbook: %v", err)
	}
	if _, err := p.Hold(ctx, AgentJoin{Agent: otsAgent(1), Name: "Shelf One", Kind: "ots", Owner: owner1, Human: true, Playbook: &pb}, []string{owner1}); codeOf(err) != games.CodeBadRequest {
		t.Fatalf("an ots hold with no key grant: %v", err)
	}
	hold, err := p.Hold(ctx, AgentJoin{Agent: otsAgent(1), Name: "Shelf One", Kind: "ots", Owner: owner1, Human: true, Playbook: &pb, OTSGrant: otsGrant(1)}, []string{owner1})
	if err != nil {
		t.Fatal(err)
	}
	recs, err := h.arena.Store().PaidTables()
	if err != nil || len(recs) != 1 || len(recs[0].Holds) != 1 || string(recs[0].Holds[0].Playbook) != string(pb.JSON()) || recs[0].Holds[0].OTSGrant != otsGrant(1) {
		t.Fatalf("the stored hold does not keep its playbook: %+v %v", recs, err)
	}
	deps.add(hold.SeatToken, EscrowDeposit{Payer: "3kBxOwnerOne", Amount: 1000_000_000, At: t0.Add(5 * time.Second), Finalized: true})
	h.clock.Set(t0.Add(time.Minute))
	var tr [2]string
	select {
	case tr = <-opened:
	case <-time.After(waitMax):
		t.Fatal("the paid table did not open")
	}
	st, err := h.arena.Stored(tr[0])
	if err != nil || st.Seats[0].Channel != ChannelOTS || st.Seats[0].Kind != "ots" || st.Seats[0].Seat.Agent != otsAgent(1) || st.Seats[0].OTSGrant != otsGrant(1) {
		t.Fatalf("seat 1 %+v (%v)", st.Seats, err)
	}
	h.waitEvent("round.revealed", and(roundIs(tr[1]), typeIs("round.revealed")))
	var settled PaidSettlement
	deadline := time.Now().Add(waitMax)
	for {
		recs, err := h.arena.Store().PaidTables()
		if err == nil && len(recs) == 1 && recs[0].Status == storage.PaidSettled {
			var ok bool
			if settled, ok = p.Finished(tr[0]); !ok {
				t.Fatal("no settlement for the finished table")
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the paid table never settled: %+v %v", recs, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	fees := blitz.DefaultFees()
	evs, _, err := h.arena.Transcript(ctx, tr[1])
	if err != nil {
		t.Fatal(err)
	}
	var roundFees map[string]int64
	for _, e := range evs {
		if e.Type == "round.settled" {
			var pl struct {
				Fees map[string]int64 `json:"fees"`
			}
			_ = json.Unmarshal(e.Payload, &pl)
			roundFees = pl.Fees
		}
	}
	if roundFees["1"] != fees.Table+fees.Inference || len(roundFees) != 1 {
		t.Fatalf("round fees %v, want seat 1's table + inference fee %d alone", roundFees, fees.Table+fees.Inference)
	}
	res := settled.Result
	if len(settled.Paid) != 1 || settled.Paid[0].Account != owner1 || settled.Paid[0].Amount != res.Payouts[1] {
		t.Fatalf("paid %+v, payouts %v", settled.Paid, res.Payouts)
	}
	if res.House < fees.Table+fees.Inference {
		t.Fatalf("the game's house take %d is below seat 1's fees", res.House)
	}
	if err := ledger.Audit(ctx, p.Ledger()); err != nil {
		t.Fatal(err)
	}
	lst, err := p.Ledger().State(ctx)
	if err != nil {
		t.Fatal(err)
	}
	_, house := settled.ledgerSettle()
	got := lst.Units[PaidUnit]
	if got.Received != 3000_000_000 || got.House != house || got.PaidOut+got.House != 3000_000_000 || got.Staked != 0 {
		t.Fatalf("ledger totals %+v, want 3000 CCD received and settled whole, house %d", got, house)
	}
	if got.PaidOut != res.Payouts[1]+res.Pool[2]+res.Pool[3] {
		t.Fatalf("paid out %d, want seat 1's payout %d and the season pool's %d", got.PaidOut, res.Payouts[1], res.Pool[2]+res.Pool[3])
	}
}
