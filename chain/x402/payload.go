package x402

import (
	"encoding/base64"
	"encoding/json"
	"strconv"

	"arena/games/canon"
)

// MaxHeader is the longest payment header taken, in bytes of base64 text. The real clients'
// headers are about 1.3 KB (testdata); 8 KB leaves room for a longer resource description
// while keeping a refusal cheap.
const MaxHeader = 8192

// MaxPayload is the longest payment payload taken as JSON, in bytes: what MaxHeader decodes
// to, so the MCP door's object and a header hold the same payloads.
const MaxPayload = MaxHeader / 4 * 3

// Payment is one payment payload as received, read strictly (§10.3 step 1). For v2 Scheme and
// Network are those of Accepted; for v1 they are the payload's own.
type Payment struct {
	Version       int
	Scheme        string
	Network       string
	Accepted      *Accepted // v2 only: the requirements the payer says it paid
	ResourceURL   string    // v2 only, "" when the payload carries no resource
	Authorization Authorization
	Signature     []byte // as sent: r ‖ s ‖ v when well formed (Recover checks its length)
	Raw           []byte // the payload's JSON bytes as received (Parse's raw itself, not a copy), for a remote facilitator
}

// Accepted is a v2 payload's "accepted" member: one accepts entry as the payer echoes it.
// Amount and addresses stay as the payer wrote them; they are compared with the offers.
type Accepted struct {
	Scheme            string
	Network           string
	Amount            string
	Asset             string
	PayTo             string
	MaxTimeoutSeconds int64
	Extra             Extra
}

// Extra is an entry's "extra": the EIP-712 domain name and version of the signature, and for a
// Gateway entry the verifying contract (the GatewayWallet).
type Extra struct {
	Name              string `json:"name"`
	Version           string `json:"version"`
	VerifyingContract string `json:"verifyingContract,omitempty"`
}

// The wire shapes, decoded by canon.Decode: exact member names, no unknown member, no
// duplicate, each value of its JSON type.
type (
	wireV1 struct {
		X402Version int        `json:"x402Version"`
		Scheme      string     `json:"scheme"`
		Network     string     `json:"network"`
		Payload     *wireExact `json:"payload"`
	}
	wireV2 struct {
		X402Version int                        `json:"x402Version"`
		Resource    *wireResource              `json:"resource"`
		Accepted    *wireAccepted              `json:"accepted"`
		Payload     *wireExact                 `json:"payload"`
		Extensions  map[string]json.RawMessage `json:"extensions"` // x402 v2's optional extensions, unused here
	}
	wireResource struct {
		URL         string `json:"url"`
		Description string `json:"description"`
		MimeType    string `json:"mimeType"`
	}
	wireAccepted struct {
		Scheme            string `json:"scheme"`
		Network           string `json:"network"`
		Amount            string `json:"amount"`
		Asset             string `json:"asset"`
		PayTo             string `json:"payTo"`
		MaxTimeoutSeconds int64  `json:"maxTimeoutSeconds"`
		Extra             *Extra `json:"extra"`
	}
	wireExact struct {
		Signature     string    `json:"signature"`
		Authorization *wireAuth `json:"authorization"`
	}
	wireAuth struct {
		From        string `json:"from"`
		To          string `json:"to"`
		Value       string `json:"value"`
		ValidAfter  string `json:"validAfter"`
		ValidBefore string `json:"validBefore"`
		Nonce       string `json:"nonce"`
	}
)

// FromHeaders reads the payment of an HTTP request from its two payment headers, "" standing
// for an absent one: X-PAYMENT carries x402 v1, PAYMENT-SIGNATURE v2 (§10.3 step 1). Neither →
// ErrPaymentRequired; both → ErrBadPayment; a header carrying the other version's payload →
// ErrInvalidVersion; otherwise as ParseHeader.
func FromHeaders(xPayment, paymentSignature string) (*Payment, error) {
	switch {
	case xPayment == "" && paymentSignature == "":
		return nil, refuse(CodePaymentRequired, "")
	case xPayment != "" && paymentSignature != "":
		return nil, refuse(CodeBadPayment, "both X-PAYMENT and PAYMENT-SIGNATURE were sent")
	}
	h, want, name := xPayment, 1, "X-PAYMENT"
	if paymentSignature != "" {
		h, want, name = paymentSignature, 2, "PAYMENT-SIGNATURE"
	}
	p, err := ParseHeader(h)
	if err != nil {
		return nil, err
	}
	if p.Version != want {
		return nil, refuse(CodeInvalidVersion, name+" carries x402 version "+strconv.Itoa(want)+" only")
	}
	return p, nil
}

// ParseHeader reads a payment header's value: standard base64 with padding (RFC 4648 §4, no
// line breaks, no other alphabet) of the payload's JSON, at most MaxHeader bytes; then as Parse.
func ParseHeader(h string) (*Payment, error) {
	if len(h) > MaxHeader {
		return nil, refuse(CodeInvalidPayload, "the payment header is longer than "+strconv.Itoa(MaxHeader)+" bytes")
	}
	raw, err := base64.StdEncoding.Strict().DecodeString(h)
	if err != nil {
		return nil, refuse(CodeInvalidPayload, "the payment header is not base64")
	}
	return Parse(raw)
}

// Parse reads a payment payload's JSON (x402 v1 or v2, scheme "exact" on EVM: an EIP-3009
// authorization and its signature), strictly with canon: valid UTF-8, one value, no duplicate
// or case-folded member names, no unknown member, each member of its JSON type. Every member
// is required but a v2 payload's resource and extensions. Addresses are "0x" and 40 hex digits
// (mixed case only as the EIP-55 checksum), amounts and times canonical decimals of a uint256,
// the nonce "0x" and 64 hex digits, the signature "0x" and hex. Errors: ErrInvalidPayload, or
// ErrInvalidVersion for an x402Version other than 1 and 2. Parse checks no signature and no
// offer: that is Verify.
func Parse(raw []byte) (*Payment, error) {
	if len(raw) > MaxPayload {
		return nil, refuse(CodeInvalidPayload, "the payment is longer than "+strconv.Itoa(MaxPayload)+" bytes")
	}
	v, err := canon.Parse(raw)
	if err != nil {
		return nil, refuse(CodeInvalidPayload, canon.Reason(err))
	}
	if v.Kind() != canon.Object {
		return nil, refuse(CodeInvalidPayload, "the payment is not a JSON object")
	}
	version, err := versionOf(v)
	if err != nil {
		return nil, err
	}
	p := &Payment{Version: version, Raw: raw}
	var ex *wireExact
	switch version {
	case 1:
		var w wireV1
		if err := canon.Decode(raw, &w); err != nil {
			return nil, refuse(CodeInvalidPayload, canon.Reason(err))
		}
		if w.Scheme == "" || w.Network == "" {
			return nil, refuse(CodeInvalidPayload, "$.scheme and $.network are required")
		}
		p.Scheme, p.Network, ex = w.Scheme, w.Network, w.Payload
	case 2:
		var w wireV2
		if err := canon.Decode(raw, &w); err != nil {
			return nil, refuse(CodeInvalidPayload, canon.Reason(err))
		}
		a := w.Accepted
		if a == nil || a.Extra == nil {
			return nil, refuse(CodeInvalidPayload, "$.accepted and $.accepted.extra are required")
		}
		p.Accepted = &Accepted{Scheme: a.Scheme, Network: a.Network, Amount: a.Amount, Asset: a.Asset,
			PayTo: a.PayTo, MaxTimeoutSeconds: a.MaxTimeoutSeconds, Extra: *a.Extra}
		p.Scheme, p.Network = a.Scheme, a.Network
		if w.Resource != nil {
			p.ResourceURL = w.Resource.URL
		}
		ex = w.Payload
	}
	if ex == nil || ex.Authorization == nil {
		return nil, refuse(CodeInvalidPayload, "$.payload.authorization is required")
	}
	if p.Signature, err = readSignature(ex.Signature); err != nil {
		return nil, err
	}
	if p.Authorization, err = readAuthorization(ex.Authorization); err != nil {
		return nil, err
	}
	return p, nil
}

// versionOf reads the payload's x402Version: 1 or 2.
func versionOf(v canon.Value) (int, error) {
	for i := 0; i < v.Len(); i++ {
		name, m := v.Member(i)
		if name != "x402Version" {
			continue
		}
		n, ok := m.Int()
		if !ok {
			return 0, refuse(CodeInvalidPayload, "$.x402Version: want a whole number")
		}
		if n != 1 && n != 2 {
			return 0, refuse(CodeInvalidVersion, "x402 version "+strconv.FormatInt(n, 10)+" is not 1 or 2")
		}
		return int(n), nil
	}
	return 0, refuse(CodeInvalidPayload, "$.x402Version is required")
}

func readSignature(s string) ([]byte, error) {
	b, ok := parseHex(s)
	if !ok || len(b) == 0 {
		return nil, refuse(CodeInvalidPayload, "$.payload.signature: want 0x and hex digits")
	}
	return b, nil
}

func readAuthorization(w *wireAuth) (Authorization, error) {
	var a Authorization
	var ok bool
	bad := func(member, want string) (Authorization, error) {
		return Authorization{}, refuse(CodeInvalidPayload, "$.payload.authorization."+member+": want "+want)
	}
	if a.From, ok = ParseAddress(w.From); !ok {
		return bad("from", "an address")
	}
	if a.To, ok = ParseAddress(w.To); !ok {
		return bad("to", "an address")
	}
	if a.Value, ok = parseUint256(w.Value); !ok {
		return bad("value", "a decimal uint256")
	}
	if a.ValidAfter, ok = parseUint256(w.ValidAfter); !ok {
		return bad("validAfter", "a decimal uint256")
	}
	if a.ValidBefore, ok = parseUint256(w.ValidBefore); !ok {
		return bad("validBefore", "a decimal uint256")
	}
	n, ok := parseHex(w.Nonce)
	if !ok || len(n) != 32 {
		return bad("nonce", "0x and 64 hex digits")
	}
	copy(a.Nonce[:], n)
	return a, nil
}
