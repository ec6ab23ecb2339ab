// Package actors runs games on a protoactor-go supervision tree: the arena root, one table actor
// per table (the unit of failure and of snapshot), round and seat actors under it, and the chain
// actor's client side. Actors own time (one-shot timers carrying a generation) and persistence
// (write before you speak); the rules live in games/. A protocol's product (the DOTDOTDOT walk-in
// desk, its walk-ins and mailboxes: actors/dotdotdot) opens tables on this tree and reads what
// its seats deliver.
package actors

import (
	"encoding/json"
	"time"

	"arena/games"
)

// Messages between actors are plain data (no pointers into another actor's state) so they can be
// moved to protobuf when tables are spread across a cluster.

// SeatSpec is one seat of a table being opened. Channel says how the seat is reached.
type SeatSpec struct {
	Seat    games.Seat
	Channel string // "mailbox" (walk-in long poll), "house" (scripted policy), "a2a" (agent endpoint)
	// Mailbox is the actor id (PID Id) of the mailbox actor for Channel "mailbox".
	Mailbox string
	// Endpoint is the agent's A2A URL for Channel "a2a".
	Endpoint string
}

// TableSpec is everything needed to open a table and play one round on it.
type TableSpec struct {
	ID      string // table id; also names the actor "arena/tables/table-<ID>"
	Game    string // games.Manifest ID
	Format  string
	Kind    string // "practice", "walkin", "hosted", "open", ...
	Seats   []SeatSpec
	Pace    games.Pace
	Options json.RawMessage
	// Seed, when 32 bytes, is the round's seed instead of a fresh random one: replays, `arena
	// sim`, and tests that compare a crashed run with a clean one. Empty draws a seed.
	Seed []byte
}

// DeliverPrompt is sent by a seat actor to the mailbox actor of a walk-in seat: the move, its
// signed envelope (byte for byte what an A2A agent would have been sent, §4.4) and the prompt.
type DeliverPrompt struct {
	Table    string
	Round    string
	Seat     int
	Envelope []byte
	Prompt   games.Prompt
}

// SubmitAnswer is a seat's input for a table (a walk-in answer, a lever). The table replies with
// *SubmitAnswerReply.
type SubmitAnswer struct {
	Table string
	Round string
	Input games.Input
	At    time.Time // arrival instant, as the door saw it
}

// SubmitAnswerReply carries the game's reply (e.g. {"dropped":[...]}) or a refusal code.
type SubmitAnswerReply struct {
	Reply json.RawMessage
	Code  string // "" on success; else the protocol's code (games.Error.Code)
	Msg   string
	Retry bool
}

// RoundEnded tells a seat's mailbox (and the walk-in behind it) that the round is over.
type RoundEnded struct {
	Table  string
	Round  string
	Seat   int
	Result games.Result
}

// TableStopped tells a seat's mailbox that its table is no longer running: stopped by an
// operator (Status "stopped") or parked after a repeated panic (Status "failed"). Its open moves
// cannot be answered; an ops restart brings the table back, and it then redelivers them.
type TableStopped struct {
	Table  string
	Round  string
	Seat   int
	Status string
}
