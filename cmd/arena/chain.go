package main

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"arena/chain/anchor"
	"arena/chain/ccd"
)

// chainCommand is `arena chain <sub-command>`: Concordium tools for operators.
var chainCommand = command{
	summary: "Concordium tools: sign-register-data (offline), status (of transactions on a node)",
	run: func(ctx context.Context, args []string) int {
		return runChain(ctx, args, os.Stdout, os.Stderr)
	},
}

const chainUsage = `usage: arena chain sign-register-data --seed HEX --sender ADDRESS --nonce N --expiry UNIX --data HEX
       arena chain status --node HOST:PORT [--tls] TXHASH...

sign-register-data signs a Register Data transaction offline and prints
  {"energy":<NRG>,"block_item":"<hex>","transaction_hash":"<hex>"}
block_item is what the node's SendBlockItem hashes (0x00 || signature map || header || payload);
transaction_hash is SHA-256 of it, the hash the node returns and the transcript records.
  --seed     the account's ed25519 signing key (its 32-byte seed, 64 hex digits)
  --sender   the account address: base58check, or 64 hex digits
  --nonce    the account's sequence number (from 1)
  --expiry   Unix seconds after which the node refuses the transaction
  --data     the bytes to register, hex, at most 256 bytes (a §5.5 anchor is 50)

status asks the node (gRPC API v2) for each transaction and prints one JSON line per hash:
  {"tx","state":"absent|received|committed|finalized","block","rejected","data","anchor"}
where data is the registered bytes (hex) and anchor their §5.5 decoding when they are one.
Exit 0 when every transaction is finalized and none failed, 1 otherwise, 2 on a usage error.
`

// runChain runs `arena chain` with its arguments and returns the exit code: 0 done, 1 a
// status that is not final, 2 usage error (message on stderr).
func runChain(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "status" {
		return runChainStatus(ctx, args[1:], stdout, stderr)
	}
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
		fmt.Fprint(stdout, chainUsage)
		return 0
	}
	if len(args) == 0 || args[0] != "sign-register-data" {
		fmt.Fprint(stderr, chainUsage)
		return 2
	}
	fs := flag.NewFlagSet("arena chain sign-register-data", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	seedHex := fs.String("seed", "", "ed25519 seed, 64 hex digits")
	sender := fs.String("sender", "", "account address (base58check or 64 hex)")
	nonce := fs.Uint64("nonce", 0, "sequence number, from 1")
	expiry := fs.Uint64("expiry", 0, "Unix seconds")
	dataHex := fs.String("data", "", "data to register, hex (<= 256 bytes)")
	if code, done := parseChainFlags(fs, args[1:], stdout, stderr); done {
		return code
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "arena chain sign-register-data: "+format+"\n", a...)
		return 2
	}
	if fs.NArg() != 0 {
		return fail("unexpected argument %q", fs.Arg(0))
	}
	seed, err := hex.DecodeString(*seedHex)
	if err != nil || len(seed) != 32 {
		return fail("--seed must be 64 hex digits")
	}
	addr, err := parseSender(*sender)
	if err != nil {
		return fail("--sender: %v", err)
	}
	if *nonce == 0 {
		return fail("--nonce must be at least 1")
	}
	if *expiry == 0 {
		return fail("--expiry is required (Unix seconds)")
	}
	data, err := hex.DecodeString(*dataHex)
	if err != nil {
		return fail("--data is not hex: %v", err)
	}
	key, err := ccd.NewKey(addr, seed)
	if err != nil {
		return fail("%v", err)
	}
	tx, err := ccd.RegisterData(key, *nonce, *expiry, data)
	if err != nil {
		return fail("%v", err)
	}
	out, _ := json.Marshal(struct {
		Energy    uint64 `json:"energy"`
		BlockItem string `json:"block_item"`
		TxHash    string `json:"transaction_hash"`
	}{tx.Energy, hex.EncodeToString(tx.BlockItem), tx.HashHex()})
	fmt.Fprintln(stdout, string(out))
	return 0
}

// parseChainFlags parses a chain sub-command's flags. done says the command ends here with code:
// 0 after -h or --help (the usage on stdout), 2 on a flag error (it and the usage on stderr).
func parseChainFlags(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) (code int, done bool) {
	err := fs.Parse(args)
	switch {
	case err == nil:
		return 0, false
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(stdout, chainUsage)
		return 0, true
	}
	fmt.Fprintf(stderr, "%s: %v\n%s", fs.Name(), err, chainUsage)
	return 2, true
}

// parseSender takes a base58check account address or its 32 bytes in hex.
func parseSender(s string) (ccd.Address, error) {
	if len(s) == 64 {
		if b, err := hex.DecodeString(s); err == nil {
			return ccd.Address(b), nil
		}
	}
	return ccd.ParseAddress(s)
}

// runChainStatus is `arena chain status`.
func runChainStatus(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("arena chain status", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	node := fs.String("node", "", "node gRPC address HOST:PORT")
	useTLS := fs.Bool("tls", false, "TLS with the system roots")
	timeout := fs.Duration("timeout", 10*time.Second, "per call")
	if code, done := parseChainFlags(fs, args, stdout, stderr); done {
		return code
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "arena chain status: "+format+"\n", a...)
		return 2
	}
	if *node == "" || fs.NArg() == 0 {
		return fail("--node and at least one transaction hash are required")
	}
	var hashes [][32]byte
	for _, a := range fs.Args() {
		b, err := hex.DecodeString(a)
		if err != nil || len(b) != 32 {
			return fail("%q is not a transaction hash (64 hex digits)", a)
		}
		hashes = append(hashes, [32]byte(b))
	}
	c, err := ccd.Dial(ctx, *node, *useTLS)
	if err != nil {
		return fail("%v", err)
	}
	defer c.Close()
	code := 0
	for _, h := range hashes {
		cctx, cancel := context.WithTimeout(ctx, *timeout)
		st, err := c.Status(cctx, h)
		cancel()
		line := map[string]any{"tx": hex.EncodeToString(h[:])}
		if err != nil {
			line["error"] = err.Error()
			code = 1
		} else {
			line["state"] = st.State.String()
			if st.State >= ccd.Committed {
				line["block"] = hex.EncodeToString(st.Block[:])
			}
			if st.Rejected {
				line["rejected"] = st.Reason
			}
			if st.Registered {
				line["data"] = hex.EncodeToString(st.Data)
				if a, err := anchor.Decode(st.Data); err == nil {
					line["anchor"] = map[string]any{"kind": a.Kind.String(), "round": anchor.RoundID(a.Round),
						"seq": a.Seq, "hash": hex.EncodeToString(a.Hash[:])}
				}
			}
			if st.State != ccd.Finalized || st.Rejected {
				code = 1
			}
		}
		out, _ := json.Marshal(line)
		fmt.Fprintln(stdout, string(out))
	}
	return code
}
