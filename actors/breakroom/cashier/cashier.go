// Package cashier is Break Room's money on Lightning (breakroom-protocol-v0.md "Paid tables", the
// payment error codes, the money lines of "Match log"): a stake's hold invoice, its escrow, the
// pot a match plays for, its settlement by the game's payout rule (rules.go), refunds, and payouts
// to each winner's Lightning address.
//
// Every step is written through the durable money actor (actors/ledger, unit "sat") before the
// caller hears of it, and each is idempotent under its ledger key, so a caller that lost an
// answer, or a server after kill -9, asks again and nothing happens twice:
//
//	Invoice  hold "ln:<hash>" opened (memo: key, game, stake, preimage, expiry), then the hold
//	         invoice issued: payment_required
//	Paid     the invoice is Accepted (the payer's HTLC held: escrow): receive stake into the hold,
//	         memo gets the payout address: queued
//	Refund   the hold invoice cancelled (the held HTLC goes back to the payer), then a refund row
//	Lock     a table formed: pot "match:<id>" opened with each seat's stake, then each invoice
//	         settled (the sats are the house's to pay out): seated
//	Settle   match_end: the pot settled (payouts to the winners' keys, the rake to the house) with
//	         every payout pending in the pot's memo: match_end.settlement
//	Payouts  each pending payout paid to its Lightning address (LUD-16 → LUD-06, the invoice
//	         checked here, bounded retries with back-off), the memo recording sending, paid or
//	         failed; failed is final (the sats stay credited to the agent; Retry is the operator's)
//
// Resume reconciles after a restart: a hold whose invoice was paid but not yet received is
// received, any hold with a balance that is in no pot is refunded (queues are memory: the agent
// joins again), a staked hold's invoice still Accepted is settled, and unfinished payouts resume.
package cashier

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"arena/actors/ledger"
	"arena/chain/lightning"
	"arena/chain/lightning/bolt11"
	"arena/chain/lightning/lnurl"
	"arena/games"
)

// Figures of the paid tables ("Paid tables", "/payments").
const (
	// Unit is the ledger unit of every paid-table row.
	Unit = "sat"
	// HouseAccount is the ledger account the rake settles to (the house's part of each pot).
	HouseAccount = "house"
	// DefaultRakeBps is the house's rake in basis points (2000: 20 %).
	DefaultRakeBps = 2000
	// DefaultExpiry is how long a stake's invoice can be paid (payment_required.expires_in_s).
	DefaultExpiry = 2 * time.Minute
	// DefaultMaxEscrow is the most sats held in escrow at once (held and staked, unsettled) before
	// a new paid join is escrow_full.
	DefaultMaxEscrow = 1_000_000
	// DefaultAttempts and DefaultBackoff bound a payout's tries: the first at once, then after
	// DefaultBackoff, doubling each time; after the last, payout_failed.
	DefaultAttempts = 5
	DefaultBackoff  = 2 * time.Second
)

// DefaultStakes are the paid tiers (GET /v0/games payments.stakes), in sats.
var DefaultStakes = []int64{10, 100, 1000, 10000}

// The protocol's paid-table codes (breakroom-protocol-v0.md "Error codes").
const (
	CodePaymentsDisabled = "payments_disabled"
	CodeBadStake         = "bad_stake"
	CodeEscrowFull       = "escrow_full"
	CodeUnknownPayment   = "unknown_payment"
	CodePaymentExpired   = "payment_expired"
	CodeNotPaid          = "not_paid"
	CodeBadPayoutAddress = "bad_payout_address"
	CodeWalletError      = "wallet_error"
)

// Wallet is the Lightning wallet the stakes are held and paid out on: *lnd.Client and
// *devwallet.Wallet.
type Wallet interface {
	AddHoldInvoice(ctx context.Context, hash [32]byte, req lightning.InvoiceRequest) (lightning.Invoice, error)
	LookupInvoice(ctx context.Context, hash [32]byte) (lightning.Invoice, error)
	SettleInvoice(ctx context.Context, preimage [32]byte) error
	CancelInvoice(ctx context.Context, hash [32]byte) error
	Pay(ctx context.Context, req lightning.PayRequest) (lightning.Payment, error)
}

// Resolver fetches a payout invoice for a Lightning address: *lnurl.Resolver (its errors wrap
// lnurl.ErrBadAddress or lnurl.ErrUnreachable).
type Resolver interface {
	Invoice(ctx context.Context, addr string, msat uint64) (string, *bolt11.Invoice, error)
}

// Options configure a Cashier. Ledger, Wallet, Resolver and Currency are required.
type Options struct {
	Ledger   *ledger.Ledger
	Wallet   Wallet
	Resolver Resolver
	// Currency is the wallet's network: every payout invoice must name it.
	Currency bolt11.Currency
	// RakeBps is the rake in basis points, 0..10000 (zero: DefaultRakeBps; negative: none).
	RakeBps int
	// Stakes are the accepted stakes in sats (nil: DefaultStakes).
	Stakes []int64
	// Expiry is a stake invoice's expiry (zero: DefaultExpiry), whole seconds.
	Expiry time.Duration
	// MaxEscrow caps the sats in escrow (zero: DefaultMaxEscrow).
	MaxEscrow int64
	// Attempts and Backoff bound each payout (zero: the defaults).
	Attempts int
	Backoff  time.Duration
	// Now is the clock (nil: time.Now); Sleep waits between payout tries (nil: a timer on ctx).
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
	// TestSats says the wallet's sats are test sats (the development wallet): the notes say so.
	TestSats bool
	Logger   *slog.Logger // nil: discard
}

// Cashier is Break Room's paid tables' money. Its methods are safe for concurrent use.
type Cashier struct {
	o   Options
	led *ledger.Ledger
	log *slog.Logger

	mu      sync.Mutex // serialises memo read-modify-writes and the escrow check
	running map[string]bool
	wg      sync.WaitGroup
}

// New checks o and makes a Cashier.
func New(o Options) (*Cashier, error) {
	if o.Ledger == nil || o.Wallet == nil || o.Resolver == nil || o.Currency == "" {
		return nil, errors.New("cashier: Ledger, Wallet, Resolver and Currency are required")
	}
	switch {
	case o.RakeBps == 0:
		o.RakeBps = DefaultRakeBps
	case o.RakeBps < 0:
		o.RakeBps = 0
	case o.RakeBps > 10000:
		return nil, fmt.Errorf("cashier: rake %d bps is over 10000", o.RakeBps)
	}
	if o.Stakes == nil {
		o.Stakes = DefaultStakes
	}
	for _, s := range o.Stakes {
		if s <= 0 || s > ledger.MaxAmount/1000 {
			return nil, fmt.Errorf("cashier: stake %d sats", s)
		}
	}
	if o.Expiry <= 0 {
		o.Expiry = DefaultExpiry
	}
	o.Expiry = o.Expiry.Truncate(time.Second)
	if o.MaxEscrow <= 0 {
		o.MaxEscrow = DefaultMaxEscrow
	}
	if o.Attempts <= 0 {
		o.Attempts = DefaultAttempts
	}
	if o.Backoff <= 0 {
		o.Backoff = DefaultBackoff
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Sleep == nil {
		o.Sleep = sleep
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Cashier{o: o, led: o.Ledger, log: log, running: map[string]bool{}}, nil
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// RakeBps is the rake in basis points.
func (c *Cashier) RakeBps() int { return c.o.RakeBps }

// Stakes are the accepted stakes, in sats.
func (c *Cashier) Stakes() []int64 { return slices.Clone(c.o.Stakes) }

// TestSats reports whether the wallet's sats are test sats.
func (c *Cashier) TestSats() bool { return c.o.TestSats }

// holdMemo is a stake's durable state, the memo of hold "ln:<hash>".
type holdMemo struct {
	Key      string    `json:"key"`
	Game     string    `json:"game"`
	Stake    int64     `json:"stake"`
	Preimage string    `json:"preimage"` // hex; the house's secret until it settles the invoice
	Bolt11   string    `json:"bolt11,omitempty"`
	Expires  time.Time `json:"expires"`
	Lnaddr   string    `json:"lnaddr,omitempty"` // set by Paid
	Match    string    `json:"match,omitempty"`  // set by Lock
	// Unissued: the wallet refused to make the hold's invoice (the join was wallet_error), so it
	// promises nothing and takes no room under the escrow cap.
	Unissued bool `json:"unissued,omitempty"`
}

// reserved is the sats promised by stake invoices still payable at now: holds of Unit never
// received nor refunded whose invoice was issued and has not expired.
func reserved(st *ledger.State, now time.Time) int64 {
	var n int64
	for _, h := range st.Holds {
		if h.Unit != Unit || h.Received > 0 || h.Refunded > 0 {
			continue
		}
		var m holdMemo
		if json.Unmarshal(h.Memo, &m) == nil && !m.Unissued && now.Before(m.Expires) {
			n += m.Stake
		}
	}
	return n
}

// HoldID is the ledger hold of a stake's payment hash (hex).
func HoldID(hash string) string { return "ln:" + hash }

// PotID is the ledger pot of a match.
func PotID(match string) string { return "match:" + match }

// Invoice is payment_required's money: the hold invoice of one stake.
type Invoice struct {
	Bolt11      string
	PaymentHash string // hex
	ExpiresIn   time.Duration
	RakeBps     int
}

// Invoice opens a stake of stake sats for key at game and issues its hold invoice. The hold is
// durable before the invoice exists, and written under the escrow cap in the ledger's own turn
// (ledger.Cap: held + staked + the stakes of invoices still payable + stake ≤ MaxEscrow), so
// concurrent joins never promise more than the cap together. Refusals (*games.Error): bad_stake
// (not a tier), escrow_full (nothing written; retry), wallet_error.
func (c *Cashier) Invoice(ctx context.Context, key, game string, stake int64) (Invoice, error) {
	if !slices.Contains(c.o.Stakes, stake) {
		return Invoice{}, games.Errorf(CodeBadStake, "stake_sats %d is not a paid tier; the tiers are %s", stake, joinInts(c.o.Stakes))
	}
	c.mu.Lock()
	st, err := c.led.State(ctx)
	if err != nil {
		c.mu.Unlock()
		return Invoice{}, walletError("the ledger", err)
	}
	var pre [32]byte
	if _, err := rand.Read(pre[:]); err != nil {
		c.mu.Unlock()
		return Invoice{}, walletError("a preimage", err)
	}
	hash := sha256.Sum256(pre[:])
	hx := hex.EncodeToString(hash[:])
	now := c.o.Now()
	memo := holdMemo{Key: key, Game: game, Stake: stake, Preimage: hex.EncodeToString(pre[:]), Expires: now.Add(c.o.Expiry).UTC()}
	// The new hold is written under the cap in the ledger's turn: the escrow (held and staked)
	// plus every invoice still payable plus this stake must fit MaxEscrow.
	capped := &ledger.Cap{Unit: Unit, Max: c.o.MaxEscrow, Reserved: reserved(st, now) + stake}
	_, err = c.led.Post(ctx, &ledger.Post{Rows: []ledger.Row{ledger.OpenHold(HoldID(hx), Unit, mustJSON(memo))}, Cap: capped})
	c.mu.Unlock()
	if errors.Is(err, ledger.ErrCapped) {
		return Invoice{}, &games.Error{Code: CodeEscrowFull, Msg: "the escrow holds as much as it may now; join again later", Retry: true}
	}
	if err != nil {
		return Invoice{}, walletError("the ledger", err)
	}
	memoText := fmt.Sprintf("Break Room %s stake, %d sats", game, stake)
	if c.o.TestSats {
		memoText += " (test sats)"
	}
	inv, err := c.o.Wallet.AddHoldInvoice(ctx, hash, lightning.InvoiceRequest{Msat: uint64(stake) * 1000, Memo: memoText, Expiry: c.o.Expiry})
	if err != nil {
		// Nothing was promised: the hold gives its room under the cap back. Should the node have
		// made the invoice regardless (a reply lost), it is cancelled: nobody was given it.
		_ = c.o.Wallet.CancelInvoice(ctx, hash)
		if nerr := c.note(ctx, HoldID(hx), func(m *holdMemo) { m.Unissued = true }); nerr != nil {
			c.log.Error("breakroom invoice: mark a refused invoice", "payment_hash", hx, "err", nerr)
		}
		return Invoice{}, walletError("the wallet", err)
	}
	memo.Bolt11 = inv.Bolt11
	if err := c.note(ctx, HoldID(hx), func(m *holdMemo) { m.Bolt11 = inv.Bolt11 }); err != nil {
		return Invoice{}, err
	}
	return Invoice{Bolt11: inv.Bolt11, PaymentHash: hx, ExpiresIn: c.o.Expiry, RakeBps: c.o.RakeBps}, nil
}

// Held is a stake in escrow (Paid's answer).
type Held struct {
	PaymentHash string
	Key, Game   string
	Stake       int64
	Lnaddr      string
	Match       string // set once a table took it
	Dup         bool   // Paid had already received it
}

// Paid takes a paid stake: the invoice on paymentHash (hex) must be key's and Accepted (the
// payment held); the stake is then received into its hold with lnaddr as its payout address,
// durably, under the key "paid:<hash>" (a replay answers the first outcome with Dup). Refusals
// (*games.Error): unknown_payment (no such invoice of key's), bad_payout_address (lnaddr is no
// Lightning address), not_paid (still open), payment_expired (expired or cancelled),
// wallet_error.
func (c *Cashier) Paid(ctx context.Context, key, paymentHash, lnaddr string) (Held, error) {
	hash, ok := parseHash(paymentHash)
	if !ok {
		return Held{}, games.Errorf(CodeUnknownPayment, "payment_hash must be 64 lowercase hex digits")
	}
	h, found, err := c.led.Hold(ctx, HoldID(paymentHash))
	if err != nil {
		return Held{}, walletError("the ledger", err)
	}
	var m holdMemo
	if !found || json.Unmarshal(h.Memo, &m) != nil || m.Key != key {
		return Held{}, games.Errorf(CodeUnknownPayment, "no stake invoice %s for this key", paymentHash)
	}
	held := Held{PaymentHash: paymentHash, Key: key, Game: m.Game, Stake: m.Stake, Lnaddr: m.Lnaddr, Match: m.Match}
	if h.Received > 0 {
		if h.Refunded > 0 {
			return Held{}, games.Errorf(CodePaymentExpired, "this stake was refunded; join again for a new invoice")
		}
		held.Dup = true
		return held, nil
	}
	if _, err := lnurl.ParseAddress(lnaddr); err != nil {
		return Held{}, games.Errorf(CodeBadPayoutAddress, "payout_lnaddr %q is not a Lightning address (user@domain)", lnaddr)
	}
	inv, err := c.o.Wallet.LookupInvoice(ctx, hash)
	switch {
	case errors.Is(err, lightning.ErrNotFound):
		return Held{}, games.Errorf(CodePaymentExpired, "the wallet no longer has this invoice; join again for a new one")
	case err != nil:
		return Held{}, walletError("the wallet", err)
	}
	switch inv.State {
	case lightning.InvoiceOpen:
		if !c.o.Now().Before(m.Expires) {
			return Held{}, games.Errorf(CodePaymentExpired, "the invoice expired unpaid; join again for a new one")
		}
		return Held{}, &games.Error{Code: CodeNotPaid, Msg: "the invoice is not paid yet; pay it and send paid again", Retry: true}
	case lightning.InvoiceCanceled:
		return Held{}, games.Errorf(CodePaymentExpired, "the invoice expired or was cancelled; join again for a new one")
	case lightning.InvoiceAccepted, lightning.InvoiceSettled:
	default:
		return Held{}, walletError("the wallet", fmt.Errorf("invoice state %q", inv.State))
	}
	if inv.Msat != uint64(m.Stake)*1000 || (inv.State == lightning.InvoiceSettled && inv.PaidMsat < inv.Msat) {
		return Held{}, walletError("the wallet", fmt.Errorf("the invoice is for %d msat (paid %d), the stake %d sats", inv.Msat, inv.PaidMsat, m.Stake))
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	m.Lnaddr = lnaddr
	_, err = c.led.Post(ctx, &ledger.Post{Key: "paid:" + paymentHash, Rows: []ledger.Row{
		ledger.Receive(HoldID(paymentHash), key, m.Stake, "invoice:"+paymentHash),
		ledger.NoteHold(HoldID(paymentHash), mustJSON(m)),
	}, Cap: &ledger.Cap{Unit: Unit, Max: c.o.MaxEscrow}})
	if errors.Is(err, ledger.ErrCapped) { // only if the cap was lowered under issued invoices
		if cerr := c.o.Wallet.CancelInvoice(ctx, hash); cerr != nil && !errors.Is(cerr, lightning.ErrNotFound) {
			return Held{}, walletError("the wallet", cerr)
		}
		return Held{}, &games.Error{Code: CodeEscrowFull, Msg: "the escrow holds as much as it may now; the payment was returned; join again later", Retry: true}
	}
	if err != nil {
		return Held{}, walletError("the ledger", err)
	}
	held.Lnaddr = lnaddr
	return held, nil
}

// Refund gives a held stake back in full: its hold invoice is cancelled (the payer's held HTLC
// returns to them), then the refund row is written (key "refund:<hash>"). It answers the sats
// refunded; a stake already refunded answers them again; one never received answers 0 and
// cancels its invoice. A stake in a match is not refundable here (wallet_error).
func (c *Cashier) Refund(ctx context.Context, paymentHash, reason string) (int64, error) {
	hash, ok := parseHash(paymentHash)
	if !ok {
		return 0, games.Errorf(CodeUnknownPayment, "payment_hash must be 64 lowercase hex digits")
	}
	h, found, err := c.led.Hold(ctx, HoldID(paymentHash))
	if err != nil {
		return 0, walletError("the ledger", err)
	}
	if !found {
		return 0, games.Errorf(CodeUnknownPayment, "no stake invoice %s", paymentHash)
	}
	if h.Refunded > 0 {
		return h.Refunded, nil
	}
	if h.Staked > 0 {
		return 0, walletError("the ledger", errors.New("the stake is in a match"))
	}
	if err := c.o.Wallet.CancelInvoice(ctx, hash); err != nil && !errors.Is(err, lightning.ErrNotFound) {
		return 0, walletError("the wallet", err)
	}
	if h.Received == 0 {
		return 0, nil
	}
	var m holdMemo
	_ = json.Unmarshal(h.Memo, &m)
	_, err = c.led.Post(ctx, &ledger.Post{Key: "refund:" + paymentHash, Rows: []ledger.Row{
		ledger.Refund(HoldID(paymentHash), m.Key, h.Balance, "cancel:"+paymentHash+":"+reason),
	}})
	if err != nil {
		return 0, walletError("the ledger", err)
	}
	c.log.Info("breakroom stake refunded", "payment_hash", paymentHash, "sats", h.Balance, "reason", reason)
	return h.Balance, nil
}

// Seat is one paid seat of a match: its seat number and the stake's payment hash.
type Seat struct {
	Seat        int
	PaymentHash string
}

// potMemo is a match's money, the memo of pot "match:<id>".
type potMemo struct {
	Game       string      `json:"game"`
	Stake      int64       `json:"stake"`
	Seats      []seatMemo  `json:"seats"`
	Locked     time.Time   `json:"locked"`
	Settlement *settleMemo `json:"settlement,omitempty"`
}

type seatMemo struct {
	Seat   int    `json:"seat"`
	Key    string `json:"key"`
	Hash   string `json:"hash"`
	Lnaddr string `json:"lnaddr"`
}

type settleMemo struct {
	Pot       int64        `json:"pot"`
	Rake      int64        `json:"rake"`
	Abandoned bool         `json:"abandoned,omitempty"`
	At        time.Time    `json:"at"`
	Payouts   []payoutMemo `json:"payouts"`
}

// Payout statuses, in a pot's memo.
const (
	PayoutPending = "pending" // credited, not yet sent
	PayoutSending = "sending" // an invoice is being paid (Bolt11, Hash)
	PayoutPaid    = "paid"
	PayoutFailed  = "failed" // final: the sats stay credited; Retry is the operator's
)

type payoutMemo struct {
	Seat     int       `json:"seat"`
	Key      string    `json:"key"`
	Lnaddr   string    `json:"lnaddr"`
	Sats     int64     `json:"sats"`
	Status   string    `json:"status"`
	Bolt11   string    `json:"bolt11,omitempty"`
	Hash     string    `json:"hash,omitempty"`
	Attempts int       `json:"attempts,omitempty"`
	Error    string    `json:"error,omitempty"`
	At       time.Time `json:"at,omitempty"`
}

// Lock puts a forming table's stakes in its match's pot (key "lock:<match>"), then settles each
// hold invoice: the sats are the house's to pay out. Every seat's stake must be held, of game,
// at one stake. Refusals wrap wallet_error; after one the table must not open (Refund each).
func (c *Cashier) Lock(ctx context.Context, match, game string, seats []Seat) error {
	if len(seats) == 0 {
		return walletError("the ledger", errors.New("no seats"))
	}
	pm := potMemo{Game: game, Locked: c.o.Now().UTC()}
	rows := []ledger.Row{ledger.OpenPot(PotID(match), Unit, nil)}
	var pres [][32]byte
	for _, s := range seats {
		h, found, err := c.led.Hold(ctx, HoldID(s.PaymentHash))
		if err != nil {
			return walletError("the ledger", err)
		}
		var m holdMemo
		if !found || json.Unmarshal(h.Memo, &m) != nil || m.Game != game || (pm.Stake != 0 && m.Stake != pm.Stake) {
			return walletError("the ledger", fmt.Errorf("seat %d: no stake %s of %s", s.Seat, s.PaymentHash, game))
		}
		if m.Match != "" && m.Match != match {
			return walletError("the ledger", fmt.Errorf("seat %d: stake %s is in %s", s.Seat, s.PaymentHash, m.Match))
		}
		pm.Stake = m.Stake
		pm.Seats = append(pm.Seats, seatMemo{Seat: s.Seat, Key: m.Key, Hash: s.PaymentHash, Lnaddr: m.Lnaddr})
		m.Match = match
		rows = append(rows, ledger.Stake(HoldID(s.PaymentHash), PotID(match), m.Stake), ledger.NoteHold(HoldID(s.PaymentHash), mustJSON(m)))
		pre, _ := parseHash(m.Preimage)
		pres = append(pres, pre)
	}
	rows = append(rows, ledger.NotePot(PotID(match), mustJSON(pm)))
	c.mu.Lock()
	_, err := c.led.Post(ctx, &ledger.Post{Key: "lock:" + match, Rows: rows})
	c.mu.Unlock()
	if err != nil {
		return walletError("the ledger", err)
	}
	for i, pre := range pres {
		if err := c.settleInvoice(ctx, pre); err != nil {
			return fmt.Errorf("seat %d: %w", seats[i].Seat, err)
		}
	}
	return nil
}

// settleInvoice settles a held stake's invoice; one already settled is fine.
func (c *Cashier) settleInvoice(ctx context.Context, pre [32]byte) error {
	err := c.o.Wallet.SettleInvoice(ctx, pre)
	if err == nil {
		return nil
	}
	hash := sha256.Sum256(pre[:])
	if inv, lerr := c.o.Wallet.LookupInvoice(ctx, hash); lerr == nil && inv.State == lightning.InvoiceSettled {
		return nil
	}
	return walletError("the wallet", err)
}

// Settlement is match_end.settlement: the pot, the rake and each winner's payout, in sats.
type Settlement struct {
	PotSats  int64
	RakeSats int64
	Payouts  []SeatPayout
}

// SeatPayout is one seat's payout.
type SeatPayout struct {
	Seat int
	Sats int64
}

// Settle settles match's pot by the game's payout rule (Split) over res (a played match's
// standings; an abandoned match gives every stake back, no rake), durably under "settle:<match>",
// with every payout pending; then Payouts pays them in the background (ctx bounds it). A pot
// settled before answers its settlement again.
func (c *Cashier) Settle(ctx context.Context, match string, res games.Result) (Settlement, error) {
	p, found, err := c.led.Pot(ctx, PotID(match))
	if err != nil {
		return Settlement{}, walletError("the ledger", err)
	}
	var pm potMemo
	if !found || json.Unmarshal(p.Memo, &pm) != nil {
		return Settlement{}, walletError("the ledger", fmt.Errorf("no pot for match %s", match))
	}
	if pm.Settlement == nil {
		ranks := map[int]int{}
		for _, s := range res.Standings {
			ranks[int(s.Seat)] = s.Rank
		}
		seatRanks := make([]int, len(pm.Seats))
		for i, s := range pm.Seats {
			seatRanks[i] = ranks[s.Seat]
		}
		pot := pm.Stake * int64(len(pm.Seats))
		rake, pays := Split(pm.Stake, c.o.RakeBps, seatRanks, res.Abandoned != "")
		sm := &settleMemo{Pot: pot, Rake: rake, Abandoned: res.Abandoned != "", At: c.o.Now().UTC()}
		var lp []ledger.Payout
		for i, s := range pm.Seats {
			if pays[i] == 0 {
				continue
			}
			sm.Payouts = append(sm.Payouts, payoutMemo{Seat: s.Seat, Key: s.Key, Lnaddr: s.Lnaddr, Sats: pays[i], Status: PayoutPending})
			lp = append(lp, ledger.Payout{Account: s.Key, Amount: pays[i]})
		}
		pm.Settlement = sm
		c.mu.Lock()
		_, err = c.led.Post(ctx, &ledger.Post{Key: "settle:" + match, Rows: []ledger.Row{
			ledger.Settle(PotID(match), lp, rake), ledger.NotePot(PotID(match), mustJSON(pm)),
		}})
		c.mu.Unlock()
		if err != nil {
			return Settlement{}, walletError("the ledger", err)
		}
	}
	c.Payouts(ctx, match)
	return settlementOf(pm.Settlement), nil
}

func settlementOf(sm *settleMemo) Settlement {
	out := Settlement{PotSats: sm.Pot, RakeSats: sm.Rake, Payouts: []SeatPayout{}}
	for _, p := range sm.Payouts {
		out.Payouts = append(out.Payouts, SeatPayout{Seat: p.Seat, Sats: p.Sats})
	}
	return out
}

// note rewrites hold id's memo with f (under c.mu).
func (c *Cashier) note(ctx context.Context, id string, f func(*holdMemo)) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	h, found, err := c.led.Hold(ctx, id)
	if err != nil || !found {
		return walletError("the ledger", fmt.Errorf("hold %s: %v", id, err))
	}
	var m holdMemo
	if err := json.Unmarshal(h.Memo, &m); err != nil {
		return walletError("the ledger", err)
	}
	f(&m)
	if _, err := c.led.Post(ctx, &ledger.Post{Rows: []ledger.Row{ledger.NoteHold(id, mustJSON(m))}}); err != nil {
		return walletError("the ledger", err)
	}
	return nil
}

// notePot rewrites pot id's memo with f (under c.mu); f answers false to write nothing.
func (c *Cashier) notePot(ctx context.Context, match string, f func(*potMemo) bool) (potMemo, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, found, err := c.led.Pot(ctx, PotID(match))
	var pm potMemo
	if err != nil || !found || json.Unmarshal(p.Memo, &pm) != nil {
		return pm, walletError("the ledger", fmt.Errorf("pot %s: %v", match, err))
	}
	if !f(&pm) {
		return pm, nil
	}
	if _, err := c.led.Post(ctx, &ledger.Post{Rows: []ledger.Row{ledger.NotePot(PotID(match), mustJSON(pm))}}); err != nil {
		return pm, walletError("the ledger", err)
	}
	return pm, nil
}

// walletError is wallet_error for a failure of what (the wallet, the ledger).
func walletError(what string, err error) error {
	return &games.Error{Code: CodeWalletError, Msg: fmt.Sprintf("%s failed: %v", what, err), Retry: true}
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // the memos are plain structs
	}
	return b
}

// parseHash reads 64 lowercase hex digits.
func parseHash(s string) ([32]byte, bool) {
	var h [32]byte
	if len(s) != 64 || strings.ToLower(s) != s {
		return h, false
	}
	if _, err := hex.Decode(h[:], []byte(s)); err != nil {
		return h, false
	}
	return h, true
}

func joinInts(v []int64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}

// sortedPots is st's pots of this package, by id.
func sortedPots(st *ledger.State) []ledger.Pot {
	var out []ledger.Pot
	for id, p := range st.Pots {
		if strings.HasPrefix(id, "match:") && p.Unit == Unit {
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}
