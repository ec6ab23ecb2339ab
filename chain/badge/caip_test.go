package badge

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// vectorDir holds the vectors made with Concordium's web SDK (never edited; testdata/README.md).
const vectorDir = "../../testdata/concordium"

func readVector(t testing.TB, name string, v any) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(vectorDir, name))
	if err != nil {
		t.Fatalf("read vector %s: %v", name, err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("parse vector %s: %v", name, err)
	}
}

type addressVectors struct {
	Account struct {
		Bytes  string `json:"bytes"`
		Base58 string `json:"base58"`
	} `json:"account_address"`
	Tokens []struct {
		Index    string `json:"index"`
		Subindex string `json:"subindex"`
		TokenID  string `json:"token_id_hex"`
		Base58   string `json:"base58"`
	} `json:"cis2_token_addresses"`
}

type cis8004Vectors struct {
	Requests []struct {
		TokenID string `json:"token_id"`
		Short   string `json:"badge_short"`
		CAIP19  string `json:"badge_caip19_testnet"`
	} `json:"invoke_requests"`
	Example struct {
		Bytes string `json:"bytes"`
	} `json:"example_agent_view_spec_u32_lengths"`
	Wrapped struct {
		Bytes string `json:"bytes"`
	} `json:"example_return_option_wrapped_with_empty_metadata_UNVERIFIED"`
}

func TestTokenAddressVectors(t *testing.T) {
	var v addressVectors
	readVector(t, "addresses.json", &v)
	for _, tv := range v.Tokens {
		got, err := ParseTokenAddress(tv.Base58)
		if err != nil {
			t.Fatalf("%s: %v", tv.Base58, err)
		}
		if hex.EncodeToString(got.TokenID) != tv.TokenID || fmtU(got.Index) != tv.Index || fmtU(got.Subindex) != tv.Subindex {
			t.Errorf("%s parsed as %+v", tv.Base58, got)
		}
		if got.String() != tv.Base58 {
			t.Errorf("%+v formats as %s, want %s", got, got.String(), tv.Base58)
		}
	}
	acct, err := ParseAccount(string(Testnet) + ":" + v.Account.Base58)
	if err != nil || hex.EncodeToString(acct.Address[:]) != v.Account.Bytes {
		t.Fatalf("account: %+v %v", acct, err)
	}
	if acct.String() != string(Testnet)+":"+v.Account.Base58 {
		t.Errorf("account string %s", acct)
	}
}

func TestBadgeVectors(t *testing.T) {
	var v cis8004Vectors
	readVector(t, "cis8004.json", &v)
	reg := Contract{Chain: Testnet, Index: 12802}
	for _, r := range v.Requests {
		id, err := ParseAgentID(r.CAIP19)
		if err != nil {
			t.Fatalf("%s: %v", r.CAIP19, err)
		}
		tok, ok := id.BadgeTokenID()
		if !ok || fmtU(tok) != r.TokenID || id.Chain != Testnet || id.Token.Index != 12802 {
			t.Errorf("%s: token %d ok=%v %+v", r.CAIP19, tok, ok, id)
		}
		if id.Token.String() != r.Short || id.String() != r.CAIP19 {
			t.Errorf("%s formats as %s", r.CAIP19, id)
		}
		if mk := NewAgentID(Testnet, reg, tok); mk.String() != r.CAIP19 {
			t.Errorf("NewAgentID(%d) = %s, want %s", tok, mk, r.CAIP19)
		}
	}
}

func fmtU(u uint64) string { b, _ := json.Marshal(u); return string(b) }

func TestParseAgentIDRefusals(t *testing.T) {
	good := "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:JyP9YBxEoMo5ECWXLioor"
	if _, err := ParseAgentID(good); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		id   string
		want error
	}{
		{strings.Replace(good, "JyP9", "JyP0", 1), ErrNotBase58},
		{strings.Replace(good, "JyP9", "JyPO", 1), ErrNotBase58},
		{strings.Replace(good, "JyP9", "JyPI", 1), ErrNotBase58},
		{strings.Replace(good, "JyP9", "JyPl", 1), ErrNotBase58},
		{strings.Replace(good, "JyP9", "JyP_", 1), ErrNotBase58},
		{strings.Replace(good, "JyP9", "Jyé9", 1), ErrNotBase58},
		{good + "0", ErrNotBase58},
		{strings.Replace(good, "JyP9", "JyP8", 1), ErrSyntax}, // checksum
		{"ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:", ErrSyntax},
		{"ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-3:JyP9YBxEoMo5ECWXLioor", ErrSyntax},
		{"ccd:4221332D34e1694168c2a0c0b3fd0f27/cis-2:JyP9YBxEoMo5ECWXLioor", ErrSyntax},
		{"ccd:4221332d34e1694168c2a0c0b3fd0f2/cis-2:JyP9YBxEoMo5ECWXLioor", ErrSyntax},
		{"eip155:1/erc721:0x06012c8cf97BEaD5deAe237070F9587f8E7A266d/771769", ErrSyntax},
		{"ccd:4221332d34e1694168c2a0c0b3fd0f27:cis-2:JyP9YBxEoMo5ECWXLioor", ErrSyntax},
		{"JyP9YBxEoMo5ECWXLioor", ErrSyntax},
		{"", ErrSyntax},
		// An account address (version 1) in the token slot is no token address.
		{"ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:2wkH4kHMn2WPndf8CxmsoFkX93ouZMJUwTBFSZpDCeNeGWa7dj", ErrSyntax},
		{"ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:" + strings.Repeat("2", 300), ErrSyntax},
	}
	for _, c := range cases {
		if _, err := ParseAgentID(c.id); !errors.Is(err, c.want) {
			t.Errorf("%q: %v, want %v", c.id, err, c.want)
		}
	}
}

func TestContractAndChain(t *testing.T) {
	c, err := ParseContract("ccd:4221332d34e1694168c2a0c0b3fd0f27:12802.0")
	if err != nil || c != (Contract{Chain: Testnet, Index: 12802}) || c.String() != "ccd:4221332d34e1694168c2a0c0b3fd0f27:12802.0" {
		t.Fatalf("%+v %v", c, err)
	}
	for _, bad := range []string{"ccd:4221332d34e1694168c2a0c0b3fd0f27:12802", "ccd:4221332d34e1694168c2a0c0b3fd0f27:012802.0",
		"ccd:4221332d34e1694168c2a0c0b3fd0f27:12802.-0", "ccd:4221332d34e1694168c2a0c0b3fd0f27:+1.0",
		"ccd:4221332d34e1694168c2a0c0b3fd0f27:1.0.0", "ccd::12802.0", "ccd:4221332d34e1694168c2a0c0b3fd0f27:18446744073709551616.0"} {
		if _, err := ParseContract(bad); !errors.Is(err, ErrSyntax) {
			t.Errorf("%q: %v", bad, err)
		}
	}
	for _, ok := range []Chain{Testnet, Mainnet} {
		if got, err := ParseChain(string(ok)); err != nil || got != ok {
			t.Errorf("%s: %v", ok, err)
		}
	}
	if _, err := ParseAccount("ccd:4221332d34e1694168c2a0c0b3fd0f27:RLwJ3PgyYX"); !errors.Is(err, ErrSyntax) {
		t.Errorf("token address as account: %v", err)
	}
}

func TestULEBMinimal(t *testing.T) {
	for _, c := range []struct {
		b []byte
		v uint64
		n int
	}{
		{[]byte{0}, 0, 1}, {[]byte{0x82, 0x64}, 12802, 2}, {[]byte{0x80, 0}, 0, -1}, {[]byte{0x80}, 0, -1},
		{[]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, ^uint64(0), 10},
		{[]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02}, 0, -1},
	} {
		v, n := uleb(c.b)
		if n != c.n || (n > 0 && v != c.v) {
			t.Errorf("uleb(%x) = %d, %d; want %d, %d", c.b, v, n, c.v, c.n)
		}
	}
}

// FuzzParseAgentID: no input panics, and every accepted id formats back to itself (one
// spelling per Badge).
func FuzzParseAgentID(f *testing.F) {
	f.Add("ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:JyP9YBxEoMo5ECWXLioor")
	f.Add("ccd:9dd9ca4d19e9393877d2c44b70f89acb/cis-2:RLwJ3PgyYX")
	f.Add("ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:0OIl")
	f.Fuzz(func(t *testing.T, s string) {
		id, err := ParseAgentID(s)
		if err != nil {
			if !errors.Is(err, ErrSyntax) && !errors.Is(err, ErrNotBase58) {
				t.Fatalf("%q: unexpected error %v", s, err)
			}
			return
		}
		if id.String() != s {
			t.Fatalf("%q parsed and formatted as %q", s, id)
		}
	})
}

// FuzzParseContractAccount: no panics; accepted ids round-trip.
func FuzzParseContractAccount(f *testing.F) {
	f.Add("ccd:4221332d34e1694168c2a0c0b3fd0f27:12802.0")
	f.Add("ccd:4221332d34e1694168c2a0c0b3fd0f27:2wkH4kHMn2WPndf8CxmsoFkX93ouZMJUwTBFSZpDCeNeGWa7dj")
	f.Fuzz(func(t *testing.T, s string) {
		if c, err := ParseContract(s); err == nil && c.String() != s {
			t.Fatalf("contract %q → %q", s, c)
		}
		if a, err := ParseAccount(s); err == nil && a.String() != s {
			t.Fatalf("account %q → %q", s, a)
		}
	})
}
