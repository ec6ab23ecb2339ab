package main

import (
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"arena/actors/breakroom/cashier"
	"arena/chain/lightning"
)

// failingWallet is the cashier's wallet whose AddHoldInvoice fails while fail is set, as a node
// that refuses its connection does; everything else is the wallet it wraps.
type failingWallet struct {
	cashier.Wallet
	fail atomic.Bool
}

func (f *failingWallet) AddHoldInvoice(ctx context.Context, hash [32]byte, req lightning.InvoiceRequest) (lightning.Invoice, error) {
	if f.fail.Load() {
		return lightning.Invoice{}, errors.New("dial tcp 127.0.0.1:10009: connect: connection refused")
	}
	return f.Wallet.AddHoldInvoice(ctx, hash, req)
}

// TestBreakroomPaidWalletErrorAndEscrowFullAtEveryDoor: a paid join at 100 sats with the escrow
// capped at 100 sats. While the wallet refuses to make invoices, a paid join is wallet_error on
// every door (HTTP 502 on POST /v0/join, the socket's error, join_game's tool error) and nothing
// changed: no stake in, nothing held, and the cap not taken (once the wallet is back, a join gets
// its invoice). That invoice fills the escrow, so the next paid join is escrow_full on every door
// (HTTP 503); the invariant holds after each step.
func TestBreakroomPaidWalletErrorAndEscrowFullAtEveryDoor(t *testing.T) {
	var fw *failingWallet
	p := newPaidSiteWith(t, time.Hour, time.Hour, func(o *cashier.Options) {
		fw = &failingWallet{Wallet: o.Wallet}
		o.Wallet, o.MaxEscrow = fw, 100
	})
	r := &mcpRig{srv: p.srv}
	k := newBrKey(61)
	nothing := func(step string) {
		t.Helper()
		if tot := p.check(t, step); tot != (cashier.Totals{}) {
			t.Fatalf("after %s: %+v, want nothing moved", step, tot)
		}
	}
	sockJoin := func(want string) {
		t.Helper()
		s := dialRoom(t, p.srv)
		nonce := s.next(t, "challenge")["nonce"].(string)
		j, _ := json.Marshal(map[string]any{"type": "join", "v": 0, "game": "dilemma", "stake_sats": 100, "author_pubkey": k.pub, "nonce": nonce, "sig": k.sign(nonce)})
		s.c.WriteMessage(websocket.TextMessage, j)
		if e := s.next(t, "error"); e["code"] != want || e["detail"] == "" {
			t.Fatalf("socket paid join: %v, want %s", e, want)
		}
		s.c.Close()
	}
	doors := func(code string, status int) {
		t.Helper()
		if st, m := p.do(t, "POST", "/v0/join", "", p.signed(t, k, map[string]any{"game": "dilemma", "stake_sats": 100})); st != status || m["code"] != code {
			t.Fatalf("http paid join: %d %v, want %d %s", st, m, status, code)
		}
		nothing("http " + code)
		sockJoin(code)
		nothing("socket " + code)
		_, isErr, m := r.call(t, "/mcp", "join_game", map[string]any{"game": "dilemma", "stake_sats": 100})
		refusedWith(t, "mcp "+code, isErr, m, code)
		nothing("mcp " + code)
	}

	fw.fail.Store(true)
	doors("wallet_error", 502)
	fw.fail.Store(false)
	pr := p.paidJoin(t, k, 100) // the cap was not taken by the refused joins
	if pr["bolt11"] == "" {
		t.Fatalf("join after the wallet came back: %v", pr)
	}
	nothing("the invoice issued")
	doors("escrow_full", 503)
}
