// Package evmtest runs the tests' EVM chain: a real `geth --dev` (scripts/build-geth.sh, or
// ARENA_GETH) with the TestUSDC token of chain/evm/contracts compiled by solc and deployed, and
// signs EIP-3009 authorizations with fixed test keys. For tests of other packages; chain/evm's
// own tests keep their helpers.
package evmtest

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
	"golang.org/x/crypto/sha3"

	"arena/chain/evm"
	"arena/chain/x402"
)

// root is the module's directory (the first parent holding go.mod).
func root(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("evmtest: no go.mod above the test's directory")
		}
		dir = up
	}
}

func gethBinary(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("ARENA_GETH"); p != "" {
		return p
	}
	var stderr bytes.Buffer
	cmd := exec.Command(filepath.Join(root(t), "scripts", "build-geth.sh"))
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("scripts/build-geth.sh: %v\n%s", err, stderr.String())
	}
	return strings.TrimSpace(string(out))
}

func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// Chain is a running dev chain with the token deployed.
type Chain struct {
	Client *evm.Client
	URL    string       // the node's JSON-RPC URL
	Dev    x402.Address // the node's funded account: deployer, minter and relayer
	Token  evm.Token
	ID     uint64
}

// Start runs geth --dev (chain id 1337) on loopback in a temporary directory (stopped when the
// test ends), deploys TestUSDC as ("USDC", "2") and returns it.
func Start(t testing.TB) *Chain { return StartChain(t, 0) }

// devKey is the dev account's key when StartChain is given a chain id (32 bytes of 0x46).
const devKey = "4646464646464646464646464646464646464646464646464646464646464646"

// genesis is a dev chain's genesis with every fork up to Cancun from block 0 (merged, as geth
// --dev is), the given chain id and the dev account (devKey's address) funded. Not Prague: its
// system contracts (EIP-7002, EIP-7251) would have to be in the alloc, or geth cannot build a
// block ("empty system contract").
const genesis = `{"config":{"chainId":%d,"homesteadBlock":0,"eip150Block":0,"eip155Block":0,"eip158Block":0,` +
	`"byzantiumBlock":0,"constantinopleBlock":0,"petersburgBlock":0,"istanbulBlock":0,"berlinBlock":0,"londonBlock":0,` +
	`"mergeNetsplitBlock":0,"shanghaiTime":0,"cancunTime":0,"terminalTotalDifficulty":0,` +
	`"blobSchedule":{"cancun":{"target":3,"max":6,"baseFeeUpdateFraction":3338477}}},` +
	`"difficulty":"0","gasLimit":"30000000","baseFeePerGas":"1000000000",` +
	`"alloc":{"9d8A62f656a8d1615C1294fd71e9CFb3E4855A4F":{"balance":"0x21e19e0c9bab2400000"}}}`

// StartChain is Start with another chain id than geth --dev's 1337 (0 keeps it): the data
// directory is initialised from genesis with that id first, and the dev account is devKey's,
// imported into its keystore. An x402 v1 client signs under the chain id of its network name
// (base-sepolia is 84532), and TestUSDC's domain is block.chainid, so a v1 client's payment
// needs the chain to have that id.
func StartChain(t testing.TB, chainID uint64) *Chain {
	t.Helper()
	bin := gethBinary(t)
	port := freePort(t)
	dir := t.TempDir()
	var extra []string
	if chainID != 0 {
		run := func(args ...string) {
			if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
				t.Fatalf("geth %v: %v\n%s", args, err, out)
			}
		}
		pw, key, gen := filepath.Join(dir, "pw"), filepath.Join(dir, "key"), filepath.Join(dir, "genesis.json")
		for f, body := range map[string]string{pw: "dev\n", key: devKey + "\n", gen: fmt.Sprintf(genesis, chainID)} {
			if err := os.WriteFile(f, []byte(body), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		run("account", "import", "--datadir", dir, "--password", pw, key)
		run("init", "--datadir", dir, gen)
		extra = []string{"--password", pw}
	}
	args := append([]string{"--dev", "--datadir", dir, "--ipcdisable", "--nodiscover", "--maxpeers", "0",
		"--port", "0", "--authrpc.port", strconv.Itoa(freePort(t)),
		"--http", "--http.addr", "127.0.0.1", "--http.port", strconv.Itoa(port), "--http.api", "eth,net,web3",
		"--verbosity", "2"}, extra...)
	cmd := exec.Command(bin, args...)
	logFile, err := os.Create(filepath.Join(dir, "geth.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		t.Fatalf("start geth: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
		logFile.Close()
	})
	url := "http://127.0.0.1:" + strconv.Itoa(port)
	c := evm.Dial(url, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	for {
		if _, err := c.ChainID(ctx); err == nil {
			break
		}
		select {
		case err := <-exited:
			log, _ := os.ReadFile(filepath.Join(dir, "geth.log"))
			t.Fatalf("geth exited: %v\n%s", err, log)
		case <-ctx.Done():
			t.Fatalf("geth did not answer on port %d", port)
		case <-time.After(100 * time.Millisecond):
		}
	}
	id, err := c.ChainID(ctx)
	if err != nil {
		t.Fatal(err)
	}
	accts, err := c.Accounts(ctx)
	if err != nil || len(accts) != 1 {
		t.Fatalf("accounts %v, %v", accts, err)
	}
	addr, _, err := c.Deploy(ctx, accts[0], compileToken(t), evm.EncodeStrings("USDC", "2"))
	if err != nil {
		t.Fatalf("deploy: %v", err)
	}
	return &Chain{Client: c, URL: url, Dev: accts[0], Token: evm.Token{Client: c, Address: addr}, ID: id}
}

// compileToken compiles chain/evm/contracts/TestUSDC.sol with solc (npm ci there first when
// node_modules is missing) and returns its creation bytecode.
func compileToken(t testing.TB) []byte {
	t.Helper()
	dir := filepath.Join(root(t), "chain", "evm", "contracts")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "solc")); err != nil {
		cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm ci in %s: %v\n%s", dir, err, out)
		}
	}
	var stderr bytes.Buffer
	cmd := exec.Command("node", filepath.Join(dir, "compile.mjs"))
	cmd.Dir = dir
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node compile.mjs: %v\n%s", err, stderr.String())
	}
	var res struct {
		Bytecode string `json:"bytecode"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatal(err)
	}
	code, err := hex.DecodeString(strings.TrimPrefix(res.Bytecode, "0x"))
	if err != nil || len(code) == 0 {
		t.Fatalf("solc bytecode %.40q: %v", res.Bytecode, err)
	}
	return code
}

// Mint gives a value atomic units of the token.
func (c *Chain) Mint(t testing.TB, a x402.Address, value int64) {
	t.Helper()
	if _, err := c.Token.Mint(context.Background(), c.Dev, a, big.NewInt(value)); err != nil {
		t.Fatalf("mint: %v", err)
	}
}

// Balance is a's token balance.
func (c *Chain) Balance(t testing.TB, a x402.Address) int64 {
	t.Helper()
	b, err := c.Token.BalanceOf(context.Background(), a)
	if err != nil || !b.IsInt64() {
		t.Fatalf("balance %v, %v", b, err)
	}
	return b.Int64()
}

// Key is a fixed test key (32 bytes of b) and its address.
func Key(b byte) (*secp256k1.PrivateKey, x402.Address) {
	priv := secp256k1.PrivKeyFromBytes(bytes.Repeat([]byte{b}, 32))
	u := priv.PubKey().SerializeUncompressed()
	h := sha3.NewLegacyKeccak256()
	h.Write(u[1:])
	var a x402.Address
	copy(a[:], h.Sum(nil)[12:])
	return priv, a
}

// Sign is the Ethereum signature r ‖ s ‖ v (v 27/28, low s) of digest.
func Sign(priv *secp256k1.PrivateKey, digest [32]byte) []byte {
	c := ecdsa.SignCompact(priv, digest[:], false) // v ‖ r ‖ s
	return append(append([]byte{}, c[1:]...), c[0])
}

// HighS is sig's malleable twin: s → n − s, v flipped (it recovers the same key).
func HighS(sig []byte) []byte {
	n := secp256k1.S256().N
	s := new(big.Int).SetBytes(sig[32:64])
	s.Sub(n, s)
	out := append([]byte{}, sig...)
	s.FillBytes(out[32:64])
	out[64] ^= 1 // 27 ↔ 28
	return out
}
