package actors

import "errors"

// Sentinel errors of the façade (arena.go). Doors map them to HTTP: ErrNoTable and ErrNoRound
// to 404, ErrTableDown to 503, ErrTimeout to 504, ErrBadSpec to 400, ErrClosed to 503.
var (
	// ErrNoTable: no table with that id was ever opened.
	ErrNoTable = errors.New("actors: no such table")
	// ErrNoRound: no round with that id was ever played here.
	ErrNoRound = errors.New("actors: no such round")
	// ErrTableDown: the table exists in storage but its actor is not running (failed, stopped,
	// or between an ops stop and restart). Wraps actor.ErrDeadLetter when that was the cause.
	ErrTableDown = errors.New("actors: table not running")
	// ErrTimeout: the actor did not answer within the caller's deadline.
	ErrTimeout = errors.New("actors: table did not answer in time")
	// ErrBadSpec: OpenTable was given a spec the game refuses (unknown game, bad seats...).
	ErrBadSpec = errors.New("actors: bad table spec")
	// ErrTableExists: OpenTable with an id already in use.
	ErrTableExists = errors.New("actors: table id in use")
	// ErrDamaged: a table's stored record cannot be decoded. Boot recovery parks such a table as
	// failed; an ops stop or restart of it is refused (ErrBadSpec beside it), and a walk-in seated
	// there is released.
	ErrDamaged = errors.New("actors: table record cannot be decoded")
	// ErrClosed: the arena is shut down.
	ErrClosed = errors.New("actors: arena shut down")
)
