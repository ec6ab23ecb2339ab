package evm

import (
	"context"
	"fmt"
	"math/big"

	"arena/chain/x402"
	"golang.org/x/crypto/sha3"
)

// Token is an EIP-3009 token contract (USDC, or the tests' TestUSDC) at Address.
type Token struct {
	Client  *Client
	Address x402.Address
}

// The ABI signatures of the token functions used here; a call's selector is the first four
// bytes of the signature's Keccak-256.
const (
	sigBalanceOf                 = "balanceOf(address)"
	sigAuthorizationState        = "authorizationState(address,bytes32)"
	sigTransferWithAuthorization = "transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)"
	sigMint                      = "mint(address,uint256)"
	sigDomainSeparator           = "DOMAIN_SEPARATOR()"
)

// BalanceOf is the token's balanceOf(a), in atomic units.
func (t Token) BalanceOf(ctx context.Context, a x402.Address) (*big.Int, error) {
	out, err := t.Client.Call(ctx, t.Address, calldata(sigBalanceOf, wordAddress(a)))
	if err != nil {
		return nil, err
	}
	if len(out) < 32 {
		return nil, errShort
	}
	return new(big.Int).SetBytes(out[:32]), nil
}

// AuthorizationState is EIP-3009's authorizationState(authorizer, nonce): true once the
// authorization with that nonce was used (or cancelled) at this token (§10.8).
func (t Token) AuthorizationState(ctx context.Context, authorizer x402.Address, nonce [32]byte) (bool, error) {
	out, err := t.Client.Call(ctx, t.Address, calldata(sigAuthorizationState, wordAddress(authorizer), nonce[:]))
	if err != nil {
		return false, err
	}
	if len(out) < 32 {
		return false, errShort
	}
	return out[31] == 1, nil
}

// DomainSeparator is the token's DOMAIN_SEPARATOR(): the EIP-712 domain separator it checks
// signatures under, to compare with x402.Domain.Separator.
func (t Token) DomainSeparator(ctx context.Context) ([32]byte, error) {
	var s [32]byte
	out, err := t.Client.Call(ctx, t.Address, calldata(sigDomainSeparator))
	if err != nil {
		return s, err
	}
	if len(out) < 32 {
		return s, errShort
	}
	copy(s[:], out)
	return s, nil
}

// TransferWithAuthorizationData is the calldata of transferWithAuthorization for the
// authorization a and its 65-byte signature r ‖ s ‖ v (v 27/28 or 0/1, as x402.Recover takes).
func TransferWithAuthorizationData(a x402.Authorization, sig []byte) ([]byte, error) {
	if len(sig) != 65 {
		return nil, fmt.Errorf("evm: signature is %d bytes, not 65", len(sig))
	}
	v := sig[64]
	if v < 27 {
		v += 27
	}
	if a.Value == nil || a.ValidAfter == nil || a.ValidBefore == nil ||
		a.Value.Sign() < 0 || a.ValidAfter.Sign() < 0 || a.ValidBefore.Sign() < 0 ||
		a.Value.BitLen() > 256 || a.ValidAfter.BitLen() > 256 || a.ValidBefore.BitLen() > 256 {
		return nil, fmt.Errorf("evm: authorization amounts must be uint256")
	}
	return calldata(sigTransferWithAuthorization,
		wordAddress(a.From), wordAddress(a.To), word(a.Value), word(a.ValidAfter), word(a.ValidBefore),
		a.Nonce[:], word(big.NewInt(int64(v))), sig[:32], sig[32:64]), nil
}

// Settle submits p's authorization and signature as transferWithAuthorization from relayer (an
// account the node holds; it pays the gas) and waits for the receipt. The token checks the
// signature, the time window and the nonce itself: an authorization already used is refused
// by the node's gas estimate with an *RPCError whose Message carries the token's reason, or,
// when it is mined, fails with a *RevertedError.
func (t Token) Settle(ctx context.Context, relayer x402.Address, p *x402.Payment) (Receipt, error) {
	data, err := TransferWithAuthorizationData(p.Authorization, p.Signature)
	if err != nil {
		return Receipt{}, err
	}
	return t.send(ctx, relayer, data)
}

// Mint calls the test token's mint(to, value) from its owner (TestUSDC only; USDC's minters
// are Circle's).
func (t Token) Mint(ctx context.Context, owner, to x402.Address, value *big.Int) (Receipt, error) {
	return t.send(ctx, owner, calldata(sigMint, wordAddress(to), word(value)))
}

func (t Token) send(ctx context.Context, from x402.Address, data []byte) (Receipt, error) {
	to := t.Address
	h, err := t.Client.SendTransaction(ctx, Tx{From: from, To: &to, Data: data})
	if err != nil {
		return Receipt{}, err
	}
	return t.Client.WaitReceipt(ctx, h)
}

// Deploy creates a contract from bytecode followed by its ABI-encoded constructor arguments,
// sent from an account the node holds, and returns its address.
func (c *Client) Deploy(ctx context.Context, from x402.Address, bytecode, args []byte) (x402.Address, Receipt, error) {
	code := append(append([]byte{}, bytecode...), args...)
	h, err := c.SendTransaction(ctx, Tx{From: from, Data: code})
	if err != nil {
		return x402.Address{}, Receipt{}, err
	}
	r, err := c.WaitReceipt(ctx, h)
	if err != nil {
		return x402.Address{}, r, err
	}
	if r.ContractAddress == nil {
		return x402.Address{}, r, fmt.Errorf("evm: deployment %s has no contract address", r.TxHash)
	}
	return *r.ContractAddress, r, nil
}

// EncodeStrings is the ABI encoding of a tuple of strings (a constructor's (string, string)):
// one offset word per string, then each string's length word and its bytes padded to 32.
func EncodeStrings(ss ...string) []byte {
	head := make([]byte, 0, 32*len(ss))
	var tail []byte
	for _, s := range ss {
		head = append(head, word(big.NewInt(int64(32*len(ss)+len(tail))))...)
		tail = append(tail, word(big.NewInt(int64(len(s))))...)
		padded := make([]byte, (len(s)+31)/32*32)
		copy(padded, s)
		tail = append(tail, padded...)
	}
	return append(head, tail...)
}

// calldata is the 4-byte selector of sig followed by the argument words.
func calldata(sig string, words ...[]byte) []byte {
	h := sha3.NewLegacyKeccak256()
	h.Write([]byte(sig))
	out := h.Sum(nil)[:4]
	for _, w := range words {
		out = append(out, w...)
	}
	return out
}

// word is the 32-byte big-endian ABI word of n, 0 ≤ n < 2^256.
func word(n *big.Int) []byte {
	var w [32]byte
	n.FillBytes(w[:])
	return w[:]
}

// wordAddress is the ABI word of a: twelve zero bytes, then the address.
func wordAddress(a x402.Address) []byte {
	var w [32]byte
	copy(w[12:], a[:])
	return w[:]
}
