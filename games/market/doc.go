// Package market is the Game Master market's pure reducer (game-master-protocol-v2.md): one
// request in, one response out, over one State.
//
//	step := market.Apply(st, ownerID, body, now) // st unchanged
//	persist(step.Delta)                           // the actor: one bbolt transaction
//	st.Commit(step.Delta)                         // state'
//	reply(step.Response)
//
// Apply takes the raw application/json request, the authenticated Owner ID from the caller
// context and the instant; it drains one expiry batch (Expire), authenticates, parses strictly
// (one parser for every action; unknown members refused), resolves the Player, replays a
// retried mutation's stored response byte for byte or refuses command_id_reuse, and runs the
// action. Every response is the protocol's envelope ("Response"); every refusal carries one of
// ErrorCodes, in the order the protocol decides them. Parse is that parser on its own (it reads
// no State), and ApplyParsed is Apply on its result: an actor parses on its callers' goroutines
// and applies on its own. Standing and Admin are the two public
// projections (the Standing surface and the operator's view); neither carries an Owner ID.
//
// # State and its Deltas
//
// A State is a set of records keyed by ID: Players (Owner ID kept only as private
// persistence), Inventories (Players' and @treasury/@issuance's Holdings and Reserved),
// Exchange headers, each Exchange's append-only Rounds and Approvals, command records
// (playerId, commandId → hash of the canonical parsed command, the response bytes) and the
// append-only Ledger; plus two counters, the State Version and the transfers made. Everything
// else (the Owner index, each Player's Exchanges and Ledger movements, the open Exchanges by
// deadline) is derived inside Commit.
//
// Apply never writes to the State: it works on copies of the records it touches and returns
// them as a Delta: the new State Version, the Players, Inventories and Exchange headers it
// wrote, the Rounds and Approvals it appended, its Ledger rows and the command record (which
// holds the response). So the actor persists an accepted request in one bbolt transaction and
// answers only once it is committed. actors/market stores each Delta whole, under its sequence
// number, in storage's market bucket (storage.AppendMarket); should boot's replay of that log
// grow long, the same Delta splits into one put per record, a layout a prefix scan reads back:
//
//	meta/stateVersion, meta/transfers     Delta.StateVersion, Delta.Transfers
//	players/<playerId>                    each of Delta.Players
//	inventories/<inventoryId>             each of Delta.Inventories
//	exchanges/<exchangeId>                each Delta.Exchanges[i].Exchange (a header: no Rounds)
//	rounds/<exchangeId>/<roundNumber>     each appended Round (numbers big-endian for the scan)
//	approvals/<exchangeId>/<n>            each appended Approval
//	ledger/<sequence>                     each of Delta.Ledger
//	commands/<playerId>/<commandId>       Delta.Command
//
// An Exchange 250 Rounds long costs one header and one Round per counter, never its chain
// (about 1.4 KB of JSON; TestDeltaIsSmall). The command record is the large part: it keeps the
// response byte for byte, and an Exchange command's response carries its window of up to 100
// Rounds (about 60 KB at round 250), so the actor may want to compress records at rest. Terms
// and responses are []byte (base64 in JSON), never raw JSON, so no encoder's escaping can change
// a byte the Terms Hash or a replay rests on.
// Boot rebuilds the State by NewState (same Config and seed) and Commit of the stored records
// as Deltas in the order Snapshot gives them (Players, Inventories, Exchanges with their Rounds
// and Approvals in number order, the Ledger in sequence, then the command records), or by
// committing the stored Deltas in order; a Delta is plain JSON-encodable data. A write that
// fails leaves the State as it was, since nothing was committed.
//
// # Purity
//
// No clock, I/O, goroutines, locks or global randomness: the instant is a value, and every
// opaque ID, cursor tag and story-line draw is an HMAC-SHA256 of the State's seed, so the same
// seed and requests give the same responses byte for byte. Judgements where the protocol is
// silent are in docs/protocol-notes.md under "Game Master market".
package market
