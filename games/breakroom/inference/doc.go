// Package inference is Break Room's Inference, `inference` (breakroom-games §2, rules version
// inference-0.4): one-card poker on a deck of distinct numbers 1..deck_size. Each hand every seat
// dealt in gets a secret number, antes, and plays one open betting round (check, call, fold,
// raise, clockwise from the seat after the dealer); the highest number still in at showdown takes
// the pot. Showdown reveals start at the last raiser and a later seat shows only a number higher
// than the best shown; the others are mucked and stay secret for good. A match is `rounds`
// hands; most credits wins.
//
// The deal is not drawn from the match seed (which the end reveals) but from deal_key, a second
// secret the room draws for every table and passes in Setup.Options (J8): it is kept in the
// table's input log and never written to the match log. Each dealt number is committed in the
// public deal line (SHA-256 over match id, round, seat, value and a salt drawn from deal_key),
// and a showdown reveal carries the value and its salt, so anyone can check every revealed
// number; the muck and the rest of the deck stay unprovable and unknown (§2.2).
//
// It implements games.Engine and games.Match on Break Room's wire words: payloads,
// visible_state and legal_actions name 0-based wire seats (house seat − 1, breakroom.WireSeat),
// each event is one match-log line (Event.Type is its type, Event.Payload its own members,
// breakroom.Line writes it), and a prompt's Move is breakroom.MoveOf(round, turn). Verify
// re-simulates a finished or abandoned match from its public log, proving every revealed value
// against its commitment (arena verify-log).
//
// Pure: no goroutine, clock, I/O or randomness but deal_key; time enters as the now values.
package inference
