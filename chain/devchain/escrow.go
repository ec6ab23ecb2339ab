package devchain

import (
	"encoding/binary"
	"fmt"
	"unicode/utf8"

	v2 "github.com/Concordium/concordium-go-sdk/v2"
	bolt "go.etcd.io/bbolt"
)

// escrowName is the escrow stand-in's contract name: entrypoints "escrow.open_round",
// "escrow.anchor", "escrow.settle", "escrow.deposit" and the views "escrow.view_round" and
// "escrow.view_deposits". Parameters are in smart-contract encoding (little endian); the
// layouts are in docs/protocol-notes.md, section devchain.
const escrowName = "escrow"

// Bounds on escrow parameters.
const (
	maxSeatToken = 256      // bytes of a seat token
	maxReveal    = 64 << 10 // bytes of a settle reveal
	maxPayouts   = 64       // payouts in one settle
)

// EscrowRound is a round as the escrow holds it (§5.5, §11.5).
type EscrowRound struct {
	Round          uint64   // the n of "T-<n>"
	Anchor         [32]byte // the open-round anchor, SHA-256(JCS(open))
	OpenedAtMs     uint64
	Turns          []TurnAnchor // mid-round anchors, in the order they were made
	Settled        bool
	TranscriptHash [32]byte // set by settle
	Payouts        []Payout // set by settle
	Reveal         []byte   // set by settle: every salt, the seed, the mole seat and the task in clear
	SettledAtMs    uint64
}

// TurnAnchor is one anchor(round, turn, hash) call.
type TurnAnchor struct {
	Turn uint32
	Hash [32]byte
}

// Payout is one transfer of settle, in microCCD.
type Payout struct {
	To     v2.AccountAddress
	Amount uint64
}

// Deposit is one escrow.deposit (§5.7): who paid, how much (microCCD), when, and where on
// the chain. Finalized is computed when read.
type Deposit struct {
	SeatToken string
	Payer     v2.AccountAddress
	Amount    uint64
	TimeMs    uint64 // the block's time, Unix milliseconds
	Height    uint64 // the block's height
	TxHash    [32]byte
	Finalized bool
}

// EncodeOpenRound is open_round's parameter: round u64 LE || anchor(32).
func EncodeOpenRound(round uint64, anchor [32]byte) []byte {
	return append(binary.LittleEndian.AppendUint64(nil, round), anchor[:]...)
}

// EncodeAnchor is anchor's parameter: round u64 LE || turn u32 LE || hash(32).
func EncodeAnchor(round uint64, turn uint32, hash [32]byte) []byte {
	out := binary.LittleEndian.AppendUint64(nil, round)
	out = binary.LittleEndian.AppendUint32(out, turn)
	return append(out, hash[:]...)
}

// EncodeSettle is settle's parameter: round u64 LE || u32 LE count || (account(32) ||
// amount u64 LE)* || transcript_hash(32) || u32 LE length || reveal bytes.
func EncodeSettle(round uint64, payouts []Payout, transcriptHash [32]byte, reveal []byte) []byte {
	out := binary.LittleEndian.AppendUint64(nil, round)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(payouts)))
	for _, p := range payouts {
		out = append(out, p.To.Value[:]...)
		out = binary.LittleEndian.AppendUint64(out, p.Amount)
	}
	out = append(out, transcriptHash[:]...)
	return appendStr(out, reveal)
}

// EncodeDeposit is deposit's (and view_deposits') parameter: the seat token as a String,
// u32 LE length || UTF-8.
func EncodeDeposit(seatToken string) []byte { return appendStr(nil, []byte(seatToken)) }

// roundRec is the stored form of an EscrowRound.
type roundRec = EscrowRound

// callEscrow runs an escrow entrypoint.
func (cs *contracts) callEscrow(c *contractCall, entry string) (callResult, error) {
	switch entry {
	case "open_round", "anchor", "settle":
		if !cs.hasAdmin || c.invoker != cs.admin {
			return rejected(c, RejectUnauthorized), nil
		}
		if c.amount != 0 {
			return rejected(c, RejectNotPayable), nil
		}
	case "view_round", "view_deposits":
		if c.amount != 0 {
			return rejected(c, RejectNotPayable), nil
		}
	case "deposit":
	default:
		return badMethod(c, escrowName), nil
	}
	r := newLE(c.param)
	rounds := c.btx.Bucket(bRounds)
	switch entry {
	case "open_round":
		round, ok := r.u64()
		anchor, ok2 := r.bytes(32)
		if !ok || !ok2 || !r.done() {
			return rejected(c, RejectParse), nil
		}
		if rounds.Get(u64key(round)) != nil {
			return rejected(c, RejectRoundExists), nil
		}
		rec := roundRec{Round: round, OpenedAtMs: uint64(c.now.UnixMilli())}
		copy(rec.Anchor[:], anchor)
		return callResult{}, putJSON(rounds, u64key(round), rec)
	case "anchor":
		round, ok := r.u64()
		turn, ok2 := r.u32()
		hash, ok3 := r.bytes(32)
		if !ok || !ok2 || !ok3 || !r.done() {
			return rejected(c, RejectParse), nil
		}
		var rec roundRec
		found, err := getJSON(rounds, u64key(round), &rec)
		if err != nil || !found {
			return rejected(c, RejectUnknownRound), err
		}
		if rec.Settled {
			return rejected(c, RejectRoundSettled), nil
		}
		for _, t := range rec.Turns {
			if t.Turn == turn {
				return rejected(c, RejectAnchorExists), nil
			}
		}
		ta := TurnAnchor{Turn: turn}
		copy(ta.Hash[:], hash)
		rec.Turns = append(rec.Turns, ta)
		return callResult{}, putJSON(rounds, u64key(round), rec)
	case "settle":
		return cs.settle(c, r)
	case "deposit":
		tok, ok := r.str(maxSeatToken)
		if !ok || !r.done() || len(tok) == 0 || !utf8.Valid(tok) {
			return rejected(c, RejectParse), nil
		}
		if c.amount == 0 {
			return rejected(c, RejectZeroDeposit), nil
		}
		deps := c.btx.Bucket(bDeposits)
		var list []Deposit
		if _, err := getJSON(deps, tok, &list); err != nil {
			return callResult{}, err
		}
		d := Deposit{SeatToken: string(tok), Amount: c.amount, TimeMs: uint64(c.now.UnixMilli()), Height: c.height, TxHash: c.txHash}
		d.Payer.Value = c.invoker
		list = append(list, d)
		return callResult{}, putJSON(deps, tok, list)
	case "view_round":
		round, ok := r.u64()
		if !ok || !r.done() {
			return rejected(c, RejectParse), nil
		}
		var rec roundRec
		found, err := getJSON(rounds, u64key(round), &rec)
		if err != nil {
			return callResult{}, err
		}
		if !found {
			return callResult{ret: []byte{0}}, nil
		}
		return callResult{ret: append([]byte{1}, encodeRoundView(rec)...)}, nil
	default: // view_deposits
		tok, ok := r.str(maxSeatToken)
		if !ok || !r.done() {
			return rejected(c, RejectParse), nil
		}
		var list []Deposit
		if _, err := getJSON(c.btx.Bucket(bDeposits), tok, &list); err != nil {
			return callResult{}, err
		}
		out := binary.LittleEndian.AppendUint32(nil, uint32(len(list)))
		for _, d := range list {
			out = append(out, d.Payer.Value[:]...)
			out = binary.LittleEndian.AppendUint64(out, d.Amount)
			out = binary.LittleEndian.AppendUint64(out, d.TimeMs)
		}
		return callResult{ret: out}, nil
	}
}

func (cs *contracts) settle(c *contractCall, r *leReader) (callResult, error) {
	round, ok := r.u64()
	n, ok2 := r.u32()
	if !ok || !ok2 || n > maxPayouts {
		return rejected(c, RejectParse), nil
	}
	payouts := make([]Payout, 0, n)
	for range n {
		to, ok := r.bytes(32)
		amt, ok2 := r.u64()
		if !ok || !ok2 {
			return rejected(c, RejectParse), nil
		}
		p := Payout{Amount: amt}
		copy(p.To.Value[:], to)
		payouts = append(payouts, p)
	}
	th, ok := r.bytes(32)
	reveal, ok2 := r.str(maxReveal)
	if !ok || !ok2 || !r.done() {
		return rejected(c, RejectParse), nil
	}
	rounds := c.btx.Bucket(bRounds)
	var rec roundRec
	found, err := getJSON(rounds, u64key(round), &rec)
	if err != nil || !found {
		return rejected(c, RejectUnknownRound), err
	}
	if rec.Settled {
		return rejected(c, RejectRoundSettled), nil
	}
	var total uint64
	accts := c.btx.Bucket(bAccounts)
	var res callResult
	for _, p := range payouts {
		if accts.Get(p.To.Value[:]) == nil {
			return rejected(c, RejectInvalidPayee), nil
		}
		if total+p.Amount < total {
			return rejected(c, RejectInsufficientFunds), nil
		}
		total += p.Amount
		if p.Amount > 0 {
			res.transfers = append(res.transfers, payout{to: p.To.Value, amount: p.Amount})
		}
	}
	if total > getU64(c.btx.Bucket(bMeta), contractBalanceKey(c.contract)) {
		return rejected(c, RejectInsufficientFunds), nil
	}
	rec.Settled, rec.Payouts, rec.Reveal, rec.SettledAtMs = true, payouts, append([]byte(nil), reveal...), uint64(c.now.UnixMilli())
	copy(rec.TranscriptHash[:], th)
	return res, putJSON(rounds, u64key(round), rec)
}

// encodeRoundView is view_round's Some payload: anchor(32) || opened_at u64 LE (ms) ||
// u32 LE count || (turn u32 LE || hash(32))* || settled u8 || when settled:
// transcript_hash(32) || u32 LE count || (account(32) || amount u64 LE)*.
func encodeRoundView(rec roundRec) []byte {
	out := append([]byte(nil), rec.Anchor[:]...)
	out = binary.LittleEndian.AppendUint64(out, rec.OpenedAtMs)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(rec.Turns)))
	for _, t := range rec.Turns {
		out = binary.LittleEndian.AppendUint32(out, t.Turn)
		out = append(out, t.Hash[:]...)
	}
	if !rec.Settled {
		return append(out, 0)
	}
	out = append(out, 1)
	out = append(out, rec.TranscriptHash[:]...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(rec.Payouts)))
	for _, p := range rec.Payouts {
		out = append(out, p.To.Value[:]...)
		out = binary.LittleEndian.AppendUint64(out, p.Amount)
	}
	return out
}

// EscrowRound reads a round from the escrow; ok is false when it was never opened.
func (n *Node) EscrowRound(round uint64) (rec EscrowRound, ok bool, err error) {
	err = n.ch().db.View(func(btx *bolt.Tx) error {
		ok, err = getJSON(btx.Bucket(bRounds), u64key(round), &rec)
		return err
	})
	return rec, ok, err
}

// Deposits lists the deposits made for a seat token (§5.7), oldest first, each marked
// Finalized when its block is.
func (n *Node) Deposits(seatToken string) ([]Deposit, error) {
	var list []Deposit
	err := n.ch().db.View(func(btx *bolt.Tx) error {
		if _, err := getJSON(btx.Bucket(bDeposits), []byte(seatToken), &list); err != nil {
			return err
		}
		final := getU64(btx.Bucket(bMeta), keyFinal)
		for i := range list {
			list[i].Finalized = list[i].Height <= final
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("devchain: deposits: %w", err)
	}
	return list, nil
}

// EscrowBalance is the escrow instance's balance in microCCD.
func (n *Node) EscrowBalance() (uint64, error) {
	var bal uint64
	err := n.ch().db.View(func(btx *bolt.Tx) error {
		bal = getU64(btx.Bucket(bMeta), contractBalanceKey(n.ch().contracts.escrow))
		return nil
	})
	return bal, err
}
