package actors

import (
	"time"

	"arena/games"
)

// Messages internal to a table's subtree. They stay Go structs: they never leave the table's
// machine (protoactor-go notes §7.2).

// phaseDue is the table's one-shot timer: the match's deadline At has come. Gen is the table's
// timer generation when it was armed; a stale one (phase closed early, table restarted) is
// dropped.
type phaseDue struct {
	Round string
	Gen   uint64
	At    time.Time
}

// deliverPrompts goes table → round actor → seat actors: prompts to deliver, in order.
type deliverPrompts struct {
	Prompts []games.Prompt
}

// Table supervisor commands (supervisor.go) and their reply.
type (
	spawnTable   struct{ ID string }
	restartTable struct{ ID string }
	stopTable    struct{ ID string }
	// abandonTable goes supervisor → table on an ops stop of a table whose product abandons
	// on stop (Product.AbandonOnStop): the table answers *opReply once the abandon is durable.
	abandonTable struct{ Reason string }
	opReply      struct{ Err error }
	// CrashTable is a test hook: the table panics on it (key "crash:<Tag>").
	CrashTable struct{ Tag string }
	// tableState asks a live table for its in-memory view (tests): the reply is *tableStateReply.
	tableState      struct{}
	tableStateReply struct {
		Gen     uint64
		Turn    int
		Phase   string
		Prompts int
	}
)
