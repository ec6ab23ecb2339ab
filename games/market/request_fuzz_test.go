package market

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// FuzzParseRequest: no body panics the parser or Apply; a refusal is one of ErrorCodes and
// changes nothing but an expiry pass (none is due here) or a Command record; every response is
// one JSON envelope; an accepted mutation's canonical form parses back to itself.
func FuzzParseRequest(f *testing.F) {
	seeds := []string{
		`{"protocolVersion":2,"commandId":"enroll-01","action":"enroll"}`,
		`{"protocolVersion":2,"commandId":"name-01","action":"setTradingName","tradingName":"Marlow's Yard"}`,
		`{"protocolVersion":2,"commandId":"name-02","action":"setTradingName","tradingName":null}`,
		`{"protocolVersion":2,"action":"readInventory"}`,
		`{"protocolVersion":2,"action":"readStatement","limit":50}`,
		`{"protocolVersion":2,"action":"getExchange","exchangeId":"ex_1","roundLimit":100,"roundCursor":"rc_00"}`,
		`{"protocolVersion":2,"action":"listExchanges","status":"awaiting_counterparty","limit":50,"cursor":"lc_1"}`,
		`{"protocolVersion":2,"action":"readStanding"}`,
		transferBody("pay-01", "pl_x", "credits", 5),
		proposeBody("offer-01", "pl_x", goods("wood", 10), goods("credits", 40), "2026-03-01T13:00:00.000Z"),
		respondBody("answer-01", "ex_1", 1, "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "approve"),
		cancelBody("cancel-01", "ex_1", 1),
		counterBody("haggle-01", "ex_1", 2, "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", goods("wood", 8), goods("credits", 30), "2026-03-01T14:00:00.000+01:00"),
		`{"protocolVersion":2.0,"action":"readInventory"}`, `{"protocolVersion":2,"action":"readInventory","Action":"x"}`,
		`{"protocolVersion":9007199254740993,"action":"readInventory"}`, `{"protocolVersion":2,"action":"transfer","quantity":-0}`,
		`[]`, `null`, `{`, "\xff", `{"protocolVersion":2,"action":"enroll","commandId":"\u0000"}`,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	base := newMarket(f, testConfig())
	must(f, base, "owner-a", t0, `{"protocolVersion":2,"commandId":"e","action":"enroll"}`, nil)
	must(f, base, "owner-b", t0, `{"protocolVersion":2,"commandId":"e","action":"enroll"}`, nil)
	codes := ErrorCodes()
	f.Fuzz(func(t *testing.T, body []byte) {
		r, rf := parseRequest(body)
		if rf != nil {
			if rf.code != CodeMalformedRequest && rf.code != CodeUnsupportedProtocolVersion {
				t.Fatalf("the parser refused %q with %s", body, rf.code)
			}
		} else if r.mutation() {
			var back canonicalCommand
			if err := json.Unmarshal(r.canonical, &back); err != nil || back.Action != r.action || back.CommandID != r.commandID {
				t.Fatalf("canonical form %s of %q", r.canonical, body)
			}
		}
		for _, owner := range []string{"owner-a", "owner-new", ""} {
			s := Apply(base, owner, body, t0)
			var env struct {
				ProtocolVersion int  `json:"protocolVersion"`
				OK              bool `json:"ok"`
				Error           *struct {
					Code    string `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := json.Unmarshal(s.Response, &env); err != nil || env.ProtocolVersion != 2 {
				t.Fatalf("response %s", s.Response)
			}
			if !env.OK {
				if env.Error == nil || !slices.Contains(codes, env.Error.Code) {
					t.Fatalf("refusal outside the closed set: %s", s.Response)
				}
				for _, internal := range []string{"canon:", "Go struct", "Go value", "json:", "market."} {
					if strings.Contains(env.Error.Message, internal) {
						t.Fatalf("a refusal text carries the decoder's words %q: %s", internal, s.Response)
					}
				}
				d := s.Delta
				if len(d.Players)+len(d.Inventories)+len(d.Exchanges)+len(d.Ledger) != 0 || d.StateVersion != base.version {
					t.Fatalf("a refusal changed the market: %+v", d)
				}
			}
		}
	})
}
