package config

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const houseAddr = "3kBx2h5Y2veb4hZgAJWPrr8RyQESKm5TjzF3ti1QQ4VSYLwK1G" // a version-1 account address (chain/ccd's vectors)

// A configured node's network is config: the escrow instance, the house identity account and
// the chain, each from a flag, the environment or the file, each refused without a node.
func TestChainNetworkSettings(t *testing.T) {
	c, err := Load("serve", []string{"--chain-node", "node.example:20000", "--chain-escrow", "<9100,3>",
		"--chain-house-account", houseAddr}, env(map[string]string{"ARENA_CHAIN_NETWORK": TestnetChain}), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.ChainEscrow != "<9100,3>" || c.ChainHouseAccount != houseAddr || c.ChainNetwork != TestnetChain {
		t.Fatalf("chain settings %q %q %q", c.ChainEscrow, c.ChainHouseAccount, c.ChainNetwork)
	}
	file := filepath.Join(t.TempDir(), "arena.json")
	os.WriteFile(file, []byte(`{"chain_node":"n:1","chain_escrow":"`+TestnetChain+`:12810.0","chain_house_account":"`+houseAddr+`"}`), 0o600)
	if c, err = Load("serve", []string{"--config", file}, env(nil), io.Discard); err != nil || c.ChainEscrow != TestnetChain+":12810.0" {
		t.Fatalf("from a file: %q %v", c.ChainEscrow, err)
	}

	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"escrow without a node", []string{"--chain-escrow", "<12810,0>"}, "chain_escrow"},
		{"house without a node", []string{"--chain-house-account", houseAddr}, "chain_house_account"},
		{"network without a node", []string{"--chain-network", TestnetChain}, "chain_network"},
		{"escrow not an address", []string{"--chain-node", "n:1", "--chain-escrow", "12810"}, "<INDEX,SUBINDEX>"},
		{"escrow leading zero", []string{"--chain-node", "n:1", "--chain-escrow", "<012810,0>"}, "chain_escrow"},
		{"escrow on another chain", []string{"--chain-node", "n:1", "--chain-network", TestnetChain,
			"--chain-escrow", "ccd:9dd9ca4d19e9393877d2c44b70f89acb:1.0"}, "the escrow is on"},
		{"house not base58", []string{"--chain-node", "n:1", "--chain-house-account", "0OIl"}, "chain_house_account"},
		{"network upper case", []string{"--chain-node", "n:1", "--chain-network", strings.ToUpper(TestnetChain)}, "chain_network"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load("serve", tc.args, env(nil), io.Discard)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want it to name %q", err, tc.want)
			}
		})
	}
}

func TestParseEscrow(t *testing.T) {
	for in, want := range map[string]Escrow{
		"<12810,0>":           {Index: 12810},
		"<0,7>":               {Subindex: 7},
		TestnetChain + ":5.1": {Chain: TestnetChain, Index: 5, Subindex: 1},
	} {
		if got, err := ParseEscrow(in); err != nil || got != want {
			t.Errorf("ParseEscrow(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "<>", "<1>", "<1,>", "<,1>", "1,0", "<1,0", "<+1,0>", "<1,-0>", "<1, 0>", "<01,0>",
		"ccd:x:1.0", TestnetChain + ":1", "<18446744073709551616,0>"} {
		if got, err := ParseEscrow(in); err == nil {
			t.Errorf("ParseEscrow(%q) = %+v, want an error", in, got)
		}
	}
}
