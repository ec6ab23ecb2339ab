package devchain

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"sort"
	"unicode/utf8"

	v2 "github.com/Concordium/concordium-go-sdk/v2"
	bolt "go.etcd.io/bbolt"
)

// escrowName is the escrow stand-in's contract name: entrypoints "escrow.open_round",
// "escrow.anchor", "escrow.settle", "escrow.refund", "escrow.deposit" and the views
// "escrow.view_round", "escrow.view_deposits" and "escrow.view_unspent". Parameters are in
// smart-contract encoding (little endian); the layouts are in docs/protocol-notes.md, section
// devchain.
//
// Accounting is per deposit and per round, never pooled: each seat token's deposits are
// counted per payer (deposited, staked, refunded; the unspent part is deposited − staked −
// refunded); open_round stakes named payers' unspent money under named seat tokens into the
// round's pool (beside the amount the arena sends with the call, the house seats' entries);
// settle pays out exactly the round's pool, never more and never less; refund sends a payer's
// unspent money under a seat token back to that payer and nobody else.
const escrowName = "escrow"

// Bounds on escrow parameters.
const (
	maxSeatToken = 256      // bytes of a seat token
	maxReveal    = 64 << 10 // bytes of a settle reveal
	maxPayouts   = 64       // payouts in one settle, stakes in one open_round
)

// Bounds on deposits, so deposits nobody asked for cannot grow the escrow's state, its views
// (view_deposits, view_unspent) and the arena's refund work without bound (docs/protocol-notes.md,
// "Deposits nobody asked for"): each is a rejection, and a rejected deposit leaves the payer's
// money where it was.
const (
	// MinDeposit is the smallest deposit, microCCD: 1 CCD, the smallest amount the protocol moves
	// (§7.1), well below any table's entry (§14: at least 50 CCD).
	MinDeposit = 1_000_000
	// MaxDepositsPerToken is how many deposits one payer may make under one seat token, ever
	// (one entry, and a few to put a wrong amount right).
	MaxDepositsPerToken = 8
	// MaxOpenTokens is how many seat tokens one payer may have unspent money under at once: a
	// deposit under another is refused until a round stakes or a refund returns one.
	MaxOpenTokens = 16
)

// EscrowRound is a round as the escrow holds it (§5.5, §11.5).
type EscrowRound struct {
	Round          uint64   // the n of "T-<n>"
	Anchor         [32]byte // the open-round anchor, SHA-256(JCS(open))
	OpenedAtMs     uint64
	Stakes         []Stake      // what open_round took from deposits into the pool
	HouseFunds     uint64       // microCCD sent with open_round (the house seats' entries)
	Pool           uint64       // HouseFunds + Σ Stakes until settle, then 0
	Turns          []TurnAnchor // mid-round anchors, in the order they were made
	Settled        bool
	TranscriptHash [32]byte // set by settle
	Payouts        []Payout // set by settle
	Reveal         []byte   // set by settle: every salt, the seed, the mole seat and the task in clear
	SettledAtMs    uint64
}

// Stake is one part of a round's pool taken from a seat token's deposits by one payer.
type Stake struct {
	SeatToken string
	Payer     v2.AccountAddress
	Amount    uint64 // microCCD
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

// Unspent is one payer's money under one seat token, as view_unspent lists it: deposited,
// staked into rounds and refunded, microCCD (the unspent part is Deposited − Staked −
// Refunded).
type Unspent struct {
	SeatToken                   string
	Payer                       v2.AccountAddress
	Deposited, Staked, Refunded uint64
}

// balanceRec is what a payer's deposits under one seat token have been used for.
type balanceRec struct {
	Payer    [32]byte `json:"payer"`
	Staked   uint64   `json:"staked"`
	Refunded uint64   `json:"refunded"`
}

// EncodeOpenRound is open_round's parameter: round u64 LE || anchor(32) || u32 LE count ||
// (String seat_token || payer(32) || amount u64 LE)*.
func EncodeOpenRound(round uint64, anchor [32]byte, stakes ...Stake) []byte {
	out := append(binary.LittleEndian.AppendUint64(nil, round), anchor[:]...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(stakes)))
	for _, s := range stakes {
		out = appendStr(out, []byte(s.SeatToken))
		out = append(out, s.Payer.Value[:]...)
		out = binary.LittleEndian.AppendUint64(out, s.Amount)
	}
	return out
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

// EncodeRefund is refund's parameter: String seat_token || payer(32) || total u64 LE, the
// payer's refunded total under the seat token once the call has run.
func EncodeRefund(seatToken string, payer v2.AccountAddress, total uint64) []byte {
	out := appendStr(nil, []byte(seatToken))
	out = append(out, payer.Value[:]...)
	return binary.LittleEndian.AppendUint64(out, total)
}

// EncodeDeposit is deposit's (and view_deposits') parameter: the seat token as a String,
// u32 LE length || UTF-8.
func EncodeDeposit(seatToken string) []byte { return appendStr(nil, []byte(seatToken)) }

// roundRec is the stored form of an EscrowRound.
type roundRec = EscrowRound

// callEscrow runs an escrow entrypoint. Every check runs before anything is written, so a
// rejection changes nothing.
func (cs *contracts) callEscrow(c *contractCall, entry string) (callResult, error) {
	switch entry {
	case "open_round": // payable: the amount is the house seats' entries, into the pool
		if !cs.hasAdmin || c.invoker != cs.admin {
			return rejected(c, RejectUnauthorized), nil
		}
	case "anchor", "settle", "refund":
		if !cs.hasAdmin || c.invoker != cs.admin {
			return rejected(c, RejectUnauthorized), nil
		}
		if c.amount != 0 {
			return rejected(c, RejectNotPayable), nil
		}
	case "view_round", "view_deposits", "view_unspent":
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
		return cs.openRound(c, r)
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
	case "refund":
		return cs.refund(c, r)
	case "deposit":
		tok, ok := r.str(maxSeatToken)
		if !ok || !r.done() || len(tok) == 0 || !utf8.Valid(tok) {
			return rejected(c, RejectParse), nil
		}
		if c.amount == 0 {
			return rejected(c, RejectZeroDeposit), nil
		}
		if c.amount < MinDeposit {
			return rejected(c, RejectDepositTooSmall), nil
		}
		deps := c.btx.Bucket(bDeposits)
		var list []Deposit
		if _, err := getJSON(deps, tok, &list); err != nil {
			return callResult{}, err
		}
		mine := 0
		for _, d := range list {
			if d.Payer.Value == c.invoker {
				mine++
			}
		}
		if mine >= MaxDepositsPerToken {
			return rejected(c, RejectTooManyDeposits), nil
		}
		if ok, err := openToken(c.btx, c.invoker, tok); err != nil || !ok {
			return rejected(c, RejectTooManyOpen), err
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
			return callResult{ret: EncodeRoundView(nil)}, nil
		}
		return callResult{ret: EncodeRoundView(&rec)}, nil
	case "view_unspent":
		if !r.done() {
			return rejected(c, RejectParse), nil
		}
		list, err := unspentIn(c.btx)
		if err != nil {
			return callResult{}, err
		}
		return callResult{ret: EncodeUnspentView(list)}, nil
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

// openRound opens a round (§5.5) with its pool: the amount sent (the house seats' entries)
// and each stake, taken from its payer's unspent deposits under its seat token.
func (cs *contracts) openRound(c *contractCall, r *leReader) (callResult, error) {
	round, ok := r.u64()
	anchor, ok2 := r.bytes(32)
	n, ok3 := r.u32()
	if !ok || !ok2 || !ok3 || n > maxPayouts {
		return rejected(c, RejectParse), nil
	}
	rec := roundRec{Round: round, OpenedAtMs: uint64(c.now.UnixMilli()), HouseFunds: c.amount, Pool: c.amount}
	copy(rec.Anchor[:], anchor)
	for range n {
		tok, ok := r.str(maxSeatToken)
		payer, ok2 := r.bytes(32)
		amt, ok3 := r.u64()
		if !ok || !ok2 || !ok3 || len(tok) == 0 || amt == 0 {
			return rejected(c, RejectParse), nil
		}
		st := Stake{SeatToken: string(tok), Amount: amt}
		copy(st.Payer.Value[:], payer)
		if rec.Pool+amt < rec.Pool {
			return rejected(c, RejectInsufficientFunds), nil
		}
		rec.Pool += amt
		rec.Stakes = append(rec.Stakes, st)
	}
	if !r.done() {
		return rejected(c, RejectParse), nil
	}
	rounds := c.btx.Bucket(bRounds)
	if rounds.Get(u64key(round)) != nil {
		return rejected(c, RejectRoundExists), nil
	}
	// Every stake must fit its payer's unspent money under its token, counting the round's
	// earlier stakes on the same token and payer.
	use := map[string]map[[32]byte]uint64{}
	for _, st := range rec.Stakes {
		if use[st.SeatToken] == nil {
			use[st.SeatToken] = map[[32]byte]uint64{}
		}
		use[st.SeatToken][st.Payer.Value] += st.Amount
	}
	for tok, byPayer := range use {
		deps, bals, err := tokenAccounts(c.btx, []byte(tok))
		if err != nil {
			return callResult{}, err
		}
		for payer, amt := range byPayer {
			if b := bals[payer]; amt > deps[payer]-b.Staked-b.Refunded {
				return rejected(c, RejectInsufficientFunds), nil
			}
		}
	}
	for tok, byPayer := range use {
		for payer, amt := range byPayer {
			if err := addBalance(c.btx, []byte(tok), payer, amt, 0); err != nil {
				return callResult{}, err
			}
		}
	}
	return callResult{}, putJSON(rounds, u64key(round), rec)
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
	// The round pays out of its own pool, whole: never other rounds' or players' money, and
	// nothing left behind.
	switch {
	case total > rec.Pool || total > getU64(c.btx.Bucket(bMeta), contractBalanceKey(c.contract)):
		return rejected(c, RejectInsufficientFunds), nil
	case total < rec.Pool:
		return rejected(c, RejectUnbalanced), nil
	}
	rec.Settled, rec.Payouts, rec.Reveal, rec.SettledAtMs = true, payouts, append([]byte(nil), reveal...), uint64(c.now.UnixMilli())
	rec.Pool = 0
	copy(rec.TranscriptHash[:], th)
	return res, putJSON(rounds, u64key(round), rec)
}

// refund brings a payer's refunded total under a seat token up to the parameter's total,
// paying the difference back to that payer out of its unspent deposits. A total at or below
// what is already refunded changes nothing and succeeds (the refund was made), so the same
// call sent twice pays once.
func (cs *contracts) refund(c *contractCall, r *leReader) (callResult, error) {
	tok, ok := r.str(maxSeatToken)
	payer, ok2 := r.bytes(32)
	total, ok3 := r.u64()
	if !ok || !ok2 || !ok3 || !r.done() || len(tok) == 0 {
		return rejected(c, RejectParse), nil
	}
	p := [32]byte(payer)
	deps, bals, err := tokenAccounts(c.btx, tok)
	if err != nil {
		return callResult{}, err
	}
	b := bals[p]
	if total <= b.Refunded {
		return callResult{}, nil
	}
	need := total - b.Refunded
	if need > deps[p]-b.Staked-b.Refunded {
		return rejected(c, RejectInsufficientFunds), nil
	}
	if c.btx.Bucket(bAccounts).Get(p[:]) == nil {
		return rejected(c, RejectInvalidPayee), nil
	}
	if err := addBalance(c.btx, tok, p, 0, need); err != nil {
		return callResult{}, err
	}
	return callResult{transfers: []payout{{to: p, amount: need}}}, nil
}

// openToken records tok among the seat tokens payer may have unspent money under (its index
// in bPayerTokens, pruned of those it has none under now), and reports false when tok is not
// among them and MaxOpenTokens others are.
func openToken(btx *bolt.Tx, payer [32]byte, tok []byte) (bool, error) {
	b := btx.Bucket(bPayerTokens)
	var list []string
	if _, err := getJSON(b, payer[:], &list); err != nil {
		return false, err
	}
	open := list[:0]
	for _, t := range list {
		if t == string(tok) {
			return true, nil
		}
		deps, bals, err := tokenAccounts(btx, []byte(t))
		if err != nil {
			return false, err
		}
		if bal := bals[payer]; deps[payer] > bal.Staked+bal.Refunded {
			open = append(open, t)
		}
	}
	if len(open) >= MaxOpenTokens {
		return false, nil
	}
	return true, putJSON(b, payer[:], append(open, string(tok)))
}

// tokenAccounts is what each payer deposited under tok and what it has been used for.
func tokenAccounts(btx *bolt.Tx, tok []byte) (map[[32]byte]uint64, map[[32]byte]balanceRec, error) {
	var deps []Deposit
	if _, err := getJSON(btx.Bucket(bDeposits), tok, &deps); err != nil {
		return nil, nil, err
	}
	var list []balanceRec
	if _, err := getJSON(btx.Bucket(bBalances), tok, &list); err != nil {
		return nil, nil, err
	}
	sums := map[[32]byte]uint64{}
	for _, d := range deps {
		sums[d.Payer.Value] += d.Amount
	}
	bals := map[[32]byte]balanceRec{}
	for _, b := range list {
		bals[b.Payer] = b
	}
	return sums, bals, nil
}

// addBalance adds staked and refunded to payer's record under tok.
func addBalance(btx *bolt.Tx, tok []byte, payer [32]byte, staked, refunded uint64) error {
	b := btx.Bucket(bBalances)
	var list []balanceRec
	if _, err := getJSON(b, tok, &list); err != nil {
		return err
	}
	i := 0
	for i < len(list) && list[i].Payer != payer {
		i++
	}
	if i == len(list) {
		list = append(list, balanceRec{Payer: payer})
	}
	list[i].Staked += staked
	list[i].Refunded += refunded
	sort.Slice(list, func(a, b int) bool { return bytes.Compare(list[a].Payer[:], list[b].Payer[:]) < 0 })
	return putJSON(b, tok, list)
}

// unspentIn is every payer's money under every seat token that still has an unspent part,
// by seat token and payer.
func unspentIn(btx *bolt.Tx) ([]Unspent, error) {
	var out []Unspent
	err := btx.Bucket(bDeposits).ForEach(func(tok, _ []byte) error {
		deps, bals, err := tokenAccounts(btx, tok)
		if err != nil {
			return err
		}
		payers := make([][32]byte, 0, len(deps))
		for p := range deps {
			payers = append(payers, p)
		}
		sort.Slice(payers, func(a, b int) bool { return bytes.Compare(payers[a][:], payers[b][:]) < 0 })
		for _, p := range payers {
			b := bals[p]
			if deps[p] > b.Staked+b.Refunded {
				out = append(out, Unspent{SeatToken: string(tok), Payer: v2.AccountAddress{Value: p}, Deposited: deps[p], Staked: b.Staked, Refunded: b.Refunded})
			}
		}
		return nil
	})
	return out, err
}

// EncodeUnspentView is view_unspent's answer: u32 LE count || (String seat_token || payer(32) ||
// deposited u64 LE || staked u64 LE || refunded u64 LE)*.
func EncodeUnspentView(list []Unspent) []byte {
	out := binary.LittleEndian.AppendUint32(nil, uint32(len(list)))
	for _, u := range list {
		out = appendStr(out, []byte(u.SeatToken))
		out = append(out, u.Payer.Value[:]...)
		out = binary.LittleEndian.AppendUint64(out, u.Deposited)
		out = binary.LittleEndian.AppendUint64(out, u.Staked)
		out = binary.LittleEndian.AppendUint64(out, u.Refunded)
	}
	return out
}

// EncodeRoundView is view_round's answer, an Option: 0 for a round never opened (rec nil),
// else 1 || anchor(32) || opened_at u64 LE (ms) || u32 LE count || (turn u32 LE || hash(32))* ||
// settled u8 || when settled: transcript_hash(32) || u32 LE count || (account(32) || amount
// u64 LE)*.
func EncodeRoundView(rec *EscrowRound) []byte {
	if rec == nil {
		return []byte{0}
	}
	out := append([]byte{1}, rec.Anchor[:]...)
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

// EscrowUnspent lists every payer's money under every seat token that has an unspent part
// (view_unspent), by seat token and payer.
func (n *Node) EscrowUnspent() ([]Unspent, error) {
	var out []Unspent
	err := n.ch().db.View(func(btx *bolt.Tx) error {
		var err error
		out, err = unspentIn(btx)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("devchain: unspent: %w", err)
	}
	return out, nil
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
