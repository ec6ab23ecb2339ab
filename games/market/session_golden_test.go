package market

import (
	"bytes"
	"flag"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite testdata/session.golden")

// TestSessionGolden plays one short market session, the protocol's own examples among it, and
// compares every response byte for byte with testdata/session.golden (rewritten with -update):
// the wire form of every view and refusal, pinned. Two Owners trade under a hidden rule; the
// proposal is countered, approved and settled; Statements, the Standing and a replay follow.
func TestSessionGolden(t *testing.T) {
	st := newMarket(t, ruleConfig())
	var out bytes.Buffer
	now := t0
	step := func(owner, body string) reply {
		r := do(t, st, owner, now, body)
		out.WriteString("> " + owner + " " + body + "\n< " + string(r.raw) + "\n\n")
		return r
	}
	var ea, eb enrolmentView
	jsonUnmarshal(step("owner-a", `{ "protocolVersion": 2, "commandId": "enroll-01", "action": "enroll" }`).Result, &ea)
	jsonUnmarshal(step("owner-b", `{"protocolVersion":2,"commandId":"enroll-01","action":"enroll"}`).Result, &eb)
	step("owner-a", `{"protocolVersion":2,"commandId":"name-01","action":"setTradingName","tradingName":"Marlow's Yard"}`)
	step("owner-visitor", `{"protocolVersion":2,"action":"readStanding"}`)
	var x exView
	jsonUnmarshal(step("owner-a", proposeBody("offer-01", eb.PlayerID, goods("wood", 10), goods("credits", 40), "2026-03-01T13:00:00.000Z")).Result, &x)
	now = now.Add(time.Minute)
	jsonUnmarshal(step("owner-b", counterBody("haggle-01", x.ExchangeID, 1, x.TermsHash, goods("wood", 8), goods("credits", 30), "2026-03-01T15:00:00+01:00")).Result, &x)
	step("owner-a", cancelBody("cancel-01", x.ExchangeID, 2))
	now = now.Add(time.Minute)
	step("owner-a", respondBody("answer-01", x.ExchangeID, 2, x.TermsHash, "approve"))
	step("owner-a", respondBody("answer-01", x.ExchangeID, 2, x.TermsHash, "approve"))
	step("owner-b", `{"protocolVersion":2,"action":"getExchange","exchangeId":"`+x.ExchangeID+`","roundLimit":1}`)
	step("owner-b", transferBody("pay-01", ea.PlayerID, "credits", 5))
	step("owner-a", `{"protocolVersion":2,"action":"readStatement","limit":50}`)
	step("owner-b", `{"protocolVersion":2,"action":"readStatement","limit":3}`)
	step("owner-b", `{"protocolVersion":2,"action":"listExchanges","status":"settled","limit":50}`)
	step("owner-a", `{"protocolVersion":2,"action":"readInventory"}`)
	step("owner-b", `{"protocolVersion":2,"action":"readStanding"}`)
	step("owner-b", `{"protocolVersion":2,"action":"readInventory","playerId":"`+ea.PlayerID+`"}`)
	step("", `{"protocolVersion":2,"action":"readInventory"}`)
	// The money, worked by hand (not rewritten by -update). a offered 10 wood for 40 credits; b
	// countered 8 wood for 30 credits and a approved. Settlement: 8 wood a → b, 30 credits b → a.
	// Rules: wood-bonus (offered ≥ 5 wood) grants the Proposer 2 stone from @issuance;
	// credit-levy (requested ≥ 30 credits) withdraws 25 credits from the Counterparty into
	// @treasury; b then pays a 5 credits.
	//   a: credits 100 + 30 + 5 = 135, wood 20 − 8 = 12, stone 5 + 2 = 7, medal 1
	//   b: credits 100 − 30 − 25 − 5 = 40, wood 20 + 8 = 28, stone 5, medal 1
	//   wealth a 135 + 12·4 + 7·7 + 100 = 332; b 40 + 28·4 + 5·7 + 100 = 287
	wantA := map[string][2]int64{"credits": {135, 0}, "wood": {12, 0}, "stone": {7, 0}, "medal": {1, 0}}
	wantB := map[string][2]int64{"credits": {40, 0}, "wood": {28, 0}, "stone": {5, 0}, "medal": {1, 0}}
	for owner, want := range map[string]map[string][2]int64{"owner-a": wantA, "owner-b": wantB} {
		if got := holdingsOf(t, st, owner); !maps.Equal(got, want) {
			t.Errorf("%s holds %v, worked by hand %v", owner, got, want)
		}
	}
	if tr, is := st.invs[Treasury].Holdings, st.invs[Issuance].Holdings; tr["credits"] != 25 || is["stone"] != -2-10 {
		t.Errorf("@treasury %v @issuance %v", tr, is)
	}
	admin := encode(Admin(st, now))
	for _, id := range []string{"enroll-01", "name-01", "offer-01", "haggle-01", "cancel-01", "answer-01", "pay-01", "owner-"} {
		if bytes.Contains(admin, []byte(id)) {
			t.Errorf("the Admin view carries %q", id)
		}
	}
	path := filepath.Join("testdata", "session.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if !bytes.Equal(out.Bytes(), want) {
		got, wantLines := strings.Split(out.String(), "\n"), strings.Split(string(want), "\n")
		for i := range min(len(got), len(wantLines)) {
			if got[i] != wantLines[i] {
				t.Fatalf("session differs at line %d:\n got %s\nwant %s", i+1, got[i], wantLines[i])
			}
		}
		t.Fatalf("session differs in length: %d lines, want %d", len(got), len(wantLines))
	}
}
