package escrow

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"strings"
	"testing"
	"time"

	v2 "github.com/Concordium/concordium-go-sdk/v2"

	"arena/chain/ccd"
	"arena/chain/devchain"
)

// The encoders are the devchain stand-in's layout byte for byte (the stand-in is what reads them).
func TestEncodingMatchesTheStandIn(t *testing.T) {
	var a, h [32]byte
	for i := range a {
		a[i], h[i] = byte(i), byte(0xf0^i)
	}
	to := ccd.Address{1, 2, 3}
	pays := []Payout{{To: to, Amount: 150_000_000}, {To: ccd.Address{9}, Amount: 1}}
	dpays := []devchain.Payout{{To: v2.AccountAddress{Value: to}, Amount: 150_000_000}, {To: v2.AccountAddress{Value: ccd.Address{9}}, Amount: 1}}
	tests := []struct {
		name      string
		got, want []byte
	}{
		{"deposit", EncodeDeposit("st_abc"), devchain.EncodeDeposit("st_abc")},
		{"open_round", EncodeOpenRound(1<<40+7, a, nil), devchain.EncodeOpenRound(1<<40+7, a)},
		{"open_round with stakes", EncodeOpenRound(9931, a, []Stake{{SeatToken: "st_abc", Payer: to, Amount: 50_000_000}, {SeatToken: "st_d", Payer: ccd.Address{9}, Amount: 1}}),
			devchain.EncodeOpenRound(9931, a, devchain.Stake{SeatToken: "st_abc", Payer: v2.AccountAddress{Value: to}, Amount: 50_000_000},
				devchain.Stake{SeatToken: "st_d", Payer: v2.AccountAddress{Value: ccd.Address{9}}, Amount: 1})},
		{"refund", EncodeRefund("st_abc", to, 7), devchain.EncodeRefund("st_abc", v2.AccountAddress{Value: to}, 7)},
		{"anchor", EncodeAnchor(9931, 3, h), devchain.EncodeAnchor(9931, 3, h)},
		{"settle", EncodeSettle(9931, pays, h, []byte(`{"seed":"x"}`)), devchain.EncodeSettle(9931, dpays, h, []byte(`{"seed":"x"}`))},
		{"settle, nothing paid", EncodeSettle(1, nil, h, nil), devchain.EncodeSettle(1, nil, h, nil)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !bytes.Equal(tt.got, tt.want) {
				t.Fatalf("%x\nthe stand-in reads\n%x", tt.got, tt.want)
			}
		})
	}
}

// view_unspent's answer decodes as the stand-in encodes it; anything else is refused.
func TestDecodeUnspent(t *testing.T) {
	list := []devchain.Unspent{
		{SeatToken: "st_a", Payer: v2.AccountAddress{Value: ccd.Address{1}}, Deposited: 150_000_000, Staked: 100_000_000, Refunded: 10},
		{SeatToken: "house/o-1/2", Payer: v2.AccountAddress{Value: ccd.Address{2}}, Deposited: 5},
	}
	b := devchain.EncodeUnspentView(list)
	got, err := DecodeUnspent(b)
	if err != nil {
		t.Fatal(err)
	}
	want := []Unspent{{SeatToken: "st_a", Payer: (ccd.Address{1}).String(), Deposited: 150_000_000, Staked: 100_000_000, Refunded: 10},
		{SeatToken: "house/o-1/2", Payer: (ccd.Address{2}).String(), Deposited: 5}}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("%+v", got)
	}
	if none, err := DecodeUnspent(devchain.EncodeUnspentView(nil)); err != nil || len(none) != 0 {
		t.Fatalf("empty view: %v %v", none, err)
	}
	spent := devchain.EncodeUnspentView([]devchain.Unspent{{SeatToken: "x", Deposited: 1, Staked: 1, Refunded: 1}})
	for name, bad := range map[string][]byte{"short": b[:3], "trailing": append(append([]byte(nil), b...), 0), "cut": b[:len(b)-1],
		"count": append(binary.LittleEndian.AppendUint32(nil, 3), b[4:]...), "spent beyond deposited": spent} {
		if _, err := DecodeUnspent(bad); !errors.Is(err, ErrUnspentView) {
			t.Fatalf("%s: %v", name, err)
		}
	}
}

func TestSettleParam(t *testing.T) {
	th := "sha256:" + strings.Repeat("ab", 32)
	p, err := SettleParam("T-12", []Payout{{To: ccd.Address{1}, Amount: 0}, {To: ccd.Address{2}, Amount: 5}}, th, make([]byte, MaxReveal+1))
	if err != nil {
		t.Fatal(err)
	}
	var h [32]byte
	for i := range h {
		h[i] = 0xab
	}
	if want := EncodeSettle(12, []Payout{{To: ccd.Address{2}, Amount: 5}}, h, nil); !bytes.Equal(p, want) {
		t.Fatalf("zero payouts and an oversize reveal are left out: %x", p)
	}
	for _, bad := range [][2]string{{"9931", th}, {"T-x", th}, {"T-1", "sha256:abcd"}, {"T-1", strings.Repeat("ab", 32)}} {
		if _, err := SettleParam(bad[0], nil, bad[1], nil); err == nil {
			t.Fatalf("SettleParam(%q, %q) accepted", bad[0], bad[1])
		}
	}
}

func TestDecodeDeposits(t *testing.T) {
	rec := func(payer byte, amt, ms uint64) []byte {
		b := make([]byte, 32, 48)
		b[0] = payer
		b = binary.LittleEndian.AppendUint64(b, amt)
		return binary.LittleEndian.AppendUint64(b, ms)
	}
	two := append(binary.LittleEndian.AppendUint32(nil, 2), append(rec(1, 100_000_000, 1_700_000_000_000), rec(2, 5, 1_700_000_001_000)...)...)
	got, err := DecodeDeposits(two)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Amount != 100_000_000 || got[0].Payer != (ccd.Address{1}).String() || !got[0].Finalized ||
		!got[1].At.Equal(time.UnixMilli(1_700_000_001_000)) {
		t.Fatalf("%+v", got)
	}
	if got, err := DecodeDeposits([]byte{0, 0, 0, 0}); err != nil || len(got) != 0 {
		t.Fatalf("no deposits: %v %v", got, err)
	}
	for name, b := range map[string][]byte{
		"short":         {1, 0, 0, 0, 9},
		"empty":         nil,
		"count too big": append(binary.LittleEndian.AppendUint32(nil, 3), two[4:]...),
		"huge amount":   append(binary.LittleEndian.AppendUint32(nil, 1), rec(1, 1<<62+1, 0)...),
	} {
		if _, err := DecodeDeposits(b); !errors.Is(err, ErrDepositsView) {
			t.Fatalf("%s: %v", name, err)
		}
	}
}

func TestRoundArithmetic(t *testing.T) {
	if n, err := Round("T-9931"); err != nil || n != 9931 {
		t.Fatalf("T-9931: %d %v", n, err)
	}
	for _, bad := range []string{"9931", "T-", "T--1", "t-1", "T-1x"} {
		if _, err := Round(bad); err == nil {
			t.Fatalf("Round(%q) accepted", bad)
		}
	}
	// §5.5: the mid-round anchor is after the turn 3 settle on Blitz (5 turns), turn 2 on Short (3).
	for turns, want := range map[int]uint32{5: 3, 3: 2, 4: 3, 8: 3, 2: 1} {
		if got := MidRoundTurn(turns); got != want {
			t.Fatalf("MidRoundTurn(%d) = %d, want %d", turns, got, want)
		}
	}
}

func TestAccount(t *testing.T) {
	a := ccd.Address{7}
	got, err := Account("ccd:4221332d34e1694168c2a0c0b3fd0f27:" + a.String())
	if err != nil || got != a {
		t.Fatalf("%v %v", got, err)
	}
	if _, err := Account("no-colon"); err == nil {
		t.Fatal("a bare string accepted")
	}
}

// Reader reads view_deposits through the node (the cmd/arena test does it against a devchain).
type fakeNode struct {
	call ccd.ContractCall
	out  []byte
}

func (f *fakeNode) Invoke(_ context.Context, c ccd.ContractCall) ([]byte, error) {
	f.call = c
	return f.out, nil
}

func TestReaderCallsViewDeposits(t *testing.T) {
	n := &fakeNode{out: []byte{0, 0, 0, 0}}
	r := Reader{Node: n, Contract: Contract{Index: 12810}}
	if _, err := r.Deposits(context.Background(), "st_x"); err != nil {
		t.Fatal(err)
	}
	if n.call.Receive != "escrow.view_deposits" || n.call.Index != 12810 || !bytes.Equal(n.call.Parameter, EncodeDeposit("st_x")) || n.call.Amount != 0 {
		t.Fatalf("call %+v", n.call)
	}
}

// FuzzDecodeUnspent: DecodeUnspent never panics, and what it accepts is the stand-in's encoding
// of what it read.
func FuzzDecodeUnspent(f *testing.F) {
	f.Add(devchain.EncodeUnspentView([]devchain.Unspent{{SeatToken: "st_a", Payer: v2.AccountAddress{Value: ccd.Address{1}}, Deposited: 9, Staked: 4, Refunded: 5}}))
	f.Add(devchain.EncodeUnspentView(nil))
	f.Add([]byte{1, 0, 0, 0, 1, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		list, err := DecodeUnspent(b)
		if err != nil {
			return
		}
		var back []devchain.Unspent
		for _, u := range list {
			a, err := ccd.ParseAddress(u.Payer)
			if err != nil {
				t.Fatal(err)
			}
			back = append(back, devchain.Unspent{SeatToken: u.SeatToken, Payer: v2.AccountAddress{Value: a},
				Deposited: uint64(u.Deposited), Staked: uint64(u.Staked), Refunded: uint64(u.Refunded)})
		}
		if again := devchain.EncodeUnspentView(back); !bytes.Equal(again, b) {
			t.Fatalf("round trip %x -> %x", b, again)
		}
	})
}
