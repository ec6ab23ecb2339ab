package devchain

import "errors"

// Refusals of a block item at submission. The gRPC layer answers ErrDuplicate with
// ALREADY_EXISTS and every other one with INVALID_ARGUMENT, as a real node does.
var (
	ErrMalformed      = errors.New("devchain: malformed block item")
	ErrNotAccountTx   = errors.New("devchain: only account transactions are accepted")
	ErrDuplicate      = errors.New("devchain: duplicate transaction")
	ErrUnknownSender  = errors.New("devchain: the sender account does not exist")
	ErrBadSignature   = errors.New("devchain: invalid transaction signature")
	ErrNonceTooSmall  = errors.New("devchain: sequence number already used")
	ErrNonceTooLarge  = errors.New("devchain: sequence number is not the account's next")
	ErrExpired        = errors.New("devchain: transaction expired")
	ErrEnergyTooLow   = errors.New("devchain: energy below the transaction's base cost")
	ErrInsufficientFn = errors.New("devchain: the sender cannot pay for the energy")
)

// Errors of the Go API.
var (
	ErrNotFound = errors.New("devchain: not found")
	ErrStopped  = errors.New("devchain: node stopped")
	ErrOptions  = errors.New("devchain: invalid options")
)
