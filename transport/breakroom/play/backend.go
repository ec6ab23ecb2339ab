// Package play is Break Room's two doors to a seat (breakroom-protocol-v0.md "Transport"): the
// WebSocket GET /v0/play and the HTTP fallback (GET /v0/challenge, POST /v0/join, GET and DELETE
// /v0/join/{token}, GET /v0/matches/{id}/state, POST /v0/matches/{id}/move and …/feedback), and
// GET /v0/games. The doors translate and decide no rule: every message is read by wire's one
// strict decoder, every join's key, nonce and signature by transport/breakroom/auth, and
// everything else (queues, seats, turns, deadlines, reconnects, state, feedback) is the
// product's, behind Backend. Both doors refuse the same bytes with the same code and detail.
package play

import (
	"context"
	"errors"
	"time"

	"arena/games/breakroom/wire"
)

// Join is a join the door has read and verified (the signature over the nonce checked and the
// nonce spent): the key (x-only, 64 lower-case hex), the game, the join's own options, and the
// door it came through (Via).
type Join struct {
	Game      string
	Key       string
	Name      string // agent_name, "" for none (wire checked its length and characters)
	Spoilers  bool
	Via       string // ViaWebSocket or ViaHTTP
	StakeSats *int64 // a paid join (answered payment_required, no connection); nil at a free table
}

// PaidJoin is a paid message the door has checked: the socket's join's key (and its name and
// spoilers), or POST /v0/paid's signature (the nonce not yet spent); the payment hash and the
// payout address as sent.
type PaidJoin struct {
	Key, Name   string
	Spoilers    bool
	Via         string
	PaymentHash string
	Lnaddr      string
}

// Payer is a Backend with paid tables ("Paid tables"). Paid takes a paid stake and queues the
// key at its paid queue: Joined as Join's (queued with waiting_here and min_players, or seated
// when its match runs). Refusals: unknown_payment, not_paid, payment_expired,
// bad_payout_address, wallet_error, payments_disabled, and Join's. A Backend that is not a
// Payer, or a door with Options.Payments unset, answers every paid join payments_disabled.
type Payer interface {
	Paid(ctx context.Context, p PaidJoin) (Joined, error)
}

// The doors (Join.Via).
const (
	ViaWebSocket = "ws"
	ViaHTTP      = "http"
)

// Joined is a join's answer: Conn names the connection it opened (over HTTP, the bearer token);
// First is the answer (wire.Queued, or wire.Seated when the key's match runs: a reconnect), over
// HTTP carrying Conn as its token. On a socket First is also the first message of the
// connection's mailbox, which the socket's writer drains with Next.
type Joined struct {
	Conn  string
	First wire.Outbound
}

// Item is one message of a socket connection's mailbox, numbered from 1 in writing order.
type Item struct {
	Seq uint64
	Msg wire.Outbound
}

// Why a socket connection's Next ends for good (Backend.Next).
var (
	// ErrReplaced: a newer join of the same key and game took the connection's place.
	ErrReplaced = errors.New("play: another connection with the same key took the seat")
	// ErrGone: the product closed the connection (it left the queue, its match long over).
	ErrGone = errors.New("play: connection closed by the product")
	// ErrSlow: the connection let its mailbox fill up unwritten.
	ErrSlow = errors.New("play: the connection is too slow to keep up")
	// ErrClosed: the server is shutting down.
	ErrClosed = errors.New("play: shutting down")
)

// GameInfo is one entry of GET /v0/games ("Choosing a game"), the live counts included.
type GameInfo struct {
	ID           string `json:"id"`
	Name         string `json:"name"`
	Summary      string `json:"summary"`
	MinPlayers   int    `json:"min_players"`
	MaxPlayers   int    `json:"max_players"`
	RulesVersion string `json:"rules_version"`
	RulesURL     string `json:"rules_url"`
	Waiting      int    `json:"waiting"`
	Playing      int    `json:"playing"`
	Tables       int    `json:"tables"` // running tables
	// Stakes are the paid tables' stakes in sats the game offers, WaitingPaid the agents waiting
	// per stake (keyed by the stake in decimal). No paid tables yet: the door writes [] and {}.
	Stakes      []int64        `json:"stakes"`
	WaitingPaid map[string]int `json:"waiting_paid"`
}

// Backend is what the doors serve: Break Room's product (actors/breakroom's *Room, adapted in
// cmd/arena). A connection is named by the string Join returns. Every refusal is a *games.Error
// (or *door.Refusal) with the protocol's code, written as is: a refusal changes nothing and, for
// a move, never consumes the turn; a connection that is unknown or was replaced is
// unauthorized. The product keeps the rules the doors rely on: one connection per key and game
// (a newer join replaces the older: reconnects), a socket's messages in its mailbox until
// written, polls that consume nothing, the away deadline of a dropped socket and of an HTTP
// agent silent for 90 s.
type Backend interface {
	// Games lists the open games with their live counts, in a stable order.
	Games(ctx context.Context) ([]GameInfo, error)

	// Join takes a verified join: it queues the key, or re-seats it while it has a running
	// match of the game (then the mailbox holds seated, state, and your_turn when a move is
	// open). Refusals: already_queued, already_playing, unknown_game, payments_disabled, busy.
	Join(ctx context.Context, j Join) (Joined, error)

	// Next is a socket writer's drain: the mailbox's messages numbered above after, in order,
	// once there is one (those up to after are taken as written). It blocks until then, ctx ends
	// (ctx.Err()) or the connection is closed (ErrReplaced, ErrGone, ErrSlow, ErrClosed, which
	// the adapter maps onto this package's).
	Next(ctx context.Context, conn string, after uint64) ([]Item, error)

	// Drop says a socket is gone: a queued key leaves its queue; a seated one is away (its
	// turns get the short deadline) until it joins again. A replaced or unknown conn: nothing.
	Drop(conn string)

	// Move plays a move for the connection's seat: nil when the game took it; else
	// unknown_match, not_seated, match_over, not_your_turn, stale_turn, illegal_move,
	// bad_amount, bad_message.
	Move(ctx context.Context, conn string, m *wire.Move) error

	// State is the seat's state message for match; with wait > 0 it long-polls while the status
	// is waiting. Ended carries match_end. unknown_match, not_seated.
	State(ctx context.Context, conn, match string, wait time.Duration) (wire.State, error)

	// JoinStatus is an HTTP join poll: seated once the key has a seat, left once out of the
	// queue, else queued with its position, long-polled up to wait while queued.
	JoinStatus(ctx context.Context, conn string, wait time.Duration) (wire.Outbound, error)

	// Leave takes the connection's key out of its queue: left with reason "left";
	// already_playing once seated.
	Leave(ctx context.Context, conn string) (wire.Left, error)

	// Feedback keeps the player's note on its finished match: match_running before match_end,
	// feedback_closed 24 h after it, unknown_match, not_seated.
	Feedback(ctx context.Context, conn string, f *wire.Feedback) (wire.FeedbackReceived, error)

	// Log is match's public log ("Match log (JSONL)"), one JSON line each, in order: the public
	// lines so far and, once the match has ended, the private lines marked reveal "end";
	// unknown_match for a match that is not one of the product's.
	Log(ctx context.Context, match string) ([][]byte, error)

	// Reputation is key's record from its completed ranked matches ("Identity"; J32): zero for
	// a key with none.
	Reputation(key string) (wire.Reputation, error)
}
