package evm

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"

	"arena/chain/x402"
)

// Wallet is an account whose key this process holds (the Warden's, warden-games §11): it signs
// EIP-1559 transactions locally for the chain ChainID (EIP-155 replay protection), so no node
// needs the key.
type Wallet struct {
	key     *secp256k1.PrivateKey
	Address x402.Address
	ChainID uint64
}

// ParseWalletKey reads a secp256k1 private key as 64 hex digits (an optional 0x) for the chain
// chainID. Errors: not 32 bytes of hex, or zero or not below the curve order.
func ParseWalletKey(s string, chainID uint64) (*Wallet, error) {
	b, err := hex.DecodeString(strings.TrimPrefix(strings.TrimSpace(s), "0x"))
	if err != nil || len(b) != 32 {
		return nil, errors.New("evm: a wallet key is 32 bytes as 64 hex digits")
	}
	var n secp256k1.ModNScalar
	if overflow := n.SetByteSlice(b); overflow || n.IsZero() {
		return nil, errors.New("evm: a wallet key must be in 1 … n−1 of secp256k1")
	}
	return NewWallet(secp256k1.NewPrivateKey(&n), chainID), nil
}

// NewWallet is the wallet of key on chain chainID.
func NewWallet(key *secp256k1.PrivateKey, chainID uint64) *Wallet {
	return &Wallet{key: key, Address: AddressOf(key.PubKey()), ChainID: chainID}
}

// AddressOf is the EVM address of pub: the last 20 bytes of keccak256 of its uncompressed X ‖ Y.
func AddressOf(pub *secp256k1.PublicKey) x402.Address {
	u := pub.SerializeUncompressed()
	h := keccak256(u[1:])
	var a x402.Address
	copy(a[:], h[12:])
	return a
}

// Sign sets tx's chain id to the wallet's and signs it.
func (w *Wallet) Sign(tx *DynamicFeeTx) {
	tx.ChainID = w.ChainID
	tx.Sign(w.key)
}

// TokenTransfer builds and signs the ERC-20 transfer(to, amount) of token at nonce from the
// wallet (§11): the gas limit is the node's eth_estimateGas plus a fifth, the fees
// SuggestFees's. The transaction is not sent: the caller stores its hash and bytes first. An
// estimate the token reverts (the wallet lacks the amount) is an *RPCError.
func (w *Wallet) TokenTransfer(ctx context.Context, c *Client, token, to x402.Address, amount *big.Int, nonce uint64) (*DynamicFeeTx, error) {
	if amount.Sign() <= 0 || amount.BitLen() > 256 {
		return nil, fmt.Errorf("evm: transfer amount %s", amount)
	}
	data := TransferData(to, amount)
	gas, err := c.EstimateGas(ctx, w.Address, token, data)
	if err != nil {
		return nil, err
	}
	fees, err := c.SuggestFees(ctx)
	if err != nil {
		return nil, err
	}
	tx := &DynamicFeeTx{Nonce: nonce, GasTipCap: fees.TipCap, GasFeeCap: fees.FeeCap, Gas: gas + gas/5,
		To: token, Value: new(big.Int), Data: data}
	w.Sign(tx)
	return tx, nil
}
