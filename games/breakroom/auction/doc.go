// Package auction is Break Room's Auction, `auction` (breakroom-games §4, rules version
// auction-0.1): a first-price sealed-bid auction of a number of lots. Every seat has an
// independent private value for every lot, drawn from the committed seed (§4.2), and one cash
// budget for the whole match. In each lot every seat that is not sitting out gets one sealed
// prompt, in ascending seat order, and bids or passes; its choice is an action_private line only
// it receives, and nothing is resolved until the last seat has chosen (protocol "Simultaneous
// moves"). The highest bid wins and pays its own bid; a tie is broken by a seeded draw. Only the
// winner and the price are public (lot_result); the values, the losing bids and the fact that a
// tie occurred stay sealed until the match is over. The score is the cash left plus the value of
// the lots won (§4.8); values count only in the final score, so public balances never tell one.
//
// It implements games.Engine and games.Match on Break Room's wire words: payloads,
// visible_state and legal_actions name 0-based wire seats (house seat − 1, breakroom.WireSeat),
// each event is one match-log line (Event.Type is its type, Event.Payload its own members,
// breakroom.Line writes it), and a prompt's Move is breakroom.MoveOf(round, turn). Verify
// re-simulates a finished or abandoned match from its log and revealed seed (arena verify-log).
//
// Pure: no goroutine, clock, I/O or randomness but the seed; time enters as the now values.
package auction
