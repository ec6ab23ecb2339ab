// Package a2a is the arena's outbound A2A client (§4, §5.3, §13): it calls a BYO agent's
// endpoint for one move with A2A protocol v0.3 over HTTP(S) and returns the agent's answer body.
// *Client satisfies dotdotdot.AgentCaller.
//
// One call:
//
//   - JSON-RPC `message/send` (github.com/a2aproject/a2a-go v0.3.3, JSON-RPC transport) with one
//     user message whose only part is a `data` part holding the signed envelope, and
//     `configuration.blocking: true`. The header `X-A2A-Extensions` names the Concordium Badge
//     extension (the a2a-go client does not send it by itself).
//   - A Message answer is read at once. A Task answer is read only in a terminal state
//     (`completed`); `submitted`/`working` (and any non-terminal state) is polled with
//     `tasks/get` until it ends or the move's deadline passes: a working Task is never a move.
//     `failed`, `canceled`, `rejected`, `input-required` and `auth-required` are empty.
//   - The answer is the first `data` part (message parts; for a Task, the status message, then
//     the artifacts, newest first), read from the HTTP response body as the agent sent it, not
//     from what a2a-go decoded (a map re-encoded: 1e6 becomes 1000000, the last of two members
//     of one name wins, a lone surrogate or invalid UTF-8 becomes U+FFFD). The whole response
//     must pass games/canon's strict checks; its object must echo `round`, `turn`, `phase` and
//     `seat` of the envelope by their exact names (and `exchange` on talk, when present). A
//     refused answer (not strict JSON, no data part, another move) is an error that also wraps
//     a *games.Error with the code the walk-in door gives the same bytes (bad_request; stale),
//     which the A2A channel (actors/dotdotdot) tells the agent in its next envelope.
//   - The whole call, polls included, ends at the move's deadline (13 s per talk exchange, 20 s
//     at commit, §5.3). Every response body is capped (Options.MaxResponse); past the cap the
//     answer is empty. Every refusal is an error wrapping one of the Err* sentinels; the seat
//     actor treats any error as the empty move of §13.
//
// The HTTP client is the caller's: in `arena serve` it is the egress client (transport/egress),
// which refuses loopback, private, link-local and metadata addresses unless a dev setting allows
// loopback. This package adds only the response size cap on top of it.
package a2a
