package blitz

import (
	"reflect"
	"testing"
)

// §11 worked figures. Mole seat 6 (broker). Seat 6 pays seat 5 10 CCD in turn 1 (rung 1: party
// to one sealed commitment). Accusations: 1 and 2 on 6; 4 on 5 then moved to 6; 3 on 1.
// After turn 5 the mole holds 90: each correct accuser takes 9 (10% of 90, computed before
// any is applied), seat 3 pays 10 (10% of its 100) to the mole: mole 90 − 27 + 10 = 73.
// Bounty pot 60: floor(60 × 1/3) = 20 to the mole; 40 among 1, 2, 4: 13.333333 each and the
// 0.000001 remainder to seat 1, the lowest. Seat 5 is a human ots seat: table 20 + inference
// 30 from its payout; seat 3 a human byo seat: table 20.
func TestRoundSettlementFigures(t *testing.T) {
	s := testSetup("blitz", 6, `{"mole":6,"task":{"kind":"broker","named":[]}}`)
	seatOpts(&s.Seats[4], func(o *SeatOptions) { o.Human, o.Kind = true, "ots" })
	seatOpts(&s.Seats[2], func(o *SeatOptions) { o.Human = true })
	seatOpts(&s.Seats[2], func(o *SeatOptions) { o.Kind = "byo" })
	h := newHarness(t, s)
	if _, err := h.act(1, "accuse", `{"seat":6}`); !isCode(err, CodeNotNow, true) {
		t.Fatalf("accuse before turn 1 talk: %v", err)
	}
	h.to(1, "talk", 1)
	for _, a := range []struct{ seat, on int }{{1, 6}, {2, 6}, {4, 5}, {3, 1}} {
		if _, err := h.act(a.seat, "accuse", `{"seat":`+itoa(a.on)+`}`); err != nil {
			t.Fatalf("seat %d accuses %d: %v", a.seat, a.on, err)
		}
	}
	if _, err := h.act(6, "accuse", `{"seat":1}`); !isCode(err, CodeIsMole, false) {
		t.Fatalf("the mole accuses: %v", err)
	}
	if _, err := h.act(5, "accuse", `{"seat":5}`); !isCode(err, CodeBadTarget, false) {
		t.Fatalf("self-accusation: %v", err)
	}
	h.to(1, "commit", 0)
	h.mustNoDrop(6, commitBody(c(5, 10*ccd, 1)))
	h.to(2, "talk", 1)
	if _, err := h.act(4, "accuse", `{"seat":6}`); err != nil {
		t.Fatal(err)
	}
	if _, err := h.act(4, "accuse", `{"seat":1}`); !isCode(err, CodeLeverSpent, false) {
		t.Fatalf("third accusation: %v", err)
	}
	r := h.finish()
	if _, err := h.act(1, "accuse", `{"seat":2}`); !isCode(err, CodeRoundOver, false) {
		t.Fatalf("accusation after the round: %v", err)
	}
	acc := h.m.Accusations()
	want := []Accusation{{1, 6, true, 9 * ccd}, {2, 6, true, 9 * ccd}, {3, 1, false, 10 * ccd}, {4, 6, true, 9 * ccd}}
	if !reflect.DeepEqual(acc, want) {
		t.Fatalf("accusations %+v\nwant %+v", acc, want)
	}
	b := h.m.Bounty()
	if b.Pot != 60*ccd || b.Rungs != 1 || b.ToMole != 20*ccd ||
		!reflect.DeepEqual(b.ToAccusers, map[string]int64{"1": 13333334, "2": 13333333, "4": 13333333}) {
		t.Fatalf("bounty %+v", b)
	}
	wantPay := map[int]int64{
		1: 109*ccd + 13333334 + 90*ccd,
		2: 109*ccd + 13333333 + 90*ccd,
		3: 90*ccd + 90*ccd - 20*ccd,
		4: 109*ccd + 13333333 + 90*ccd,
		5: 110*ccd + 90*ccd - 50*ccd,
		6: 73*ccd + 20*ccd + 85*ccd,
	}
	if !reflect.DeepEqual(r.Payouts, wantPay) {
		t.Fatalf("payouts %v\nwant %v", r.Payouts, wantPay)
	}
	if r.House != 5*ccd+50*ccd+20*ccd {
		t.Fatalf("house %d", r.House)
	}
	var sum int64
	for _, p := range r.Payouts {
		sum += p
	}
	if sum+r.House != 1200*ccd {
		t.Fatalf("conservation: %d + %d", sum, r.House)
	}
	if r.Ranking()[0] != 1 || r.Ranking()[len(r.Ranking())-1] != 5 {
		t.Fatalf("ranking %v", r.Ranking())
	}
}

// No correct accuser: the mole takes the whole pot whatever its rungs.
func TestBountyAllToMoleWithoutCorrectAccuser(t *testing.T) {
	h := newHarness(t, testSetup("blitz", 6, `{"mole":6,"task":{"kind":"ghost","named":[]}}`))
	h.to(1, "talk", 1)
	if _, err := h.act(1, "accuse", `{"seat":2}`); err != nil {
		t.Fatal(err)
	}
	h.finish()
	if b := h.m.Bounty(); b.ToMole != 60*ccd || len(b.ToAccusers) != 0 || b.Rungs != 3 {
		t.Fatalf("bounty %+v", b)
	}
}

func TestCalls(t *testing.T) {
	s := testSetup("blitz", 6, `{"mole":6,"task":{"kind":"broker","named":[]}}`)
	seatOpts(&s.Seats[1], func(o *SeatOptions) { o.Walkin, o.Kind = false, "byo" })
	h := newHarness(t, s)
	if _, err := h.act(1, "call", `{"text":"go"}`); !isCode(err, CodeNotNow, true) {
		t.Fatalf("call before the round: %v", err)
	}
	h.to(1, "talk", 1)
	if _, err := h.act(1, "call", `{"text":"`+string(make([]byte, 0))+`"}`); !isCode(err, CodeRefused, false) {
		t.Fatalf("empty call: %v", err)
	}
	long := make([]rune, 201)
	for i := range long {
		long[i] = 'é'
	}
	if _, err := h.act(1, "call", `{"text":"`+string(long)+`"}`); !isCode(err, CodeRefused, false) {
		t.Fatalf("201-character call: %v", err)
	}
	if _, err := h.act(2, "call", `{"text":"hi"}`); !isCode(err, CodeRefused, false) {
		t.Fatalf("call from a seat without a human: %v", err)
	}
	for i := 0; i < 2; i++ {
		if _, err := h.act(1, "call", `{"text":"push seat 3"}`); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := h.act(1, "call", `{"text":"again"}`); !isCode(err, CodeLeverSpent, false) {
		t.Fatalf("third call: %v", err)
	}
	st := h.next() // exchange 2 opens: the calls are delivered
	var got int
	for _, p := range st.Prompts {
		if p.Seat == 1 {
			for _, it := range p.Inbox {
				if string(it) == `{"text":"push seat 3","type":"call"}` {
					got++
				}
			}
		}
	}
	if got != 2 || len(h.events("call.delivered")) != 2 || h.events("call.delivered")[0].Visibility != "private:1" {
		t.Fatalf("calls delivered %d, events %d", got, len(h.events("call.delivered")))
	}
}
