package market

import (
	"bytes"
	"crypto/sha256"
	"testing"
)

// An accepted Command consumes its commandId: a retry with the same content (however it is
// spelled) gets the first answer byte for byte and changes nothing; other content under the
// same id is command_id_reuse, which changes nothing either and leaves the record as it was.
func TestRetriedSuccessReplays(t *testing.T) {
	st := newMarket(t, testConfig())
	a, b := enrol(t, st, "owner-a"), enrol(t, st, "owner-b")
	first := must(t, st, "owner-a", t0, transferBody("pay-01", b, "credits", 30), nil)
	ledger, version := len(st.ledger), st.version
	respelled := `{ "quantity":30, "assetId":"credits", "toPlayerId":"` + b + `",
		"action":"transfer", "commandId":"pay-01", "protocolVersion":2 }`
	for _, body := range []string{transferBody("pay-01", b, "credits", 30), respelled} {
		again := do(t, st, "owner-a", t0.Add(1), body)
		if !bytes.Equal(again.raw, first.raw) {
			t.Fatalf("retry %s\n got %s\nwant %s", body, again.raw, first.raw)
		}
	}
	reuse := refused(t, st, "owner-a", t0, transferBody("pay-01", b, "credits", 31), CodeCommandIDReuse)
	if reuse.StateVersion != version || st.version != version || len(st.ledger) != ledger {
		t.Fatalf("a retry or a reuse moved the market: version %d → %d (answered %d), ledger %d → %d",
			version, st.version, reuse.StateVersion, ledger, len(st.ledger))
	}
	if h := holdingsOf(t, st, "owner-a")["credits"]; h[0] != 70 {
		t.Fatalf("a's credits %d after one transfer of 30 and its retries, want 70", h[0])
	}
	if again := do(t, st, "owner-a", t0, transferBody("pay-01", b, "credits", 30)); !bytes.Equal(again.raw, first.raw) {
		t.Fatalf("the record changed after command_id_reuse: %s", again.raw)
	}
	checkInvariants(t, st)
	if st.players[a] == nil {
		t.Fatal("a is not a Player")
	}
}

// A refused Command consumes nothing: it leaves no record, so its retry is a fresh attempt on
// the State as it then is. Retried unchanged it is refused again; retried once the State allows
// it, it is accepted and moves once, and from then on replays; and the same id with other
// content after a refusal is a new attempt, not command_id_reuse.
func TestRetriedRefusalIsAFreshAttempt(t *testing.T) {
	st := newMarket(t, testConfig())
	a, b := enrol(t, st, "owner-a"), enrol(t, st, "owner-b")
	body := transferBody("pay-02", b, "credits", 150) // a holds 100
	first := refused(t, st, "owner-a", t0, body, CodeInsufficientAvailable)
	if len(st.cmds) != 2 { // the two enrolments
		t.Fatalf("%d command records after a refusal, want the 2 enrolments", len(st.cmds))
	}
	if again := refused(t, st, "owner-a", t0, body, CodeInsufficientAvailable); !bytes.Equal(again.raw, first.raw) {
		t.Fatalf("retry on an unchanged market\n got %s\nwant %s", again.raw, first.raw)
	}
	must(t, st, "owner-b", t0, transferBody("gift-01", a, "credits", 60), nil)
	ok := must(t, st, "owner-a", t0, body, nil)
	if ok.StateVersion != first.StateVersion+2 { // the gift, then the transfer
		t.Fatalf("the fresh attempt answered stateVersion %d, want %d", ok.StateVersion, first.StateVersion+2)
	}
	ledger := len(st.ledger)
	for range 3 {
		if again := do(t, st, "owner-a", t0, body); !bytes.Equal(again.raw, ok.raw) {
			t.Fatalf("retry of the accepted attempt\n got %s\nwant %s", again.raw, ok.raw)
		}
	}
	if len(st.ledger) != ledger {
		t.Fatalf("retries wrote %d Ledger rows", len(st.ledger)-ledger)
	}
	if got := holdingsOf(t, st, "owner-a")["credits"]; got[0] != 10 {
		t.Fatalf("a's credits %d, want 100 + 60 − 150 = 10", got[0])
	}
	// The same id with other content after a refusal: a new attempt.
	refused(t, st, "owner-a", t0, transferBody("pay-03", b, "gold", 1), CodeUnknownAsset)
	must(t, st, "owner-a", t0, transferBody("pay-03", b, "wood", 1), nil)
	refused(t, st, "owner-a", t0, transferBody("pay-03", b, "gold", 1), CodeCommandIDReuse)
	checkInvariants(t, st)
}

// An approval that concludes unfunded is accepted (ok, status unfunded): the Approval is
// recorded, "so the Command ID is consumed" ("unfunded has two causes"); its retry replays, and
// the same id with a decline is command_id_reuse.
func TestUnfundedApprovalConsumesItsCommandID(t *testing.T) {
	st := newMarket(t, testConfig())
	a, b := enrol(t, st, "owner-a"), enrol(t, st, "owner-b")
	var x exView
	must(t, st, "owner-a", t0, proposeBody("offer-01", b, goods("wood", 10), goods("credits", 40), later), &x)
	must(t, st, "owner-b", t0, transferBody("away-01", a, "credits", 70), nil) // b keeps 30 < 40
	var y exView
	first := must(t, st, "owner-b", t0, respondBody("answer-01", x.ExchangeID, 1, x.TermsHash, "approve"), &y)
	if y.Status != StatusUnfunded {
		t.Fatalf("status %s, want unfunded", y.Status)
	}
	if again := do(t, st, "owner-b", t0, respondBody("answer-01", x.ExchangeID, 1, x.TermsHash, "approve")); !bytes.Equal(again.raw, first.raw) {
		t.Fatalf("retry\n got %s\nwant %s", again.raw, first.raw)
	}
	refused(t, st, "owner-b", t0, respondBody("answer-01", x.ExchangeID, 1, x.TermsHash, "decline"), CodeCommandIDReuse)
	checkInvariants(t, st)
}

// A refusal's record stored by an earlier build (ok false) is not kept when its Delta is
// committed: the retry is a fresh attempt, as for every refusal.
func TestStoredRefusalRecordIsDropped(t *testing.T) {
	st := newMarket(t, testConfig())
	enrol(t, st, "owner-a")
	b := enrol(t, st, "owner-b")
	pid := st.owners["owner-a"]
	body := transferBody("pay-04", b, "credits", 5)
	r, _ := parseRequest([]byte(body))
	old := refused(t, st, "owner-b", t0, transferBody("x", "pl_nobody", "credits", 1), CodeUnknownPlayer)
	st.Commit(Delta{StateVersion: st.version, Transfers: st.transfers, Command: &Command{Player: pid, CommandID: "pay-04",
		Action: ActTransfer, Hash: sha256.Sum256(r.canonical), OK: false, StateVersion: st.version, At: t0, Response: old.raw}})
	if _, kept := st.cmds[cmdKey{pid, "pay-04"}]; kept {
		t.Fatal("a refusal's record was kept")
	}
	must(t, st, "owner-a", t0, body, nil)
}
