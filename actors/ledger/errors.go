package ledger

import (
	"errors"
	"fmt"
)

// Sentinel errors. A refused Post answers one of them (wrapped with what was refused); nothing of
// the Post is written.
var (
	// ErrBadRow: a row is malformed (unknown kind, empty id or unit, amount not positive or beyond
	// MaxAmount, a unit that differs from its hold's or pot's).
	ErrBadRow = errors.New("ledger: malformed row")
	// ErrExists: a hold or pot is opened under an id already taken.
	ErrExists = errors.New("ledger: hold or pot exists")
	// ErrUnknown: a row names a hold or pot never opened.
	ErrUnknown = errors.New("ledger: no such hold or pot")
	// ErrInsufficient: a stake, refund or release exceeds what its hold or pot has.
	ErrInsufficient = errors.New("ledger: insufficient balance")
	// ErrSettled: a stake, release or settle names a pot already settled.
	ErrSettled = errors.New("ledger: pot settled")
	// ErrUnbalanced: a settle's payouts and house take do not sum to the whole pot.
	ErrUnbalanced = errors.New("ledger: settlement does not balance the pot")
	// ErrDuplicate: a receive or refund carries a reference already recorded in its unit (the same
	// deposit counted twice).
	ErrDuplicate = errors.New("ledger: reference already recorded")
	// ErrCapped: the Post would take its unit's escrow beyond its Cap (Post.Cap).
	ErrCapped = errors.New("ledger: escrow cap reached")
	// ErrUnavailable: the store could not be written or read; the Post may be retried (with its
	// key, it is never applied twice).
	ErrUnavailable = errors.New("ledger: unavailable")
	// ErrCorrupt: the stored rows do not replay (Replay); the ledger refuses every Post until an
	// operator repairs the file.
	ErrCorrupt = errors.New("ledger: rows do not replay")
)

// codes names each sentinel in replies (messages cross actors, and one day machines, as data).
var codes = map[string]error{
	"bad_row": ErrBadRow, "exists": ErrExists, "unknown": ErrUnknown, "insufficient": ErrInsufficient,
	"settled": ErrSettled, "unbalanced": ErrUnbalanced, "duplicate": ErrDuplicate,
	"capped":      ErrCapped,
	"unavailable": ErrUnavailable, "corrupt": ErrCorrupt,
}

// codeOf is the reply code of err (which wraps one of the sentinels; anything else is
// "unavailable").
func codeOf(err error) string {
	for c, e := range codes {
		if errors.Is(err, e) {
			return c
		}
	}
	return "unavailable"
}

// replyError is the error a reply's code and message stand for (nil for an empty code).
func replyError(code, msg string) error {
	if code == "" {
		return nil
	}
	e, ok := codes[code]
	if !ok {
		e = ErrUnavailable
	}
	return fmt.Errorf("%w: %s", e, msg)
}
