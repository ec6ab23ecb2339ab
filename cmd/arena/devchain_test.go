package main

import (
	"bufio"
	"context"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	v2 "github.com/Concordium/concordium-go-sdk/v2"

	"arena/chain/devchain"
)

// TestDevchainCommand runs `arena devchain`, reads the ready line, queries the node with the
// SDK's client, and stops it by cancelling the context.
func TestDevchainCommand(t *testing.T) {
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "dc")
	genesis := filepath.Join(tmp, "genesis.json")
	agents := filepath.Join(tmp, "agents.json")
	seed := strings.Repeat("01", 32) // register_data.json's key: public 8a88e3dd...
	if err := os.WriteFile(genesis, []byte(`{"accounts":[{"name":"arena","seed":"`+seed+`","balance_micro_ccd":5,"next_nonce":7},{"name":"house","public_key":"8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c","address":"2wkH4kHMn2WPndf8CxmsoFkX93ouZMJUwTBFSZpDCeNeGWa7dj"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(agents, []byte(`[{"token_id":484,"owner":"2wkH4kHMn2WPndf8CxmsoFkX93ouZMJUwTBFSZpDCeNeGWa7dj","agent_uri":"https://example.com/.well-known/agent-card.json","metadata_hash":"d7d234f759ec34fd6298b7e32318614760070aaef9f4e92ced928324b49a0602","agent_wallet":"2wkH4kHMn2WPndf8CxmsoFkX93ouZMJUwTBFSZpDCeNeGWa7dj","registered_at_ms":1767225600000},{"token_id":2,"owner":"2wkH4kHMn2WPndf8CxmsoFkX93ouZMJUwTBFSZpDCeNeGWa7dj","status":"Suspended"}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- runDevchain(ctx, []string{"--data", dir, "--block-time", "10ms", "--finalize-after", "0", "--genesis", genesis, "--agents", agents}, pw, io.Discard)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadBytes('\n')
	if err != nil {
		t.Fatalf("ready line: %v", err)
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	var ready devchainReady
	if err := json.Unmarshal(line, &ready); err != nil {
		t.Fatalf("ready line %q: %v", line, err)
	}
	if ready.Registry != "<12802,0>" || len(ready.Accounts) != 2 || ready.Accounts[0].Name != "arena" || ready.Accounts[1].Address != "2wkH4kHMn2WPndf8CxmsoFkX93ouZMJUwTBFSZpDCeNeGWa7dj" {
		t.Fatalf("ready %+v", ready)
	}
	if fi, err := os.Stat(ready.GenesisFile); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("genesis file %v (%v), want mode 0600", fi, err)
	}
	c, err := v2.NewClient(v2.Config{NodeAddress: ready.Addr})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	addr, err := v2.AccountAddressFromString(ready.Accounts[0].Address)
	if err != nil {
		t.Fatal(err)
	}
	nn, err := c.GetNextAccountSequenceNumber(ctx, &addr)
	if err != nil || nn.SequenceNumber.Value != 7 {
		t.Fatalf("next nonce of the arena account %v (%v), want 7 from the genesis file", nn, err)
	}
	// The agents file's token 484 is cis8004.json's example record, byte for byte.
	res, err := c.InvokeInstance(ctx, v2.UpdateContractPayload{
		Amount: &v2.Amount{}, Address: &v2.ContractAddress{Index: 12802},
		ReceiveName: &v2.ReceiveName{Value: "CIS-8004.agentOf"}, Parameter: &v2.Parameter{Value: devchain.EncodeTokenID(484)},
	}, v2.BlockHashInputLastFinal{}, v2.Energy{Value: 30000}, &v2.AccountAddress{})
	const example = "08e401000000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f012f00000068747470733a2f2f6578616d706c652e636f6d2f2e77656c6c2d6b6e6f776e2f6167656e742d636172642e6a736f6e01d7d234f759ec34fd6298b7e32318614760070aaef9f4e92ced928324b49a06020001000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f0000a8da769b0100000000"
	if err != nil || hex.EncodeToString(res.GetSuccess().GetReturnValue()) != example {
		t.Fatalf("agentOf(484) %v (%v)", res, err)
	}
	res, err = c.InvokeInstance(ctx, v2.UpdateContractPayload{
		Amount: &v2.Amount{}, Address: &v2.ContractAddress{Index: 12802},
		ReceiveName: &v2.ReceiveName{Value: "CIS-8004.agentOf"}, Parameter: &v2.Parameter{Value: devchain.EncodeTokenID(2)},
	}, v2.BlockHashInputLastFinal{}, v2.Energy{Value: 30000}, &v2.AccountAddress{})
	if a, derr := devchain.DecodeAgentView(res.GetSuccess().GetReturnValue()); err != nil || derr != nil || a.Status != devchain.AgentSuspended || a.AgentURI != "" {
		t.Fatalf("agentOf(2) %+v (%v, %v), want suspended with no uri", a, err, derr)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("exit code %d", code)
	}
	if code := runDevchain(context.Background(), []string{"extra"}, io.Discard, io.Discard); code != 2 {
		t.Fatalf("usage error exit code %d, want 2", code)
	}
}
