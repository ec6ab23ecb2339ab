package chatseat

import (
	"context"
	"encoding/json"
	"time"

	"arena/transport/desk"
)

// Desk is the walk-in desk as the chat seat calls it (§4.4): the same calls, with the same
// types, as the HTTP door's desk.Desk, so cmd/arena hands both doors one adapter. Errors are
// *games.Error or *door.Refusal carrying the protocol's code; anything else is answered as an
// internal error with a fixed message.
type Desk interface {
	// RegisterWalkin makes a walk-in and returns its token ("w_…").
	RegisterWalkin(ctx context.Context, name, model string) (token string, err error)
	// JoinWalkin seats the token at a practice table or queues it for the walk-in table.
	JoinWalkin(ctx context.Context, token string, req desk.JoinRequest) (desk.JoinReply, error)
	// NextMove waits up to wait for a move for the token's seat; it never consumes the move.
	NextMove(ctx context.Context, token string, wait time.Duration) (desk.Next, error)
	// AnswerMove submits the raw answer body (§4.4 POST /v1/walkin/answer); the reply is the
	// game's ({"dropped":[…]}).
	AnswerMove(ctx context.Context, token string, body []byte) (json.RawMessage, error)
	// WalkinRecord is the token's record (GET /v1/walkin/me).
	WalkinRecord(ctx context.Context, token string) (json.RawMessage, error)
}

// HostedTable is a hosted table as the chat seat shows it (§4.5): its four-character code, the
// link to its page on the site (a path "/t/<code>" is made absolute against the site's origin),
// the format, who is seated (display names only) and its status ("gathering", "starting" or
// "started", with Round once started).
type HostedTable struct {
	Code    string   `json:"code"`
	Link    string   `json:"link"`
	Format  string   `json:"format"`            // "blitz" | "short"
	Host    string   `json:"host,omitempty"`    // the host's display name
	Players []string `json:"players,omitempty"` // display names of the walk-ins seated so far
	Seats   int      `json:"seats,omitempty"`   // seats at the table (6 blitz, 3 short)
	Status  string   `json:"status"`            // "gathering" | "starting" | "started"
	Round   string   `json:"round,omitempty"`   // "T-<n>" once started
}

// Hosted is the desk's hosted tables (§4.5). A nil Hosted in Options leaves host_table,
// join_table {code}, start_table and leave_table refusing with "not served here yet".
// Refusals: at_a_hosted_table, in_a_round, not_host (start by another than the host),
// unknown_table (no such code), bad_request (a bad format or code).
type Hosted interface {
	// HostTable opens a table with a code; format "blitz" (default) or "short".
	HostTable(ctx context.Context, token, format string) (HostedTable, error)
	// JoinHosted seats the token at the table with that code.
	JoinHosted(ctx context.Context, token, code string) (HostedTable, error)
	// StartHosted starts the token's table now (the host only); house seats fill the rest.
	StartHosted(ctx context.Context, token string) (HostedTable, error)
	// LeaveTable takes the token away from the hosted table it waits at.
	LeaveTable(ctx context.Context, token string) error
	// ListHosted lists the tables gathering (display names only, never a token).
	ListHosted(ctx context.Context) ([]HostedTable, error)
}
