package market

import (
	"strings"
	"testing"
)

// twoPlayers is a market of Players a (owner-a) and b (owner-b), an enrolled stranger c, and
// an open Exchange a proposed to b (10 wood for 40 credits).
func twoPlayers(t *testing.T) (st *State, a, b, c string, x exView) {
	t.Helper()
	st = newMarket(t, testConfig())
	a, b, c = enrol(t, st, "owner-a"), enrol(t, st, "owner-b"), enrol(t, st, "owner-c")
	must(t, st, "owner-a", t0, proposeBody("offer-01", b, goods("wood", 10), goods("credits", 40), later), &x)
	return st, a, b, c, x
}

// Every code of the closed set is raised by its own check, changes nothing and leaves no
// Command record (a refusal does not consume its commandId); its retry, on the unchanged
// State, is refused again with the same bytes.
func TestEachRefusal(t *testing.T) {
	st, _, b, _, x := twoPlayers(t)
	h, id := x.TermsHash, x.ExchangeID
	cases := []struct {
		code, owner, body string
	}{
		{CodeAuthenticationRequired, "", `{"protocolVersion":2,"action":"readInventory"}`},
		{CodeAuthenticationRequired, " \t", `{"protocolVersion":2,"action":"readStanding"}`},
		{CodeMalformedRequest, "owner-a", `{"protocolVersion":2,"action":"readInventory","playerId":"x"}`},
		{CodeMalformedRequest, "owner-a", `{"protocolVersion":2,"action":"enroll"}`},
		{CodeMalformedRequest, "owner-a", `{"protocolVersion":2,"action":"enroll","commandId":""}`},
		{CodeMalformedRequest, "owner-a", `{"protocolVersion":2,"action":"readInventory","commandId":"q-1"}`},
		{CodeMalformedRequest, "owner-a", `{"protocolVersion":2,"commandId":"n-1","action":"setTradingName","tradingName":"X","playerId":"pl_x"}`},
		{CodeMalformedRequest, "owner-a", `{"protocolVersion":2,"commandId":"n-2","action":"setTradingName","tradingName":["X"]}`},
		{CodeMalformedRequest, "owner-a", `{"protocolVersion":2,"action":"readStanding","limit":1}`},
		{CodeMalformedRequest, "owner-a", `{"protocolVersion":2,"action":"readStatement","limit":101}`},
		{CodeMalformedRequest, "owner-a", `{"protocolVersion":2,"action":"readInventory","action":"readInventory"}`},
		{CodeMalformedRequest, "owner-a", `{"protocolVersion":2,"Action":"readInventory"}`},
		{CodeMalformedRequest, "owner-a", `{"protocolVersion":"2","action":"readInventory"}`},
		{CodeMalformedRequest, "owner-a", `{"action":"readInventory"}`},
		{CodeMalformedRequest, "owner-a", `{"protocolVersion":2,"action":"dance"}`},
		{CodeMalformedRequest, "owner-a", transferBody("t-0", b, "wood", 0)},
		{CodeMalformedRequest, "owner-a", proposeBody("p-0", b, goods("wood", 1), `[]`, later)},
		{CodeMalformedRequest, "owner-a", proposeBody("p-1", b, goods("wood", 1), goods("credits", 1), "2026-03-01T13:00:00.0005Z")},
		{CodeMalformedRequest, "owner-a", proposeBody("p-2", b, goods("wood", 1), goods("credits", 1), "2026-03-01 13:00:00Z")},
		{CodeMalformedRequest, "owner-a", proposeBody("p-3", b, goods("wood", 1), goods("credits", 1), "2026-03-01T11:00:00.000Z")},
		{CodeMalformedRequest, "owner-b", respondBody("r-0", id, 1, strings.ToUpper(h), "approve")},
		{CodeMalformedRequest, "owner-b", respondBody("r-1", id, 1, h, "maybe")},
		{CodeUnsupportedProtocolVersion, "owner-a", `{"protocolVersion":1,"action":"readInventory"}`},
		{CodeUnsupportedProtocolVersion, "owner-a", `{"protocolVersion":3,"action":"readInventory","futureField":true}`},
		{CodeNotEnrolled, "owner-z", `{"protocolVersion":2,"action":"readInventory"}`},
		{CodeNotEnrolled, "owner-z", transferBody("t-1", b, "wood", 1)},
		{CodeUnknownPlayer, "owner-a", transferBody("t-2", "pl_nobody", "wood", 1)},
		{CodeUnknownPlayer, "owner-a", proposeBody("p-4", "pl_nobody", goods("wood", 1), goods("credits", 1), later)},
		{CodeInvalidTradingName, "owner-a", `{"protocolVersion":2,"commandId":"n-3","action":"setTradingName","tradingName":"` + strings.Repeat("é", 33) + `"}`},
		{CodeInvalidTradingName, "owner-a", `{"protocolVersion":2,"commandId":"n-4","action":"setTradingName","tradingName":"a\u0000b"}`},
		{CodeNotAParty, "owner-c", `{"protocolVersion":2,"action":"getExchange","exchangeId":"` + id + `"}`},
		{CodeNotAParty, "owner-c", respondBody("r-2", id, 1, h, "approve")},
		{CodeNotYourTurn, "owner-a", respondBody("r-3", id, 1, h, "approve")},
		{CodeNotYourTurn, "owner-b", cancelBody("x-1", id, 1)},
		{CodeSelfDealing, "owner-b", transferBody("t-3", b, "wood", 1)},
		{CodeSelfDealing, "owner-b", proposeBody("p-5", b, goods("wood", 1), goods("credits", 1), later)},
		{CodeTermsMismatch, "owner-b", respondBody("r-4", id, 1, strings.Repeat("0", 64), "approve")},
		{CodeTermsMismatch, "owner-b", counterBody("k-1", id, 1, strings.Repeat("0", 64), goods("wood", 9), goods("credits", 40), later)},
		{CodeUnknownAsset, "owner-a", transferBody("t-4", b, "gold", 1)},
		{CodeUnknownAsset, "owner-a", transferBody("t-5", b, "medal", 1)},
		{CodeUnknownAsset, "owner-a", proposeBody("p-6", b, goods("wood", 1), goods("gold", 1), later)},
		{CodeUnknownAsset, "owner-b", counterBody("k-2", id, 1, h, goods("wood", 9), goods("medal", 1), later)},
		{CodeUnknownExchange, "owner-a", `{"protocolVersion":2,"action":"getExchange","exchangeId":"ex_nope"}`},
		{CodeUnknownExchange, "owner-c", cancelBody("x-2", "ex_nope", 1)},
		{CodeStaleExchangeVersion, "owner-b", respondBody("r-5", id, 2, h, "approve")},
		{CodeStaleExchangeVersion, "owner-a", cancelBody("x-3", id, 7)},
		{CodeInsufficientAvailable, "owner-a", transferBody("t-6", b, "wood", 11)}, // 10 of 20 reserved
		{CodeInsufficientAvailable, "owner-a", proposeBody("p-7", b, goods("wood", 11), goods("credits", 1), later)},
		{CodeInsufficientAvailable, "owner-b", counterBody("k-3", id, 1, h, goods("wood", 10), goods("credits", 101), later)},
		{CodeMalformedRequest, "owner-a", `{"protocolVersion":2,"action":"getExchange","exchangeId":"` + id + `","roundCursor":"rc_forged"}`},
	}
	seen := map[string]bool{}
	for _, c := range cases {
		before := st.Clone()
		beforeAdmin := withoutCommands(st)
		r := refused(t, st, c.owner, t0, c.body, c.code)
		if r.StateVersion != before.version || st.version != before.version {
			t.Errorf("%s: State Version moved", c.body)
		}
		if got := withoutCommands(st); string(got) != string(beforeAdmin) {
			t.Errorf("%s: the refusal changed the market", c.body)
		}
		if n := len(st.cmds) - len(before.cmds); n != 0 {
			t.Errorf("%s: %d command records written, want none", c.body, n)
		}
		if r.Error.Message == "" {
			t.Errorf("%s: no message", c.body)
		}
		seen[c.code] = true
		// Nothing changed, so the fresh attempt is refused alike.
		if again := do(t, st, c.owner, t0, c.body); string(again.raw) != string(r.raw) {
			t.Errorf("%s: retry %s, first %s", c.body, again.raw, r.raw)
		}
	}
	// command_id_reuse: a used id with other content.
	refused(t, st, "owner-a", t0, proposeBody("offer-01", b, goods("wood", 3), goods("credits", 40), later), CodeCommandIDReuse)
	seen[CodeCommandIDReuse] = true
	// exchange_not_open: after the Exchange concluded.
	must(t, st, "owner-b", t0, respondBody("decline-01", id, 1, h, "decline"), nil)
	refused(t, st, "owner-a", t0, cancelBody("x-4", id, 2), CodeExchangeNotOpen)
	seen[CodeExchangeNotOpen] = true
	for _, code := range ErrorCodes() {
		if !seen[code] {
			t.Errorf("code %s not exercised", code)
		}
	}
	if len(ErrorCodes()) != 16 {
		t.Errorf("ErrorCodes has %d codes, want the 16 of the protocol", len(ErrorCodes()))
	}
}

// Where several refusals apply, the protocol's order decides: identity (unknown_exchange before
// not_a_party), then status, then turn, then the pin (stale version, then the hash), then the
// goods; malformed and version checks come first of all, authentication before everything.
func TestRefusalOrder(t *testing.T) {
	st, _, _, _, x := twoPlayers(t)
	id, zero := x.ExchangeID, strings.Repeat("0", 64)
	wrong := counterBody("o-1", id, 9, zero, goods("gold", 1), goods("credits", 999), later)
	cases := []struct {
		name, owner, body, code string
	}{
		{"authentication before parsing", "", `not json`, CodeAuthenticationRequired},
		{"malformed before not_enrolled", "owner-z", `{"protocolVersion":2,"action":"readInventory","x":1}`, CodeMalformedRequest},
		{"version before unknown members", "owner-a", `{"protocolVersion":3,"action":"readInventory","x":1}`, CodeUnsupportedProtocolVersion},
		{"not_enrolled before the action", "owner-z", cancelBody("o-0", "ex_nope", 1), CodeNotEnrolled},
		{"unknown_exchange before not_a_party", "owner-c", counterBody("o-2", "ex_nope", 9, zero, goods("gold", 1), goods("credits", 1), later), CodeUnknownExchange},
		{"not_a_party before turn and pin", "owner-c", wrong, CodeNotAParty},
		{"not_your_turn before the pin", "owner-a", wrong, CodeNotYourTurn},
		{"stale before terms_mismatch", "owner-b", wrong, CodeStaleExchangeVersion},
		{"terms_mismatch before the goods", "owner-b", counterBody("o-3", id, 1, zero, goods("gold", 1), goods("credits", 999), later), CodeTermsMismatch},
		{"unknown_asset before insufficient_available", "owner-b", counterBody("o-4", id, 1, x.TermsHash, goods("gold", 1), goods("credits", 999), later), CodeUnknownAsset},
		{"unknown_player before self_dealing and goods", "owner-a", transferBody("o-5", "pl_none", "gold", 999), CodeUnknownPlayer},
		{"not_a_party before a forged cursor", "owner-c", `{"protocolVersion":2,"action":"getExchange","exchangeId":"` + id + `","roundCursor":"junk"}`, CodeNotAParty},
		{"invalid name needs a Player", "owner-z", `{"protocolVersion":2,"commandId":"n","action":"setTradingName","tradingName":"` + strings.Repeat("x", 40) + `"}`, CodeNotEnrolled},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { refused(t, st, c.owner, t0, c.body, c.code) })
	}
	// Status before turn: once concluded, exchange_not_open whoever sends it.
	must(t, st, "owner-a", t0, cancelBody("cancel-01", id, 1), nil)
	for _, owner := range []string{"owner-a", "owner-b"} {
		refused(t, st, owner, t0, respondBody("late-"+owner, id, 1, x.TermsHash, "approve"), CodeExchangeNotOpen)
	}
	refused(t, st, "owner-c", t0, respondBody("late-c", id, 2, x.TermsHash, "approve"), CodeNotAParty)
}

// withoutCommands is the Admin view without its Command summary: everything but the records.
func withoutCommands(st *State) string {
	v := Admin(st, t0)
	v.Commands = nil
	return string(encode(v))
}
