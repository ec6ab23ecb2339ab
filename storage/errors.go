package storage

import "errors"

// Sentinel errors. Every error this package returns wraps one of them or a bbolt error, with
// what was being done and to which key.
var (
	// ErrNotFound is returned by LoadTable and Get when the key holds nothing.
	ErrNotFound = errors.New("storage: not found")
	// ErrSchema is returned by Open for a file written by a newer schema than this build knows.
	ErrSchema = errors.New("storage: unknown schema version")
	// ErrExists is returned by CreateTable when the table id is taken.
	ErrExists = errors.New("storage: already exists")
	// ErrBadKey is returned for an empty key or a table id / round containing '/'.
	ErrBadKey = errors.New("storage: bad key")
)
