package storage

import "errors"

// Sentinel errors. Every error this package returns wraps one of them or a bbolt error, with
// what was being done and to which key.
var (
	// ErrNotFound is returned by the reads of one key (LoadTable, Records.Get, Command) when the
	// key holds nothing.
	ErrNotFound = errors.New("storage: not found")
	// ErrSchema is returned by Open for a file written by a newer schema than this build knows.
	ErrSchema = errors.New("storage: unknown schema version")
	// ErrExists is returned by CreateTable when the table id is taken, and by CommitStep and
	// CommitInputs for an event whose (round, seq) is stored with other bytes.
	ErrExists = errors.New("storage: already exists")
	// ErrReadOnly is returned by every write to a store opened with Options.ReadOnly.
	ErrReadOnly = errors.New("storage: read-only")
	// ErrCorrupt is returned by Check for a file that does not fit the layout or whose pages
	// bbolt cannot read, and by a read-only Open whose meta bucket cannot be read.
	ErrCorrupt = errors.New("storage: corrupt")
	// ErrBadKey is returned for an empty key or a table id / round containing '/'.
	ErrBadKey = errors.New("storage: bad key")
	// ErrInvalid is returned by AppendWardenMatch for rows that break the Ledger's rules
	// (CheckWardenMatch), and by CheckWardenMatch itself.
	ErrInvalid = errors.New("storage: invalid record")
	// ErrFull is returned by AddFeedback when the feedback bucket holds MaxFeedbackNotes notes.
	ErrFull = errors.New("storage: full")
)
