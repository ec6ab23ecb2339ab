package config

import (
	"io"
	"strings"
	"testing"
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
