// Package escrow is the DOTDOTDOT escrow contract's encoding (§5.5, §5.7, §11.5): the
// parameters of deposit, open_round, anchor, settle and refund, the view_deposits, view_unspent
// and view_round answers, and the arithmetic that places the round's calls (the round number of "T-<n>", the mid-round turn).
// Parameters are in smart-contract encoding, little endian (docs/protocol-notes.md "devchain":
// the embedded devchain's stand-in implements the same layout, and the tests hold the two to
// each other byte for byte). It reads the chain through a node client and signs nothing: the
// calls go to the chain actor as ccd.ContractCall values.
package escrow

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"arena/chain/ccd"
	"arena/games/blitz"
)

// Contract is an escrow instance's address.
type Contract struct{ Index, Subindex uint64 }

// Energy bounds each escrow call; ViewEnergy each view.
const (
	Energy     = 50_000
	ViewEnergy = 100_000
)

// MaxReveal is the most reveal bytes settle takes; a longer reveal is left out (the transcript
// hash still binds the round).
const MaxReveal = 64 << 10

// Deposit is one escrow.deposit as the chain records it (§5.7).
type Deposit struct {
	Payer     string // the paying account, base58 (the address part of a CAIP-10 account)
	Amount    int64  // microCCD
	At        time.Time
	Finalized bool
}

// Stake is one part of a round's pool that open_round takes from a seat token's deposits by
// one payer, microCCD.
type Stake struct {
	SeatToken string
	Payer     ccd.Address
	Amount    uint64
}

// Unspent is one payer's money under one seat token as view_unspent lists it, microCCD: the
// unspent part is Deposited − Staked − Refunded.
type Unspent struct {
	SeatToken                   string
	Payer                       string // base58, as Deposit.Payer
	Deposited, Staked, Refunded int64
}

// Payout is one transfer of settle, microCCD.
type Payout struct {
	To     ccd.Address
	Amount uint64
}

// ErrDepositsView is returned for a view_deposits answer that does not decode.
var ErrDepositsView = errors.New("escrow: view_deposits: malformed return value")

// ErrUnspentView is returned for a view_unspent answer that does not decode.
var ErrUnspentView = errors.New("escrow: view_unspent: malformed return value")

// ErrRoundView is returned for a view_round answer that does not decode.
var ErrRoundView = errors.New("escrow: view_round: malformed return value")

// RoundView is a round as view_round shows it (§5.5, §11.5): the open-round anchor, when it was
// opened, its mid-round anchors, and once settled the transcript hash and the payouts.
type RoundView struct {
	Anchor         [32]byte
	OpenedAt       time.Time
	Turns          []TurnAnchor
	Settled        bool
	TranscriptHash [32]byte // when settled
	Payouts        []Payout // when settled, as settle listed them
}

// TurnAnchor is one mid-round anchor(round, turn, hash) the escrow recorded.
type TurnAnchor struct {
	Turn uint32
	Hash [32]byte
}

// EncodeDeposit is deposit's (and view_deposits') parameter: the seat token as a String,
// u32 LE length || UTF-8.
func EncodeDeposit(seatToken string) []byte { return appendStr(nil, []byte(seatToken)) }

// EncodeOpenRound is open_round's parameter (§5.5, with the round's stakes): round u64 LE ||
// anchor(32) || u32 LE count || (String seat_token || payer(32) || amount u64 LE)*. The call
// itself carries the house seats' entries as its amount; the pool is that plus the stakes.
func EncodeOpenRound(round uint64, anchor [32]byte, stakes []Stake) []byte {
	out := append(binary.LittleEndian.AppendUint64(nil, round), anchor[:]...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(stakes)))
	for _, s := range stakes {
		out = appendStr(out, []byte(s.SeatToken))
		out = append(out, s.Payer[:]...)
		out = binary.LittleEndian.AppendUint64(out, s.Amount)
	}
	return out
}

// EncodeRefund is refund's parameter: String seat_token || payer(32) || total u64 LE. total is
// what the payer has been refunded under the seat token once the call has run: the contract
// pays the difference to the payer, and a total already reached pays nothing, so the same call
// sent twice refunds once.
func EncodeRefund(seatToken string, payer ccd.Address, total uint64) []byte {
	out := appendStr(nil, []byte(seatToken))
	out = append(out, payer[:]...)
	return binary.LittleEndian.AppendUint64(out, total)
}

// EncodeAnchor is anchor's parameter (§5.5, the mid-round anchor): round u64 LE || turn u32 LE
// || hash(32).
func EncodeAnchor(round uint64, turn uint32, hash [32]byte) []byte {
	out := binary.LittleEndian.AppendUint64(nil, round)
	out = binary.LittleEndian.AppendUint32(out, turn)
	return append(out, hash[:]...)
}

// EncodeSettle is settle's parameter (§11.5): round u64 LE || u32 LE count || (account(32) ||
// amount u64 LE)* || transcript_hash(32) || u32 LE length || reveal bytes.
func EncodeSettle(round uint64, payouts []Payout, transcriptHash [32]byte, reveal []byte) []byte {
	out := binary.LittleEndian.AppendUint64(nil, round)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(payouts)))
	for _, p := range payouts {
		out = append(out, p.To[:]...)
		out = binary.LittleEndian.AppendUint64(out, p.Amount)
	}
	out = append(out, transcriptHash[:]...)
	return appendStr(out, reveal)
}

func appendStr(out, s []byte) []byte {
	out = binary.LittleEndian.AppendUint32(out, uint32(len(s)))
	return append(out, s...)
}

// DecodeDeposits reads view_deposits' answer: u32 n || (payer(32) || amount u64 || time u64
// ms)×n, little endian, oldest first. The view is read at the last finalized block, so every
// deposit is Finalized. ErrDepositsView for anything else (a count that disagrees with the
// length, an amount beyond 2^62).
func DecodeDeposits(b []byte) ([]Deposit, error) {
	if len(b) < 4 {
		return nil, ErrDepositsView
	}
	n := binary.LittleEndian.Uint32(b)
	b = b[4:]
	if uint64(len(b)) != uint64(n)*48 {
		return nil, ErrDepositsView
	}
	out := make([]Deposit, 0, n)
	for i := uint32(0); i < n; i++ {
		var payer ccd.Address
		copy(payer[:], b[:32])
		amt := binary.LittleEndian.Uint64(b[32:40])
		ms := binary.LittleEndian.Uint64(b[40:48])
		b = b[48:]
		if amt > 1<<62 {
			return nil, ErrDepositsView
		}
		out = append(out, Deposit{Payer: payer.String(), Amount: int64(amt), At: time.UnixMilli(int64(ms)).UTC(), Finalized: true})
	}
	return out, nil
}

// DecodeUnspent reads view_unspent's answer: u32 n || (String seat_token || payer(32) ||
// deposited u64 || staked u64 || refunded u64)×n, little endian. ErrUnspentView for anything
// else (trailing bytes, a token over 256 bytes, amounts beyond 2^62 or spent beyond deposited).
func DecodeUnspent(b []byte) ([]Unspent, error) {
	if len(b) < 4 {
		return nil, ErrUnspentView
	}
	n := binary.LittleEndian.Uint32(b)
	b = b[4:]
	if uint64(n) > uint64(len(b))/60 {
		return nil, ErrUnspentView
	}
	out := make([]Unspent, 0, n)
	for i := uint32(0); i < n; i++ {
		if len(b) < 4 {
			return nil, ErrUnspentView
		}
		l := binary.LittleEndian.Uint32(b)
		if l == 0 || l > 256 || uint64(len(b)) < 4+uint64(l)+56 {
			return nil, ErrUnspentView
		}
		tok := string(b[4 : 4+l])
		b = b[4+l:]
		var payer ccd.Address
		copy(payer[:], b[:32])
		dep, st, ref := binary.LittleEndian.Uint64(b[32:40]), binary.LittleEndian.Uint64(b[40:48]), binary.LittleEndian.Uint64(b[48:56])
		b = b[56:]
		if dep > 1<<62 || st > dep || ref > dep-st {
			return nil, ErrUnspentView
		}
		out = append(out, Unspent{SeatToken: tok, Payer: payer.String(), Deposited: int64(dep), Staked: int64(st), Refunded: int64(ref)})
	}
	if len(b) != 0 {
		return nil, ErrUnspentView
	}
	return out, nil
}

// DecodeRound reads view_round's answer, an Option: 0 (found false: the round was never
// opened) or 1 || anchor(32) || opened_at u64 ms || u32 n || (turn u32 || hash(32))×n ||
// settled u8 || when settled: transcript_hash(32) || u32 m || (account(32) || amount u64)×m,
// little endian. ErrRoundView for anything else (trailing bytes, a settled flag other than 0 or
// 1, counts beyond what the bytes hold, an amount beyond 2^62).
func DecodeRound(b []byte) (v RoundView, found bool, err error) {
	if len(b) == 1 && b[0] == 0 {
		return RoundView{}, false, nil
	}
	if len(b) < 1+32+8+4+1 || b[0] != 1 {
		return RoundView{}, false, ErrRoundView
	}
	b = b[1:]
	copy(v.Anchor[:], b[:32])
	ms := binary.LittleEndian.Uint64(b[32:40])
	if ms > 1<<62 {
		return RoundView{}, false, ErrRoundView
	}
	v.OpenedAt = time.UnixMilli(int64(ms)).UTC()
	n := binary.LittleEndian.Uint32(b[40:44])
	b = b[44:]
	if uint64(n) > uint64(len(b))/36 {
		return RoundView{}, false, ErrRoundView
	}
	for range n {
		ta := TurnAnchor{Turn: binary.LittleEndian.Uint32(b)}
		copy(ta.Hash[:], b[4:36])
		v.Turns = append(v.Turns, ta)
		b = b[36:]
	}
	if len(b) < 1 || b[0] > 1 {
		return RoundView{}, false, ErrRoundView
	}
	v.Settled, b = b[0] == 1, b[1:]
	if v.Settled {
		if len(b) < 36 {
			return RoundView{}, false, ErrRoundView
		}
		copy(v.TranscriptHash[:], b[:32])
		m := binary.LittleEndian.Uint32(b[32:36])
		b = b[36:]
		if uint64(m) != uint64(len(b))/40 || len(b)%40 != 0 {
			return RoundView{}, false, ErrRoundView
		}
		for range m {
			var p Payout
			copy(p.To[:], b[:32])
			p.Amount = binary.LittleEndian.Uint64(b[32:40])
			if p.Amount > 1<<62 {
				return RoundView{}, false, ErrRoundView
			}
			v.Payouts = append(v.Payouts, p)
			b = b[40:]
		}
	}
	if len(b) != 0 {
		return RoundView{}, false, ErrRoundView
	}
	return v, true, nil
}

// Invoker runs a contract view (ccd.Client.Invoke).
type Invoker interface {
	Invoke(ctx context.Context, c ccd.ContractCall) ([]byte, error)
}

// Reader reads an escrow's deposits through a node.
type Reader struct {
	Node     Invoker
	Contract Contract
}

// Deposits is view_deposits(seat token) at the last finalized block, oldest first.
func (r Reader) Deposits(ctx context.Context, seatToken string) ([]Deposit, error) {
	c := r.Call("view_deposits", EncodeDeposit(seatToken), 0)
	c.MaxEnergy = ViewEnergy
	b, err := r.Node.Invoke(ctx, c)
	if err != nil {
		return nil, fmt.Errorf("escrow: view_deposits: %w", err)
	}
	return DecodeDeposits(b)
}

// Unspent is view_unspent at the last finalized block: every payer's money under every seat
// token that has an unspent part, by seat token and payer.
func (r Reader) Unspent(ctx context.Context) ([]Unspent, error) {
	c := r.Call("view_unspent", nil, 0)
	c.MaxEnergy = ViewEnergy
	b, err := r.Node.Invoke(ctx, c)
	if err != nil {
		return nil, fmt.Errorf("escrow: view_unspent: %w", err)
	}
	return DecodeUnspent(b)
}

// Round is view_round(round) at the last finalized block: found false when the escrow never
// opened it.
func (r Reader) Round(ctx context.Context, round uint64) (RoundView, bool, error) {
	c := r.Call("view_round", binary.LittleEndian.AppendUint64(nil, round), 0)
	c.MaxEnergy = ViewEnergy
	b, err := r.Node.Invoke(ctx, c)
	if err != nil {
		return RoundView{}, false, fmt.Errorf("escrow: view_round: %w", err)
	}
	return DecodeRound(b)
}

// Call is entrypoint name ("deposit", "open_round", "anchor", "settle", "refund", a view) of
// the contract with param, paying amount microCCD (0 but for deposit and open_round).
func (c Contract) Call(name string, param []byte, amount uint64) ccd.ContractCall {
	return ccd.ContractCall{Index: c.Index, Subindex: c.Subindex, Receive: "escrow." + name, Parameter: param,
		Amount: amount, MaxEnergy: Energy}
}

// Call is Contract.Call on the reader's contract.
func (r Reader) Call(name string, param []byte, amount uint64) ccd.ContractCall {
	return r.Contract.Call(name, param, amount)
}

// Round is the n of a round id "T-<n>" (§3), the escrow's round key.
func Round(id string) (uint64, error) {
	s, ok := strings.CutPrefix(id, "T-")
	if !ok {
		return 0, fmt.Errorf("escrow: round %q is not T-<n>", id)
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("escrow: round %q: %w", id, err)
	}
	return n, nil
}

// MidRoundTurn is the turn whose settle the mid-round anchor follows (§5.5), the escrow's
// anchor parameter: the Blitz rule, blitz.MidRoundTurn (3 on Blitz, 2 on Short), which the
// contract, DOTDOTDOT's, shares with the table that asks for the anchor.
func MidRoundTurn(turns int) uint32 { return uint32(blitz.MidRoundTurn(turns)) }

// TranscriptHash is the 32 bytes of a "sha256:<hex>" transcript hash (games.Result).
func TranscriptHash(s string) ([32]byte, error) {
	b, err := hex.DecodeString(strings.TrimPrefix(s, "sha256:"))
	if err != nil || len(b) != 32 || !strings.HasPrefix(s, "sha256:") {
		return [32]byte{}, fmt.Errorf("escrow: transcript hash %q is not sha256:<64 hex>", s)
	}
	return [32]byte(b), nil
}

// Account is the address of a CAIP-10 account ("ccd:<chain>:<base58>").
func Account(caip10 string) (ccd.Address, error) {
	i := strings.LastIndexByte(caip10, ':')
	if i < 0 {
		return ccd.Address{}, fmt.Errorf("escrow: %q is not a CAIP-10 account", caip10)
	}
	a, err := ccd.ParseAddress(caip10[i+1:])
	if err != nil {
		return ccd.Address{}, fmt.Errorf("escrow: account %q: %w", caip10, err)
	}
	return a, nil
}

// SettleParam is settle's parameter for round ("T-<n>"): the payouts with an amount (a payout of
// 0 is left out), the transcript hash ("sha256:<hex>") and the reveal (left out beyond
// MaxReveal). That the payouts balance the round's deposits is the ledger's check, made before.
func SettleParam(round string, payouts []Payout, transcriptHash string, reveal []byte) ([]byte, error) {
	n, err := Round(round)
	if err != nil {
		return nil, err
	}
	th, err := TranscriptHash(transcriptHash)
	if err != nil {
		return nil, err
	}
	pays := make([]Payout, 0, len(payouts))
	for _, p := range payouts {
		if p.Amount > 0 {
			pays = append(pays, p)
		}
	}
	if len(reveal) > MaxReveal {
		reveal = nil
	}
	return EncodeSettle(n, pays, th, reveal), nil
}
