package ledger

import (
	"encoding/json"
	"time"
)

// Kind is what a row does (package doc).
type Kind string

// Row kinds.
const (
	KindHold    Kind = "hold"    // open hold Hold in Unit, with Memo
	KindReceive Kind = "receive" // Amount enters hold Hold from Account; Ref (if any) is unique in the unit
	KindPot     Kind = "pot"     // open pot Pot in Unit, with Memo
	KindStake   Kind = "stake"   // Amount moves from hold Hold into pot Pot
	KindRelease Kind = "release" // Amount of hold Hold's stake in pot Pot goes back to the hold
	KindSettle  Kind = "settle"  // pot Pot pays Payouts and House, exactly its balance; once
	KindRefund  Kind = "refund"  // Amount leaves hold Hold to Account; Ref (if any) is unique in the unit
	KindNote    Kind = "note"    // Memo replaces hold Hold's (or pot Pot's) memo
)

// MaxAmount bounds every amount and every balance, in the row's unit: far above any stake, and
// low enough that no sum of two overflows int64.
const MaxAmount = int64(1) << 60

// maxID bounds hold, pot, account, unit and reference strings, in bytes.
const maxID = 256

// Row is one money row as stored (JSON, under its Seq in the ledger bucket). The actor sets
// Seq, At, Key and (from the hold or pot) Unit; a caller fills the rest, usually through the
// constructors below.
type Row struct {
	Seq     uint64          `json:"seq"`
	At      time.Time       `json:"at"`
	Key     string          `json:"key,omitempty"` // the Post's idempotency key, on each of its rows
	Kind    Kind            `json:"kind"`
	Unit    string          `json:"unit"`
	Hold    string          `json:"hold,omitempty"`
	Pot     string          `json:"pot,omitempty"`
	Account string          `json:"account,omitempty"` // receive: the payer; refund: the payee
	Amount  int64           `json:"amount,omitempty"`
	Ref     string          `json:"ref,omitempty"` // receive, refund: the outside reference (a deposit, a transfer)
	Payouts []Payout        `json:"payouts,omitempty"`
	House   int64           `json:"house,omitempty"` // settle: the house's part of the pot
	Memo    json.RawMessage `json:"memo,omitempty"`
}

// Payout is one account's part of a settled pot.
type Payout struct {
	Account string `json:"account"`
	Amount  int64  `json:"amount"` // ≥ 0, in the pot's unit
}

// OpenHold opens hold id in unit with memo (nil: none).
func OpenHold(id, unit string, memo json.RawMessage) Row {
	return Row{Kind: KindHold, Hold: id, Unit: unit, Memo: memo}
}

// Receive records amount entering hold from account; ref names the outside payment (a chain
// deposit, an invoice) so that it is never counted twice ("" for none).
func Receive(hold, from string, amount int64, ref string) Row {
	return Row{Kind: KindReceive, Hold: hold, Account: from, Amount: amount, Ref: ref}
}

// OpenPot opens pot id in unit with memo (nil: none).
func OpenPot(id, unit string, memo json.RawMessage) Row {
	return Row{Kind: KindPot, Pot: id, Unit: unit, Memo: memo}
}

// Stake moves amount from hold into pot.
func Stake(hold, pot string, amount int64) Row {
	return Row{Kind: KindStake, Hold: hold, Pot: pot, Amount: amount}
}

// Release gives amount of hold's stake in pot back to the hold (a pot that never played).
func Release(hold, pot string, amount int64) Row {
	return Row{Kind: KindRelease, Hold: hold, Pot: pot, Amount: amount}
}

// Settle pays pot out, whole: the payouts (to outside accounts) and the house's part must sum to
// the pot's balance.
func Settle(pot string, payouts []Payout, house int64) Row {
	return Row{Kind: KindSettle, Pot: pot, Payouts: payouts, House: house}
}

// Refund sends amount of hold back out to account; ref as in Receive.
func Refund(hold, to string, amount int64, ref string) Row {
	return Row{Kind: KindRefund, Hold: hold, Account: to, Amount: amount, Ref: ref}
}

// NoteHold replaces hold's memo.
func NoteHold(hold string, memo json.RawMessage) Row {
	return Row{Kind: KindNote, Hold: hold, Memo: memo}
}

// NotePot replaces pot's memo.
func NotePot(pot string, memo json.RawMessage) Row {
	return Row{Kind: KindNote, Pot: pot, Memo: memo}
}
