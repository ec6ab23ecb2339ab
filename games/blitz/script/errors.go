package script

import "fmt"

// Error is a malformed script (round-script.md "Input"): Path names the field at fault, in the
// form moves[3].answer.commitments[0].payee, and Msg says what is wrong with it. `arena sim`
// exits 2 on an *Error. Path is empty only when the document as a whole is unreadable.
type Error struct {
	Path string
	Msg  string
}

func (e *Error) Error() string {
	if e.Path == "" {
		return "script: " + e.Msg
	}
	return "script: " + e.Path + ": " + e.Msg
}

func pathErr(path, msg string) *Error { return &Error{Path: path, Msg: msg} }

func pathErrf(path, format string, args ...any) *Error {
	return &Error{Path: path, Msg: fmt.Sprintf(format, args...)}
}

// ConservationError says a finished round did not conserve money: the payouts and the house
// take do not add up to the entries (round-script.md "Output"). `arena sim` exits 1 on it. It
// is a bug in the rules, never in the script.
type ConservationError struct {
	Entries int64 // Σ entry, microCCD
	Payouts int64 // Σ payouts, microCCD
	House   int64 // microCCD
}

func (e *ConservationError) Error() string {
	return fmt.Sprintf("script: money not conserved: payouts %d + house %d = %d, entries %d (off by %d microCCD)",
		e.Payouts, e.House, e.Payouts+e.House, e.Entries, e.Payouts+e.House-e.Entries)
}
