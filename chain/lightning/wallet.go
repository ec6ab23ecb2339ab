// Package lightning is what the server asks of a Lightning wallet: issue an invoice, look it up,
// pay one. Wallet is the contract; chain/lightning/lnd implements it over an LND node's REST API,
// and a development wallet can implement it with no node. The invoices themselves are read and
// written by chain/lightning/bolt11.
//
// # Errors
//
// Every error a Wallet returns wraps one of ErrNotFound, ErrAlreadyPaid, ErrBadInvoice or
// ErrWallet, so a caller maps it to the protocol's code with errors.Is (Break Room:
// unknown_payment, a replayed payout, bad_payout_address, wallet_error).
package lightning

import (
	"context"
	"errors"
	"time"
)

// Wallet is a Lightning node the server holds funds on. Its methods are safe for concurrent use
// and do I/O; ctx bounds each call. None of them retries.
type Wallet interface {
	// AddInvoice issues an invoice for req.Msat. The Invoice returned is Open, and its Bolt11
	// has been decoded and checked against req (amount, hash) before it is returned.
	AddInvoice(ctx context.Context, req InvoiceRequest) (Invoice, error)
	// LookupInvoice is the invoice with this payment hash as it now stands (ErrNotFound if the
	// wallet never issued it).
	LookupInvoice(ctx context.Context, paymentHash [32]byte) (Invoice, error)
	// Pay pays req.Bolt11 and waits for the payment to succeed or fail. It decodes the invoice
	// first and refuses (ErrBadInvoice, nothing sent) one of another network, expired, or whose
	// amount is not req.Msat. A payment the node already made or is making for the same hash is
	// ErrAlreadyPaid. If ctx ends first the payment may still complete: the caller looks it up
	// by hash before trying again.
	Pay(ctx context.Context, req PayRequest) (Payment, error)
}

// InvoiceRequest is an invoice to issue.
type InvoiceRequest struct {
	Msat   uint64        // the amount, in millisatoshis; must be positive
	Memo   string        // the description (the d field)
	Expiry time.Duration // how long it can be paid; 0 is the node's default (lnd v0.18: 24 hours), else whole seconds
}

// InvoiceState is where an issued invoice stands.
type InvoiceState string

// The states of an issued invoice (LND's names).
const (
	InvoiceOpen     InvoiceState = "OPEN"     // not paid yet
	InvoiceAccepted InvoiceState = "ACCEPTED" // held HTLCs, not settled (hold invoices)
	InvoiceSettled  InvoiceState = "SETTLED"  // paid: the funds are the wallet's
	InvoiceCanceled InvoiceState = "CANCELED" // can no longer be paid (expired or cancelled)
)

// Invoice is an invoice the wallet issued.
type Invoice struct {
	PaymentHash [32]byte
	Bolt11      string // the payment request as the node wrote it
	Msat        uint64 // the amount asked
	State       InvoiceState
	PaidMsat    uint64    // what was received; 0 unless Settled
	CreatedAt   time.Time // the invoice's timestamp
	SettledAt   time.Time // zero unless Settled
	Expiry      time.Duration
}

// PayRequest is an invoice to pay.
type PayRequest struct {
	Bolt11     string
	Msat       uint64        // the amount the caller means to pay: the invoice must ask exactly this
	MaxFeeMsat uint64        // the most paid in routing fees
	Timeout    time.Duration // how long the node may try; 0 is 60 seconds
}

// PaymentStatus is where an outgoing payment stands.
type PaymentStatus string

// The final states Pay returns (LND's names).
const (
	PaymentSucceeded PaymentStatus = "SUCCEEDED"
	PaymentFailed    PaymentStatus = "FAILED"
)

// Payment is the outcome of a Pay.
type Payment struct {
	PaymentHash [32]byte
	Status      PaymentStatus
	Preimage    [32]byte // the proof of payment; zero unless Succeeded
	Msat        uint64   // the amount delivered
	FeeMsat     uint64   // the routing fees paid
	// FailureReason is the node's reason when Failed (LND: FAILURE_REASON_NO_ROUTE, ...).
	FailureReason string
}

// The ways a Wallet call fails. Each error wraps exactly one.
var (
	// ErrNotFound: the wallet has no invoice with that payment hash.
	ErrNotFound = errors.New("lightning: no such invoice")
	// ErrAlreadyPaid: the node has already paid, or is paying, an invoice with that hash.
	ErrAlreadyPaid = errors.New("lightning: invoice already paid or in flight")
	// ErrBadInvoice: an invoice to pay is malformed (see bolt11), of another network, expired, or
	// not for the amount asked; or the node issued one that does not match the request.
	ErrBadInvoice = errors.New("lightning: bad invoice")
	// ErrWallet: the node refused, could not be reached, or answered something unexpected.
	ErrWallet = errors.New("lightning: wallet error")
)
