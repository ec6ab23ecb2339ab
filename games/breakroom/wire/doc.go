// Package wire is Break Room's messages (breakroom-protocol-v0.md, "Agent → Server" and "Server →
// Agent") as Go types with their exact JSON, and the one strict reader of what an agent sends, used
// by both doors (the WebSocket /v0/play and the HTTP fallback) so the same bytes are refused the same
// way.
//
// Inbound: Decode reads one WebSocket frame (type and v required), DecodeHTTP one HTTP body whose
// kind the route names (type and v optional, as the spec's "HTTP fallback" says, but checked when
// present). Both run the project's strict JSON reader (games/canon: no duplicate or case-folded
// member names, no trailing data, UTF-8, safe integers) after the 8 KB frame cap, then the
// envelope, then the message's own members. Every refusal is a *games.Error carrying the
// protocol's code (bad_request, bad_version, or the doors' too_large), which transport/door's
// AsRefusal writes on either door unchanged. A move is split as the spec says: type, v, match_id,
// round and turn are the envelope (Move's fields); every other member, action and message
// included, is the move body handed to the game as it came (Move.Body).
//
// Outbound: each server message type marshals with its "type" and "v" first, then its members in
// the spec's order; optional members the spec leaves out at free tables are omitted when zero.
// Encode marshals and holds the 8 KB limit on outbound frames too (breakroom-games.md J31).
//
// The package is a leaf (games and games/canon only): the product (actors/breakroom) builds these
// messages and the doors write them, so both import it without either importing the other.
package wire

// V is the protocol version carried in every message as "v".
const V = 0

// MaxFrame is the largest message in bytes, inbound and outbound: "Frames over 8 KB are
// rejected" (breakroom-protocol-v0.md, "Transport"; J31 for outbound frames).
const MaxFrame = 8 << 10

// Codes this package refuses with (breakroom-protocol-v0.md "Error codes"; too_large is the
// doors' own, transport/door.CodeTooLarge, which the Break Room site answers with 413).
const (
	CodeBadRequest = "bad_request"
	CodeBadVersion = "bad_version"
	CodeTooLarge   = "too_large"
)
