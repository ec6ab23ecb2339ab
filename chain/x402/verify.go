package x402

import (
	"math/big"
	"net/url"
	"strconv"
	"strings"
)

// Verified is a payment that passed Verify: the offer it pays, who pays, the digest that was
// signed and the key its nonce is claimed under (§10.8).
type Verified struct {
	Offer  Offer
	Index  int // Offer's index in the challenge's Offers
	Payer  Address
	Digest [32]byte
	Key    ReplayKey
}

// Verify checks p against the challenge at now (Unix seconds), without any I/O: §10.3 step 3
// (the payment names one of the offers) and step 4 (the local checks of the authorization).
//
// Step 3: a v2 payment's accepted must equal an offer on scheme, network, amount, asset, payTo
// and extra (name, version, verifyingContract), addresses compared without regard to case, and
// a resource URL it carries must have the challenge resource's path; else
// ErrInvalidRequirements. A v1 payment picks the offer of its scheme (else ErrInvalidScheme)
// and v1 network name (else ErrInvalidNetwork).
//
// Step 4, in this order: the signature (65 bytes, v 27/28 or 0/1, s ≤ n/2) recovers to the
// authorization's from under the offer's EIP-712 domain (ErrSignature; a Gateway payment
// signed under the token's domain instead is named in the detail); to is the offer's payTo
// (ErrRecipient); value is the offer's amount exactly (ErrValue); validAfter ≤ now
// (ErrValidAfter); validBefore ≥ now + ExactMinValidity, or + GatewayMinValidity for a Gateway
// offer (ErrValidBefore). The signature comes first so that nothing is said about the other
// members of an authorization its payer did not sign.
//
// Verify claims no nonce and checks no balance: those are the caller's (ReplayStore) and the
// facilitator's. The challenge must be well formed (offers of a known kind, amount and domain);
// one that is not gives a plain error, a bug of the caller's and no refusal.
func (c Challenge) Verify(p *Payment, now int64) (Verified, error) {
	if err := c.check(); err != nil {
		return Verified{}, err
	}
	i, err := c.match(p)
	if err != nil {
		return Verified{}, err
	}
	o := c.Offers[i]
	a := p.Authorization
	d := o.Domain()
	digest := Digest(d, a)
	signer, err := Recover(digest, p.Signature)
	if err != nil {
		return Verified{}, err
	}
	if signer != a.From {
		return Verified{}, refuse(CodeSignature, o.signatureHint(a, p.Signature))
	}
	if a.To != o.PayTo {
		return Verified{}, refuse(CodeRecipient, "the authorization pays "+a.To.String()+", not "+o.PayTo.String())
	}
	amount := new(big.Int).SetUint64(o.Amount)
	if a.Value.Cmp(amount) != 0 {
		return Verified{}, refuse(CodeValue, "the authorization's value is "+a.Value.String()+", the price "+amount.String())
	}
	t := big.NewInt(now)
	if a.ValidAfter.Cmp(t) > 0 {
		return Verified{}, refuse(CodeValidAfter, "the authorization is valid only after "+a.ValidAfter.String())
	}
	least := new(big.Int).Add(t, big.NewInt(o.minValidity()))
	if a.ValidBefore.Cmp(least) < 0 {
		return Verified{}, refuse(CodeValidBefore, "the authorization must be valid until at least "+least.String()+
			" ("+strconv.FormatInt(o.minValidity(), 10)+" s from now)")
	}
	return Verified{Offer: o, Index: i, Payer: a.From, Digest: digest,
		Key: ReplayKey{ChainID: o.ChainID, Contract: d.VerifyingContract, From: a.From, Nonce: a.Nonce}}, nil
}

// signatureHint is the detail of a signature that recovers to another address than from.
func (o Offer) signatureHint(a Authorization, sig []byte) string {
	const plain = "the signature does not recover to the authorization's from under the offer's EIP-712 domain"
	if o.Kind != KindGateway {
		return plain
	}
	asToken := o.Domain()
	asToken.VerifyingContract = o.Asset
	if signer, err := Recover(Digest(asToken, a), sig); err == nil && signer == a.From {
		return "the authorization is signed with the token as verifying contract; a Gateway payment is signed under " +
			GatewayDomainName + " with verifyingContract " + o.GatewayWallet.String() + " (extra.verifyingContract)"
	}
	return plain
}

// match is §10.3 step 3: the index of the offer p pays.
func (c Challenge) match(p *Payment) (int, error) {
	if p.Version == 1 {
		scheme := false
		for i, o := range c.Offers {
			if p.Scheme != "exact" || o.V1Network == "" {
				continue
			}
			scheme = true
			if p.Network == o.V1Network {
				return i, nil
			}
		}
		if !scheme {
			return 0, refuse(CodeInvalidScheme, "scheme "+strconv.Quote(p.Scheme)+" is not offered to x402 v1 for this resource")
		}
		return 0, refuse(CodeInvalidNetwork, "network "+strconv.Quote(p.Network)+" is not offered for this resource")
	}
	if p.ResourceURL != "" && !samePath(p.ResourceURL, c.Resource.URL) {
		return 0, refuse(CodeInvalidRequirements, "the payment is for another resource")
	}
	acc := p.Accepted
	for i, o := range c.Offers {
		e := o.extra()
		if acc.Scheme == "exact" && acc.Network == o.Network() &&
			acc.Amount == strconv.FormatUint(o.Amount, 10) &&
			strings.EqualFold(acc.Asset, o.Asset.String()) && strings.EqualFold(acc.PayTo, o.PayTo.String()) &&
			acc.Extra.Name == e.Name && acc.Extra.Version == e.Version &&
			strings.EqualFold(acc.Extra.VerifyingContract, e.VerifyingContract) {
			return i, nil
		}
	}
	return 0, refuse(CodeInvalidRequirements, "accepted is none of this resource's offers")
}

// samePath reports whether two URLs have one path (an unparsable URL has none).
func samePath(a, b string) bool {
	ua, err := url.Parse(a)
	if err != nil {
		return false
	}
	ub, err := url.Parse(b)
	if err != nil {
		return false
	}
	return ua.EscapedPath() == ub.EscapedPath()
}
