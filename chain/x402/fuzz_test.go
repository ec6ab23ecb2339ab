package x402

import (
	"errors"
	"os"
	"testing"
)

// FuzzParseHeader: any header value is a payment or a refusal with a parser's code, never a
// panic; a payment that parses is then verified against both Arc offers without panicking,
// and again only with a refusal's code or a verified payment that pays one of the offers.
func FuzzParseHeader(f *testing.F) {
	f.Add(b64(okV2))
	f.Add("")
	f.Add("e30=")
	for _, name := range []string{"v1_exact_evm_x402-fetch-1.2.0.json", "v2_exact_evm_x402-fetch-2.27.0.json", "v2_gateway_batched_x402-batching-3.3.0.json"} {
		var c capture
		readJSON(f, name, &c)
		f.Add(c.XPayment + c.PaySig)
	}
	ch := Challenge{Resource: Resource{URL: "https://warden.example/v1/warden/x"},
		Offers: []Offer{arcExact(f, 1000000, 300), arcGateway(f, 10)}}
	f.Fuzz(func(t *testing.T, h string) {
		p, err := ParseHeader(h)
		if err != nil {
			var r *Refusal
			if !errors.As(err, &r) || (r.Code != CodeInvalidPayload && r.Code != CodeInvalidVersion) {
				t.Fatalf("ParseHeader refused with %v", err)
			}
			return
		}
		if (p.Version != 1 && p.Version != 2) || len(p.Signature) == 0 || p.Authorization.Value == nil ||
			p.Authorization.ValidAfter == nil || p.Authorization.ValidBefore == nil || (p.Version == 2) != (p.Accepted != nil) {
			t.Fatalf("parsed an incomplete payment %+v", p)
		}
		v, err := ch.Verify(p, okNow)
		if err != nil {
			var r *Refusal
			if !errors.As(err, &r) || r.Code == CodeInvalidPayload {
				t.Fatalf("Verify refused with %v", err)
			}
			return
		}
		if v.Payer != p.Authorization.From || v.Offer != ch.Offers[v.Index] {
			t.Fatalf("verified %+v of %+v", v, p)
		}
	})
}

// FuzzParse is FuzzParseHeader for the JSON object an MCP request carries.
func FuzzParse(f *testing.F) {
	f.Add([]byte(okV2))
	b, err := os.ReadFile("testdata/warden_x402_arc_vectors.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add([]byte(`{"x402Version":1,"scheme":"exact","network":"base-sepolia","payload":{"signature":"0x00","authorization":{}}}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		p, err := Parse(raw)
		if err != nil {
			var r *Refusal
			if !errors.As(err, &r) || (r.Code != CodeInvalidPayload && r.Code != CodeInvalidVersion) {
				t.Fatalf("Parse refused with %v", err)
			}
			return
		}
		if string(p.Raw) != string(raw) {
			t.Fatal("Raw is not the bytes parsed")
		}
	})
}
