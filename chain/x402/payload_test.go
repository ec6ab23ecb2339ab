package x402

import (
	"encoding/base64"
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
)

// okV2 is the arc vectors' stake_exact_ok payload, compact: valid at 1796006400 against
// arcExact(1000000).
const okV2 = `{"x402Version":2,"accepted":{"scheme":"exact","network":"eip155:5042002","amount":"1000000","asset":"0x3600000000000000000000000000000000000000","payTo":"0x209693Bc6afc0C5328bA36FaF03C514EF312287C","maxTimeoutSeconds":300,"extra":{"name":"USDC","version":"2"}},"payload":{"authorization":{"from":"0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A","to":"0x209693Bc6afc0C5328bA36FaF03C514EF312287C","value":"1000000","validAfter":"1796005800","validBefore":"1796006700","nonce":"0xa1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1"},"signature":"0xe7ca2130e6a49b85c7d6d7671bacb5da219b098110296365d31e4754fb576036156c022598a09bafe089efb11e7a13586e92c067820763a9371a2511559d9a341b"}}`

const okNow = 1796006400

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// TestParseRefusals: every malformed payment is refused with its §10.10 code, by the one
// parser, whichever door it came through.
func TestParseRefusals(t *testing.T) {
	r := strings.NewReplacer
	tests := []struct {
		name       string
		x, sig     string // headers
		want       error
		wantDetail string
	}{
		{"no header", "", "", ErrPaymentRequired, ""},
		{"both headers", b64(okV2), b64(okV2), ErrBadPayment, ""},
		{"v2 payload in X-PAYMENT", b64(okV2), "", ErrInvalidVersion, "X-PAYMENT"},
		{"version 3", "", b64(strings.Replace(okV2, `"x402Version":2`, `"x402Version":3`, 1)), ErrInvalidVersion, "3"},
		{"version as string", "", b64(strings.Replace(okV2, `"x402Version":2`, `"x402Version":"2"`, 1)), ErrInvalidPayload, "x402Version"},
		{"version missing", "", b64(strings.Replace(okV2, `"x402Version":2,`, ``, 1)), ErrInvalidPayload, "x402Version"},
		{"not base64", "", "not base64!", ErrInvalidPayload, "base64"},
		{"base64 without padding", "", strings.TrimRight(b64(okV2+" "), "="), ErrInvalidPayload, "base64"},
		{"url-safe base64", "", base64.URLEncoding.EncodeToString([]byte(okV2 + "??>")), ErrInvalidPayload, ""},
		{"oversized header", "", strings.Repeat("A", MaxHeader+4), ErrInvalidPayload, "longer"},
		{"oversized payload", "", b64(strings.Replace(okV2, `{"x402Version":2,`, `{"x402Version":2,"extensions":{"pad":"`+strings.Repeat("x", MaxPayload)+`"},`, 1)), ErrInvalidPayload, ""},
		{"not JSON", "", b64("hello"), ErrInvalidPayload, ""},
		{"array", "", b64(`[1,2]`), ErrInvalidPayload, "object"},
		{"trailing data", "", b64(okV2 + `{}`), ErrInvalidPayload, "trailing"},
		{"duplicate member", "", b64(strings.Replace(okV2, `"value":"1000000"`, `"value":"1000000","value":"1"`, 1)), ErrInvalidPayload, "duplicate"},
		{"case-folded member", "", b64(strings.Replace(okV2, `"value":"1000000"`, `"value":"1000000","Value":"1"`, 1)), ErrInvalidPayload, "folding"},
		{"wrong-case member", "", b64(strings.Replace(okV2, `"validAfter"`, `"validafter"`, 1)), ErrInvalidPayload, "unknown"},
		{"unknown member", "", b64(strings.Replace(okV2, `"payload":{`, `"payload":{"extra":1,`, 1)), ErrInvalidPayload, "unknown"},
		{"value as number", "", b64(strings.Replace(okV2, `"value":"1000000"`, `"value":1000000`, 1)), ErrInvalidPayload, "string"},
		{"accepted missing", "", b64(r(`"accepted"`, `"acceptedX"`).Replace(okV2)), ErrInvalidPayload, ""},
		{"accepted null", "", b64(`{"x402Version":2,"accepted":null,"payload":{}}`), ErrInvalidPayload, "accepted"},
		{"extra missing", "", b64(strings.Replace(okV2, `,"extra":{"name":"USDC","version":"2"}`, ``, 1)), ErrInvalidPayload, "extra"},
		{"authorization missing", "", b64(`{"x402Version":2,"accepted":{"extra":{}},"payload":{"signature":"0x00"}}`), ErrInvalidPayload, "authorization"},
		{"leading zero value", "", b64(strings.Replace(okV2, `"value":"1000000"`, `"value":"01000000"`, 1)), ErrInvalidPayload, "value"},
		{"negative value", "", b64(strings.Replace(okV2, `"value":"1000000"`, `"value":"-1000000"`, 1)), ErrInvalidPayload, "value"},
		{"value above 2^256-1", "", b64(strings.Replace(okV2, `"value":"1000000"`, `"value":"115792089237316195423570985008687907853269984665640564039457584007913129639936"`, 1)), ErrInvalidPayload, "value"},
		{"validBefore with a sign", "", b64(strings.Replace(okV2, `"validBefore":"1796006700"`, `"validBefore":"+1796006700"`, 1)), ErrInvalidPayload, "validBefore"},
		{"empty validAfter", "", b64(strings.Replace(okV2, `"validAfter":"1796005800"`, `"validAfter":""`, 1)), ErrInvalidPayload, "validAfter"},
		{"bad checksum", "", b64(strings.Replace(okV2, `"from":"0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A"`, `"from":"0x19e7E376E7C213B7E7e7e46cc70A5dD086DAff2A"`, 1)), ErrInvalidPayload, "from"},
		{"short address", "", b64(strings.Replace(okV2, `"to":"0x209693Bc6afc0C5328bA36FaF03C514EF312287C"`, `"to":"0x209693Bc6afc0C5328bA36FaF03C514EF31228"`, 1)), ErrInvalidPayload, "to"},
		{"address without 0x", "", b64(strings.Replace(okV2, `"to":"0x209693Bc6afc0C5328bA36FaF03C514EF312287C"`, `"to":"00209693Bc6afc0C5328bA36FaF03C514EF312287C"`, 1)), ErrInvalidPayload, "to"},
		{"short nonce", "", b64(strings.Replace(okV2, `"nonce":"0xa1a1`, `"nonce":"0x`, 1)), ErrInvalidPayload, "nonce"},
		{"signature not hex", "", b64(strings.Replace(okV2, `"signature":"0xe7`, `"signature":"0xg7`, 1)), ErrInvalidPayload, "signature"},
		{"signature odd length", "", b64(strings.Replace(okV2, `"signature":"0xe7`, `"signature":"0xe`, 1)), ErrInvalidPayload, "signature"},
		{"signature empty", "", b64(strings.Replace(okV2, `"signature":"0xe7ca2130e6a49b85c7d6d7671bacb5da219b098110296365d31e4754fb576036156c022598a09bafe089efb11e7a13586e92c067820763a9371a2511559d9a341b"`, `"signature":"0x"`, 1)), ErrInvalidPayload, "signature"},
		{"invalid UTF-8", "", base64.StdEncoding.EncodeToString([]byte("{\"x402Version\":2,\"a\":\"\xff\"}")), ErrInvalidPayload, "UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := FromHeaders(tt.x, tt.sig)
			if !errors.Is(err, tt.want) {
				t.Fatalf("FromHeaders = %+v, %v; want %v", p, err, tt.want)
			}
			var r *Refusal
			if !errors.As(err, &r) || !strings.Contains(r.Detail, tt.wantDetail) {
				t.Errorf("detail %q, want it to name %q", r.Detail, tt.wantDetail)
			}
		})
	}
}

// TestParseTakesV2Extras: a v2 payload's optional resource and extensions are taken, and the
// parsed payment keeps its members as sent.
func TestParseTakesV2Extras(t *testing.T) {
	raw := strings.Replace(okV2, `{"x402Version":2,`, `{"x402Version":2,"resource":{"url":"https://warden.example/v1/warden/x","description":"d","mimeType":"application/json"},"extensions":{"bazaar":{"a":[1]}},`, 1)
	p, err := Parse([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	a := p.Authorization
	if p.Version != 2 || p.Scheme != "exact" || p.Network != "eip155:5042002" || p.ResourceURL != "https://warden.example/v1/warden/x" ||
		p.Accepted.Amount != "1000000" || p.Accepted.MaxTimeoutSeconds != 300 || p.Accepted.Extra != (Extra{Name: "USDC", Version: "2"}) ||
		a.Value.Cmp(big.NewInt(1000000)) != 0 || a.ValidAfter.Cmp(big.NewInt(1796005800)) != 0 || a.ValidBefore.Cmp(big.NewInt(1796006700)) != 0 ||
		a.Nonce[0] != 0xa1 || a.Nonce[31] != 0xa1 || len(p.Signature) != 65 || p.Signature[64] != 0x1b || string(p.Raw) != raw {
		t.Errorf("parsed %+v", p)
	}
}

// TestOfferMatching is §10.3 step 3: a payment names one of the resource's offers, or it is
// refused before its signature is looked at.
func TestOfferMatching(t *testing.T) {
	ex := arcExact(t, 1000000, 300)
	gw := arcGateway(t, 1000000)
	res := Resource{URL: "https://warden.example/v1/warden/matches/wm_1/stake", Description: "stake", MimeType: "application/json"}
	both := Challenge{Resource: res, Offers: []Offer{gw, ex}}
	tests := []struct {
		name    string
		ch      Challenge
		payload string
		want    error
		index   int
	}{
		{"exact offer second", both, okV2, nil, 1},
		{"addresses in lower case", both, strings.NewReplacer(`"payTo":"0x209693Bc6afc0C5328bA36FaF03C514EF312287C"`, `"payTo":"0x209693bc6afc0c5328ba36faf03c514ef312287c"`).Replace(okV2), nil, 1},
		{"resource of this path", both, strings.Replace(okV2, `{"x402Version":2,`, `{"x402Version":2,"resource":{"url":"http://other.host/v1/warden/matches/wm_1/stake","description":"","mimeType":""},`, 1), nil, 1},
		{"resource of another path", both, strings.Replace(okV2, `{"x402Version":2,`, `{"x402Version":2,"resource":{"url":"https://warden.example/v1/warden/matches/wm_2/stake","description":"","mimeType":""},`, 1), ErrInvalidRequirements, 0},
		{"another amount", both, strings.Replace(okV2, `"amount":"1000000"`, `"amount":"1000001"`, 1), ErrInvalidRequirements, 0},
		{"another network", both, strings.Replace(okV2, `"network":"eip155:5042002"`, `"network":"eip155:84532"`, 1), ErrInvalidRequirements, 0},
		{"another scheme", both, strings.Replace(okV2, `"scheme":"exact"`, `"scheme":"upto"`, 1), ErrInvalidRequirements, 0},
		{"another payTo", both, strings.Replace(okV2, `"payTo":"0x209693Bc6afc0C5328bA36FaF03C514EF312287C"`, `"payTo":"0x000000000000000000000000000000000000dEaD"`, 1), ErrInvalidRequirements, 0},
		{"another domain version", both, strings.Replace(okV2, `"version":"2"`, `"version":"1"`, 1), ErrInvalidRequirements, 0},
		{"exact entry naming a verifying contract", both, strings.Replace(okV2, `"version":"2"}`, `"version":"2","verifyingContract":"0x3600000000000000000000000000000000000000"}`, 1), ErrInvalidRequirements, 0},
		{"only the gateway offered", Challenge{Resource: res, Offers: []Offer{gw}}, okV2, ErrInvalidRequirements, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse([]byte(tt.payload))
			if err != nil {
				t.Fatal(err)
			}
			v, err := tt.ch.Verify(p, okNow)
			if tt.want == nil {
				if err != nil || v.Index != tt.index {
					t.Fatalf("Verify = index %d, %v; want %d", v.Index, err, tt.index)
				}
				return
			}
			if !errors.Is(err, tt.want) {
				t.Fatalf("Verify: %v, want %v", err, tt.want)
			}
		})
	}
}

// TestOfferMatchingV1 picks a v1 payment's offer by scheme and v1 network name.
func TestOfferMatchingV1(t *testing.T) {
	c := captures(t)["v1_exact_evm_x402-fetch-1.2.0.json"]
	p := c.payment(t)
	arcOnly := Challenge{Resource: c.resource, Offers: []Offer{arcExact(t, 10000, 60)}}
	if _, err := arcOnly.Verify(p, c.now); !errors.Is(err, ErrInvalidScheme) {
		t.Errorf("no v1 offer: %v, want %v", err, ErrInvalidScheme)
	}
	other := c.offer
	other.V1Network = "base"
	if _, err := (Challenge{Resource: c.resource, Offers: []Offer{other}}).Verify(p, c.now); !errors.Is(err, ErrInvalidNetwork) {
		t.Errorf("other v1 network: %v, want %v", err, ErrInvalidNetwork)
	}
	q := *p
	q.Scheme = "upto"
	if _, err := c.challenge().Verify(&q, c.now); !errors.Is(err, ErrInvalidScheme) {
		t.Errorf("scheme upto: %v, want %v", err, ErrInvalidScheme)
	}
	if v, err := (Challenge{Resource: c.resource, Offers: []Offer{arcExact(t, 10000, 60), c.offer}}).Verify(p, c.now); err != nil || v.Index != 1 {
		t.Errorf("v1 offer second: %+v, %v", v, err)
	}
}

// curveN is the order n of secp256k1.
var curveN, _ = new(big.Int).SetString("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141", 16)

// TestSignatureForms: v is 27/28 or 0/1; the high-S twin of a good signature, which recovers
// the same key, is refused; so are other lengths and v values.
func TestSignatureForms(t *testing.T) {
	p, err := Parse([]byte(okV2))
	if err != nil {
		t.Fatal(err)
	}
	ch := Challenge{Offers: []Offer{arcExact(t, 1000000, 300)}}
	digest := Digest(ch.Offers[0].Domain(), p.Authorization)
	with := func(f func(sig []byte) []byte) *Payment {
		q := *p
		q.Signature = f(append([]byte(nil), p.Signature...))
		return &q
	}
	highS := func(sig []byte) []byte {
		s := new(big.Int).SetBytes(sig[32:64])
		new(big.Int).Sub(curveN, s).FillBytes(sig[32:64])
		sig[64] ^= 1 // 27 ↔ 28: the twin's recovery id
		return sig
	}
	// The twin is a valid ECDSA signature of the same key: only the s ≤ n/2 rule refuses it.
	twin := highS(append([]byte(nil), p.Signature...))
	var r, s secp256k1.ModNScalar
	r.SetByteSlice(twin[:32])
	s.SetByteSlice(twin[32:64])
	if !s.IsOverHalfOrder() {
		t.Fatal("twin's s is not high")
	}
	tests := []struct {
		name string
		p    *Payment
		want error
	}{
		{"as sent (v 27)", p, nil},
		{"v as 0", with(func(sig []byte) []byte { sig[64] -= 27; return sig }), nil},
		{"v 29", with(func(sig []byte) []byte { sig[64] = 29; return sig }), ErrSignature},
		{"v 2", with(func(sig []byte) []byte { sig[64] = 2; return sig }), ErrSignature},
		{"v other parity", with(func(sig []byte) []byte { sig[64] ^= 1; return sig }), ErrSignature},
		{"high S", with(highS), ErrSignature},
		{"64 bytes", with(func(sig []byte) []byte { return sig[:64] }), ErrSignature},
		{"66 bytes", with(func(sig []byte) []byte { return append(sig, 0) }), ErrSignature},
		{"s = 0", with(func(sig []byte) []byte { clear(sig[32:64]); return sig }), ErrSignature},
		{"s = n", with(func(sig []byte) []byte { curveN.FillBytes(sig[32:64]); return sig }), ErrSignature},
		{"r = 0", with(func(sig []byte) []byte { clear(sig[:32]); return sig }), ErrSignature},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := ch.Verify(tt.p, okNow)
			if tt.want == nil {
				if err != nil || v.Payer.String() != testPayer || v.Digest != digest {
					t.Fatalf("Verify = %+v, %v", v, err)
				}
				return
			}
			if !errors.Is(err, tt.want) {
				t.Fatalf("Verify: %v, want %v", err, tt.want)
			}
		})
	}
}

// TestAddress: EIP-55 both ways (the checksummed forms of EIP-55's own examples), and the
// strict forms ParseAddress takes.
func TestAddress(t *testing.T) {
	for _, s := range []string{ // EIP-55's test cases
		"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
		"0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB", "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
		"0x52908400098527886E0F7030069857D2E4169EE7", "0xde709f2102306220921060314715629080e2fb77",
	} {
		a, ok := ParseAddress(s)
		if !ok || a.String() != s {
			t.Errorf("ParseAddress(%s) = %s, %v", s, a, ok)
		}
		if _, ok := ParseAddress(strings.ToLower(s)); !ok {
			t.Errorf("lower case %s refused", s)
		}
		if _, ok := ParseAddress("0x" + strings.ToUpper(s[2:])); !ok {
			t.Errorf("upper case %s refused", s)
		}
	}
	for _, s := range []string{"", "0x", "0X5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
		"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAedd", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg"} {
		if a, ok := ParseAddress(s); ok {
			t.Errorf("ParseAddress(%q) = %s, want refused", s, a)
		}
	}
}

// TestReplayKey: one authorization, one text, whatever case its addresses were sent in.
func TestReplayKey(t *testing.T) {
	p, err := Parse([]byte(okV2))
	if err != nil {
		t.Fatal(err)
	}
	v, err := Challenge{Offers: []Offer{arcExact(t, 1000000, 300)}}.Verify(p, okNow)
	if err != nil {
		t.Fatal(err)
	}
	want := "5042002/0x3600000000000000000000000000000000000000/0x19e7e376e7c213b7e7e7e46cc70a5dd086daff2a/0x" + strings.Repeat("a1", 32)
	if got := v.Key.String(); got != want {
		t.Errorf("key %s, want %s", got, want)
	}
}
