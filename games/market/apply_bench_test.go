package market

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// benchMarket is a market of 1,000 Players with 500 open Exchanges, the fixture every kind is
// measured on.
func benchMarket(b *testing.B) (*State, []string) {
	cfg := testConfig()
	cfg.StartingAssets = []Holding{{"credits", 1_000_000}, {"wood", 1_000_000}, {"stone", 1000}}
	cfg.Rules = ruleConfig().Rules
	st := newMarket(b, cfg)
	var pids []string
	for i := range 1000 {
		pids = append(pids, enrol(b, st, fmt.Sprint("owner-", i)))
	}
	for i := range 500 {
		must(b, st, fmt.Sprint("owner-", i), t0, proposeBody(fmt.Sprint("p", i), pids[i+1], goods("wood", 1), goods("credits", 1), "2026-03-02T00:00:00Z"), nil)
	}
	return st, pids
}

// BenchmarkApply measures Apply (parse, idempotency, action, response, Delta) per command kind
// on benchMarket, without Commit (so each iteration meets the same State) unless the kind needs
// a fresh target each time.
func BenchmarkApply(b *testing.B) {
	st, pids := benchMarket(b)
	x := st.exs[st.exOrder[10]]
	h := x.live().TermsHash
	kinds := []struct {
		name, owner, body string
	}{
		{"enroll-new", "owner-new", `{"protocolVersion":2,"commandId":"e","action":"enroll"}`},
		{"enroll-again", "owner-3", `{"protocolVersion":2,"commandId":"e2","action":"enroll"}`},
		{"setTradingName", "owner-3", `{"protocolVersion":2,"commandId":"n","action":"setTradingName","tradingName":"Marlow's Yard"}`},
		{"transfer", "owner-3", transferBody("t", pids[4], "credits", 5)},
		{"proposeExchange", "owner-3", proposeBody("p", pids[700], goods("wood", 10), goods("credits", 40), "2026-03-02T00:00:00Z")},
		{"respondToExchange-approve", "owner-11", respondBody("r", x.ID, 1, h, "approve")},
		{"respondToExchange-decline", "owner-11", respondBody("r", x.ID, 1, h, "decline")},
		{"counterExchange", "owner-11", counterBody("k", x.ID, 1, h, goods("wood", 2), goods("credits", 3), "2026-03-02T00:00:00Z")},
		{"cancelExchange", "owner-10", cancelBody("c", x.ID, 1)},
		{"readInventory", "owner-3", `{"protocolVersion":2,"action":"readInventory"}`},
		{"readStatement", "owner-3", `{"protocolVersion":2,"action":"readStatement","limit":50}`},
		{"getExchange", "owner-10", `{"protocolVersion":2,"action":"getExchange","exchangeId":"` + x.ID + `"}`},
		{"listExchanges", "owner-10", `{"protocolVersion":2,"action":"listExchanges","limit":50}`},
		{"readStanding-1000", "owner-3", `{"protocolVersion":2,"action":"readStanding"}`},
		{"replay", "owner-10", proposeBody("p10", pids[11], goods("wood", 1), goods("credits", 1), "2026-03-02T00:00:00Z")},
		{"malformed", "owner-3", `{"protocolVersion":2,"action":"readInventory","x":1}`},
	}
	now := t0.Add(time.Minute)
	for _, k := range kinds {
		b.Run(k.name, func(b *testing.B) {
			body := []byte(k.body)
			if s := Apply(st, k.owner, body, now); bytesContains(s.Response, `"ok":false`) != (k.name == "malformed") {
				b.Fatalf("%s: %s", k.name, s.Response)
			}
			b.ReportAllocs()
			for b.Loop() {
				Apply(st, k.owner, body, now)
			}
		})
	}
}

func bytesContains(b []byte, s string) bool { return strings.Contains(string(b), s) }
