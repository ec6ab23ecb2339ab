package evm

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"arena/chain/x402"
)

// maxResponse bounds a JSON-RPC answer read from the node, in bytes.
const maxResponse = 8 << 20

// Client talks JSON-RPC 2.0 over HTTP to one EVM node.
type Client struct {
	url  string
	http *http.Client
	id   atomic.Uint64
	// Poll is how often WaitReceipt asks for a receipt (default 100 ms).
	Poll time.Duration
}

// Dial returns a client of the node at url (http:// or https://). hc nil means a client with a
// 30-second timeout. Nothing is sent until the first call.
func Dial(url string, hc *http.Client) *Client {
	if hc == nil {
		hc = &http.Client{Timeout: 30 * time.Second}
	}
	return &Client{url: url, http: hc, Poll: 100 * time.Millisecond}
}

// RPCError is a JSON-RPC error answer. For a reverted call geth sets Code 3, Message
// "execution reverted: <reason>" and Data the ABI-encoded revert data.
type RPCError struct {
	Method  string
	Code    int
	Message string
	Data    string
}

func (e *RPCError) Error() string {
	return fmt.Sprintf("evm: %s: %s (code %d)", e.Method, e.Message, e.Code)
}

// RevertedError is a mined transaction that failed (receipt status 0): its effects were undone,
// its gas spent.
type RevertedError struct{ Receipt Receipt }

func (e *RevertedError) Error() string {
	return fmt.Sprintf("evm: transaction %s reverted in block %d", e.Receipt.TxHash, e.Receipt.Block)
}

type rpcRequest struct {
	JSONRPC string `json:"jsonrpc"`
	ID      uint64 `json:"id"`
	Method  string `json:"method"`
	Params  []any  `json:"params"`
}

type rpcResponse struct {
	ID     uint64          `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

// call sends one request and decodes its result into out (nil to discard it).
func (c *Client) call(ctx context.Context, out any, method string, params ...any) error {
	if params == nil {
		params = []any{}
	}
	body, err := json.Marshal(rpcRequest{JSONRPC: "2.0", ID: c.id.Add(1), Method: method, Params: params})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("evm: %s: %w", method, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse+1))
	if err != nil {
		return fmt.Errorf("evm: %s: %w", method, err)
	}
	if len(raw) > maxResponse {
		return fmt.Errorf("evm: %s: answer longer than %d bytes", method, maxResponse)
	}
	var r rpcResponse
	if err := json.Unmarshal(raw, &r); err != nil {
		return fmt.Errorf("evm: %s: HTTP %d, not a JSON-RPC answer: %w", method, resp.StatusCode, err)
	}
	if r.Error != nil {
		e := &RPCError{Method: method, Code: r.Error.Code, Message: r.Error.Message}
		_ = json.Unmarshal(r.Error.Data, &e.Data)
		return e
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(r.Result, out); err != nil {
		return fmt.Errorf("evm: %s: result: %w", method, err)
	}
	return nil
}

// ChainID is eth_chainId.
func (c *Client) ChainID(ctx context.Context) (uint64, error) {
	var s string
	if err := c.call(ctx, &s, "eth_chainId"); err != nil {
		return 0, err
	}
	return parseQuantity64(s)
}

// Accounts is eth_accounts: the accounts the node holds keys of.
func (c *Client) Accounts(ctx context.Context) ([]x402.Address, error) {
	var ss []string
	if err := c.call(ctx, &ss, "eth_accounts"); err != nil {
		return nil, err
	}
	out := make([]x402.Address, len(ss))
	for i, s := range ss {
		a, ok := x402.ParseAddress(s)
		if !ok {
			return nil, fmt.Errorf("evm: eth_accounts: bad address %q", s)
		}
		out[i] = a
	}
	return out, nil
}

// Tx is a transaction for the node to sign and send from an account it holds.
type Tx struct {
	From  x402.Address
	To    *x402.Address // nil creates a contract from Data
	Data  []byte
	Value *big.Int // wei; nil is zero
	// Gas is the gas limit; 0 lets the node estimate it (and refuse a transaction the estimate
	// sees revert). A set limit sends even a reverting transaction, mined with status 0.
	Gas uint64
}

// SendTransaction is eth_sendTransaction: the node fills in nonce, gas and fees, signs with
// From's key and returns the transaction hash. A transaction the node's gas estimate sees
// revert is refused here with an *RPCError naming the reason, and never sent.
func (c *Client) SendTransaction(ctx context.Context, tx Tx) ([32]byte, error) {
	m := map[string]string{"from": lowerHex(tx.From[:])}
	if tx.To != nil {
		m["to"] = lowerHex(tx.To[:])
	}
	if len(tx.Data) > 0 {
		m["input"] = lowerHex(tx.Data)
	}
	if tx.Value != nil && tx.Value.Sign() > 0 {
		m["value"] = "0x" + tx.Value.Text(16)
	}
	if tx.Gas > 0 {
		m["gas"] = "0x" + strconv.FormatUint(tx.Gas, 16)
	}
	var s string
	if err := c.call(ctx, &s, "eth_sendTransaction", m); err != nil {
		return [32]byte{}, err
	}
	return parseHash(s)
}

// Receipt is the part of a transaction receipt the Warden uses.
type Receipt struct {
	TxHash          string
	Block           uint64
	Success         bool          // status 1
	ContractAddress *x402.Address // set for a contract creation
	GasUsed         uint64
}

type wireReceipt struct {
	TransactionHash string  `json:"transactionHash"`
	BlockNumber     string  `json:"blockNumber"`
	Status          string  `json:"status"`
	ContractAddress *string `json:"contractAddress"`
	GasUsed         string  `json:"gasUsed"`
}

// TransactionReceipt is eth_getTransactionReceipt; ok is false while the transaction is not
// mined.
func (c *Client) TransactionReceipt(ctx context.Context, hash [32]byte) (r Receipt, ok bool, err error) {
	var w *wireReceipt
	if err := c.call(ctx, &w, "eth_getTransactionReceipt", lowerHex(hash[:])); err != nil {
		return Receipt{}, false, err
	}
	if w == nil {
		return Receipt{}, false, nil
	}
	r.TxHash = w.TransactionHash
	if r.Block, err = parseQuantity64(w.BlockNumber); err != nil {
		return Receipt{}, false, fmt.Errorf("evm: receipt blockNumber: %w", err)
	}
	if r.GasUsed, err = parseQuantity64(w.GasUsed); err != nil {
		return Receipt{}, false, fmt.Errorf("evm: receipt gasUsed: %w", err)
	}
	switch w.Status {
	case "0x1":
		r.Success = true
	case "0x0":
	default:
		return Receipt{}, false, fmt.Errorf("evm: receipt status %q", w.Status)
	}
	if w.ContractAddress != nil {
		a, ok := x402.ParseAddress(*w.ContractAddress)
		if !ok {
			return Receipt{}, false, fmt.Errorf("evm: receipt contractAddress %q", *w.ContractAddress)
		}
		r.ContractAddress = &a
	}
	return r, true, nil
}

// WaitReceipt polls for the transaction's receipt every c.Poll until it is mined or ctx ends.
// geth's "transaction indexing is in progress" answer (a node still indexing its chain at start)
// is taken as not mined yet.
// A mined transaction that failed is returned with a *RevertedError.
func (c *Client) WaitReceipt(ctx context.Context, hash [32]byte) (Receipt, error) {
	t := time.NewTicker(c.Poll)
	defer t.Stop()
	for {
		r, ok, err := c.TransactionReceipt(ctx, hash)
		if isIndexing(err) {
			err, ok = nil, false
		}
		if err != nil {
			return Receipt{}, err
		}
		if ok {
			if !r.Success {
				return r, &RevertedError{Receipt: r}
			}
			return r, nil
		}
		select {
		case <-ctx.Done():
			return Receipt{}, ctx.Err()
		case <-t.C:
		}
	}
}

// Call is eth_call against the latest block: the bytes the contract returns.
func (c *Client) Call(ctx context.Context, to x402.Address, data []byte) ([]byte, error) {
	var s string
	if err := c.call(ctx, &s, "eth_call", map[string]string{"to": lowerHex(to[:]), "input": lowerHex(data)}, "latest"); err != nil {
		return nil, err
	}
	if !strings.HasPrefix(s, "0x") {
		return nil, fmt.Errorf("evm: eth_call: result %q", s)
	}
	return hex.DecodeString(s[2:])
}

// BalanceAt is eth_getBalance at the latest block, in wei.
func (c *Client) BalanceAt(ctx context.Context, a x402.Address) (*big.Int, error) {
	var s string
	if err := c.call(ctx, &s, "eth_getBalance", lowerHex(a[:]), "latest"); err != nil {
		return nil, err
	}
	return parseQuantity(s)
}

func lowerHex(b []byte) string { return "0x" + hex.EncodeToString(b) }

// parseQuantity reads a JSON-RPC QUANTITY: "0x" and hex digits without leading zeros.
func parseQuantity(s string) (*big.Int, error) {
	if len(s) < 3 || s[:2] != "0x" || (len(s) > 3 && s[2] == '0') {
		return nil, fmt.Errorf("evm: bad quantity %q", s)
	}
	n, ok := new(big.Int).SetString(s[2:], 16)
	if !ok {
		return nil, fmt.Errorf("evm: bad quantity %q", s)
	}
	return n, nil
}

func parseQuantity64(s string) (uint64, error) {
	if len(s) < 3 || s[:2] != "0x" || (len(s) > 3 && s[2] == '0') {
		return 0, fmt.Errorf("evm: bad quantity %q", s)
	}
	return strconv.ParseUint(s[2:], 16, 64)
}

func parseHash(s string) ([32]byte, error) {
	var h [32]byte
	if len(s) != 66 || s[:2] != "0x" {
		return h, fmt.Errorf("evm: bad hash %q", s)
	}
	if _, err := hex.Decode(h[:], []byte(s[2:])); err != nil {
		return h, fmt.Errorf("evm: bad hash %q", s)
	}
	return h, nil
}

// errShort is an eth_call answer shorter than the ABI type it should hold.
var errShort = errors.New("evm: contract answer too short")

// parseHexBytes reads "0x" followed by an even number of hex digits.
func parseHexBytes(s string) ([]byte, bool) {
	if len(s) < 2 || s[:2] != "0x" {
		return nil, false
	}
	b, err := hex.DecodeString(s[2:])
	return b, err == nil
}

// isIndexing is geth's answer to a receipt asked for while it is still indexing transactions.
func isIndexing(err error) bool {
	var e *RPCError
	return errors.As(err, &e) && strings.Contains(e.Message, "transaction indexing is in progress")
}
