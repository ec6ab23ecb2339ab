// Package door is what every HTTP door of the arena shares: one refusal type; a site's answer
// to a refusal (Site: its code → HTTP status table and its error body; each protocol writes its
// own in its folder, DOTDOTDOT's in transport/dotdotdot/codes); strict JSON bodies
// (games/canon.Decode on the raw bytes, never echo's Bind); the body cap; the guard that refuses a
// repeated query parameter; panic recovery, the access log and per-client limits. It names no
// protocol: what one protocol's doors share beyond this lives in its folder (DOTDOTDOT's walk-in
// token: transport/dotdotdot/walkin). Doors translate; no rule is decided here.
package door

// Codes the doors themselves give (the rest come from the desk and the games as *games.Error).
const (
	CodeBadRequest   = "bad_request"            // malformed JSON, unknown member, wrong type, empty body, trailing data, bad query
	CodeUnauthorized = "unauthorized"           // ops: no bearer token
	CodeForbidden    = "forbidden"              // ops: wrong bearer token; a token that is not this seat's
	CodeTooLarge     = "too_large"              // body over the cap
	CodeMediaType    = "unsupported_media_type" // body is not application/json (XML, forms, text)
	CodeNotFound     = "not_found"              // no such route
	CodeMethod       = "method_not_allowed"
	CodeUnknownRound = "unknown_round"
	CodeUnknownTable = "unknown_table"
	CodeBusy         = "busy"       // the arena did not answer in time; retry
	CodeTableDown    = "table_down" // the table is failed or stopped; an operator restarts it
	CodeInternal     = "internal"   // a bug; logged with its stack
)
