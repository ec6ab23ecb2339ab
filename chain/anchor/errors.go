package anchor

import "errors"

// Errors of Decode, Encode and the seq rules. Callers branch with errors.Is; the wrapped text
// carries the offending value.
var (
	ErrSize    = errors.New("anchor: not 50 bytes")
	ErrMagic   = errors.New("anchor: magic is not \"DDDA\"")
	ErrVersion = errors.New("anchor: unknown version")
	ErrKind    = errors.New("anchor: unknown kind")
	ErrSeq     = errors.New("anchor: bad seq")
	ErrRound   = errors.New("anchor: bad round id")
)
