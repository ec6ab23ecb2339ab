// Package devwallet is the development Lightning wallet `arena serve` uses when no node is
// configured: it issues real BOLT 11 invoices, signed by its own node key, on a test network
// (regtest "lnbcrt" by default, or simnet "lnsb"), and they are paid through its own route (Handler:
// POST /dev/lightning/pay) instead of over a Lightning network. So a newcomer can try a paid table
// with no node; every sat it handles is a test sat.
//
// It is a lightning.Wallet with the hold-invoice calls of chain/lightning/lnd (AddHoldInvoice,
// SettleInvoice, CancelInvoice), so the paid tables treat it as they treat LND. Its invoices live
// in memory only: after a restart it knows none of them (LookupInvoice is lightning.ErrNotFound),
// which the paid tables treat as a hold the wallet no longer has. It refuses to be made for
// mainnet (New): the development wallet never takes real money.
//
// Pay "pays" an invoice of its network without sending anything anywhere, after the same checks a
// real wallet makes (decodes, network, not expired, exactly the amount); an invoice it issued
// itself is paid as the dev route pays it. Each Payment is remembered by payment hash (a second
// Pay of one is lightning.ErrAlreadyPaid).
package devwallet

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/btcsuite/btcd/btcec/v2"

	"arena/chain/lightning"
	"arena/chain/lightning/bolt11"
)

// PayPath is the dev route's path (Handler): POST {"bolt11": "lnbcrt..."} pays an invoice the
// wallet issued, answering {"payment_hash": hex, "state": "SETTLED"|"ACCEPTED"}; a hold invoice is
// Accepted (the stake in escrow), any other Settled.
const PayPath = "/dev/lightning/pay"

// DefaultExpiry is an invoice's expiry when InvoiceRequest.Expiry is zero (lnd's default).
const DefaultExpiry = 24 * time.Hour

// ErrMainnet is New's refusal of the bitcoin mainnet.
var ErrMainnet = errors.New("devwallet: the development wallet never runs on mainnet")

// Options configure a Wallet. The zero value works.
type Options struct {
	// Currency is the network its invoices name: bolt11.Regtest ("" too) or bolt11.Simnet (also
	// Testnet or Signet); bolt11.Bitcoin is ErrMainnet.
	Currency bolt11.Currency
	// Now is its clock (nil: time.Now): invoice timestamps and expiry.
	Now func() time.Time
}

// Wallet is the development wallet. It is safe for concurrent use.
type Wallet struct {
	key      *btcec.PrivateKey
	currency bolt11.Currency
	now      func() time.Time

	mu       sync.Mutex
	invoices map[[32]byte]*invoice
	payments map[[32]byte]lightning.Payment
}

type invoice struct {
	lightning.Invoice
	hold     bool
	preimage [32]byte // zero on a hold invoice until settled
}

var _ lightning.Wallet = (*Wallet)(nil)

// New makes a Wallet with a fresh node key.
func New(o Options) (*Wallet, error) {
	cur := o.Currency
	switch cur {
	case "":
		cur = bolt11.Regtest
	case bolt11.Bitcoin:
		return nil, ErrMainnet
	case bolt11.Regtest, bolt11.Simnet, bolt11.Testnet, bolt11.Signet:
	default:
		return nil, fmt.Errorf("devwallet: unknown currency %q", cur)
	}
	key, err := btcec.NewPrivateKey()
	if err != nil {
		return nil, fmt.Errorf("devwallet: node key: %w", err)
	}
	now := o.Now
	if now == nil {
		now = time.Now
	}
	return &Wallet{key: key, currency: cur, now: now, invoices: map[[32]byte]*invoice{}, payments: map[[32]byte]lightning.Payment{}}, nil
}

// Currency is the network the wallet's invoices name.
func (w *Wallet) Currency() bolt11.Currency { return w.currency }

// NodeKey is the public key that signs the wallet's invoices (their payee).
func (w *Wallet) NodeKey() *btcec.PublicKey { return w.key.PubKey() }

// AddInvoice issues an ordinary invoice: the dev route settles it.
func (w *Wallet) AddInvoice(_ context.Context, req lightning.InvoiceRequest) (lightning.Invoice, error) {
	var pre [32]byte
	if _, err := rand.Read(pre[:]); err != nil {
		return lightning.Invoice{}, fmt.Errorf("%w: devwallet: preimage: %v", lightning.ErrWallet, err)
	}
	return w.issue(sha256.Sum256(pre[:]), pre, false, req)
}

// AddHoldInvoice issues a hold invoice on hash: the dev route makes it Accepted; SettleInvoice
// with the preimage settles it, CancelInvoice cancels it (the held payment "returns").
func (w *Wallet) AddHoldInvoice(_ context.Context, hash [32]byte, req lightning.InvoiceRequest) (lightning.Invoice, error) {
	return w.issue(hash, [32]byte{}, true, req)
}

func (w *Wallet) issue(hash, pre [32]byte, hold bool, req lightning.InvoiceRequest) (lightning.Invoice, error) {
	if req.Msat == 0 || req.Expiry < 0 {
		return lightning.Invoice{}, fmt.Errorf("%w: devwallet: amount %d msat, expiry %s", lightning.ErrBadInvoice, req.Msat, req.Expiry)
	}
	amount, ok := bolt11.AmountMsat(req.Msat)
	if !ok {
		return lightning.Invoice{}, fmt.Errorf("%w: devwallet: amount %d msat not representable", lightning.ErrBadInvoice, req.Msat)
	}
	expiry := req.Expiry.Truncate(time.Second)
	if expiry == 0 {
		expiry = DefaultExpiry
	}
	var secret [32]byte
	if _, err := rand.Read(secret[:]); err != nil {
		return lightning.Invoice{}, fmt.Errorf("%w: devwallet: payment secret: %v", lightning.ErrWallet, err)
	}
	now := w.now()
	signed, err := bolt11.Sign(bolt11.Unsigned{Currency: w.currency, Amount: amount, Timestamp: uint64(now.Unix()), Fields: []bolt11.Field{
		bolt11.PaymentHashField(hash),
		bolt11.DescriptionField(req.Memo),
		bolt11.ExpiryField(uint64(expiry / time.Second)),
		bolt11.MinFinalCLTVExpiryDeltaField(80),
		bolt11.PaymentSecretField(secret),
		bolt11.FeaturesField(8, 14, 17),
	}}, w.key)
	if err != nil {
		return lightning.Invoice{}, fmt.Errorf("%w: devwallet: sign: %v", lightning.ErrWallet, err)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, dup := w.invoices[hash]; dup {
		return lightning.Invoice{}, fmt.Errorf("%w: devwallet: an invoice on hash %x exists", lightning.ErrWallet, hash)
	}
	inv := &invoice{Invoice: lightning.Invoice{PaymentHash: hash, Bolt11: signed.Encode(), Msat: req.Msat,
		State: lightning.InvoiceOpen, CreatedAt: time.Unix(now.Unix(), 0), Expiry: expiry}, hold: hold, preimage: pre}
	w.invoices[hash] = inv
	return inv.Invoice, nil
}

// LookupInvoice is the invoice on hash as it stands; an Open one past its expiry is Canceled.
func (w *Wallet) LookupInvoice(_ context.Context, hash [32]byte) (lightning.Invoice, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	inv, ok := w.invoices[hash]
	if !ok {
		return lightning.Invoice{}, fmt.Errorf("%w: devwallet: %x", lightning.ErrNotFound, hash)
	}
	w.expireLocked(inv)
	return inv.Invoice, nil
}

func (w *Wallet) expireLocked(inv *invoice) {
	if inv.State == lightning.InvoiceOpen && !w.now().Before(inv.CreatedAt.Add(inv.Expiry)) {
		inv.State = lightning.InvoiceCanceled
	}
}

// SettleInvoice settles the Accepted hold invoice whose hash is sha256(preimage). Unknown is
// lightning.ErrNotFound; one not Accepted is lightning.ErrWallet.
func (w *Wallet) SettleInvoice(_ context.Context, preimage [32]byte) error {
	hash := sha256.Sum256(preimage[:])
	w.mu.Lock()
	defer w.mu.Unlock()
	inv, ok := w.invoices[hash]
	switch {
	case !ok:
		return fmt.Errorf("%w: devwallet settle %x", lightning.ErrNotFound, hash)
	case inv.State != lightning.InvoiceAccepted:
		return fmt.Errorf("%w: devwallet settle %x: invoice is %s", lightning.ErrWallet, hash, inv.State)
	}
	inv.State, inv.preimage = lightning.InvoiceSettled, preimage
	inv.PaidMsat, inv.SettledAt = inv.Msat, w.now()
	return nil
}

// CancelInvoice cancels an Open or Accepted invoice. Unknown is lightning.ErrNotFound; a Settled
// one is lightning.ErrWallet; a Canceled one is cancelled again (nil).
func (w *Wallet) CancelInvoice(_ context.Context, hash [32]byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	inv, ok := w.invoices[hash]
	switch {
	case !ok:
		return fmt.Errorf("%w: devwallet cancel %x", lightning.ErrNotFound, hash)
	case inv.State == lightning.InvoiceSettled:
		return fmt.Errorf("%w: devwallet cancel %x: invoice is settled", lightning.ErrWallet, hash)
	}
	inv.State = lightning.InvoiceCanceled
	return nil
}

// ErrCanceled is PayInvoice's refusal of an invoice its issuer canceled before it expired (a
// refunded stake); it wraps lightning.ErrWallet.
var ErrCanceled = fmt.Errorf("%w: canceled", lightning.ErrWallet)

// PayInvoice is the dev route's payment of an invoice the wallet issued: it decodes s, checks it is
// one of the wallet's, Open and not expired, and makes it Accepted (hold) or Settled. Errors wrap
// lightning.ErrBadInvoice (malformed, another network, not ours), lightning.ErrNotFound,
// lightning.ErrAlreadyPaid (not Open), ErrCanceled (canceled before its expiry) or lightning.ErrWallet
// (expired: its state is Canceled).
func (w *Wallet) PayInvoice(s string) (lightning.Invoice, error) {
	d, err := bolt11.Decode(s)
	if err != nil {
		return lightning.Invoice{}, fmt.Errorf("%w: %v", lightning.ErrBadInvoice, err)
	}
	if d.Currency != w.currency || d.Payee == nil || !d.Payee.IsEqual(w.key.PubKey()) {
		return lightning.Invoice{}, fmt.Errorf("%w: devwallet: not an invoice of this wallet (%s)", lightning.ErrBadInvoice, d.Currency)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	inv, ok := w.invoices[d.PaymentHash]
	if !ok || inv.Bolt11 != s {
		return lightning.Invoice{}, fmt.Errorf("%w: devwallet: %x", lightning.ErrNotFound, d.PaymentHash)
	}
	w.expireLocked(inv)
	switch inv.State {
	case lightning.InvoiceOpen:
	case lightning.InvoiceCanceled:
		if !w.now().Before(d.ExpiresAt()) {
			return inv.Invoice, fmt.Errorf("%w: devwallet: invoice %x expired at %s", lightning.ErrWallet, d.PaymentHash, d.ExpiresAt().UTC().Format(time.RFC3339))
		}
		return inv.Invoice, fmt.Errorf("%w: devwallet: invoice %x was canceled by its issuer (a refunded stake): ask for a new one", ErrCanceled, d.PaymentHash)
	default:
		return inv.Invoice, fmt.Errorf("%w: devwallet: invoice %x is %s", lightning.ErrAlreadyPaid, d.PaymentHash, inv.State)
	}
	if inv.hold {
		inv.State = lightning.InvoiceAccepted
	} else {
		inv.State, inv.PaidMsat, inv.SettledAt = lightning.InvoiceSettled, inv.Msat, w.now()
	}
	return inv.Invoice, nil
}

// Pay checks req.Bolt11 as a real wallet does (decodes; this network; not expired; asks exactly
// req.Msat) and records it paid without sending anything (an invoice of its own is paid as
// PayInvoice pays it). A hash paid before is lightning.ErrAlreadyPaid.
func (w *Wallet) Pay(_ context.Context, req lightning.PayRequest) (lightning.Payment, error) {
	d, err := bolt11.Decode(req.Bolt11)
	switch {
	case err != nil:
		return lightning.Payment{}, fmt.Errorf("%w: %v", lightning.ErrBadInvoice, err)
	case d.Currency != w.currency:
		return lightning.Payment{}, fmt.Errorf("%w: devwallet pay: network %s, not %s", lightning.ErrBadInvoice, d.Currency, w.currency)
	case d.Expired(w.now()):
		return lightning.Payment{}, fmt.Errorf("%w: devwallet pay: invoice expired at %s", lightning.ErrBadInvoice, d.ExpiresAt().UTC().Format(time.RFC3339))
	case d.Msat != req.Msat:
		return lightning.Payment{}, fmt.Errorf("%w: devwallet pay: invoice asks %d msat, not %d", lightning.ErrBadInvoice, d.Msat, req.Msat)
	}
	w.mu.Lock()
	if _, dup := w.payments[d.PaymentHash]; dup {
		w.mu.Unlock()
		return lightning.Payment{}, fmt.Errorf("%w: devwallet pay %x", lightning.ErrAlreadyPaid, d.PaymentHash)
	}
	p := lightning.Payment{PaymentHash: d.PaymentHash, Status: lightning.PaymentSucceeded, Msat: req.Msat}
	w.payments[d.PaymentHash] = p
	w.mu.Unlock()
	if d.Payee != nil && d.Payee.IsEqual(w.key.PubKey()) {
		if _, err := w.PayInvoice(req.Bolt11); err != nil {
			return lightning.Payment{}, err
		}
	}
	return p, nil
}

// Payments is every payment Pay made, by payment hash.
func (w *Wallet) Payments() map[[32]byte]lightning.Payment {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make(map[[32]byte]lightning.Payment, len(w.payments))
	for k, v := range w.payments {
		out[k] = v
	}
	return out
}

// Handler is the dev route (PayPath). It answers 200 with {"payment_hash", "state"}, or 400 with
// {"error": code, "message"}: bad_request (no JSON body with bolt11), bad_invoice, unknown_payment,
// already_paid, payment_expired, payment_canceled (the issuer canceled it before its expiry: a
// refunded stake).
func (w *Wallet) Handler() http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			rw.Header().Set("Allow", http.MethodPost)
			devError(rw, http.StatusMethodNotAllowed, "bad_request", "POST {\"bolt11\": \"...\"}")
			return
		}
		var body struct {
			Bolt11 string `json:"bolt11"`
		}
		if err := json.NewDecoder(http.MaxBytesReader(rw, r.Body, 8<<10)).Decode(&body); err != nil || body.Bolt11 == "" {
			devError(rw, http.StatusBadRequest, "bad_request", "want a JSON body {\"bolt11\": \"...\"}")
			return
		}
		inv, err := w.PayInvoice(body.Bolt11)
		if err != nil {
			code := "bad_invoice"
			switch {
			case errors.Is(err, lightning.ErrNotFound):
				code = "unknown_payment"
			case errors.Is(err, lightning.ErrAlreadyPaid):
				code = "already_paid"
			case errors.Is(err, ErrCanceled):
				code = "payment_canceled"
			case errors.Is(err, lightning.ErrWallet):
				code = "payment_expired"
			}
			devError(rw, http.StatusBadRequest, code, err.Error())
			return
		}
		rw.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(rw).Encode(map[string]string{"payment_hash": hex.EncodeToString(inv.PaymentHash[:]), "state": string(inv.State),
			"note": "test sats: the development wallet paid its own invoice"})
	})
}

func devError(rw http.ResponseWriter, status int, code, msg string) {
	rw.Header().Set("Content-Type", "application/json")
	rw.WriteHeader(status)
	_ = json.NewEncoder(rw).Encode(map[string]string{"error": code, "message": msg})
}
