package market

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"
)

// A negotiation of 250 Rounds, read back window by window through nextRoundCursor: every
// Round once, oldest first within a window, direction unchanged, superseded Rounds
// "countered", each window carrying exactly its own Rounds' Approvals.
func TestRoundsWindowByWindow(t *testing.T) {
	st := newMarket(t, testConfig())
	a, b := enrol(t, st, "owner-a"), enrol(t, st, "owner-b")
	enrol(t, st, "owner-c")
	var x exView
	must(t, st, "owner-a", t0, proposeBody("r-1", b, goods("wood", 10), goods("credits", 40), later), &x)
	owners := map[string]string{a: "owner-a", b: "owner-b"}
	for n := 2; n <= 250; n++ {
		author := owners[*x.AnsweringPlayerID]
		deadline := t0.Add(time.Hour + time.Duration(n)*time.Millisecond).Format(time.RFC3339Nano)
		wood, credits := 1+n%10, 1+n%50
		must(t, st, author, t0, counterBody(fmt.Sprintf("r-%d", n), x.ExchangeID, x.ExchangeVersion, x.TermsHash,
			goods("wood", wood), goods("credits", credits), deadline), &x)
		if x.LiveRound != uint64(n) || x.RoundCount != uint64(n) || x.ExchangeVersion != uint64(n) {
			t.Fatalf("after round %d: live %d count %d version %d", n, x.LiveRound, x.RoundCount, x.ExchangeVersion)
		}
		// Exactly the live author holds the reservation: a's wood or b's credits, never both.
		ha, hb := holdingsOf(t, st, "owner-a"), holdingsOf(t, st, "owner-b")
		if n%2 == 0 && (ha["wood"][1] != 0 || hb["credits"][1] != int64(credits)) ||
			n%2 == 1 && (hb["credits"][1] != 0 || ha["wood"][1] != int64(wood)) {
			t.Fatalf("round %d: reservations a %v b %v", n, ha, hb)
		}
	}
	if len(x.Rounds) != 100 || x.Rounds[0].RoundNumber != 151 || x.Rounds[99].RoundNumber != 250 || x.NextRoundCursor == nil {
		t.Fatalf("the counter's window: %d rounds from %d, cursor %v", len(x.Rounds), x.Rounds[0].RoundNumber, x.NextRoundCursor)
	}
	// The answering party approves Round 250: it settles, and the Approval is in the default window.
	var done exView
	must(t, st, owners[*x.AnsweringPlayerID], t0, respondBody("yes", x.ExchangeID, x.ExchangeVersion, x.TermsHash, "approve"), &done)
	if done.Status != StatusSettled || done.AnsweringPlayerID != nil {
		t.Fatalf("settled: %+v", done)
	}
	for _, limit := range []int{100, 7, 1} {
		seen := map[uint64]bool{}
		cursor := ""
		windows := 0
		for {
			q := fmt.Sprintf(`{"protocolVersion":2,"action":"getExchange","exchangeId":%q,"roundLimit":%d`, x.ExchangeID, limit)
			if cursor != "" {
				q += fmt.Sprintf(`,"roundCursor":%q`, cursor)
			}
			var w exView
			must(t, st, "owner-b", t0, q+"}", &w)
			windows++
			if w.RoundCount != 250 || w.LiveRound != 250 || len(w.Rounds) == 0 || len(w.Rounds) > limit {
				t.Fatalf("limit %d window %d: count %d, %d rounds", limit, windows, w.RoundCount, len(w.Rounds))
			}
			inWindow := map[uint64]bool{}
			for i, r := range w.Rounds {
				if i > 0 && r.RoundNumber != w.Rounds[i-1].RoundNumber+1 {
					t.Fatalf("limit %d: rounds not oldest first and contiguous", limit)
				}
				if seen[r.RoundNumber] {
					t.Fatalf("limit %d: round %d twice", limit, r.RoundNumber)
				}
				seen[r.RoundNumber], inWindow[r.RoundNumber] = true, true
				wantAuthor := a
				if r.RoundNumber%2 == 0 {
					wantAuthor = b
				}
				var tm terms
				if err := json.Unmarshal(r.Terms, &tm); err != nil {
					t.Fatal(err)
				}
				if r.AuthorPlayerID != wantAuthor || tm.Proposer != a || tm.Counterparty != b || tm.Offered[0].AssetID != "wood" {
					t.Fatalf("round %d: author %s, terms %s", r.RoundNumber, r.AuthorPlayerID, r.Terms)
				}
				if (r.Outcome == nil) != (r.RoundNumber == 250) || r.Outcome != nil && *r.Outcome != "countered" {
					t.Fatalf("round %d: outcome %v", r.RoundNumber, r.Outcome)
				}
			}
			// The Approvals are those of the Rounds on the page: each Round's author, and the
			// settling approval of Round 250.
			want := len(w.Rounds)
			if inWindow[250] {
				want++
			}
			if len(w.Approvals) != want {
				t.Fatalf("limit %d: %d approvals for %d rounds", limit, len(w.Approvals), len(w.Rounds))
			}
			for _, ap := range w.Approvals {
				if !inWindow[ap.RoundNumber] {
					t.Fatalf("limit %d: an approval of round %d outside the window", limit, ap.RoundNumber)
				}
			}
			if w.NextRoundCursor == nil {
				if !inWindow[1] {
					t.Fatalf("limit %d: the cursor ended before round 1", limit)
				}
				break
			}
			cursor = *w.NextRoundCursor
		}
		if len(seen) != 250 || windows != (250+limit-1)/limit {
			t.Fatalf("limit %d: %d rounds in %d windows", limit, len(seen), windows)
		}
	}
	// A cursor is bound to its Exchange; a stranger is told not_a_party first; a listing carries
	// no chain, the live Round's Approvals only and no cursor.
	var other exView
	must(t, st, "owner-a", t0, proposeBody("other", b, goods("wood", 1), goods("credits", 1), later), &other)
	refused(t, st, "owner-a", t0, fmt.Sprintf(`{"protocolVersion":2,"action":"getExchange","exchangeId":%q,"roundCursor":%q}`, other.ExchangeID, *x.NextRoundCursor), CodeMalformedRequest)
	refused(t, st, "owner-c", t0, fmt.Sprintf(`{"protocolVersion":2,"action":"getExchange","exchangeId":%q,"roundCursor":%q}`, x.ExchangeID, *x.NextRoundCursor), CodeNotAParty)
	var list struct {
		Exchanges []json.RawMessage `json:"exchanges"`
	}
	must(t, st, "owner-a", t0, `{"protocolVersion":2,"action":"listExchanges","status":"settled"}`, &list)
	var l exView
	if len(list.Exchanges) != 1 || json.Unmarshal(list.Exchanges[0], &l) != nil || l.Rounds != nil || l.NextRoundCursor != nil ||
		len(l.Approvals) != 2 || l.RoundCount != 250 || l.Approvals[0].RoundNumber != 250 {
		t.Fatalf("listing: %s", list.Exchanges)
	}
}

// A counter the author cannot fund is refused insufficient_available with the previous Round
// left standing and still Reserved; a countered Proposer cannot cancel (not_your_turn) and
// declines instead, releasing the counter's reservation.
func TestCounterInsufficientLeavesRound(t *testing.T) {
	st, _, _, _, x := twoPlayers(t)
	before := holdingsOf(t, st, "owner-a")
	refused(t, st, "owner-b", t0, counterBody("k", x.ExchangeID, 1, x.TermsHash, goods("wood", 5), goods("credits", 101), later), CodeInsufficientAvailable)
	var g exView
	must(t, st, "owner-a", t0, fmt.Sprintf(`{"protocolVersion":2,"action":"getExchange","exchangeId":%q}`, x.ExchangeID), &g)
	if g.ExchangeVersion != 1 || g.RoundCount != 1 || g.TermsHash != x.TermsHash || holdingsOf(t, st, "owner-a")["wood"] != before["wood"] {
		t.Fatalf("after the refused counter: %+v", g)
	}
	var c exView
	must(t, st, "owner-b", t0, counterBody("k2", x.ExchangeID, 1, x.TermsHash, goods("wood", 5), goods("credits", 30), later), &c)
	if *c.AnsweringPlayerID != x.ProposerPlayerID || holdingsOf(t, st, "owner-a")["wood"][1] != 0 || holdingsOf(t, st, "owner-b")["credits"][1] != 30 {
		t.Fatalf("after the counter: %+v", c)
	}
	refused(t, st, "owner-a", t0, cancelBody("c", x.ExchangeID, 2), CodeNotYourTurn)
	var d exView
	must(t, st, "owner-a", t0, respondBody("d", x.ExchangeID, 2, c.TermsHash, "decline"), &d)
	if d.Status != StatusDeclined || d.ExchangeVersion != 3 || holdingsOf(t, st, "owner-b")["credits"][1] != 0 {
		t.Fatalf("declined: %+v", d)
	}
}
