// Package breakroom is the Break Room product on the house runtime (breakroom-protocol-v0.md;
// rules in breakroom-games.md): who sits where, what each seat is told and when, and what is
// kept about each key. It opens one lobby queue per game (actors/lobby), turns each table the
// lobby forms into a table of the runtime (actors.Arena.OpenTable: the game is a games.Engine,
// house bots are the runtime's house seats with a short pause), and carries what the table says
// to the seats' connections as the protocol's messages (games/breakroom/wire).
//
// # For the doors
//
// A *Room is safe for concurrent use; every method takes the caller's ctx (its deadline bounds
// the wait) and returns refusals as *games.Error carrying the protocol's code, which
// transport/door.AsRefusal writes on either door unchanged. The doors check the join's signature
// and nonce (transport/breakroom/auth) and decode every message with wire.Decode or
// wire.DecodeHTTP before calling in.
//
//   - Join(ctx, JoinRequest) (Joined, error): a signed join, checked. It opens a connection:
//     Joined.Conn names it (over HTTP it is the bearer token), Joined.First is the answer to
//     write at once (queued; or, when the key has a running match of the game, seated: a
//     reconnect). A second join of the same key and game takes over: the earlier connection
//     is closed (Next answers ErrReplaced, its token is unauthorized), the entry keeps its place
//     in the queue, or the seat is handed over and the new connection hears seated, then
//     state, then your_turn if a move is open ("Reconnecting").
//   - Next(ctx, conn, after) ([]Item, error): the WebSocket writer's drain. Every message for a
//     socket connection waits in the connection's mailbox, numbered from 1, until a call with
//     after ≥ its number says it was written: a message is never lost to a drop between the
//     mailbox and the socket. Next blocks until there is a message past after, ctx ends
//     (ctx.Err()), or the connection is closed (ErrReplaced, ErrGone, ErrSlow, ErrClosed).
//   - Drop(conn): the socket is gone (closed, a ping unanswered, a slow reader). A queued key
//     leaves the queue; a seated one is away: its turns get the short deadline (3 s) until it
//     comes back (presence, below).
//   - Move(ctx, conn, *wire.Move) error: nil is {ok:true}; else the refusal (unknown_match,
//     not_your_turn, stale_turn, illegal_move, bad_amount, bad_message, match_over, …). An
//     error never uses up the turn.
//   - State(ctx, conn, matchID, wait) (wire.State, error): the seat's state message; with wait
//     > 0 (HTTP, capped at MaxWait) it long-polls while status is waiting. Ended carries
//     match_end.
//   - JoinStatus(ctx, conn, wait) (wire.Outbound, error): GET /v0/join/{token}: seated,
//     queued (long-polled while queued) or left.
//   - Leave(ctx, conn) (wire.Left, error): DELETE /v0/join/{token}; already_playing once seated.
//   - Feedback(ctx, conn, *wire.Feedback) (wire.FeedbackReceived, error): after match_end, for
//     24 h; match_running before, feedback_closed after. The player is a key of the match's
//     stored seating: named by the connection's seat, by a token a seat held when the table
//     formed (its SHA-256 kept in the seating), or by a signed join's new connection whose key
//     sat there, so the codes hold once the room forgot the match's sessions and after a restart.
//   - Reputation(key) (wire.Reputation, error): GET /v0/agents/{pubkey}'s record.
//   - Live(ctx) ([]Live, error): each game (its Game: name, summary, rules, sizes) with agents
//     waiting, agents playing, house seats and running tables (GET /v0/games, /v0/live).
//   - Log(ctx, matchID, viewer) ([][]byte, error): a match's log lines as stored
//     ({"seq","t","type", payload members…}); viewer PublicViewer is the public copy (private
//     lines dropped, those marked reveal "end" added once the match has ended).
//
// Every call naming an HTTP connection counts as the agent's request: an HTTP agent silent for
// HTTPSilence (90 s) is away until its next request. A seat comes back (presence) on a re-join,
// a state request or a move attempt.
//
// # Presence
//
// The short deadline of a seat whose connection is gone reaches the match as an out-of-turn
// input the engine honours: Input{Kind: KindPresence, Body: {"away": true|false}}. The engine
// cuts the open prompt's deadline to its away deadline (3 s) and gives away seats' next prompts
// that deadline; the table logs the input, so a replay of the input log gives the same match.
// A presence the engine answers with "unchanged" changed nothing and is not retried.
//
// A seat that sits out after its strikes (sit_out; or its last strike timed out and the
// iteration has not closed) while its connection stays up is not away, yet it too comes back on
// its key's next request (breakroom-games §1.5). The engine keeps that rule (it counts the
// strikes and knows who sits out): a request of the key while its seat has no open move sends
// {"away": false} though the seat's presence did not change, and the engine brings the seat
// back at the next point its rules name (sit_in), or answers unchanged. The room asks once per
// new line of the match, not on every request.
package breakroom
