package devchain

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"testing"

	v2 "github.com/Concordium/concordium-go-sdk/v2"
	"github.com/Concordium/concordium-go-sdk/v2/pb"
)

// updateTx returns the payload of an update-contract call on the escrow and its energy.
func escrowCall(entry string, amount uint64, param []byte) ([]byte, uint64) {
	p := EncodeUpdatePayload(amount, DefaultEscrow.Index, DefaultEscrow.Subindex, "escrow."+entry, param)
	return p, baseEnergy(1, len(p)) + 5000
}

// escrowCalls are the helpers of the escrow tests: a call that must succeed, one that must be
// refused with a code.
type escrowCalls struct {
	t *testing.T
	n *Node
	c *v2.Client
}

func (e escrowCalls) call(from testAccount, entry string, amount uint64, param []byte) *pb.BlockItemSummary {
	e.t.Helper()
	p, en := escrowCall(entry, amount, param)
	return finalStatus(e.t, e.n, e.c, send(e.t, e.c, from, p, en))
}

func (e escrowCalls) ok(from testAccount, entry string, amount uint64, param []byte) *pb.BlockItemSummary {
	e.t.Helper()
	s := e.call(from, entry, amount, param)
	if s.GetAccountTransaction().GetEffects().GetContractUpdateIssued() == nil {
		e.t.Fatalf("%s: %v, want success", entry, s)
	}
	return s
}

func (e escrowCalls) refused(code int32, from testAccount, entry string, amount uint64, param []byte) {
	e.t.Helper()
	if got := rejectCode(e.t, e.call(from, entry, amount, param)); got != code {
		e.t.Fatalf("%s: reject %d, want %d", entry, got, code)
	}
}

func transferred(s *pb.BlockItemSummary) uint64 {
	var sum uint64
	for _, e := range s.GetAccountTransaction().GetEffects().GetContractUpdateIssued().GetEffects() {
		sum += e.GetTransferred().GetAmount().GetValue()
	}
	return sum
}

// TestEscrowRound plays a round's escrow life: deposits from two payers, open_round staking the
// seat's deposit beside the house's entries sent with the call, anchor, refund of the excess,
// settle paying the round's pool out whole, with the refusals along the way, all through signed
// update transactions over the socket, read back through InvokeInstance views and the Go API.
func TestEscrowRound(t *testing.T) {
	n, c, arena, alice := twoAccounts(t, Options{})
	e := escrowCalls{t, n, c}
	// §5.7 deposits: alice pays 200 CCD for seat token "st_a", arena pays 50 CCD for "st_b".
	e.ok(alice, "deposit", 200_000_000, EncodeDeposit("st_a"))
	e.ok(arena, "deposit", 50_000_000, EncodeDeposit("st_b"))
	e.refused(RejectZeroDeposit, alice, "deposit", 0, EncodeDeposit("st_a"))
	e.refused(RejectParse, alice, "deposit", 1, []byte{1, 2})
	deps, err := n.Deposits("st_a")
	if err != nil || len(deps) != 1 || deps[0].Payer != alice.address() || deps[0].Amount != 200_000_000 || !deps[0].Finalized || deps[0].Height == 0 || deps[0].TxHash == ([32]byte{}) {
		t.Fatalf("deposits st_a %+v (%v)", deps, err)
	}
	if bal, _ := n.EscrowBalance(); bal != 250_000_000 {
		t.Fatalf("escrow balance %d, want 250 CCD", bal)
	}
	if a, _ := n.AccountState(alice.address()); a.Balance != DefaultBalance-200_000_000 {
		t.Fatalf("alice balance %d", a.Balance)
	}
	// view_deposits through InvokeInstance.
	res := invokeEscrow(t, c, "view_deposits", EncodeDeposit("st_a"))
	want := binary.LittleEndian.AppendUint32(nil, 1)
	want = append(want, alice.addr[:]...)
	want = binary.LittleEndian.AppendUint64(want, 200_000_000)
	want = binary.LittleEndian.AppendUint64(want, deps[0].TimeMs)
	if got := res.GetSuccess().GetReturnValue(); !bytes.Equal(got, want) {
		t.Fatalf("view_deposits %x, want %x", got, want)
	}

	const round = 9931
	anchor := sha256.Sum256([]byte("open"))
	stake := Stake{SeatToken: "st_a", Payer: alice.address(), Amount: 150_000_000}
	e.refused(RejectUnauthorized, alice, "open_round", 0, EncodeOpenRound(round, anchor, stake))
	e.refused(RejectUnknownRound, arena, "anchor", 0, EncodeAnchor(round, 3, anchor))
	// A stake beyond the payer's deposit, or from a payer who paid nothing under the token.
	e.refused(RejectInsufficientFunds, arena, "open_round", 0, EncodeOpenRound(round, anchor, Stake{SeatToken: "st_a", Payer: alice.address(), Amount: 200_000_001}))
	e.refused(RejectInsufficientFunds, arena, "open_round", 0, EncodeOpenRound(round, anchor, Stake{SeatToken: "st_a", Payer: arena.address(), Amount: 1}))
	e.refused(RejectInsufficientFunds, arena, "open_round", 0, EncodeOpenRound(round, anchor, stake, stake))
	e.refused(RejectParse, arena, "open_round", 0, EncodeOpenRound(round, anchor)[:40])
	// The round's pool: alice's 150 staked, and 30 CCD of house entries sent with the call.
	e.ok(arena, "open_round", 30_000_000, EncodeOpenRound(round, anchor, stake))
	e.refused(RejectRoundExists, arena, "open_round", 0, EncodeOpenRound(round, anchor))
	mid := sha256.Sum256([]byte("events 0..n"))
	e.ok(arena, "anchor", 0, EncodeAnchor(round, 3, mid))
	e.refused(RejectAnchorExists, arena, "anchor", 0, EncodeAnchor(round, 3, mid))

	// A dry run of open_round through InvokeInstance changes nothing.
	dry := invokeEscrowAs(t, c, arena.addr, "open_round", EncodeOpenRound(round+1, anchor))
	if dry.GetSuccess() == nil {
		t.Fatalf("dry run %v", dry)
	}
	if _, ok, _ := n.EscrowRound(round + 1); ok {
		t.Fatal("a dry run opened a round")
	}

	// view_unspent: alice's 50 not staked under st_a, the arena's 50 under st_b.
	unspent := []Unspent{
		{SeatToken: "st_a", Payer: alice.address(), Deposited: 200_000_000, Staked: 150_000_000},
		{SeatToken: "st_b", Payer: arena.address(), Deposited: 50_000_000},
	}
	if got, err := n.EscrowUnspent(); err != nil || !equalUnspent(got, unspent) {
		t.Fatalf("unspent %+v (%v), want %+v", got, err, unspent)
	}
	if got := invokeEscrow(t, c, "view_unspent", nil).GetSuccess().GetReturnValue(); !bytes.Equal(got, EncodeUnspentView(unspent)) {
		t.Fatalf("view_unspent %x", got)
	}

	// Refunds: only the arena calls them, never with an amount, never beyond the unspent part,
	// and the same total twice pays once.
	e.refused(RejectUnauthorized, alice, "refund", 0, EncodeRefund("st_a", alice.address(), 50_000_000))
	e.refused(RejectNotPayable, arena, "refund", 1, EncodeRefund("st_a", alice.address(), 50_000_000))
	e.refused(RejectInsufficientFunds, arena, "refund", 0, EncodeRefund("st_a", alice.address(), 50_000_001))
	if got := transferred(e.ok(arena, "refund", 0, EncodeRefund("st_a", alice.address(), 50_000_000))); got != 50_000_000 {
		t.Fatalf("refund transferred %d", got)
	}
	if got := transferred(e.ok(arena, "refund", 0, EncodeRefund("st_a", alice.address(), 50_000_000))); got != 0 {
		t.Fatalf("the same refund again transferred %d", got)
	}
	e.refused(RejectInsufficientFunds, arena, "refund", 0, EncodeRefund("st_a", alice.address(), 50_000_001))
	e.ok(arena, "refund", 0, EncodeRefund("st_b", arena.address(), 50_000_000))

	th := sha256.Sum256([]byte("transcript"))
	reveal := []byte(`{"seed":"...","mole":3}`)
	e.refused(RejectInsufficientFunds, arena, "settle", 0, EncodeSettle(round, []Payout{{To: alice.address(), Amount: 180_000_001}}, th, reveal))
	e.refused(RejectUnbalanced, arena, "settle", 0, EncodeSettle(round, []Payout{{To: alice.address(), Amount: 179_999_999}}, th, reveal))
	stranger := newTestAccount("stranger", 7)
	e.refused(RejectInvalidPayee, arena, "settle", 0, EncodeSettle(round, []Payout{{To: stranger.address(), Amount: 180_000_000}}, th, reveal))
	payouts := []Payout{{To: alice.address(), Amount: 170_000_000}, {To: arena.address(), Amount: 10_000_000}}
	if got := transferred(e.ok(arena, "settle", 0, EncodeSettle(round, payouts, th, reveal))); got != 180_000_000 {
		t.Fatalf("transferred %d in the trace, want 180 CCD", got)
	}
	e.refused(RejectRoundSettled, arena, "settle", 0, EncodeSettle(round, nil, th, reveal))
	e.refused(RejectRoundSettled, arena, "anchor", 0, EncodeAnchor(round, 4, mid))
	if bal, _ := n.EscrowBalance(); bal != 0 {
		t.Fatalf("escrow balance after settle %d, want 0", bal)
	}
	if got, err := n.EscrowUnspent(); err != nil || len(got) != 0 {
		t.Fatalf("unspent after settle and refunds %+v (%v)", got, err)
	}
	if a, _ := n.AccountState(alice.address()); a.Balance != DefaultBalance-200_000_000+50_000_000+170_000_000 {
		t.Fatalf("alice balance after settle %d", a.Balance)
	}
	rec, ok, err := n.EscrowRound(round)
	if err != nil || !ok || rec.Anchor != anchor || len(rec.Turns) != 1 || rec.Turns[0] != (TurnAnchor{3, mid}) || !rec.Settled || rec.TranscriptHash != th ||
		!bytes.Equal(rec.Reveal, reveal) || len(rec.Payouts) != 2 || rec.Pool != 0 || rec.HouseFunds != 30_000_000 || len(rec.Stakes) != 1 || rec.Stakes[0] != stake {
		t.Fatalf("round %+v ok=%v (%v)", rec, ok, err)
	}
	// view_round: Some(round view).
	view := invokeEscrow(t, c, "view_round", binary.LittleEndian.AppendUint64(nil, round)).GetSuccess().GetReturnValue()
	wantView := EncodeRoundView(&rec)
	if !bytes.Equal(view, wantView) || view[1+32+8] != 1 /* one turn anchor, u32 LE */ {
		t.Fatalf("view_round %x, want %x", view, wantView)
	}
	if none := invokeEscrow(t, c, "view_round", binary.LittleEndian.AppendUint64(nil, 1)).GetSuccess().GetReturnValue(); !bytes.Equal(none, []byte{0}) {
		t.Fatalf("view_round of an unknown round %x, want 00", none)
	}
}

// A round pays out of its own pool only: while the contract holds other payers' deposits, a
// round opened with less cannot be settled with more, and those deposits stay refundable to
// their payers.
func TestEscrowSettlePaysOnlyTheRoundsPool(t *testing.T) {
	n, c, arena, alice := twoAccounts(t, Options{})
	e := escrowCalls{t, n, c}
	e.ok(alice, "deposit", 100_000_000, EncodeDeposit("st_stranded"))
	e.ok(alice, "deposit", 40_000_000, EncodeDeposit("st_seat"))
	anchor := sha256.Sum256([]byte("open"))
	e.ok(arena, "open_round", 10_000_000, EncodeOpenRound(7, anchor, Stake{SeatToken: "st_seat", Payer: alice.address(), Amount: 40_000_000}))
	th := sha256.Sum256([]byte("transcript"))
	e.refused(RejectInsufficientFunds, arena, "settle", 0, EncodeSettle(7, []Payout{{To: arena.address(), Amount: 50_000_001}}, th, nil))
	e.refused(RejectInsufficientFunds, arena, "settle", 0, EncodeSettle(7, []Payout{{To: arena.address(), Amount: 150_000_000}}, th, nil))
	// The stranded deposit cannot be staked twice into rounds either.
	e.ok(arena, "open_round", 0, EncodeOpenRound(8, anchor, Stake{SeatToken: "st_stranded", Payer: alice.address(), Amount: 100_000_000}))
	e.refused(RejectInsufficientFunds, arena, "open_round", 0, EncodeOpenRound(9, anchor, Stake{SeatToken: "st_stranded", Payer: alice.address(), Amount: 1}))
	e.refused(RejectInsufficientFunds, arena, "refund", 0, EncodeRefund("st_stranded", alice.address(), 1))
	e.ok(arena, "settle", 0, EncodeSettle(7, []Payout{{To: alice.address(), Amount: 50_000_000}}, th, nil))
	e.ok(arena, "settle", 0, EncodeSettle(8, []Payout{{To: alice.address(), Amount: 100_000_000}}, th, nil))
	if bal, _ := n.EscrowBalance(); bal != 0 {
		t.Fatalf("escrow balance %d", bal)
	}
}

func equalUnspent(a, b []Unspent) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func invokeEscrow(t *testing.T, c *v2.Client, entry string, param []byte) *pb.InvokeInstanceResponse {
	t.Helper()
	return invokeEscrowAs(t, c, [32]byte{}, entry, param)
}

func invokeEscrowAs(t *testing.T, c *v2.Client, invoker [32]byte, entry string, param []byte) *pb.InvokeInstanceResponse {
	t.Helper()
	res, err := c.InvokeInstance(context.Background(), v2.UpdateContractPayload{
		Amount:      &v2.Amount{Value: 0},
		Address:     &v2.ContractAddress{Index: DefaultEscrow.Index, Subindex: DefaultEscrow.Subindex},
		ReceiveName: &v2.ReceiveName{Value: "escrow." + entry},
		Parameter:   &v2.Parameter{Value: param},
	}, v2.BlockHashInputLastFinal{}, v2.Energy{Value: 30000}, &v2.AccountAddress{Value: invoker})
	if err != nil {
		t.Fatalf("invoke escrow.%s: %v", entry, err)
	}
	return res
}
