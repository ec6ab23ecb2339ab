package x402

import (
	"bytes"
	"encoding/base64"
	"testing"
)

// stakeExample is the decoded PAYMENT-REQUIRED of warden-games §10.2 for a 1 USDC stake.
const stakeExample = `{
  "x402Version": 2,
  "error": "payment_required",
  "resource": { "url": "https://warden.example/v1/warden/matches/wm_7f3a9c21e0b4d856/stake",
                "description": "Warden stake, match wm_7f3a9c21e0b4d856, seat A",
                "mimeType": "application/json" },
  "accepts": [
    { "scheme": "exact", "network": "eip155:5042002", "amount": "1000000",
      "asset": "0x3600000000000000000000000000000000000000",
      "payTo": "0x209693Bc6afc0C5328bA36FaF03C514EF312287C", "maxTimeoutSeconds": 300,
      "extra": { "name": "USDC", "version": "2" } },
    { "scheme": "exact", "network": "eip155:5042002", "amount": "1000000",
      "asset": "0x3600000000000000000000000000000000000000",
      "payTo": "0x209693Bc6afc0C5328bA36FaF03C514EF312287C", "maxTimeoutSeconds": 604900,
      "extra": { "name": "GatewayWalletBatched", "version": "1",
                 "verifyingContract": "0x0077777d7EBA4688BDeF3E311b846F25870A19B9" } }
  ]
}`

// TestStakeChallenge: the Warden's stake 402 (both Arc offers, exact first) is §10.2's example
// byte for byte once canonical, its header is base64 of it, and its v1 body is {} because no
// Arc offer has an x402 v1 network name.
func TestStakeChallenge(t *testing.T) {
	ch := Challenge{
		Resource: Resource{URL: "https://warden.example/v1/warden/matches/wm_7f3a9c21e0b4d856/stake",
			Description: "Warden stake, match wm_7f3a9c21e0b4d856, seat A", MimeType: "application/json"},
		Offers: []Offer{arcExact(t, 1000000, 300), arcGateway(t, 1000000)},
	}
	got, err := ch.V2(CodePaymentRequired)
	if err != nil {
		t.Fatal(err)
	}
	if want := canonOf(t, []byte(stakeExample)); !bytes.Equal(got, want) {
		t.Errorf("V2\n got %s\nwant %s", got, want)
	}
	h, err := ch.Header(CodePaymentRequired)
	if err != nil {
		t.Fatal(err)
	}
	if h != base64.StdEncoding.EncodeToString(got) {
		t.Errorf("Header %s is not base64 of V2", h)
	}
	v1, err := ch.V1Body(CodePaymentRequired)
	if err != nil || string(v1) != "{}" {
		t.Errorf("V1Body = %s, %v; want {}", v1, err)
	}
}

// TestChallengeRefusesMalformedOffers: a challenge the server built wrong is an error of its
// own, never a 402 with a broken offer nor a refusal blamed on the payer.
func TestChallengeRefusesMalformedOffers(t *testing.T) {
	good := arcExact(t, 1, 300)
	p, err := Parse([]byte(okV2))
	if err != nil {
		t.Fatal(err)
	}
	for name, o := range map[string]func(Offer) Offer{
		"no kind":           func(o Offer) Offer { o.Kind = 0; return o },
		"no chain":          func(o Offer) Offer { o.ChainID = 0; return o },
		"no amount":         func(o Offer) Offer { o.Amount = 0; return o },
		"no domain name":    func(o Offer) Offer { o.DomainName = ""; return o },
		"no payTo":          func(o Offer) Offer { o.PayTo = Address{}; return o },
		"no asset":          func(o Offer) Offer { o.Asset = Address{}; return o },
		"gateway no wallet": func(o Offer) Offer { o.Kind = KindGateway; return o },
	} {
		ch := Challenge{Offers: []Offer{o(good)}}
		if _, err := ch.V2(CodePaymentRequired); err == nil {
			t.Errorf("%s: V2 took it", name)
		}
		if _, err := ch.V1Body(CodePaymentRequired); err == nil {
			t.Errorf("%s: V1Body took it", name)
		}
		if _, err := ch.Verify(p, okNow); err == nil {
			t.Errorf("%s: Verify took it", name)
		} else if _, isRefusal := err.(*Refusal); isRefusal {
			t.Errorf("%s: Verify blamed the payer: %v", name, err)
		}
	}
	if _, err := (Challenge{}).V2(CodePaymentRequired); err == nil {
		t.Error("a challenge without offers was encoded")
	}
}
