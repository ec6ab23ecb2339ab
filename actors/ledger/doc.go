// Package ledger is the arena's durable money actor: holds, stakes, settlement and refunds,
// kept as append-only rows in the store's ledger bucket (storage.AppendLedger) and answered only
// once those rows are committed (write before you speak: a caller never hears of money the disk
// does not have).
//
// The ledger is protocol-neutral. Amounts are int64 in a named unit ("microCCD" on a DOTDOTDOT
// escrow table, "sat" on a Lightning table, "usdc-micro" over x402); holds and pots are keyed by
// the caller's strings and never name a game. The model, per unit:
//
//	receive  money enters a hold from an outside account (a deposit seen on chain, an invoice paid)
//	stake    a hold's money moves into a pot (a round's or match's stakes)
//	release  a pot's stake goes back to the hold it came from (the pot never played)
//	settle   a pot pays out, once and whole: Σ payouts + house == the pot
//	refund   a hold's money goes back out to an account
//	note     a hold's or pot's memo is replaced (the owner's durable state, no money)
//
// so that money is never created or lost (Check):
//
//	Σ holds + Σ pots + paid out + refunded + house == received
//
// Rows are the ledger's only state: Started rebuilds holds, pots and totals by replaying them
// (Replay), so a restart loses nothing acknowledged and doubles nothing. A Post is all or
// nothing: its rows are validated in order against the state and written in one transaction.
// A Post may carry an idempotency key: asked again (a caller that lost the answer, a restart),
// it answers the first outcome and writes nothing.
//
// Memos are opaque JSON kept with a hold or pot (the last note wins), so a product actor (paid
// tables: who may pay, paid_by, the table a round plays on) can rebuild its own state from the
// ledger after a restart.
package ledger
