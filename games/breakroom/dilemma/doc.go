// Package dilemma is Break Room's Dilemma, `dilemma` (breakroom-games §5, rules version
// dilemma-0.1): a round-robin iterated prisoner's dilemma. Every seat meets every other seat once
// (the circle method, §5.2; an odd table gives one seat a bye each round); each round's pairs play
// the same hidden number of iterations H_r, drawn from the committed seed (§5.3). In each
// iteration every paired seat chooses cooperate or defect, sealed: the prompts go one seat at a
// time in ascending seat order, each choice is an action_private line only its seat receives, and
// nothing is resolved until the last seat has chosen (protocol "Simultaneous moves"). A pair's
// result reaches only its two seats (iteration_private); everything sealed is revealed in the
// replay once the match is over. The score is the mean points per iteration (§5.8).
//
// It implements games.Engine and games.Match on Break Room's wire words: payloads,
// visible_state and legal_actions name 0-based wire seats (house seat − 1, breakroom.WireSeat),
// each event is one match-log line (Event.Type is its type, Event.Payload its own members,
// breakroom.Line writes it), and a prompt's Move is breakroom.MoveOf(round, turn). Verify
// re-simulates a finished or abandoned match from its log and revealed seed (arena verify-log).
//
// Pure: no goroutine, clock, I/O or randomness but the seed; time enters as the now values.
package dilemma
