package ccd

import "errors"

// Sentinel errors. Callers branch with errors.Is; wrapped text carries the offending value.
var (
	ErrAddress   = errors.New("ccd: bad account address")
	ErrKeyFile   = errors.New("ccd: bad account key file")
	ErrDataSize  = errors.New("ccd: register data longer than 256 bytes")
	ErrBlockItem = errors.New("ccd: malformed block item")
	// ErrHashMismatch: the node answered SendBlockItem with a transaction hash other than the
	// one computed locally (the bytes sent are not the bytes the node hashed).
	ErrHashMismatch = errors.New("ccd: node returned a different transaction hash")
)
