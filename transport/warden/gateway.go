package warden

import (
	"encoding/hex"
	"sort"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/sha3"

	"arena/chain/x402"
	"arena/storage"
)

// LocalGateway is the local facilitator's simulation of Circle Gateway's batched settlement for
// the metered reads (warden-games §10.7.2, §10.9): each read is settled on its own before it is
// served (Gateway checks the payer's Gateway balance, locks the amount and queues a transfer),
// and Gateway, not the Warden, nets the queued transfers into batches later.
//
// Its book is a pure function of the Warden's durable payment records and the clock, so a
// crash loses nothing and settles nothing twice: a payer's Gateway balance is Faucet less every
// settled Gateway payment it made; a transfer's id is a deterministic hash of the
// authorization's replay key; its state is received until the end of its batch window, batched
// for one window more, then completed; a batch is every transfer of one window, netted per
// (payer, payTo). Safe for concurrent use: settlements are serialised so that two reads cannot
// both spend one balance.
type LocalGateway struct {
	Store *storage.Store
	// Wallet is the GatewayWallet contract: a payment is a Gateway one when its replay key names
	// it (the nonce is spent there, §10.8).
	Wallet x402.Address
	// Faucet is the Gateway balance every payer starts with, atomic units (§10.7.2 dev seeding:
	// 10 USDC); 0 gives every payer an empty balance (insufficient_funds).
	Faucet uint64
	// Interval is the batcher's tick (dev.gateway_batch_interval, 5 s when 0).
	Interval time.Duration

	mu sync.Mutex // serialises Settle
}

// Transfer states as Gateway names them (§10.9).
const (
	TransferReceived  = "received"
	TransferBatched   = "batched"
	TransferCompleted = "completed"
)

func (g *LocalGateway) interval() time.Duration {
	if g.Interval > 0 {
		return g.Interval
	}
	return 5 * time.Second
}

// gatewayKey reports whether a payment record's replay key is spent at wallet.
func gatewayKey(key string, wallet x402.Address) bool {
	parts := strings.Split(key, "/")
	return len(parts) == 4 && strings.EqualFold(parts[1], wallet.String())
}

// TransferID is the simulated Gateway transfer id of an authorization: 0x and
// hex(keccak256("warden-gateway-transfer" ‖ replay key)), one per authorization.
func TransferID(key string) string {
	h := sha3.NewLegacyKeccak256()
	h.Write([]byte("warden-gateway-transfer"))
	h.Write([]byte(key))
	return "0x" + hex.EncodeToString(h.Sum(nil))
}

// Balance is payer's Gateway balance: Faucet less its settled Gateway payments (locked at
// settlement, §10.9), never below 0.
func (g *LocalGateway) Balance(payer string) (uint64, error) {
	var spent uint64
	err := g.Store.WardenPayments(func(p storage.WardenPayment) error {
		if p.Payer == payer && p.Status == storage.WardenPaySettled && gatewayKey(p.Key, g.Wallet) {
			spent += p.Amount
		}
		return nil
	})
	if err != nil || spent >= g.Faucet {
		return 0, err
	}
	return g.Faucet - spent, nil
}

// Settle is Gateway's settle of one claimed read payment (record settling): with the payer's
// balance at least the amount, the record becomes settled with its transfer id as Tx, durable
// before Settle returns; otherwise failed with reason insufficient_funds. A record settled or
// failed already is returned as it is. The caller answers from the returned record.
func (g *LocalGateway) Settle(rec storage.WardenPayment) (storage.WardenPayment, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	cur, err := g.Store.WardenPayment(rec.ID)
	if err != nil {
		return rec, err
	}
	if cur.Status == storage.WardenPaySettled || cur.Status == storage.WardenPayFailed {
		return cur, nil
	}
	bal, err := g.Balance(rec.Payer)
	if err != nil {
		return rec, err
	}
	if bal < rec.Amount {
		rec.Status, rec.Reason = storage.WardenPayFailed, x402InsufficientFunds
	} else {
		rec.Status, rec.Tx = storage.WardenPaySettled, TransferID(rec.Key)
	}
	if err := g.Store.PutWardenPayment(rec); err != nil {
		return rec, err
	}
	return rec, nil
}

// x402InsufficientFunds is §10.10's code for a balance below the price.
const x402InsufficientFunds = "insufficient_funds"

// Status is the state of a settled Gateway payment's transfer at now: received in its batch
// window (the window of its creation time), batched in the next, completed after.
func (g *LocalGateway) Status(rec storage.WardenPayment, now time.Time) string {
	w := g.window(rec.Created)
	switch cur := g.window(now.Unix()); {
	case cur <= w:
		return TransferReceived
	case cur == w+1:
		return TransferBatched
	}
	return TransferCompleted
}

func (g *LocalGateway) window(unix int64) int64 {
	return unix / int64(max(g.interval()/time.Second, 1))
}

// Batch is one netted Gateway batch (§10.9): the transfers of one window, their sum per
// (payer, payTo) and in all, and its fake batch transaction hash.
type Batch struct {
	Window    int64             `json:"window"`
	Tx        string            `json:"tx"`
	Transfers int               `json:"transfers"`
	Total     uint64            `json:"total"`
	Net       map[string]uint64 `json:"net"` // "<payer>→<payTo>" → atomic units
	Status    string            `json:"status"`
}

// Batches are every window's batch of settled Gateway payments to payTo, in window order, with
// their state at now.
func (g *LocalGateway) Batches(payTo x402.Address, now time.Time) ([]Batch, error) {
	by := map[int64]*Batch{}
	err := g.Store.WardenPayments(func(p storage.WardenPayment) error {
		if p.Status != storage.WardenPaySettled || !gatewayKey(p.Key, g.Wallet) {
			return nil
		}
		w := g.window(p.Created)
		b := by[w]
		if b == nil {
			h := sha3.NewLegacyKeccak256()
			h.Write([]byte("warden-gateway-batch"))
			h.Write([]byte(payTo.String()))
			h.Write(u64be(uint64(w)))
			b = &Batch{Window: w, Tx: "0x" + hex.EncodeToString(h.Sum(nil)), Net: map[string]uint64{}, Status: g.Status(p, now)}
			by[w] = b
		}
		b.Transfers++
		b.Total += p.Amount
		b.Net[p.Payer+"→"+payTo.String()] += p.Amount
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make([]Batch, 0, len(by))
	for _, b := range by {
		out = append(out, *b)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Window < out[j].Window })
	return out, nil
}

func u64be(n uint64) []byte {
	b := make([]byte, 8)
	for i := 7; i >= 0; i-- {
		b[i] = byte(n)
		n >>= 8
	}
	return b
}

// Revenue is what the reads paid to payTo as of now, atomic units: completed, the transfers
// Gateway has applied on chain, which alone count as the Warden's (§10.9 MUST 6); pending, the
// received and batched ones still in Gateway's hands.
func (g *LocalGateway) Revenue(payTo x402.Address, now time.Time) (completed, pending uint64, err error) {
	batches, err := g.Batches(payTo, now)
	for _, b := range batches {
		if b.Status == TransferCompleted {
			completed += b.Total
		} else {
			pending += b.Total
		}
	}
	return completed, pending, err
}
