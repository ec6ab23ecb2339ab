package chatseat

import (
	"context"
	"encoding/json"
	"time"

	"arena/actors/dotdotdot"
	"arena/transport/dotdotdot/desk"
)

// Desk is the walk-in desk as the chat seat calls it (§4.4): the same calls, over the desk's
// own value types, as the HTTP door's desk.Desk; *dotdotdot.Arena is both. Errors are refusals
// carrying the protocol's code (door.AsRefusal); anything else is answered as an internal
// error with a fixed message.
type Desk interface {
	// RegisterWalkin makes a walk-in and returns its token ("w_…").
	RegisterWalkin(ctx context.Context, name, model string) (token string, err error)
	// JoinWalkin seats the token at a practice table or queues it for the walk-in table.
	JoinWalkin(ctx context.Context, token string, req dotdotdot.JoinRequest) (dotdotdot.JoinReply, error)
	// NextMove waits up to wait for a move for the token's seat; it never consumes the move.
	NextMove(ctx context.Context, token string, wait time.Duration) (dotdotdot.Next, error)
	// AnswerMove submits the raw answer body (§4.4 POST /v1/walkin/answer); the reply is the
	// game's ({"dropped":[…]}).
	AnswerMove(ctx context.Context, token string, body []byte) (json.RawMessage, error)
	// WalkinRecord is the token's record (GET /v1/walkin/me).
	WalkinRecord(ctx context.Context, token string) (json.RawMessage, error)
}

// Hosted is the desk's hosted tables (§4.5), the HTTP door's desk.Hosted: HostTable,
// StartHosted, LeaveTable, ListHosted and HostedByCode over dotdotdot.HostedTable (display names
// only; Link a path "/t/<code>"). Joining by code is Desk.JoinWalkin with JoinRequest.Code, as
// POST /v1/walkin/join {code} is. When Options.Hosted is nil and the Desk implements Hosted,
// the Desk serves them; when neither, host_table, start_table, leave_table answer not_served.
// Refusals: at_a_hosted_table, not_host, unknown_table, table_started, not_at_a_table.
type Hosted = desk.Hosted
