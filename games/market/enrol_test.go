package market

import (
	"encoding/json"
	"strings"
	"testing"
)

// Enrolment is atomic (Player, Inventory, Starting Assets, Ledger entries, one bump); a repeated
// Enrolment returns the same Player without issuing or bumping.
func TestEnrolment(t *testing.T) {
	st := newMarket(t, testConfig())
	var e enrolmentView
	r := must(t, st, "owner-a", t0, `{"protocolVersion":2,"commandId":"enroll-01","action":"enroll"}`, &e)
	if r.StateVersion != 1 || e.Type != "enrolment" || !strings.HasPrefix(e.PlayerID, "pl_") || e.EnrolledAt != "2026-03-01T12:00:00.000Z" ||
		len(e.Holdings) != 4 || e.Holdings[0] != (holdingView{"credits", 100, 0, 100}) || len(st.ledger) != 4 {
		t.Fatalf("enrolment %s", r.raw)
	}
	var again enrolmentView
	r2 := must(t, st, "owner-a", t0.Add(5), `{"protocolVersion":2,"commandId":"enroll-02","action":"enroll"}`, &again)
	if r2.StateVersion != 1 || again.PlayerID != e.PlayerID || again.EnrolledAt != e.EnrolledAt || len(st.ledger) != 4 {
		t.Fatalf("repeated enrolment %s", r2.raw)
	}
	if strings.Contains(string(r.raw), "owner-a") {
		t.Fatal("the Owner ID in a response")
	}
}

// setTradingName trims; a name it already has bumps nothing; "" and null go back to the derived
// name; 32 characters pass and 33 do not.
func TestSetTradingName(t *testing.T) {
	st := newMarket(t, testConfig())
	pid := enrol(t, st, "owner-a")
	set := func(cmd, raw string) reply {
		return do(t, st, "owner-a", t0, `{"protocolVersion":2,"commandId":"`+cmd+`","action":"setTradingName","tradingName":`+raw+`}`)
	}
	if r := set("n1", `"  Marlow's Yard\t"`); !r.OK || r.StateVersion != 2 || st.players[pid].TradingName != "Marlow's Yard" {
		t.Fatalf("set: %s", r.raw)
	}
	if r := set("n2", `"Marlow's Yard"`); !r.OK || r.StateVersion != 2 {
		t.Fatalf("same name: %s", r.raw)
	}
	if r := set("n3", `null`); !r.OK || r.StateVersion != 3 || st.players[pid].TradingName != "" {
		t.Fatalf("null: %s", r.raw)
	}
	if r := set("n4", `""`); !r.OK || r.StateVersion != 3 {
		t.Fatalf("empty when unnamed: %s", r.raw)
	}
	n32, _ := json.Marshal(strings.Repeat("ß", 32))
	if r := set("n5", string(n32)); !r.OK || r.StateVersion != 4 {
		t.Fatalf("32 characters: %s", r.raw)
	}
	n33, _ := json.Marshal(strings.Repeat("ß", 33))
	if r := set("n6", string(n33)); r.code() != CodeInvalidTradingName {
		t.Fatalf("33 characters: %s", r.raw)
	}
	for i, bad := range []string{`"tab\tinside"`, `"nl\ninside"`, `"\u007f"`, `"x\u0085x"`} {
		if r := set("bad"+itoa(i), bad); r.code() != CodeInvalidTradingName {
			t.Errorf("%s: %s", bad, r.raw)
		}
	}
	for i, bad := range []string{`1`, `true`, `{}`, `["a"]`} {
		if r := set("m"+itoa(i), bad); r.code() != CodeMalformedRequest {
			t.Errorf("%s: %s", bad, r.raw)
		}
	}
}

// A Statement is the reader's own movements, numbered densely from 1, with commandId only on
// the rows whose Command the reader issued.
func TestStatementOwnRows(t *testing.T) {
	st := newMarket(t, testConfig())
	a, b := enrol(t, st, "owner-a"), enrol(t, st, "owner-b")
	enrol(t, st, "owner-c")
	must(t, st, "owner-c", t0, transferBody("same-id", a, "wood", 1), nil) // other movements between
	must(t, st, "owner-a", t0, transferBody("same-id", b, "credits", 5), nil)
	must(t, st, "owner-b", t0, transferBody("pay-back", a, "credits", 2), nil)
	var s statementView
	must(t, st, "owner-a", t0, `{"protocolVersion":2,"action":"readStatement","limit":100}`, &s)
	if len(s.Entries) != 7 {
		t.Fatalf("entries %+v", s.Entries)
	}
	for i, e := range s.Entries {
		if e.EntryNumber != uint64(i+1) {
			t.Fatalf("entry %d numbered %d", i, e.EntryNumber)
		}
	}
	e5, e6, e7 := s.Entries[4], s.Entries[5], s.Entries[6]
	if e5.Direction != "in" || e5.CommandID != nil || e5.Counterparty == nil || e5.Reason != ReasonTransfer ||
		e6.Direction != "out" || e6.CommandID == nil || *e6.CommandID != "same-id" || *e6.Counterparty != b ||
		e7.CommandID != nil || e7.Quantity != 2 || s.Entries[0].Reason != ReasonStartingAssets || s.Entries[0].Counterparty != nil {
		t.Fatalf("rows %+v %+v %+v", e5, e6, e7)
	}
	must(t, st, "owner-a", t0, `{"protocolVersion":2,"action":"readStatement","limit":2}`, &s)
	if len(s.Entries) != 2 || s.Entries[0].EntryNumber != 6 {
		t.Fatalf("limit 2: %+v", s.Entries)
	}
}

// listExchanges filters by party and status before the limit and pages newest first through
// an opaque nextCursor, null at the end; a cursor of another Player is malformed_request.
func TestListExchangesPaging(t *testing.T) {
	st := newMarket(t, testConfig())
	enrol(t, st, "owner-a")
	b := enrol(t, st, "owner-b")
	c := enrol(t, st, "owner-c")
	var ids []string
	for i := range 7 {
		to := b
		if i%2 == 1 {
			to = c
		}
		var x exView
		must(t, st, "owner-a", t0, proposeBody("p"+itoa(i), to, goods("wood", 1), goods("credits", 1), later), &x)
		ids = append(ids, x.ExchangeID)
		if i%3 == 0 {
			must(t, st, "owner-a", t0, cancelBody("c"+itoa(i), x.ExchangeID, 1), nil)
		}
	}
	// a's open ones, newest first: 5, 4, 2, 1 (0, 3, 6 cancelled), two a page.
	var got []string
	cursor := ""
	for pages := 0; ; pages++ {
		q := `{"protocolVersion":2,"action":"listExchanges","status":"awaiting_counterparty","limit":2`
		if cursor != "" {
			q += `,"cursor":"` + cursor + `"`
		}
		var l struct {
			Exchanges  []exView `json:"exchanges"`
			NextCursor *string  `json:"nextCursor"`
		}
		must(t, st, "owner-a", t0, q+"}", &l)
		for _, x := range l.Exchanges {
			got = append(got, x.ExchangeID)
		}
		if l.NextCursor == nil {
			break
		}
		cursor = *l.NextCursor
		if pages > 5 {
			t.Fatal("the cursor does not end")
		}
	}
	want := []string{ids[5], ids[4], ids[2], ids[1]}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("listed %v, want %v", got, want)
	}
	var lb struct {
		Exchanges []exView `json:"exchanges"`
	}
	must(t, st, "owner-b", t0, `{"protocolVersion":2,"action":"listExchanges"}`, &lb)
	if len(lb.Exchanges) != 4 {
		t.Fatalf("b is party to %d", len(lb.Exchanges))
	}
	var first struct {
		NextCursor *string `json:"nextCursor"`
	}
	must(t, st, "owner-a", t0, `{"protocolVersion":2,"action":"listExchanges","limit":1}`, &first)
	refused(t, st, "owner-b", t0, `{"protocolVersion":2,"action":"listExchanges","cursor":"`+*first.NextCursor+`"}`, CodeMalformedRequest)
	refused(t, st, "owner-a", t0, `{"protocolVersion":2,"action":"listExchanges","status":"countered"}`, CodeMalformedRequest)
}
