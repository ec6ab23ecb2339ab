package config

import (
	"io"
	"strings"
	"testing"

	"arena/chain/evm"
)

// The Warden's stake rail: none by default; from flags and variables; a partial rail or a bad
// address is refused naming the field.
func TestWardenRail(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	c, err := Load("serve", nil, env(nil), io.Discard)
	if err != nil || c.Warden.EVM.Enabled() || c.Warden.EVM.TokenName != "USDC" || c.Warden.EVM.TokenVersion != "2" {
		t.Fatalf("default: %+v, %v", c.Warden.EVM, err)
	}
	const a1, a2, a3 = "0x1111111111111111111111111111111111111111", "0x2222222222222222222222222222222222222222", "0x3333333333333333333333333333333333333333"
	c, err = Load("serve", []string{"--warden-evm-rpc", "http://127.0.0.1:8545", "--warden-evm-token", a1, "--warden-evm-pay-to", a3},
		env(map[string]string{"ARENA_WARDEN_EVM_CHAIN_ID": "1337", "ARENA_WARDEN_EVM_RELAYER": a2, "ARENA_WARDEN_EVM_NETWORK": "base-sepolia"}), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	want := WardenEVM{RPCURL: "http://127.0.0.1:8545", ChainID: 1337, Network: "base-sepolia", Token: a1, TokenName: "USDC", TokenVersion: "2", Relayer: a2, PayTo: a3}
	if c.Warden.EVM != want || !c.Warden.EVM.Enabled() {
		t.Errorf("rail: %+v", c.Warden.EVM)
	}
	for _, bad := range []struct {
		args []string
		want string
	}{
		{[]string{"--warden-evm-rpc", "http://127.0.0.1:8545"}, "warden.evm.chain_id"},
		{[]string{"--warden-evm-rpc", "http://127.0.0.1:8545", "--warden-evm-chain-id", "1", "--warden-evm-token", a1, "--warden-evm-relayer", a2}, "warden.evm.pay_to"},
		{[]string{"--warden-evm-rpc", "http://127.0.0.1:8545", "--warden-evm-chain-id", "1", "--warden-evm-token", "0x12", "--warden-evm-relayer", a2, "--warden-evm-pay-to", a3}, "warden.evm.token"},
		{[]string{"--warden-evm-rpc", "ftp://x", "--warden-evm-chain-id", "1", "--warden-evm-token", a1, "--warden-evm-relayer", a2, "--warden-evm-pay-to", a3}, "warden.evm.rpc_url"},
		{[]string{"--warden-evm-token", a1}, "needs warden.evm.rpc_url"},
		{[]string{"--warden-evm-chain-id", "0"}, "positive chain id"},
		{[]string{"--warden-public-url", "nope"}, "warden.public_url"},
	} {
		_, err := Load("serve", bad.args, env(nil), io.Discard)
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%v: %v, want %q", bad.args, err, bad.want)
		}
	}
}

// The Warden's wallet key: the key of pay_to, from the environment; refused, naming the field
// and never echoing the key, when it is not hex, not a key, or another account's; the public
// dev key only on chain 1337 paying stakes to its address.
func TestWardenWalletKey(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	const token, relayer = "0x1111111111111111111111111111111111111111", "0x2222222222222222222222222222222222222222"
	rail := func(chain, payTo string) []string {
		return []string{"--warden-evm-rpc", "http://127.0.0.1:8545", "--warden-evm-chain-id", chain, "--warden-evm-token", token,
			"--warden-evm-relayer", relayer, "--warden-evm-pay-to", payTo}
	}
	const key7e = "7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e"
	const other = "0x3333333333333333333333333333333333333333"
	c, err := Load("serve", rail("5042002", DevWalletAddress), env(map[string]string{"ARENA_WARDEN_EVM_WALLET_KEY": "0x" + DevWalletKey}), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if k, dev := c.Warden.EVM.Wallet(); k != "0x"+DevWalletKey || dev {
		t.Errorf("configured key: %q dev %v", k, dev)
	}
	c, err = Load("serve", rail("1337", DevWalletAddress), env(nil), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if k, dev := c.Warden.EVM.Wallet(); k != DevWalletKey || !dev {
		t.Errorf("geth --dev default: %q dev %v", k, dev)
	}
	for _, cs := range []struct{ chain, payTo string }{{"5042002", DevWalletAddress}, {"1337", other}} {
		c, err = Load("serve", rail(cs.chain, cs.payTo), env(nil), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if k, _ := c.Warden.EVM.Wallet(); k != "" {
			t.Errorf("chain %s pay_to %s: key %q, want none", cs.chain, cs.payTo, k)
		}
	}
	for _, bad := range []struct{ key, payTo, want string }{
		{"zz", DevWalletAddress, "64 hex digits"},
		{strings.Repeat("0", 64), DevWalletAddress, "1 … n−1"},
		{strings.Repeat("f", 64), DevWalletAddress, "1 … n−1"},
		{key7e, DevWalletAddress, "must be one account"},
	} {
		_, err := Load("serve", rail("1337", bad.payTo), env(map[string]string{"ARENA_WARDEN_EVM_WALLET_KEY": bad.key}), io.Discard)
		if err == nil || !strings.Contains(err.Error(), "warden.evm.wallet_key") || !strings.Contains(err.Error(), bad.want) || strings.Contains(err.Error(), bad.key) && len(bad.key) > 8 {
			t.Errorf("key %.8s…: %v, want %q", bad.key, err, bad.want)
		}
	}
	if w, err := evm.ParseWalletKey(DevWalletKey, 1337); err != nil || w.Address.String() != DevWalletAddress {
		t.Errorf("DevWalletKey is the key of %v (%v), DevWalletAddress says %s", w, err, DevWalletAddress)
	}
	if _, err := Load("serve", nil, env(map[string]string{"ARENA_WARDEN_EVM_WALLET_KEY": key7e}), io.Discard); err == nil || !strings.Contains(err.Error(), "needs warden.evm.rpc_url") {
		t.Errorf("a key without a rail: %v", err)
	}
}
