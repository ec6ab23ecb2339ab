package evm

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"sync"
	"testing"
	"time"

	"arena/chain/x402"
	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
	"golang.org/x/crypto/sha3"
)

// memReplay is a ReplayStore in memory, for the test: the first payment to claim a key holds it.
type memReplay struct {
	mu      sync.Mutex
	holders map[string]string
}

func (m *memReplay) Claim(_ context.Context, k x402.ReplayKey, paymentID string) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if h, ok := m.holders[k.String()]; ok {
		return h, nil
	}
	m.holders[k.String()] = paymentID
	return paymentID, nil
}

var _ x402.ReplayStore = (*memReplay)(nil)

// keyOf is a fixed test key (32 bytes of b) and its EVM address.
func keyOf(b byte) (*secp256k1.PrivateKey, x402.Address) {
	priv := secp256k1.PrivKeyFromBytes(bytes.Repeat([]byte{b}, 32))
	u := priv.PubKey().SerializeUncompressed()
	h := sha3.NewLegacyKeccak256()
	h.Write(u[1:])
	var a x402.Address
	copy(a[:], h.Sum(nil)[12:])
	return priv, a
}

// sign is the Ethereum signature r ‖ s ‖ v (v 27/28, low s) of digest.
func sign(priv *secp256k1.PrivateKey, digest [32]byte) []byte {
	c := ecdsa.SignCompact(priv, digest[:], false) // v ‖ r ‖ s
	return append(append([]byte{}, c[1:]...), c[0])
}

// payload is the x402 v2 payment JSON of an exact offer paid by a with sig.
func payload(o x402.Offer, a x402.Authorization, sig []byte) []byte {
	return fmt.Appendf(nil, `{"x402Version":2,"accepted":{"scheme":"exact","network":"%s","amount":"%d","asset":"%s","payTo":"%s","maxTimeoutSeconds":%d,"extra":{"name":"%s","version":"%s"}},"payload":{"authorization":{"from":"%s","to":"%s","value":"%s","validAfter":"%s","validBefore":"%s","nonce":"0x%x"},"signature":"0x%x"}}`,
		o.Network(), o.Amount, o.Asset, o.PayTo, o.MaxTimeoutSeconds, o.DomainName, o.DomainVersion,
		a.From, a.To, a.Value, a.ValidAfter, a.ValidBefore, a.Nonce, sig)
}

func balance(t *testing.T, ctx context.Context, tok Token, a x402.Address) int64 {
	t.Helper()
	b, err := tok.BalanceOf(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	if !b.IsInt64() {
		t.Fatalf("balance %s", b)
	}
	return b.Int64()
}

func usedState(t *testing.T, ctx context.Context, tok Token, from x402.Address, nonce [32]byte) bool {
	t.Helper()
	used, err := tok.AuthorizationState(ctx, from, nonce)
	if err != nil {
		t.Fatal(err)
	}
	return used
}

// TestSettleOnDevChain settles an x402 exact payment on a real geth --dev chain: the TestUSDC
// token compiled by solc and deployed, a payer minted 5 USDC, an authorization of 1 USDC signed
// with chain/x402's EIP-712 digest, read and verified by chain/x402, submitted as
// transferWithAuthorization. Balances move by exactly the value, authorizationState flips,
// and a replay is refused both by the ReplayKey claim and by the token on chain.
func TestSettleOnDevChain(t *testing.T) {
	c := startDevChain(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	chainID, err := c.ChainID(ctx)
	if err != nil || chainID != 1337 {
		t.Fatalf("chain id %d, %v; want 1337", chainID, err)
	}
	accts, err := c.Accounts(ctx)
	if err != nil || len(accts) != 1 {
		t.Fatalf("accounts %v, %v; want the one dev account", accts, err)
	}
	dev := accts[0]

	addr, _, err := c.Deploy(ctx, dev, compileToken(t), EncodeStrings("USDC", "2"))
	if err != nil {
		t.Fatalf("deploy: %v", err)
	}
	tok := Token{Client: c, Address: addr}

	payerKey, payer := keyOf(0x11)
	_, payee := keyOf(0x22)
	offer := x402.Offer{Kind: x402.KindExact, ChainID: chainID, Asset: addr, PayTo: payee, Amount: 1_000_000,
		MaxTimeoutSeconds: 300, DomainName: "USDC", DomainVersion: "2"}
	challenge := x402.Challenge{Resource: x402.Resource{URL: "http://127.0.0.1/v1/warden/matches/m1/stake"}, Offers: []x402.Offer{offer}}

	sep, err := tok.DomainSeparator(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := offer.Domain().Separator(); sep != want {
		t.Fatalf("token DOMAIN_SEPARATOR %x, chain/x402 computes %x", sep, want)
	}

	if _, err := tok.Mint(ctx, dev, payer, big.NewInt(5_000_000)); err != nil {
		t.Fatalf("mint: %v", err)
	}
	if got := balance(t, ctx, tok, payer); got != 5_000_000 {
		t.Fatalf("payer balance after mint %d, want 5000000", got)
	}

	now := time.Now().Unix()
	var nonce [32]byte
	copy(nonce[:], bytes.Repeat([]byte{0xa1}, 32))
	auth := x402.Authorization{From: payer, To: payee, Value: big.NewInt(1_000_000),
		ValidAfter: big.NewInt(now - 60), ValidBefore: big.NewInt(now + 600), Nonce: nonce}
	sig := sign(payerKey, x402.Digest(offer.Domain(), auth))
	raw := payload(offer, auth, sig)

	store := &memReplay{holders: map[string]string{}}
	p, err := x402.Parse(raw)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	v, err := challenge.Verify(p, now)
	if err != nil {
		t.Fatalf("verify: %v", err)
	}
	if v.Payer != payer {
		t.Fatalf("verified payer %s, want %s", v.Payer, payer)
	}
	if h, err := store.Claim(ctx, v.Key, "pay-1"); err != nil || h != "pay-1" {
		t.Fatalf("first claim: holder %q, %v", h, err)
	}
	if usedState(t, ctx, tok, payer, nonce) {
		t.Fatal("authorizationState true before settlement")
	}

	r, err := tok.Settle(ctx, dev, p)
	if err != nil {
		t.Fatalf("settle: %v", err)
	}
	if !r.Success || r.Block == 0 {
		t.Fatalf("receipt %+v", r)
	}
	if got := balance(t, ctx, tok, payer); got != 4_000_000 {
		t.Fatalf("payer balance %d, want 4000000", got)
	}
	if got := balance(t, ctx, tok, payee); got != 1_000_000 {
		t.Fatalf("payee balance %d, want 1000000", got)
	}
	if !usedState(t, ctx, tok, payer, nonce) {
		t.Fatal("authorizationState false after settlement")
	}

	// The same authorization again: the replay key is held by the first payment, and the
	// token refuses it on chain; nothing moves.
	p2, err := x402.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	v2, err := challenge.Verify(p2, now)
	if err != nil {
		t.Fatal(err)
	}
	if v2.Key != v.Key {
		t.Fatalf("replay key %s, first %s", v2.Key, v.Key)
	}
	if h, err := store.Claim(ctx, v2.Key, "pay-2"); err != nil || h != "pay-1" {
		t.Fatalf("replayed claim: holder %q, %v; want pay-1", h, err)
	}
	_, err = tok.Settle(ctx, dev, p2)
	var rpcErr *RPCError
	if !errors.As(err, &rpcErr) || !strings.Contains(rpcErr.Message, "TestUSDC: authorization is used") {
		t.Fatalf("replayed settlement: %v; want the token's refusal", err)
	}
	if got := balance(t, ctx, tok, payer); got != 4_000_000 {
		t.Fatalf("payer balance after replay %d, want 4000000", got)
	}
	if got := balance(t, ctx, tok, payee); got != 1_000_000 {
		t.Fatalf("payee balance after replay %d, want 1000000", got)
	}

	// The replay sent with its own gas limit, so that no estimate stops it: mined, reverted.
	data, err := TransferWithAuthorizationData(p2.Authorization, p2.Signature)
	if err != nil {
		t.Fatal(err)
	}
	h, err := c.SendTransaction(ctx, Tx{From: dev, To: &addr, Data: data, Gas: 200_000})
	if err != nil {
		t.Fatalf("send replay with gas: %v", err)
	}
	_, err = c.WaitReceipt(ctx, h)
	var reverted *RevertedError
	if !errors.As(err, &reverted) || reverted.Receipt.Success || reverted.Receipt.Block == 0 {
		t.Fatalf("mined replay: %v; want a reverted receipt", err)
	}

	// An authorization altered after signing (value 2 USDC): the token recovers another signer.
	forged := *p2
	forged.Authorization.Value = big.NewInt(2_000_000)
	forged.Authorization.Nonce[0] ^= 0xff
	_, err = tok.Settle(ctx, dev, &forged)
	if !errors.As(err, &rpcErr) || !strings.Contains(rpcErr.Message, "TestUSDC: invalid signature") {
		t.Fatalf("altered authorization: %v; want the token's signature refusal", err)
	}
	if got := balance(t, ctx, tok, payer); got != 4_000_000 {
		t.Fatalf("payer balance after refusals %d, want 4000000", got)
	}
	if got := balance(t, ctx, tok, payee); got != 1_000_000 {
		t.Fatalf("payee balance after refusals %d, want 1000000", got)
	}

	// An authorization signed by viem's signTypedData: the same bytes as chain/x402's digest
	// signed here (both RFC 6979, low s), recovered to the payer by chain/x402, and settled.
	var nonce2 [32]byte
	copy(nonce2[:], bytes.Repeat([]byte{0xb2}, 32))
	auth2 := auth
	auth2.Nonce = nonce2
	req, err := json.Marshal(map[string]any{
		"privateKey": "0x" + hex.EncodeToString(payerKey.Serialize()),
		"domain":     map[string]string{"name": "USDC", "version": "2", "chainId": fmt.Sprint(chainID), "verifyingContract": addr.String()},
		"message": map[string]string{"from": payer.String(), "to": payee.String(), "value": auth2.Value.String(),
			"validAfter": auth2.ValidAfter.String(), "validBefore": auth2.ValidBefore.String(), "nonce": "0x" + hex.EncodeToString(nonce2[:])},
	})
	if err != nil {
		t.Fatal(err)
	}
	viemSig, ok := parseHexBytes(strings.TrimSpace(string(node(t, "sign.mjs", req))))
	if !ok {
		t.Fatal("viem signature is not hex")
	}
	digest2 := x402.Digest(offer.Domain(), auth2)
	if mine := sign(payerKey, digest2); !bytes.Equal(viemSig, mine) {
		t.Fatalf("viem signature %x, chain/x402 digest signed here %x", viemSig, mine)
	}
	if who, err := x402.Recover(digest2, viemSig); err != nil || who != payer {
		t.Fatalf("x402.Recover of viem's signature: %s, %v; want %s", who, err, payer)
	}
	p3, err := x402.Parse(payload(offer, auth2, viemSig))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := challenge.Verify(p3, now); err != nil {
		t.Fatalf("verify viem payment: %v", err)
	}
	if _, err := tok.Settle(ctx, dev, p3); err != nil {
		t.Fatalf("settle viem payment: %v", err)
	}
	if got := balance(t, ctx, tok, payer); got != 3_000_000 {
		t.Fatalf("payer balance %d, want 3000000", got)
	}
	if got := balance(t, ctx, tok, payee); got != 2_000_000 {
		t.Fatalf("payee balance %d, want 2000000", got)
	}
	if got := balance(t, ctx, tok, payer) + balance(t, ctx, tok, payee); got != 5_000_000 {
		t.Fatalf("total %d, want the 5000000 minted", got)
	}
}
