package evm

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"golang.org/x/crypto/sha3"

	"arena/chain/x402"
)

// eventAuthorizationUsed is EIP-3009's AuthorizationUsed(address indexed authorizer, bytes32
// indexed nonce), emitted once by the token when an authorization is spent.
const eventAuthorizationUsed = "AuthorizationUsed(address,bytes32)"

// ErrNotSubmitted is returned by SettleOnce when the record hook failed after the transaction
// was sent: the transfer may land, and the caller's next SettleOnce finds it on chain.
var ErrNotSubmitted = errors.New("evm: the submission was not recorded")

// SettleOnce settles p's authorization as transferWithAuthorization from relayer, at most once
// across crashes (warden-games §10.8, "a record stuck in settling after a crash is resumed"):
//
//  1. known is the hash a previous attempt recorded (zero when none). If the node has its
//     receipt, that is the answer; if the node still holds it pending, SettleOnce waits for it.
//  2. Otherwise SettleOnce waits until relayer has nothing pending (its pending and latest
//     account nonces agree), then asks the token authorizationState(from, nonce). A spent
//     authorization is never sent again: its AuthorizationUsed log names the transaction
//     that spent it, whose receipt is returned.
//  3. Only an unspent authorization is sent. submitted is called with the hash as soon as the
//     node accepted it and before the receipt is awaited: the caller makes it durable there.
//     A submitted error is returned wrapped in ErrNotSubmitted.
//
// A mined transaction that failed is returned with a *RevertedError; the node's refusal to send
// (its gas estimate sees the token revert: a bad signature, an expired authorization) with an
// *RPCError. ctx bounds every wait.
func (t Token) SettleOnce(ctx context.Context, relayer x402.Address, p *x402.Payment, known [32]byte,
	submitted func(tx [32]byte) error) (Receipt, error) {
	if known != ([32]byte{}) {
		if r, ok, err := t.Client.TransactionReceipt(ctx, known); err != nil && !isIndexing(err) {
			return Receipt{}, err
		} else if ok {
			return receiptResult(r)
		}
		pending, err := t.Client.hasTransaction(ctx, known)
		if err != nil {
			return Receipt{}, err
		}
		if pending {
			return t.Client.WaitReceipt(ctx, known)
		}
	}
	if err := t.Client.waitIdle(ctx, relayer); err != nil {
		return Receipt{}, err
	}
	a := p.Authorization
	used, err := t.AuthorizationState(ctx, a.From, a.Nonce)
	if err != nil {
		return Receipt{}, err
	}
	if used {
		h, err := t.authorizationTx(ctx, a.From, a.Nonce)
		if err != nil {
			return Receipt{}, err
		}
		return t.Client.WaitReceipt(ctx, h)
	}
	data, err := TransferWithAuthorizationData(a, p.Signature)
	if err != nil {
		return Receipt{}, err
	}
	to := t.Address
	h, err := t.Client.SendTransaction(ctx, Tx{From: relayer, To: &to, Data: data})
	if err != nil {
		return Receipt{}, err
	}
	if err := submitted(h); err != nil {
		return Receipt{}, fmt.Errorf("%w: %s: %w", ErrNotSubmitted, lowerHex(h[:]), err)
	}
	return t.Client.WaitReceipt(ctx, h)
}

func receiptResult(r Receipt) (Receipt, error) {
	if !r.Success {
		return r, &RevertedError{Receipt: r}
	}
	return r, nil
}

// authorizationTx is the hash of the transaction whose AuthorizationUsed(from, nonce) log the
// token emitted. The whole chain is searched (fromBlock 0): right for a dev chain; a long chain
// would start from the block the payment record was created at.
func (t Token) authorizationTx(ctx context.Context, from x402.Address, nonce [32]byte) ([32]byte, error) {
	topic := keccak256([]byte(eventAuthorizationUsed))
	filter := map[string]any{
		"fromBlock": "0x0",
		"toBlock":   "latest",
		"address":   lowerHex(t.Address[:]),
		"topics":    []string{lowerHex(topic[:]), lowerHex(wordAddress(from)), lowerHex(nonce[:])},
	}
	var logs []struct {
		TransactionHash string `json:"transactionHash"`
		Removed         bool   `json:"removed"`
	}
	if err := t.Client.call(ctx, &logs, "eth_getLogs", filter); err != nil {
		return [32]byte{}, err
	}
	for _, l := range logs {
		if !l.Removed {
			return parseHash(l.TransactionHash)
		}
	}
	return [32]byte{}, fmt.Errorf("evm: authorization %s/0x%s is used but no AuthorizationUsed log names it",
		from, hex.EncodeToString(nonce[:]))
}

// HasTransaction is eth_getTransactionByHash: whether the node knows the transaction, pending
// or mined (false for one it dropped or never saw).
func (c *Client) HasTransaction(ctx context.Context, h [32]byte) (bool, error) {
	return c.hasTransaction(ctx, h)
}

// hasTransaction is whether the node knows the transaction (pending or mined).
func (c *Client) hasTransaction(ctx context.Context, h [32]byte) (bool, error) {
	var tx *struct {
		Hash string `json:"hash"`
	}
	if err := c.call(ctx, &tx, "eth_getTransactionByHash", lowerHex(h[:])); err != nil {
		return false, err
	}
	return tx != nil, nil
}

// NonceAt is eth_getTransactionCount of a at block tag ("latest", "pending").
func (c *Client) NonceAt(ctx context.Context, a x402.Address, tag string) (uint64, error) {
	var s string
	if err := c.call(ctx, &s, "eth_getTransactionCount", lowerHex(a[:]), tag); err != nil {
		return 0, err
	}
	return parseQuantity64(s)
}

// waitIdle waits, polling every c.Poll, until a has no transaction pending: its pending and
// latest account nonces agree.
func (c *Client) waitIdle(ctx context.Context, a x402.Address) error {
	for {
		pending, err := c.NonceAt(ctx, a, "pending")
		if err != nil {
			return err
		}
		latest, err := c.NonceAt(ctx, a, "latest")
		if err != nil {
			return err
		}
		if pending == latest {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(c.Poll):
		}
	}
}

// keccak256 is the legacy Keccak-256 of b (an event's topic 0 is that of its signature).
func keccak256(b []byte) [32]byte {
	h := sha3.NewLegacyKeccak256()
	h.Write(b)
	var out [32]byte
	h.Sum(out[:0])
	return out
}
