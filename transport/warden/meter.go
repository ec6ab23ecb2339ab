package warden

import (
	"errors"
	"time"

	"arena/chain/x402"
	"arena/storage"
)

// ReadRail is the metered reads' rail (warden-games §10.1 arc-gateway, §10.9): x402 "exact"
// entries in Gateway's batched scheme, signed under the GatewayWalletBatched domain with the
// GatewayWallet as verifying contract, paying PayTo in Asset on chain ChainID.
type ReadRail struct {
	ChainID       uint64
	Asset         x402.Address
	PayTo         x402.Address
	GatewayWallet x402.Address
}

// GatewayTimeout is a read offer's maxTimeoutSeconds: Gateway's 7 days plus the 100 s Circle's
// client adds (§10.9 MUST 2); an authorization with less than x402.GatewayMinValidity left is
// refused.
const GatewayTimeout = x402.GatewayMinValidity + 100

// Tiers of a metered read (§8.2).
const (
	TierGlobal = "global"
	TierMatch  = "match"
)

// Meter charges the metered reads (§10.3, §10.5): one offer at the tier's price on the read
// rail, the payment checked locally (chain/x402), its nonce claimed with its record, settled
// with Gateway before the read is served. Safe for concurrent use.
type Meter struct {
	Store   *storage.Store
	Rail    ReadRail
	Gateway *LocalGateway
	// Prices are the tiers' prices, atomic units (§17 prices: global 1, match 10).
	Global, Match uint64
	// Origin is mcp://<host> of the resource URLs (§8.3).
	Origin string
	Now    func() time.Time
}

// Read is one metered read to charge: the tool, the match it is tied to ("" for none), its
// tier, and the caller's seat in it when the caller is known (by token) and seated.
type Read struct {
	Tool  string
	Match string
	Tier  string
	Seat  string
}

// price is the read's price.
func (m *Meter) price(r Read) uint64 {
	if r.Tier == TierMatch {
		return m.Match
	}
	return m.Global
}

// Resource is the read's resource path, /v1/warden/mcp/tools/<tool>[?match=<id>] (§8.3).
func (r Read) Resource() string {
	p := storage.WardenReadPrefix + r.Tool
	if r.Match != "" {
		p += "?match=" + r.Match
	}
	return p
}

// Challenge is the read's 402 challenge: one Gateway entry at the tier's price (§10.2: "a
// read's 402 is the same with amount 1 or 10 and only the gateway entry").
func (m *Meter) Challenge(r Read) x402.Challenge {
	desc := "Warden " + r.Tier + " read: " + r.Tool
	if r.Match != "" {
		desc += ", match " + r.Match
	}
	return x402.Challenge{
		Resource: x402.Resource{URL: m.Origin + r.Resource(), Description: desc, MimeType: "application/json"},
		Offers: []x402.Offer{{Kind: x402.KindGateway, ChainID: m.Rail.ChainID, Asset: m.Rail.Asset, PayTo: m.Rail.PayTo,
			Amount: m.price(r), MaxTimeoutSeconds: GatewayTimeout, DomainName: x402.GatewayDomainName,
			DomainVersion: x402.GatewayDomainVersion, GatewayWallet: m.Rail.GatewayWallet}},
	}
}

// PayError is a metered read refused: the §10.10 code and detail, and whether the answer
// carries a fresh challenge (every 402-class refusal does) and a failed settlement response.
type PayError struct {
	Code, Detail string
	Challenge    bool
	Settled      *storage.WardenPayment // a failed settlement's record, for the payment-response
}

func (e *PayError) Error() string { return "warden: read refused: " + e.Code + ": " + e.Detail }

// Paid is a settled read payment: its record (Tx the Gateway transfer id).
type Paid struct{ Rec storage.WardenPayment }

// SeatOf seats a match read's payer before any money moves, for a caller known only by its
// payment: the seat check runs right after the signature check (§10.3 step 2); its refusal
// (not_seated) charges nothing.
type SeatOf func(payer string) (seat string, err error)

// Pay charges read r with the payment JSON raw (the MCP request's _meta["x402/payment"]; nil:
// payment_required), in §10.3's order: parse; match the offer and check the authorization; for
// a match read with no seat known (seatOf not nil), seat the payer through seatOf (its refusal, not_seated, charges nothing); claim
// the nonce with the record (the same payment for the same resource again answers its stored
// outcome; any other use of the nonce is payment_replayed); settle with Gateway. Errors: a
// *PayError, a *door.Refusal from seatOf, or a storage error.
func (m *Meter) Pay(r Read, raw []byte, seatOf SeatOf) (Paid, error) {
	ch := m.Challenge(r)
	if raw == nil {
		return Paid{}, &PayError{Code: x402.CodePaymentRequired, Detail: "pay this read with x402: put the PaymentPayload in _meta[\"x402/payment\"]", Challenge: true}
	}
	p, err := x402.Parse(raw)
	if err != nil {
		return Paid{}, refusalOf(err)
	}
	now := m.now()
	v, err := ch.Verify(p, now.Unix())
	if err != nil {
		return Paid{}, refusalOf(err)
	}
	payer := v.Payer.String()
	if r.Seat == "" && seatOf != nil {
		if r.Seat, err = seatOf(payer); err != nil {
			return Paid{}, err
		}
	}
	rec := storage.WardenPayment{ID: "wp_" + randHex(8), Resource: r.Resource(), Match: r.Match, Seat: r.Seat,
		Payer: payer, Amount: m.price(r), Network: v.Offer.Network(), Key: v.Key.String(), Version: p.Version,
		Payload: p.Raw, Status: storage.WardenPaySettling, Created: now.Unix()}
	held, claimed, err := m.Store.ClaimWardenPayment(v.Key, rec)
	if err != nil {
		return Paid{}, err
	}
	if !claimed {
		if held.Resource != rec.Resource || held.Payer != rec.Payer || string(held.Payload) != string(p.Raw) {
			return Paid{}, &PayError{Code: x402.CodePaymentReplayed, Detail: "this authorization's nonce was used by another payment", Challenge: true}
		}
		rec = held // the same payment again: resume or repeat its outcome (§10.8)
	}
	done, err := m.Gateway.Settle(rec)
	if err != nil {
		return Paid{}, err
	}
	if done.Status == storage.WardenPayFailed {
		return Paid{}, &PayError{Code: done.Reason, Detail: "Gateway refused the settlement: the payer's Gateway balance is below the price", Challenge: true, Settled: &done}
	}
	return Paid{Rec: done}, nil
}

func (m *Meter) now() time.Time {
	if m.Now != nil {
		return m.Now()
	}
	return time.Now()
}

// refusalOf is a chain/x402 refusal as a PayError (every code but the two undecodable ones
// carries a challenge).
func refusalOf(err error) error {
	var r *x402.Refusal
	if !errors.As(err, &r) {
		return err
	}
	return &PayError{Code: r.Code, Detail: r.Detail, Challenge: Statuses.Status(r.Code) == 402}
}

// ReadsSpent is what each seat of match paid for its settled metered reads (storage's
// WardenReadsSpent: the Ledger row's reads_spent).
func ReadsSpent(s *storage.Store, match string) (map[string]int64, error) {
	return s.WardenReadsSpent(match)
}
