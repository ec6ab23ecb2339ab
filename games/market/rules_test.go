package market

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// A granting rule fires inside the Settlement: @issuance issues to the party it names, that
// party's ruleApplied and ruleNote are stored and read alike later, the other party reads false
// and null, the Statement says rule_applied with the line and no counterparty, and only the
// Ledger and the Admin view name the mechanism.
func TestRuleGrantInSettlement(t *testing.T) {
	st := newMarket(t, ruleConfig())
	enrol(t, st, "owner-a")
	b := enrol(t, st, "owner-b")
	var x, y exView
	must(t, st, "owner-a", t0, proposeBody("offer", b, goods("wood", 6), goods("credits", 10), later), &x)
	must(t, st, "owner-b", t0, respondBody("yes", x.ExchangeID, 1, x.TermsHash, "approve"), &y)
	if y.Status != StatusSettled || y.RuleApplied || y.RuleNote != nil {
		t.Fatalf("b's settlement: %+v", y)
	}
	var ax exView
	must(t, st, "owner-a", t0, `{"protocolVersion":2,"action":"getExchange","exchangeId":"`+x.ExchangeID+`"}`, &ax)
	lines := ruleConfig().Rules[0].Lines
	if !ax.RuleApplied || ax.RuleNote == nil || !slices.Contains(lines, *ax.RuleNote) {
		t.Fatalf("a's view: applied %v note %v", ax.RuleApplied, ax.RuleNote)
	}
	if ax.TermsHash != x.TermsHash {
		t.Fatal("a rule changed the Terms Hash")
	}
	if h := holdingsOf(t, st, "owner-a"); h["stone"][0] != 7 || h["wood"][0] != 14 || h["credits"][0] != 110 {
		t.Fatalf("a after the grant: %v", h)
	}
	stmt := must(t, st, "owner-a", t0, `{"protocolVersion":2,"action":"readStatement"}`, nil)
	want := fmt.Sprintf(`{"entryNumber":7,"recordedAt":"2026-03-01T12:00:00.000Z","reason":"rule_applied","direction":"in","assetId":"stone","quantity":2,"counterparty":null,"transferId":null,"exchangeId":%q,"commandId":null,"ruleNote":%q}`, x.ExchangeID, *ax.RuleNote)
	if !bytes.Contains(stmt.raw, []byte(want)) {
		t.Fatalf("a's Statement %s\nlacks %s", stmt.raw, want)
	}
	for _, secret := range []string{"game_rule", "wood-bonus", "credit-levy"} {
		for _, out := range [][]byte{stmt.raw, must(t, st, "owner-a", t0, `{"protocolVersion":2,"action":"listExchanges"}`, nil).raw, Standing(st, t0)} {
			if bytes.Contains(out, []byte(secret)) {
				t.Fatalf("%q in a Player's output %s", secret, out)
			}
		}
	}
	admin := encode(Admin(st, t0))
	if !bytes.Contains(admin, []byte(`"reason":"game_rule_grant"`)) || !bytes.Contains(admin, []byte(`"ruleId":"wood-bonus"`)) {
		t.Fatalf("the Admin view lacks the mechanism: %s", admin)
	}
	// The line drawn is the seed's: another seed, the same requests, may draw another; the same
	// seed always draws this one.
	again := newMarket(t, ruleConfig())
	enrol(t, again, "owner-a")
	enrol(t, again, "owner-b")
	must(t, again, "owner-a", t0, proposeBody("offer", b, goods("wood", 6), goods("credits", 10), later), nil)
	r2 := must(t, again, "owner-b", t0, respondBody("yes", x.ExchangeID, 1, x.TermsHash, "approve"), nil)
	if first := do(t, st, "owner-b", t0, respondBody("yes", x.ExchangeID, 1, x.TermsHash, "approve")); !bytes.Equal(r2.raw, first.raw) {
		t.Fatal("the same seed and requests answered differently")
	}
}

// unfunded is identical whatever its cause: the answering party short of its own side, or a
// rule's withdrawal beyond what it would have after the Settlement. Nothing moves, no rule
// fires (not even a matched grant), the author's reservation is released, and the Approval is
// recorded.
func TestUnfundedIdenticalWhateverCause(t *testing.T) {
	run := func(cfg Config) (reply, *State) {
		st := newMarket(t, cfg)
		enrol(t, st, "owner-a")
		b := enrol(t, st, "owner-b")
		var x exView
		must(t, st, "owner-a", t0, proposeBody("offer", b, goods("wood", 6), goods("credits", 90), later), &x)
		r := must(t, st, "owner-b", t0, respondBody("yes", x.ExchangeID, 1, x.TermsHash, "approve"), nil)
		return r, st
	}
	// Cause 2: b covers its 90 credits, but the levy takes 25 of the 10 it would keep.
	byRule, st1 := run(ruleConfig())
	// Cause 1: b holds only 80 credits; no rule at all.
	short := testConfig()
	short.StartingAssets = []Holding{{"credits", 80}, {"wood", 20}, {"stone", 5}, {"medal", 1}}
	byFunds, st2 := run(short)
	if !bytes.Equal(byRule.raw, byFunds.raw) {
		t.Fatalf("unfunded differs by cause:\n%s\n%s", byRule.raw, byFunds.raw)
	}
	var x exView
	if err := jsonUnmarshal(byRule.Result, &x); err != nil || x.Status != StatusUnfunded || x.RuleApplied || x.RuleNote != nil || len(x.Approvals) != 2 || x.ExchangeVersion != 2 {
		t.Fatalf("unfunded view: %+v", x)
	}
	for _, st := range []*State{st1, st2} {
		if h := holdingsOf(t, st, "owner-a"); h["wood"] != [2]int64{20, 0} || h["stone"][0] != 5 {
			t.Fatalf("after unfunded, a holds %v", h)
		}
		if len(st.ledger) != 8 {
			t.Fatalf("after unfunded, %d Ledger rows, want the 8 Starting Assets", len(st.ledger))
		}
	}
	// The Command ID is consumed: approving again is exchange_not_open; the retry replays.
	refused(t, st1, "owner-b", t0, respondBody("yes-2", x.ExchangeID, 2, x.TermsHash, "approve"), CodeExchangeNotOpen)
	if r := do(t, st1, "owner-b", t0, respondBody("yes", x.ExchangeID, 1, x.TermsHash, "approve")); !bytes.Equal(r.raw, byRule.raw) {
		t.Fatal("the unfunded approval's retry differs")
	}
}

// A rule fires only inside its active window, and a withdrawal within what the party keeps
// goes to @treasury.
func TestRuleWindowAndWithdrawal(t *testing.T) {
	st := newMarket(t, ruleConfig())
	enrol(t, st, "owner-a")
	b := enrol(t, st, "owner-b")
	settle := func(now time.Time, cmd string, credits int) exView {
		var x, y exView
		must(t, st, "owner-a", now, proposeBody("p"+cmd, b, goods("stone", 1), goods("credits", credits), now.Add(time.Hour).Format(time.RFC3339)), &x)
		must(t, st, "owner-b", now, respondBody("r"+cmd, x.ExchangeID, 1, x.TermsHash, "approve"), &y)
		return y
	}
	if y := settle(t0, "1", 30); y.Status != StatusSettled || !y.RuleApplied || y.RuleNote == nil || *y.RuleNote != "The tax collector was waiting." {
		t.Fatalf("levy outside the evening: %+v", y)
	}
	if st.invs[Treasury].Holdings["credits"] != 25 {
		t.Fatalf("@treasury holds %v", st.invs[Treasury].Holdings)
	}
	woodBefore := holdingsOf(t, st, "owner-b")["wood"][0]
	if y := settle(t0.Add(2*time.Hour+time.Minute), "2", 1); y.Status != StatusSettled || !y.RuleApplied || y.RuleNote != nil {
		t.Fatalf("the evening rule (no lines): %+v", y)
	}
	if got := holdingsOf(t, st, "owner-b")["wood"][0]; got != woodBefore+1 {
		t.Fatalf("b's wood %d after the evening grant, want %d", got, woodBefore+1)
	}
	if y := settle(t0.Add(3*time.Hour), "3", 1); y.RuleApplied {
		t.Fatalf("a rule fired at its window's end: %+v", y)
	}
	if n := strings.Count(string(encode(Admin(st, t0))), `"ruleId":"evening"`); n != 1 {
		t.Fatalf("the evening rule fired %d times", n)
	}
}

// The withdrawal boundary: a levy equal to what the party keeps after the Settlement settles
// (leaving it nothing); one unit more is unfunded. Assets Reserved elsewhere stay unavailable.
func TestRuleWithdrawalBoundary(t *testing.T) {
	for _, c := range []struct {
		credits  int
		reserved int // credits b has Reserved behind an Exchange of its own
		want     string
	}{
		{75, 0, StatusSettled},  // 100 − 75 = 25 kept, levy 25
		{76, 0, StatusUnfunded}, // 24 kept
		{65, 10, StatusSettled}, // 100 − 10 reserved − 65 = 25
		{66, 10, StatusUnfunded},
	} {
		t.Run(fmt.Sprint(c.credits, "/", c.reserved), func(t *testing.T) {
			st := newMarket(t, ruleConfig())
			a := enrol(t, st, "owner-a")
			b := enrol(t, st, "owner-b")
			if c.reserved > 0 {
				must(t, st, "owner-b", t0, proposeBody("hold", a, goods("credits", c.reserved), goods("stone", 1), later), nil)
			}
			var x, y exView
			must(t, st, "owner-a", t0, proposeBody("p", b, goods("stone", 1), goods("credits", c.credits), later), &x)
			must(t, st, "owner-b", t0, respondBody("r", x.ExchangeID, 1, x.TermsHash, "approve"), &y)
			if y.Status != c.want {
				t.Fatalf("status %s, want %s", y.Status, c.want)
			}
			h := holdingsOf(t, st, "owner-b")["credits"]
			switch c.want {
			case StatusSettled:
				if h != [2]int64{int64(c.reserved), int64(c.reserved)} {
					t.Fatalf("b's credits %v", h)
				}
			default:
				if h[0] != 100 {
					t.Fatalf("b's credits %v after unfunded", h)
				}
			}
			checkInvariants(t, st)
		})
	}
}
