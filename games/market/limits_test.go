package market

import (
	"bytes"
	"encoding/json"
	"testing"
)

// capConfig is a market whose Game Rule grants the Proposer 2^40 credits (the largest
// configurable quantity) whenever it offers wood.
func capConfig() Config {
	c := testConfig()
	c.Rules = []Rule{{ID: "windfall", When: Match{Offered: []Holding{{"wood", 1}}},
		Moves: []RuleMove{{Kind: moveGrant, Party: partyProposer, AssetID: "credits", Quantity: maxConfigQuantity}}}}
	return c
}

// issueDirect commits what a run of rule grants totalling q of asset to player would leave
// behind, as one game_rule_grant Ledger row from @issuance: the state reaching 2^53−1 for real
// takes 2^13 Settlements, which a unit test has no need to replay.
func issueDirect(t *testing.T, st *State, player, asset string, q int64) {
	t.Helper()
	inv, iss := st.invs[player].clone(), st.invs[Issuance].clone()
	addTo(inv.Holdings, asset, q)
	addTo(iss.Holdings, asset, -q)
	st.Commit(Delta{StateVersion: st.version + 1, Transfers: st.transfers,
		Inventories: []Inventory{*inv, *iss},
		Ledger: []LedgerRow{{Sequence: uint64(len(st.ledger)) + 1, At: t0, StateVersion: st.version + 1,
			Reason: ReasonRuleGrant, From: Issuance, To: player, AssetID: asset, Quantity: q, RuleID: "windfall"}}})
	checkInvariants(t, st)
}

// snapshotBytes is st's every record as JSON: equal bytes, equal State.
func snapshotBytes(t *testing.T, st *State) []byte {
	t.Helper()
	b, err := json.Marshal(st.Snapshot())
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// ledgerSums is, per Asset, the net quantity the Ledger moved into each Inventory.
func ledgerSums(st *State) map[string]int64 {
	out := map[string]int64{}
	for _, r := range st.ledger {
		out[r.From+"/"+r.AssetID] -= r.Quantity
		out[r.To+"/"+r.AssetID] += r.Quantity
	}
	return out
}

// refusedUnchanged is refused that also holds the State, its Ledger and the Ledger's sums to
// what they were before the request.
func refusedUnchanged(t *testing.T, st *State, owner, body string) {
	t.Helper()
	before, sums, n := snapshotBytes(t, st), ledgerSums(st), len(st.ledger)
	s := Apply(st, owner, []byte(body), t0)
	if !s.Delta.Empty() {
		t.Fatalf("%s: a refusal wrote %+v", body, s.Delta)
	}
	refused(t, st, owner, t0, body, CodeMalformedRequest)
	if !bytes.Equal(snapshotBytes(t, st), before) || len(st.ledger) != n {
		t.Fatalf("%s: the refusal changed the State", body)
	}
	after := ledgerSums(st)
	for k, v := range sums {
		if after[k] != v {
			t.Fatalf("%s: ledger sum %s moved %d → %d", body, k, v, after[k])
		}
	}
	checkInvariants(t, st)
}

// A Settlement whose rule grant takes @issuance's balance to exactly −(2^53−1) (and the
// Proposer's credits to 2^53−1 − 100, plus the credit it was paid) is accepted; the next, one grant past it, is refused
// malformed_request with nothing changed, and so is an enrolment that would issue one more
// credit; the Exchange stays open and answerable.
func TestSettlementGrantAtTheCap(t *testing.T) {
	st := newMarket(t, capConfig())
	a, b := enrol(t, st, "owner-a"), enrol(t, st, "owner-b")
	issueDirect(t, st, a, "credits", maxQuantity-maxConfigQuantity-200)
	if got := st.invs[Issuance].Holdings["credits"]; got != -(maxQuantity - maxConfigQuantity) {
		t.Fatalf("@issuance credits %d before the grant", got)
	}
	var x exView
	must(t, st, "owner-a", t0, proposeBody("p-1", b, goods("wood", 1), goods("credits", 1), later), &x)
	must(t, st, "owner-b", t0, respondBody("r-1", x.ExchangeID, x.ExchangeVersion, x.TermsHash, "approve"), &x)
	if x.Status != StatusSettled {
		t.Fatalf("status %s, want settled", x.Status)
	}
	if got := st.invs[Issuance].Holdings["credits"]; got != -maxQuantity {
		t.Fatalf("@issuance credits %d, want −(2^53−1)", got)
	}
	if got := holdingsOf(t, st, "owner-a")["credits"][0]; got != maxQuantity-99 {
		t.Fatalf("a's credits %d, want 2^53−1 − 100 + the 1 b paid", got)
	}
	checkInvariants(t, st)

	must(t, st, "owner-a", t0, proposeBody("p-2", b, goods("wood", 1), goods("credits", 1), later), &x)
	refusedUnchanged(t, st, "owner-b", respondBody("r-2", x.ExchangeID, x.ExchangeVersion, x.TermsHash, "approve"))
	refusedUnchanged(t, st, "owner-c", `{"protocolVersion":2,"commandId":"enroll-1","action":"enroll"}`)
	// The Exchange is still open, and a decline concludes it as ever.
	must(t, st, "owner-b", t0, respondBody("r-3", x.ExchangeID, x.ExchangeVersion, x.TermsHash, "decline"), &x)
	if x.Status != StatusDeclined {
		t.Fatalf("status %s, want declined", x.Status)
	}
	checkInvariants(t, st)
}

// An enrolment whose Starting Assets take @issuance's credits to exactly −(2^53−1) is accepted;
// one more credit to issue is refused.
func TestEnrolmentAtTheCap(t *testing.T) {
	st := newMarket(t, testConfig())
	a := enrol(t, st, "owner-a")
	issueDirect(t, st, a, "credits", maxQuantity-300)
	enrol(t, st, "owner-b")
	if got := st.invs[Issuance].Holdings["credits"]; got != -(maxQuantity - 100) {
		t.Fatalf("@issuance credits %d", got)
	}
	enrol(t, st, "owner-c") // issues 100 credits more: −(2^53−1) exactly
	if got := st.invs[Issuance].Holdings["credits"]; got != -maxQuantity {
		t.Fatalf("@issuance credits %d, want −(2^53−1)", got)
	}
	refusedUnchanged(t, st, "owner-d", `{"protocolVersion":2,"commandId":"enroll-1","action":"enroll"}`)
}

// inRange itself, at a Player's holding: a transfer that lands a recipient on exactly 2^53−1
// passes, one more is refused, and it writes nothing either way. (In a consistent market a
// Player never holds more than @issuance issued, so the transfer door is checked here.)
func TestInRangeBoundary(t *testing.T) {
	st := newMarket(t, testConfig())
	a, b := enrol(t, st, "owner-a"), enrol(t, st, "owner-b")
	tx := newTxn(st, t0)
	have := tx.inv(b).Holdings["credits"]
	if rf := tx.inRange([]movement{{a, b, "credits", maxQuantity - have}}); rf != nil {
		t.Fatalf("exactly 2^53−1 refused: %v", rf.msg)
	}
	rf := tx.inRange([]movement{{a, b, "credits", maxQuantity - have + 1}})
	if rf == nil || rf.code != CodeMalformedRequest {
		t.Fatalf("2^53 accepted: %+v", rf)
	}
	if rf := tx.inRange([]movement{{a, b, "credits", maxQuantity - have}, {a, b, "credits", 1}}); rf == nil {
		t.Fatal("two movements past 2^53−1 together accepted")
	}
	if tx.written() != [5]int{int(st.version), 0, 0, 0, 0} {
		t.Fatalf("inRange wrote: %v", tx.written())
	}
}
