// Package duel is what every Warden game shares (warden-games §2, §15): two seats, seat 1 the
// Warden's seat A and seat 2 seat B, each staking the same S; a match that opens at Setup.Start,
// numbers its events 1, 2, 3… under the match id, may be abandoned with every stake returned,
// and ends with the seed revealed; sealed submissions published as salted commitments (§15.4);
// and the words a door renders of a match's start, end and returns.
//
// A game embeds Frame in its state and keeps only its own rules beside it. Money is integer
// micro-units of the table's currency (USDC atomic units on the Warden).
//
// Pure: no goroutine, clock, I/O or randomness but the seed; time enters as values.
package duel
