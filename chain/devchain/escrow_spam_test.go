package devchain

import (
	"fmt"
	"testing"
)

// Deposits nobody asked for are bounded: one below MinDeposit is refused, a payer's deposits
// under one seat token stop at MaxDepositsPerToken, and a payer has money under at most
// MaxOpenTokens seat tokens at once (a refund frees one). Each refusal leaves the payer's money
// and the escrow's views as they were.
func TestEscrowBoundsDeposits(t *testing.T) {
	n, c, arena, alice := twoAccounts(t, Options{})
	e := escrowCalls{t, n, c}
	e.refused(RejectDepositTooSmall, alice, "deposit", MinDeposit-1, EncodeDeposit("st_dust"))
	if deps, err := n.Deposits("st_dust"); err != nil || len(deps) != 0 {
		t.Fatalf("a refused deposit was kept: %+v %v", deps, err)
	}
	for i := 0; i < MaxDepositsPerToken; i++ {
		e.ok(alice, "deposit", MinDeposit, EncodeDeposit("st_0"))
	}
	e.refused(RejectTooManyDeposits, alice, "deposit", MinDeposit, EncodeDeposit("st_0"))
	// Another payer under the same token is counted on its own.
	e.ok(arena, "deposit", MinDeposit, EncodeDeposit("st_0"))
	for i := 1; i < MaxOpenTokens; i++ {
		e.ok(alice, "deposit", MinDeposit, EncodeDeposit(fmt.Sprintf("st_%d", i)))
	}
	e.refused(RejectTooManyOpen, alice, "deposit", MinDeposit, EncodeDeposit("st_new"))
	before, err := n.EscrowUnspent()
	if err != nil || len(before) != MaxOpenTokens+1 {
		t.Fatalf("unspent %d entries (%v), want alice's %d and arena's one", len(before), err, MaxOpenTokens)
	}
	if bal, _ := n.EscrowBalance(); bal != uint64(MaxDepositsPerToken+MaxOpenTokens)*MinDeposit {
		t.Fatalf("escrow balance %d", bal)
	}
	// A refund of every CCD alice has under st_1 frees its place; a token she still has money
	// under takes a deposit all along.
	e.ok(arena, "refund", 0, EncodeRefund("st_1", alice.address(), MinDeposit))
	e.ok(alice, "deposit", MinDeposit, EncodeDeposit("st_new"))
	e.refused(RejectTooManyOpen, alice, "deposit", MinDeposit, EncodeDeposit("st_other"))
	e.ok(alice, "deposit", MinDeposit, EncodeDeposit("st_2"))
}
