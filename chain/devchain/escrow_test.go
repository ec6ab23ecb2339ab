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

// TestEscrowRound plays a round's escrow life: deposits from two seats, open_round, anchor,
// settle paying the seats, with the refusals along the way, all through signed update
// transactions over the socket, read back through InvokeInstance views and the Go API.
func TestEscrowRound(t *testing.T) {
	n, c, arena, alice := twoAccounts(t, Options{})
	call := func(from testAccount, entry string, amount uint64, param []byte) *pb.BlockItemSummary {
		t.Helper()
		p, e := escrowCall(entry, amount, param)
		return finalStatus(t, n, c, send(t, c, from, p, e))
	}
	okCall := func(from testAccount, entry string, amount uint64, param []byte) *pb.BlockItemSummary {
		t.Helper()
		s := call(from, entry, amount, param)
		if s.GetAccountTransaction().GetEffects().GetContractUpdateIssued() == nil {
			t.Fatalf("%s: %v, want success", entry, s)
		}
		return s
	}
	refused := func(code int32, from testAccount, entry string, amount uint64, param []byte) {
		t.Helper()
		if got := rejectCode(t, call(from, entry, amount, param)); got != code {
			t.Fatalf("%s: reject %d, want %d", entry, got, code)
		}
	}
	// §5.7 deposits: alice pays 200 CCD for seat token "st_a", arena pays 50 CCD for "st_b".
	okCall(alice, "deposit", 200_000_000, EncodeDeposit("st_a"))
	okCall(arena, "deposit", 50_000_000, EncodeDeposit("st_b"))
	refused(RejectZeroDeposit, alice, "deposit", 0, EncodeDeposit("st_a"))
	refused(RejectParse, alice, "deposit", 1, []byte{1, 2})
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
	refused(RejectUnauthorized, alice, "open_round", 0, EncodeOpenRound(round, anchor))
	refused(RejectNotPayable, arena, "open_round", 5, EncodeOpenRound(round, anchor))
	refused(RejectUnknownRound, arena, "anchor", 0, EncodeAnchor(round, 3, anchor))
	okCall(arena, "open_round", 0, EncodeOpenRound(round, anchor))
	refused(RejectRoundExists, arena, "open_round", 0, EncodeOpenRound(round, anchor))
	mid := sha256.Sum256([]byte("events 0..n"))
	okCall(arena, "anchor", 0, EncodeAnchor(round, 3, mid))
	refused(RejectAnchorExists, arena, "anchor", 0, EncodeAnchor(round, 3, mid))

	// A dry run of open_round through InvokeInstance changes nothing.
	dry := invokeEscrowAs(t, c, arena.addr, "open_round", EncodeOpenRound(round+1, anchor))
	if dry.GetSuccess() == nil {
		t.Fatalf("dry run %v", dry)
	}
	if _, ok, _ := n.EscrowRound(round + 1); ok {
		t.Fatal("a dry run opened a round")
	}

	th := sha256.Sum256([]byte("transcript"))
	reveal := []byte(`{"seed":"...","mole":3}`)
	tooMuch := []Payout{{To: alice.address(), Amount: 250_000_001}}
	refused(RejectInsufficientFunds, arena, "settle", 0, EncodeSettle(round, tooMuch, th, reveal))
	stranger := newTestAccount("stranger", 7)
	refused(RejectInvalidPayee, arena, "settle", 0, EncodeSettle(round, []Payout{{To: stranger.address(), Amount: 1}}, th, reveal))
	payouts := []Payout{{To: alice.address(), Amount: 240_000_000}, {To: arena.address(), Amount: 10_000_000}}
	s := okCall(arena, "settle", 0, EncodeSettle(round, payouts, th, reveal))
	var transferred uint64
	for _, e := range s.GetAccountTransaction().GetEffects().GetContractUpdateIssued().GetEffects() {
		transferred += e.GetTransferred().GetAmount().GetValue()
	}
	if transferred != 250_000_000 {
		t.Fatalf("transferred %d in the trace, want 250 CCD", transferred)
	}
	refused(RejectRoundSettled, arena, "settle", 0, EncodeSettle(round, nil, th, reveal))
	refused(RejectRoundSettled, arena, "anchor", 0, EncodeAnchor(round, 4, mid))
	if bal, _ := n.EscrowBalance(); bal != 0 {
		t.Fatalf("escrow balance after settle %d, want 0", bal)
	}
	if a, _ := n.AccountState(alice.address()); a.Balance != DefaultBalance-200_000_000+240_000_000 {
		t.Fatalf("alice balance after settle %d", a.Balance)
	}
	rec, ok, err := n.EscrowRound(round)
	if err != nil || !ok || rec.Anchor != anchor || len(rec.Turns) != 1 || rec.Turns[0] != (TurnAnchor{3, mid}) || !rec.Settled || rec.TranscriptHash != th || !bytes.Equal(rec.Reveal, reveal) || len(rec.Payouts) != 2 {
		t.Fatalf("round %+v ok=%v (%v)", rec, ok, err)
	}
	// view_round: Some(round view).
	view := invokeEscrow(t, c, "view_round", binary.LittleEndian.AppendUint64(nil, round)).GetSuccess().GetReturnValue()
	wantView := append([]byte{1}, encodeRoundView(rec)...)
	if !bytes.Equal(view, wantView) || view[1+32+8] != 1 /* one turn anchor, u32 LE */ {
		t.Fatalf("view_round %x, want %x", view, wantView)
	}
	if none := invokeEscrow(t, c, "view_round", binary.LittleEndian.AppendUint64(nil, 1)).GetSuccess().GetReturnValue(); !bytes.Equal(none, []byte{0}) {
		t.Fatalf("view_round of an unknown round %x, want 00", none)
	}
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
