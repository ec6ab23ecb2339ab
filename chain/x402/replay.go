package x402

import (
	"context"
	"encoding/hex"
	"strconv"
)

// ReplayKey names one EIP-3009 authorization where its nonce is spent on chain (§10.8): the
// chain, the contract that consumes it (the token for exact, the GatewayWallet for Gateway),
// the payer and the nonce. Two payments with one key are one authorization.
type ReplayKey struct {
	ChainID  uint64
	Contract Address
	From     Address
	Nonce    [32]byte
}

// String is the key as a store's path, "<chainId>/<contract>/<from>/<nonce>", addresses and
// nonce in lower-case hex with 0x: one text per key.
func (k ReplayKey) String() string {
	b := make([]byte, 0, 20+3*2+2*42+66)
	b = strconv.AppendUint(b, k.ChainID, 10)
	b = append(b, "/0x"...)
	b = hex.AppendEncode(b, k.Contract[:])
	b = append(b, "/0x"...)
	b = hex.AppendEncode(b, k.From[:])
	b = append(b, "/0x"...)
	b = hex.AppendEncode(b, k.Nonce[:])
	return string(b)
}

// ReplayStore claims authorizations' nonces durably (§10.8): the Ledger's, which claims in the
// same transaction that creates the payment record, before any facilitator call.
type ReplayStore interface {
	// Claim makes paymentID the holder of k if nobody holds it, and returns k's holder:
	// paymentID when this call claimed it, another payment's id when k was claimed before (the
	// caller then answers that payment's outcome for the same resource, payment_replayed
	// otherwise). The claim is durable when Claim returns.
	Claim(ctx context.Context, k ReplayKey, paymentID string) (holder string, err error)
}
