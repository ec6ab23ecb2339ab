package x402

import (
	"encoding/base64"
	"errors"
	"strconv"

	"arena/games/canon"
)

// Kind is how an offer is settled (§10.1).
type Kind int

const (
	// KindExact is one EIP-3009 transferWithAuthorization settled on chain per payment, signed
	// under the token's own domain.
	KindExact Kind = iota + 1
	// KindGateway is an EIP-3009 authorization against the payer's Circle Gateway balance,
	// signed under the GatewayWalletBatched domain and settled by Gateway in batches.
	KindGateway
)

// The least time an authorization must have left when it is checked, in seconds (§10.3 step 4):
// an exact payment must still be valid when its transaction lands (x402's own facilitator pads
// three blocks, 6 s); a Gateway one for Gateway's whole batching window (7 days).
const (
	ExactMinValidity   = 6
	GatewayMinValidity = 604800
)

// The EIP-712 domain name and version of Circle's GatewayWallet, which also mark an accepts
// entry as a Gateway one (the test of Circle's isBatchPayment).
const (
	GatewayDomainName    = "GatewayWalletBatched"
	GatewayDomainVersion = "1"
)

// Offer is one way this resource may be paid: one entry of a 402's accepts (§10.1, §10.2).
// Every offer is x402 scheme "exact" on an EVM chain.
type Offer struct {
	Kind    Kind
	ChainID uint64 // the network is eip155:<ChainID>
	// V1Network is the chain's x402 v1 network name ("base-sepolia"), "" when x402 v1 has
	// none (Arc): such an offer is left out of the v1 body.
	V1Network string
	Asset     Address // the token contract (USDC)
	PayTo     Address
	Amount    uint64 // atomic units of Asset
	// MaxTimeoutSeconds is the entry's maxTimeoutSeconds: how long the payer's authorization
	// should live (at least GatewayMinValidity + 100 for a Gateway offer, as Circle's client signs).
	MaxTimeoutSeconds int64
	// DomainName and DomainVersion are the EIP-712 domain the payment is signed under, sent as
	// extra.name and extra.version: the token's ("USDC", "2") for exact,
	// GatewayDomainName and GatewayDomainVersion for Gateway.
	DomainName    string
	DomainVersion string
	// GatewayWallet is the Gateway domain's verifying contract, sent as
	// extra.verifyingContract (KindGateway only; an exact offer signs under Asset).
	GatewayWallet Address
}

// Network is the offer's CAIP-2 network id.
func (o Offer) Network() string { return caip2(o.ChainID) }

// Domain is the EIP-712 domain a payment of this offer must be signed under: always from the
// offer, never from the payment (§10.7.1).
func (o Offer) Domain() Domain {
	d := Domain{Name: o.DomainName, Version: o.DomainVersion, ChainID: o.ChainID, VerifyingContract: o.Asset}
	if o.Kind == KindGateway {
		d.VerifyingContract = o.GatewayWallet
	}
	return d
}

// minValidity is the least life left an authorization of this offer must have, in seconds.
func (o Offer) minValidity() int64 {
	if o.Kind == KindGateway {
		return GatewayMinValidity
	}
	return ExactMinValidity
}

func (o Offer) extra() Extra {
	e := Extra{Name: o.DomainName, Version: o.DomainVersion}
	if o.Kind == KindGateway {
		e.VerifyingContract = o.GatewayWallet.String()
	}
	return e
}

func (o Offer) check() error {
	switch {
	case o.Kind != KindExact && o.Kind != KindGateway:
		return errors.New("x402: offer kind is not exact or gateway")
	case o.ChainID == 0:
		return errors.New("x402: offer chain id is 0")
	case o.Amount == 0:
		return errors.New("x402: offer amount is 0")
	case o.Asset == Address{} || o.PayTo == Address{}:
		return errors.New("x402: offer names no asset or no payTo")
	case o.DomainName == "" || o.DomainVersion == "":
		return errors.New("x402: offer names no EIP-712 domain")
	case o.Kind == KindGateway && o.GatewayWallet == Address{}:
		return errors.New("x402: gateway offer names no GatewayWallet")
	}
	return nil
}

// Resource is the paid resource as a 402 describes it.
type Resource struct {
	URL         string // absolute, built from the configured public base URL (§10.2)
	Description string
	MimeType    string
}

// Challenge is what one resource asks to be paid: the source of its 402 (V1Body, V2,
// Header) and of the check of a payment for it (Verify).
type Challenge struct {
	Resource Resource
	Offers   []Offer // in the order offered; the first a payment matches is the one checked
}

// The 402's JSON shapes (§10.2), encoded through canon.
type (
	v1Entry struct {
		Scheme            string `json:"scheme"`
		Network           string `json:"network"`
		MaxAmountRequired string `json:"maxAmountRequired"`
		Resource          string `json:"resource"`
		Description       string `json:"description"`
		MimeType          string `json:"mimeType"`
		PayTo             string `json:"payTo"`
		MaxTimeoutSeconds int64  `json:"maxTimeoutSeconds"`
		Asset             string `json:"asset"`
		Extra             Extra  `json:"extra"`
	}
	v1Body struct {
		X402Version int       `json:"x402Version"`
		Error       string    `json:"error"`
		Accepts     []v1Entry `json:"accepts"`
	}
	v2Entry struct {
		Scheme            string `json:"scheme"`
		Network           string `json:"network"`
		Amount            string `json:"amount"`
		Asset             string `json:"asset"`
		PayTo             string `json:"payTo"`
		MaxTimeoutSeconds int64  `json:"maxTimeoutSeconds"`
		Extra             Extra  `json:"extra"`
	}
	v2Resource struct {
		URL         string `json:"url"`
		Description string `json:"description"`
		MimeType    string `json:"mimeType"`
	}
	v2Required struct {
		X402Version int        `json:"x402Version"`
		Error       string     `json:"error"`
		Resource    v2Resource `json:"resource"`
		Accepts     []v2Entry  `json:"accepts"`
	}
)

func (c Challenge) check() error {
	if len(c.Offers) == 0 {
		return errors.New("x402: challenge has no offer")
	}
	for i, o := range c.Offers {
		if err := o.check(); err != nil {
			return errors.New(err.Error() + " (offer " + strconv.Itoa(i) + ")")
		}
	}
	return nil
}

// V2 is the x402 v2 PaymentRequired object, {x402Version:2, error, resource, accepts}, as RFC
// 8785 canonical JSON; reason is its error (CodePaymentRequired, or why a payment was refused).
func (c Challenge) V2(reason string) ([]byte, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	body := v2Required{X402Version: 2, Error: reason,
		Resource: v2Resource{URL: c.Resource.URL, Description: c.Resource.Description, MimeType: c.Resource.MimeType},
		Accepts:  make([]v2Entry, 0, len(c.Offers))}
	for _, o := range c.Offers {
		body.Accepts = append(body.Accepts, v2Entry{Scheme: "exact", Network: o.Network(),
			Amount: strconv.FormatUint(o.Amount, 10), Asset: o.Asset.String(), PayTo: o.PayTo.String(),
			MaxTimeoutSeconds: o.MaxTimeoutSeconds, Extra: o.extra()})
	}
	return canon.Marshal(body)
}

// Header is the PAYMENT-REQUIRED header's value: standard base64 of V2(reason).
func (c Challenge) Header(reason string) (string, error) {
	b, err := c.V2(reason)
	if err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(b), nil
}

// V1Body is the 402's body for x402 v1 clients, {x402Version:1, error, accepts}, as canonical
// JSON, listing only the offers with a v1 network name (a v1 client refuses a whole answer
// naming one network it does not know), and never an outputSchema. With no such offer it is
// {} (a v1 client fails on an empty accepts; §10.2).
func (c Challenge) V1Body(reason string) ([]byte, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	body := v1Body{X402Version: 1, Error: reason}
	for _, o := range c.Offers {
		if o.V1Network == "" {
			continue
		}
		body.Accepts = append(body.Accepts, v1Entry{Scheme: "exact", Network: o.V1Network,
			MaxAmountRequired: strconv.FormatUint(o.Amount, 10), Resource: c.Resource.URL,
			Description: c.Resource.Description, MimeType: c.Resource.MimeType, PayTo: o.PayTo.String(),
			MaxTimeoutSeconds: o.MaxTimeoutSeconds, Asset: o.Asset.String(), Extra: o.extra()})
	}
	if len(body.Accepts) == 0 {
		return []byte("{}"), nil
	}
	return canon.Marshal(body)
}
