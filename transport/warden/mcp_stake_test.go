package warden

import (
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net/http/httptest"
	"testing"

	"github.com/labstack/echo/v4"

	"arena/chain/evm/evmtest"
	"arena/chain/x402"
)

// warden_pay_stake over MCP (§8.2, §10.4) on a real geth --dev chain: unpaid, a PaymentRequired
// for the stake (the REST door's challenge); paid with the x402 v2 payload in
// _meta["x402/payment"], the stake settles on chain once with the settlement in
// _meta["x402/payment-response"]; the same payload again answers the same settlement; a
// payment by another wallet is payer_mismatch; once both seats paid, the match is LIVE. The
// invariant: payTo holds exactly the two stakes.
func TestMCPPayStake(t *testing.T) {
	chain := evmtest.Start(t)
	r := newRig(t, chain)
	e := echo.New()
	e.HTTPErrorHandler = Answer.ErrorHandler(slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err := (Site{Doors: r.doors, MCP: &MCP{Store: r.store}}).Mount(e); err != nil {
		t.Fatal(err)
	}
	r.srv.Close()
	r.srv = httptest.NewServer(e)
	m := &mcpRig{rig: r}
	a, b := r.register(0x81, "steadfast"), r.register(0x82, "shark")
	for _, w := range []x402.Address{a.wallet, b.wallet} {
		chain.Mint(t, w, 2*testStake)
	}
	id := r.pair(a, b)
	object := func(hdr map[string]string) map[string]any {
		raw, _ := base64.StdEncoding.DecodeString(hdr["PAYMENT-SIGNATURE"])
		var v map[string]any
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	args := map[string]any{"token": a.token, "match_id": id}
	refusedWith(t, "unpaid stake", m.callTool("warden_pay_stake", args, nil), "payment_required", "1000000")
	refusedWith(t, "b's payment for a's seat", m.callTool("warden_pay_stake", args, object(r.pay(b, 9))), "payer_mismatch", "1000000")
	payA := object(r.pay(a, 1))
	res := m.callTool("warden_pay_stake", args, payA)
	resp, _ := res.Meta[MetaPaymentResponse].(map[string]any)
	if res.IsError || res.Structured["status"] != "cleared" || res.Structured["seat"] != "A" || resp["success"] != true || resp["transaction"] != res.Structured["ref"] {
		t.Fatalf("a's stake: %+v", res)
	}
	again := m.callTool("warden_pay_stake", args, payA)
	if again.IsError || again.Structured["ref"] != res.Structured["ref"] {
		t.Errorf("the same stake payment again: %+v", again.Structured)
	}
	res = m.callTool("warden_pay_stake", map[string]any{"token": b.token, "match_id": id}, object(r.pay(b, 2)))
	if res.IsError || res.Structured["match_status"] != "LIVE" {
		t.Fatalf("b's stake: %+v", res.Structured)
	}
	if got := chain.Balance(t, r.payTo); got != 2*testStake {
		t.Errorf("payTo holds %d, want the two stakes %d", got, 2*testStake)
	}
}
