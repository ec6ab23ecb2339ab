package market

import (
	"fmt"
	"testing"
	"time"
)

// A Delta is small whatever the market's size: a counter on a 250-Round negotiation writes the
// Exchange's header, one Round, one Approval and two Inventories, never the chain; a settlement
// writes its own rows; a query writes nothing.
func TestDeltaIsSmall(t *testing.T) {
	st := newMarket(t, testConfig())
	a, b := enrol(t, st, "owner-a"), enrol(t, st, "owner-b")
	var x exView
	must(t, st, "owner-a", t0, proposeBody("r-1", b, goods("wood", 10), goods("credits", 40), later), &x)
	owners := map[string]string{a: "owner-a", b: "owner-b"}
	var last Step
	for n := 2; n <= 250; n++ {
		author := owners[*x.AnsweringPlayerID]
		body := counterBody(fmt.Sprint("r-", n), x.ExchangeID, x.ExchangeVersion, x.TermsHash, goods("wood", 1+n%9), goods("credits", 1+n%40),
			t0.Add(time.Hour).Format(time.RFC3339))
		last = Apply(st, author, []byte(body), t0)
		st.Commit(last.Delta)
		if err := jsonUnmarshal(last.Response, &struct{}{}); err != nil {
			t.Fatal(err)
		}
		var r reply
		_ = jsonUnmarshal(last.Response, &r)
		_ = jsonUnmarshal(r.Result, &x)
	}
	d := last.Delta
	if len(d.Exchanges) != 1 || len(d.Exchanges[0].Rounds) != 1 || len(d.Exchanges[0].Approvals) != 1 ||
		d.Exchanges[0].Exchange.Rounds != nil || len(d.Inventories) != 2 || len(d.Ledger) != 0 || d.Command == nil {
		t.Fatalf("round 250's Delta: %d exchanges, inventories %d", len(d.Exchanges), len(d.Inventories))
	}
	// Without the response (a window of 100 Rounds the protocol bounds), the records are a few
	// hundred bytes.
	records := d
	records.Command = nil
	if n := len(encode(records)); n > 2048 {
		t.Fatalf("round 250's records are %d bytes of JSON", n)
	}
	t.Logf("round 250: records %d bytes of JSON, response %d bytes", len(encode(records)), len(last.Response))
	q := Apply(st, "owner-a", []byte(`{"protocolVersion":2,"action":"getExchange","exchangeId":"`+x.ExchangeID+`"}`), t0)
	if !q.Delta.Empty() {
		t.Fatalf("a query wrote %+v", q.Delta)
	}
}
