package ledger

// Post asks the ledger to apply Rows, all or nothing, in order. With a Key, a Post already
// committed under that key is answered again and nothing is written (a caller may resend
// after a timeout or a restart). Answered with *PostReply once the rows are durable.
type Post struct {
	Key  string // "" for none; at most 256 bytes
	Rows []Row  // Seq, At, Key and Unit (of a hold's or pot's row) are set by the ledger
	// Cap, if set, refuses the Post (ErrCapped, nothing written) when after its rows the unit's
	// money in escrow (Totals.Held + Totals.Staked, counting every Post accepted before it) plus
	// Cap.Reserved would exceed Cap.Max. It is checked in the same turn that applies the rows,
	// so concurrent Posts under one Cap never exceed it together.
	Cap *Cap
}

// Cap bounds a unit's escrow for one Post (Post.Cap). Max and Reserved are in the unit.
type Cap struct {
	Unit     string
	Max      int64
	Reserved int64 // counted on top of the ledger's own escrow: what the caller has promised
}

// PostReply answers a Post: the rows written are First..Last; Dup says the key had been
// committed before (First..Last are that Post's). Code is "" or the refusal (errors.go), Msg
// what was refused; Post (the method) turns them into an error wrapping the sentinel.
type PostReply struct {
	First, Last uint64
	Dup         bool
	Code, Msg   string
}

// GetState asks for a copy of the state as committed (after every Post the ledger accepted
// before it is durable). Answered with *StateReply.
type GetState struct{}

// StateReply answers GetState. Code is "" or "unavailable"/"corrupt" (the rows cannot be read).
type StateReply struct {
	State     *State
	Code, Msg string
}

// GetHold and GetPot ask for one hold or pot as committed. Answered with *LookupReply.
type (
	GetHold struct{ ID string }
	GetPot  struct{ ID string }
)

// LookupReply answers GetHold (Hold) or GetPot (Pot); OK is false when the id was never opened.
type LookupReply struct {
	Hold      Hold
	Pot       Pot
	OK        bool
	Code, Msg string
}

// flightDone comes back from a write's goroutine.
type flightDone struct {
	inc uint64
	err error
}
