package x402

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"math/big"
	"os"
	"testing"

	"arena/games/canon"
)

// The Warden's rails on Arc Testnet (§0, §10.1), as the vectors' requirements offer them.
const (
	arcChain      = 5042002
	arcUSDC       = "0x3600000000000000000000000000000000000000"
	gatewayWallet = "0x0077777d7EBA4688BDeF3E311b846F25870A19B9"
	wardenPayTo   = "0x209693Bc6afc0C5328bA36FaF03C514EF312287C"
	testPayer     = "0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A" // the vectors' key 0x11…11
	baseSepUSDC   = "0x036CbD53842c5426634e7929541eC2318f3dCF7e"
)

func addr(tb testing.TB, s string) Address {
	tb.Helper()
	a, ok := ParseAddress(s)
	if !ok {
		tb.Fatalf("ParseAddress(%q) refused", s)
	}
	return a
}

func arcExact(tb testing.TB, amount uint64, timeout int64) Offer {
	return Offer{Kind: KindExact, ChainID: arcChain, Asset: addr(tb, arcUSDC), PayTo: addr(tb, wardenPayTo),
		Amount: amount, MaxTimeoutSeconds: timeout, DomainName: "USDC", DomainVersion: "2"}
}

func arcGateway(tb testing.TB, amount uint64) Offer {
	return Offer{Kind: KindGateway, ChainID: arcChain, Asset: addr(tb, arcUSDC), PayTo: addr(tb, wardenPayTo),
		Amount: amount, MaxTimeoutSeconds: 604900, DomainName: GatewayDomainName, DomainVersion: GatewayDomainVersion,
		GatewayWallet: addr(tb, gatewayWallet)}
}

func readJSON(tb testing.TB, name string, v any) {
	tb.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		tb.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
}

func canonOf(tb testing.TB, raw []byte) []byte {
	tb.Helper()
	c, err := canon.Canonical(raw)
	if err != nil {
		tb.Fatalf("canonical %s: %v", raw, err)
	}
	return c
}

func hex32(tb testing.TB, s string) [32]byte {
	tb.Helper()
	b, ok := parseHex(s)
	if !ok || len(b) != 32 {
		tb.Fatalf("not 32 bytes of hex: %q", s)
	}
	return [32]byte(b)
}

type arcVectors struct {
	Now                int64  `json:"now"`
	GatewayMinValidity int64  `json:"gatewayMinValiditySeconds"`
	ExactSettleMargin  int64  `json:"exactSettleMarginSeconds"`
	TransferTypehash   string `json:"transferWithAuthorizationTypehash"`
	Domains            map[string]struct {
		Name              string `json:"name"`
		Version           string `json:"version"`
		ChainID           uint64 `json:"chainId"`
		VerifyingContract string `json:"verifyingContract"`
		Separator         string `json:"separator"`
	} `json:"domains"`
	Cases []struct {
		ID           string          `json:"id"`
		Expect       string          `json:"expect"`
		Requirements json.RawMessage `json:"requirements"`
		Payload      json.RawMessage `json:"payload"`
		Digest       string          `json:"note_digest_of_signed_message"`
		Recovers     bool            `json:"recovers_to_from_under_expected_domain"`
	} `json:"cases"`
}

// TestArcVectors runs warden_x402_arc_vectors.json: each case's requirements are encoded from
// our offer byte for byte (canonically), its payload is sent as a PAYMENT-SIGNATURE header,
// every intermediate is checked (domain separators, type hash, the digest signed, the address
// recovered) and the case's outcome is the vector's exact code.
func TestArcVectors(t *testing.T) {
	var v arcVectors
	readJSON(t, "warden_x402_arc_vectors.json", &v)
	if v.Now != 1796006400 || len(v.Cases) != 10 {
		t.Fatalf("vector file: now %d, %d cases; want 1796006400 and 10", v.Now, len(v.Cases))
	}
	if v.GatewayMinValidity != GatewayMinValidity || v.ExactSettleMargin != ExactMinValidity {
		t.Fatalf("vector margins %d/%d, ours %d/%d", v.GatewayMinValidity, v.ExactSettleMargin, GatewayMinValidity, ExactMinValidity)
	}
	if got, want := TransferTypeHash(), hex32(t, v.TransferTypehash); got != want {
		t.Fatalf("TransferTypeHash = %x, want %x", got, want)
	}
	wantDomains := map[string]Domain{
		"arcTestnetUsdc":           arcExact(t, 1, 300).Domain(),
		"arcTestnetGatewayBatched": arcGateway(t, 1).Domain(),
	}
	for name, d := range v.Domains {
		want := Domain{Name: d.Name, Version: d.Version, ChainID: d.ChainID, VerifyingContract: addr(t, d.VerifyingContract)}
		if ours := wantDomains[name]; ours != want {
			t.Errorf("domain %s: our offer's domain %+v, vector's %+v", name, ours, want)
		}
		if got := want.Separator(); got != hex32(t, d.Separator) {
			t.Errorf("domain %s: separator %x, want %s", name, got, d.Separator)
		}
	}
	if len(v.Domains) != 2 {
		t.Fatalf("%d domains, want 2", len(v.Domains))
	}

	from := addr(t, testPayer)
	usdc := addr(t, arcUSDC)
	// What each refused signature was really made over, worked out from its digest (the
	// vector says only that it is not the expected domain's): the token's domain for the
	// Gateway entry, Base Sepolia's chain id, and the value before it was tampered with.
	signedAs := map[string]func(Domain, Authorization) (Domain, Authorization){
		"read_gateway_signed_with_asset_domain": func(d Domain, a Authorization) (Domain, Authorization) {
			d.VerifyingContract = usdc
			return d, a
		},
		"stake_exact_wrong_chain": func(d Domain, a Authorization) (Domain, Authorization) {
			d.ChainID = 84532
			return d, a
		},
		"stake_exact_value_tampered": func(d Domain, a Authorization) (Domain, Authorization) {
			a.Value = big.NewInt(1000000)
			return d, a
		},
	}
	valid := 0
	for _, tc := range v.Cases {
		t.Run(tc.ID, func(t *testing.T) {
			var req struct {
				Amount string `json:"amount"`
				Extra  Extra  `json:"extra"`
			}
			if err := json.Unmarshal(tc.Requirements, &req); err != nil {
				t.Fatal(err)
			}
			amount, ok := new(big.Int).SetString(req.Amount, 10)
			if !ok {
				t.Fatalf("amount %q", req.Amount)
			}
			o := arcExact(t, amount.Uint64(), 300)
			if req.Extra.Name == GatewayDomainName {
				o = arcGateway(t, amount.Uint64())
			}
			ch := Challenge{Resource: Resource{URL: "https://warden.example/v1/warden/x", Description: "d", MimeType: "application/json"},
				Offers: []Offer{o}}
			assertEntry(t, ch, tc.Requirements)

			p, err := FromHeaders("", base64.StdEncoding.EncodeToString(tc.Payload))
			if err != nil {
				t.Fatalf("FromHeaders: %v", err)
			}
			if p.Version != 2 || p.Authorization.From != from {
				t.Fatalf("parsed version %d from %s", p.Version, p.Authorization.From)
			}
			note := hex32(t, tc.Digest)
			// The vector's digest is the one the signature was made over: it recovers to from.
			if got, err := Recover(note, p.Signature); err != nil || got != from {
				t.Fatalf("Recover(vector digest) = %s, %v; want %s", got, err, from)
			}
			ours := Digest(o.Domain(), p.Authorization)
			recovered, err := Recover(ours, p.Signature)
			if err != nil {
				t.Fatalf("Recover(our digest): %v", err)
			}
			if tc.Recovers {
				if ours != note {
					t.Errorf("digest %x, want %x", ours, note)
				}
				if recovered != from {
					t.Errorf("recovered %s, want %s", recovered, from)
				}
			} else {
				if ours == note || recovered == from {
					t.Errorf("digest %x recovers %s: want another digest and signer", ours, recovered)
				}
				alter, ok := signedAs[tc.ID]
				if !ok {
					t.Fatalf("no worked-out signed message for %s", tc.ID)
				}
				if d, a := alter(o.Domain(), p.Authorization); Digest(d, a) != note {
					t.Errorf("signed message's digest %x, want %x", Digest(d, a), note)
				}
			}

			got, err := ch.Verify(p, v.Now)
			if tc.Expect == "valid" {
				valid++
				if err != nil {
					t.Fatalf("Verify: %v", err)
				}
				want := ReplayKey{ChainID: arcChain, Contract: o.Domain().VerifyingContract, From: from, Nonce: p.Authorization.Nonce}
				if got.Payer != from || got.Digest != note || got.Key != want || got.Index != 0 {
					t.Errorf("Verified %+v, want payer %s digest %x key %+v", got, from, note, want)
				}
				return
			}
			var r *Refusal
			if !errors.As(err, &r) || r.Code != tc.Expect {
				t.Fatalf("Verify: %v, want code %s", err, tc.Expect)
			}
			if !errors.Is(err, &Refusal{Code: tc.Expect}) {
				t.Errorf("errors.Is by code fails for %v", err)
			}
		})
	}
	if valid != 2 {
		t.Errorf("%d valid cases, want 2", valid)
	}
}

// TestGatewayHintNamesTheTokenDomain: the Gateway entry signed the way a generic ExactEvmScheme
// client signs it is refused with a detail saying what went wrong (§10.3 step 4).
func TestGatewayHintNamesTheTokenDomain(t *testing.T) {
	var v arcVectors
	readJSON(t, "warden_x402_arc_vectors.json", &v)
	for _, tc := range v.Cases {
		if tc.ID != "read_gateway_signed_with_asset_domain" && tc.ID != "stake_exact_wrong_chain" {
			continue
		}
		p, err := Parse(tc.Payload)
		if err != nil {
			t.Fatal(err)
		}
		o := arcGateway(t, 10)
		if tc.ID == "stake_exact_wrong_chain" {
			o = arcExact(t, 1000000, 300)
		}
		_, err = Challenge{Offers: []Offer{o}}.Verify(p, v.Now)
		var r *Refusal
		if !errors.As(err, &r) || r.Code != CodeSignature {
			t.Fatalf("%s: %v", tc.ID, err)
		}
		hinted := bytes.Contains([]byte(r.Detail), []byte("token as verifying contract"))
		if hinted != (tc.ID == "read_gateway_signed_with_asset_domain") {
			t.Errorf("%s: detail %q", tc.ID, r.Detail)
		}
	}
}

// assertEntry checks that the challenge's only v2 accepts entry is want, canonically.
func assertEntry(t *testing.T, ch Challenge, want json.RawMessage) {
	t.Helper()
	b, err := ch.V2(CodePaymentRequired)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Accepts []json.RawMessage `json:"accepts"`
	}
	if err := json.Unmarshal(b, &got); err != nil || len(got.Accepts) != 1 {
		t.Fatalf("V2 = %s (%v)", b, err)
	}
	if g, w := canonOf(t, got.Accepts[0]), canonOf(t, want); !bytes.Equal(g, w) {
		t.Errorf("accepts entry\n got %s\nwant %s", g, w)
	}
}
