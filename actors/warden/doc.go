// Package warden plays the Warden's LIVE matches (warden-games §5): one supervised protoactor
// actor per match, under one parent ("warden"), driving the match's engine from the Bracket by
// the match's game id. The actor never names a game: the engine's prompts say what is legal,
// its Result says who is owed what, and settlement (§2.2) is the same arithmetic for every game.
//
// # Durability
//
// A match's play record (warden_state play/<id>) holds its Setup (the seed among it), the
// Contenders' profiles at match start, the engine's input log (games.Logged: every accepted
// action and every deadline applied), the match clock's offset and the deadlines extended by
// a restart. Every change is written before it is answered (write before you speak): an action
// is acknowledged only once the log holding it is committed, in the same transaction as the
// caller's Idempotency-Key record. After a crash the actor replays the log (games.Replay), so
// the transcript comes back byte for byte.
//
// # Time
//
// The engine runs on the match clock: wall time less the time the Warden was down while a
// step waited on a Contender (Offset). Deadlines are absolute instants (engine deadline +
// Offset); a timer is a one-shot message carrying (round, step, gen), and a stale gen is
// dropped (§5.3). Restart grace: when the actor starts and the open step's deadline passed
// while it was not running, the step re-opens with its full length (the offset grows so the
// match clock stands at the step's opening) and a public step_extended {reason:
// "server_restart"} joins the public log: no Contender is defaulted for the Warden's downtime.
//
// # Settlement
//
// When the engine reports its Result the figures of §2.2 are fixed (rake only on winnings,
// the house's share, the manifest's counters from Result.Reveal's "stats", seed_hash and the
// log_hash of the match's Gallery feed, §15.5) and written with the match moving LIVE → FINISHED; a second
// write moves it FINISHED → SETTLING together with the payout queue's entry (Options.Queue,
// actors/warden/wardenpay). A conservation failure (Σ gross + house ≠ 2S) parks the match FAILED
// (§5.6).
//
// # Gallery
//
// With Options.Feed, each write appends the public events it makes durable to the Gallery feed in
// the same transaction: the engine's events through games/warden/feed's Mapper, step_extended,
// and match_finished with the figures.
package warden
