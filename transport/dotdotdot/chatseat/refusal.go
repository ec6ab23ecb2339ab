package chatseat

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"arena/transport/door"
)

// codeOf reads the protocol code and message of a desk error as every door does
// (door.AsRefusal); a call whose context ended is busy, and anything without a protocol code is
// "internal" with a fixed message (the text is logged, not sent).
func codeOf(err error) (code, msg string, retry bool) {
	if errors.Is(err, context.Canceled) {
		return door.CodeBusy, "the arena did not answer in time", true
	}
	if r, ok := door.AsRefusal(err); ok {
		return r.Code, r.Msg, r.Retry
	}
	return door.CodeInternal, "something went wrong on the arena's side; it is logged", true
}

// legalNow says, per refusal code, what the assistant may do next (§4.5: errors say what went
// wrong and what is legal now).
var legalNow = map[string]string{
	"unknown_token":     "Call register with a display name to get a token, then pass that token to every other tool.",
	"token_revoked":     "This token was put in a URL and revoked; use the token that refusal handed back (its record moved there), and never put a token in a URL.",
	"claimed":           "This token's record was claimed into a Badge owner's account and the token is spent; register again for a new walk-in.",
	"no_token":          "Call register with a display name to get a token, then pass that token to every other tool.",
	"name_taken":        "Pick another display name and call register again.",
	"not_yet":           "The walk-in table opens after three finished Practice rounds: call play_practice to play one.",
	"in_a_round":        "You already hold a seat or a place in a queue: call next_move to play it (or leave_table to leave a table that has not started).",
	"at_a_hosted_table": "You are waiting at a hosted table: call next_move to wait for it to start, or leave_table to leave it first.",
	"stale":             "That move is closed (answered, past its deadline, or not the move open now). Call next_move for the move open now.",
	"round_over":        "The round is over: call next_move for the result, then play_practice or join_table to play again.",
	"not_seated":        "You hold no seat in that round. Call next_move to see where you stand.",
	"not_host":          "Only the host starts a hosted table. It also starts by itself when full, or ten minutes after it opened.",
	"unknown_table":     "No table has that code. Check the four characters with your human, or call list_tables for the tables gathering.",
	"table_started":     "That table has started and takes no more joins or leaves. Ask its host for a new code, or call play_practice.",
	"not_at_a_table":    "You wait at no table that has not started: host_table opens one, join_table joins one by its code.",
	"unknown_round":     "No such round. Call next_move to see where you stand.",
	"bad_request":       "Check the arguments against this tool's input schema and call it again.",
	"bad_table":         "A walk-in joins practice, solo, walkin or free (a hosted table by its code): call join_table or play_practice with one of those.",
	"busy":              "The arena is busy: call the same tool again in a few seconds.",
	"table_down":        "The table is not running right now; an operator can restart it. Call next_move again in a minute.",
	"too_many_polls":    "Too many next_move calls are waiting at once for this token: wait for one to answer.",
	"rate_limited":      "Too many of these calls came from your address: wait, then call it again.",
	"not_served":        "Play Practice (play_practice) or, after three Practice rounds, the walk-in table (join_table with table \"walkin\").",
	"internal":          "Try the same call again; if it keeps failing, tell your human the arena is having trouble.",
}

// refusal is a desk error as a tool error (isError): the code, what went wrong, what is legal now.
func refusal(err error) *mcp.CallToolResult {
	code, msg, retry := codeOf(err)
	var r *door.Refusal
	if errors.As(err, &r) && r.RetryAfter > 0 {
		msg = fmt.Sprintf("%s; wait %d seconds", trimDot(msg), int64(r.RetryAfter.Round(time.Second)/time.Second))
	}
	return refusalOf(code, msg, retry)
}

func refusalOf(code, msg string, retry bool) *mcp.CallToolResult {
	text := fmt.Sprintf("Refused (%s): %s.", code, trimDot(msg))
	if l, ok := legalNow[code]; ok {
		text += " " + l
	} else {
		text += " Call next_move to see what is open now."
	}
	if retry && code != "busy" && code != "internal" {
		text += " The same call may succeed if repeated."
	}
	return mcp.NewToolResultError(text)
}

// badArgs is a tool error for arguments that do not fit the tool's schema.
func badArgs(tool, why string) *mcp.CallToolResult {
	return refusalOf("bad_request", tool+": "+why, false)
}

func trimDot(s string) string {
	for len(s) > 0 && (s[len(s)-1] == '.' || s[len(s)-1] == ' ') {
		s = s[:len(s)-1]
	}
	return s
}

// refusal is the package refusal, logging errors that carry no protocol code (their text is
// for the operator, never the client).
func (h *handlers) refusal(err error) *mcp.CallToolResult {
	if code, _, _ := codeOf(err); code == door.CodeInternal {
		h.o.Logger.Error("mcp: desk call failed", "err", err)
	}
	return refusal(err)
}
