// Package claims is the Warden's Game I, `warden.claims` (warden-rulebook "Game I",
// warden-games.md §3): five rounds between two Contenders. Each round each seat is dealt a
// private valuation (bps of the round pot, drawn from the seed, §3.2), may send one private
// message (delivered to both at once when the step closes, [JC-6]), makes a sealed public claim
// (published together, [JC-5]), then a sealed offer: an ask (≤ its valuation, [JC-4]) and an
// escalation count (§3.4). At the REVEAL the asks are paid in full when they sum to ≤ 100 %;
// otherwise the seat that deviated further from its own claim gets nothing and the other its ask,
// a tie in deviation pays neither (§3.6). Each seat funds half of every pot; what is not paid is
// the house's spill (§2.4).
//
// It implements games.Engine and games.Match on the frame it shares with games/warden/dilemma
// (games/warden/internal/duel: setup checks, transcript, abandon, commitments, words). Seat 1
// is the Warden's seat A, seat 2 seat B. Money is integer micro-units (USDC atomic units); the
// contract's Entry is the stake S. The valuations are committed by seed_hash at match_started
// and checkable with the seed revealed at match_finished; each round's valuations are published
// in its round_revealed ([JC-19]).
//
// Pure: no goroutine, clock, I/O or randomness but the seed; time enters as the now values.
package claims
