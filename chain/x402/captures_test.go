package x402

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"testing"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
)

type capture struct {
	PrivateKey   string          `json:"privateKey"`
	V1Body       json.RawMessage `json:"paymentRequired402Body"`
	V2Required   json.RawMessage `json:"paymentRequiredHeaderDecoded"`
	XPayment     string          `json:"xPaymentHeader"`
	XDecoded     json.RawMessage `json:"xPaymentDecoded"`
	PaySig       string          `json:"paymentSignatureHeader"`
	PaySigDecode json.RawMessage `json:"paymentSignatureDecoded"`
	Domain       struct {
		Name              string `json:"name"`
		Version           string `json:"version"`
		ChainID           uint64 `json:"chainId"`
		VerifyingContract string `json:"verifyingContract"`
	} `json:"eip712Domain"`
	Digest    string `json:"digest"`
	Verifies  bool   `json:"signatureVerifies"`
	resource  Resource
	offer     Offer
	reason    string
	now       int64 // a time inside the authorization's window: the capture's own clock
	header    string
	decoded   json.RawMessage
	v1        bool
	requested json.RawMessage
}

// captures are the real clients' payments (testdata/README.md). Each one's now is the signing
// client's own clock, worked out from what that client signs: x402-fetch 1.2.0 validAfter =
// now − 600 and validBefore = now + maxTimeoutSeconds; @x402/evm 2.27.0 validAfter 0 and
// validBefore = now + maxTimeoutSeconds; Circle's batching client validAfter = now − 600.
func captures(t *testing.T) map[string]*capture {
	t.Helper()
	baseSep := Offer{Kind: KindExact, ChainID: 84532, V1Network: "base-sepolia", Asset: addr(t, baseSepUSDC),
		PayTo: addr(t, wardenPayTo), Amount: 10000, MaxTimeoutSeconds: 60, DomainName: "USDC", DomainVersion: "2"}
	out := map[string]*capture{
		"v1_exact_evm_x402-fetch-1.2.0.json": {offer: baseSep, v1: true, now: 1796005804 + 600,
			resource: Resource{URL: "http://127.0.0.1:44139/play", Description: "seat at table", MimeType: "application/json"},
			reason:   "X-PAYMENT header is required"},
		"v2_exact_evm_x402-fetch-2.27.0.json": {offer: baseSep, now: 1796006478 - 60,
			resource: Resource{URL: "http://127.0.0.1:33593/play", Description: "seat", MimeType: "application/json"},
			reason:   "PAYMENT-SIGNATURE header is required"},
		"v2_gateway_batched_x402-batching-3.3.0.json": {offer: arcGateway(t, 10), now: 1796006590 + 600,
			resource: Resource{URL: "http://127.0.0.1:35523/v1/warden/matches/m_x/state", Description: "warden read: match-tied", MimeType: "application/json"},
			reason:   "PAYMENT-SIGNATURE header is required"},
	}
	for name, c := range out {
		readJSON(t, name, c)
		c.header, c.decoded, c.requested = c.PaySig, c.PaySigDecode, c.V2Required
		if c.v1 {
			c.header, c.decoded, c.requested = c.XPayment, c.XDecoded, c.V1Body
		}
		if !c.Verifies || c.header == "" || len(c.requested) == 0 {
			t.Fatalf("%s: capture incomplete", name)
		}
	}
	return out
}

func (c *capture) challenge() Challenge {
	return Challenge{Resource: c.resource, Offers: []Offer{c.offer}}
}

func (c *capture) payment(t *testing.T) *Payment {
	t.Helper()
	x, sig := "", c.header
	if c.v1 {
		x, sig = c.header, ""
	}
	p, err := FromHeaders(x, sig)
	if err != nil {
		t.Fatalf("FromHeaders: %v", err)
	}
	return p
}

// TestCaptures: the real clients' 402s are what our encoder writes for the same offer
// (canonically), their payment headers parse to the decoded objects the capture holds, the
// signer is the address of the capture's private key, and each payment verifies in its window.
func TestCaptures(t *testing.T) {
	for name, c := range captures(t) {
		t.Run(name, func(t *testing.T) {
			ch := c.challenge()
			var got []byte
			var err error
			if c.v1 {
				got, err = ch.V1Body(c.reason)
			} else {
				got, err = ch.V2(c.reason)
			}
			if err != nil {
				t.Fatal(err)
			}
			if want := canonOf(t, c.requested); !bytes.Equal(got, want) {
				t.Errorf("402\n got %s\nwant %s", got, want)
			}
			if !c.v1 {
				h, err := ch.Header(c.reason)
				if err != nil {
					t.Fatal(err)
				}
				dec, err := base64.StdEncoding.DecodeString(h)
				if err != nil || !bytes.Equal(dec, got) {
					t.Errorf("Header is not base64 of V2: %v", err)
				}
			}

			p := c.payment(t)
			if !bytes.Equal(canonOf(t, p.Raw), canonOf(t, c.decoded)) {
				t.Errorf("header decodes to\n %s\nwant %s", p.Raw, c.decoded)
			}
			d := c.offer.Domain()
			if want := (Domain{c.Domain.Name, c.Domain.Version, c.Domain.ChainID, addr(t, c.Domain.VerifyingContract)}); d != want {
				t.Errorf("offer domain %+v, capture's %+v", d, want)
			}
			key, ok := parseHex(c.PrivateKey)
			if !ok {
				t.Fatal("private key")
			}
			payer := addressOf(secp256k1.PrivKeyFromBytes(key).PubKey())
			if payer.String() != testPayer || p.Authorization.From != payer {
				t.Fatalf("key's address %s, from %s, want %s", payer, p.Authorization.From, testPayer)
			}
			v, err := ch.Verify(p, c.now)
			if err != nil {
				t.Fatalf("Verify at %d: %v", c.now, err)
			}
			if v.Payer != payer || v.Digest != Digest(d, p.Authorization) {
				t.Errorf("Verified %+v", v)
			}
			if c.Digest != "" && v.Digest != hex32(t, c.Digest) {
				t.Errorf("digest %x, capture's %s", v.Digest, c.Digest)
			}
		})
	}
}

// TestTimeWindowBoundaries moves the clock across each bound of §10.3 step 4 on the captures:
// validAfter ≤ now; validBefore ≥ now + 6 (exact) or now + 604 800 (Gateway).
func TestTimeWindowBoundaries(t *testing.T) {
	cs := captures(t)
	v1 := cs["v1_exact_evm_x402-fetch-1.2.0.json"]          // validAfter 1796005804, validBefore 1796006464
	gw := cs["v2_gateway_batched_x402-batching-3.3.0.json"] // validAfter 1796006590, validBefore 1796612090
	tests := []struct {
		name string
		c    *capture
		now  int64
		want error
	}{
		{"exact: now = validAfter", v1, 1796005804, nil},
		{"exact: now = validAfter - 1", v1, 1796005803, ErrValidAfter},
		{"exact: validBefore = now + 6", v1, 1796006464 - 6, nil},
		{"exact: validBefore = now + 5", v1, 1796006464 - 5, ErrValidBefore},
		{"exact: long expired", v1, 1896006464, ErrValidBefore},
		{"gateway: validBefore = now + 604800", gw, 1796612090 - 604800, nil},
		{"gateway: validBefore = now + 604799", gw, 1796612090 - 604799, ErrValidBefore},
		{"gateway: now = validAfter - 1", gw, 1796006589, ErrValidAfter},
		{"gateway: now = validAfter", gw, 1796006590, nil},
		{"gateway: at epoch", gw, 0, ErrValidAfter},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.c.challenge().Verify(tt.c.payment(t), tt.now)
			if tt.want == nil && err != nil || tt.want != nil && !errors.Is(err, tt.want) {
				t.Fatalf("Verify at %d: %v, want %v", tt.now, err, tt.want)
			}
		})
	}
}
