package evm

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math/big"
	"strings"
	"testing"
	"time"
)

// viemRaw is tx signed by viem (contracts/sign1559.mjs) with the key of keyHex.
func viemRaw(t *testing.T, keyHex string, tx DynamicFeeTx) []byte {
	t.Helper()
	req, err := json.Marshal(map[string]string{
		"privateKey": "0x" + keyHex, "chainId": big.NewInt(0).SetUint64(tx.ChainID).String(),
		"nonce": big.NewInt(0).SetUint64(tx.Nonce).String(), "maxPriorityFeePerGas": tx.GasTipCap.String(),
		"maxFeePerGas": tx.GasFeeCap.String(), "gas": big.NewInt(0).SetUint64(tx.Gas).String(),
		"to": tx.To.String(), "value": tx.Value.String(), "data": "0x" + hex.EncodeToString(tx.Data),
	})
	if err != nil {
		t.Fatal(err)
	}
	raw, ok := parseHexBytes(strings.TrimSpace(string(node(t, "sign1559.mjs", req))))
	if !ok {
		t.Fatal("viem's transaction is not hex")
	}
	return raw
}

// TestDynamicFeeTxMatchesViem: DynamicFeeTx signs byte for byte what viem's signTransaction
// signs (both RFC 6979, low s) over zero and large fields, short and long (≥ 56 bytes) data and
// chain ids on either side of one byte; the bytes decode back to the same transaction, and
// the sender recovers to the key's address.
func TestDynamicFeeTxMatchesViem(t *testing.T) {
	const keyHex = "4646464646464646464646464646464646464646464646464646464646464646"
	w, err := ParseWalletKey("0x"+keyHex, 0)
	if err != nil {
		t.Fatal(err)
	}
	if w.Address.String() != "0x9d8A62f656a8d1615C1294fd71e9CFb3E4855A4F" {
		t.Fatalf("address %s, want geth's dev account of this key", w.Address)
	}
	_, to := keyOf(7)
	huge, _ := new(big.Int).SetString("ffffffffffffffffffffffffffffffff", 16)
	cases := []DynamicFeeTx{
		{ChainID: 1337, Nonce: 0, GasTipCap: big.NewInt(1), GasFeeCap: big.NewInt(2_000_000_001), Gas: 60_000,
			To: to, Value: new(big.Int), Data: TransferData(to, big.NewInt(1_004_750))},
		{ChainID: 5042002, Nonce: 127, GasTipCap: new(big.Int), GasFeeCap: big.NewInt(160_000_000_000), Gas: 21_000,
			To: to, Value: big.NewInt(1), Data: nil},
		{ChainID: 1, Nonce: 1 << 40, GasTipCap: huge, GasFeeCap: huge, Gas: 1 << 33,
			To: to, Value: huge, Data: []byte{0x7f}},
		{ChainID: 84532, Nonce: 128, GasTipCap: big.NewInt(1_000_000), GasFeeCap: big.NewInt(1_000_000), Gas: 100_000,
			To: to, Value: new(big.Int), Data: bytes.Repeat([]byte{0xab}, 300)},
	}
	for _, c := range cases {
		tx := c
		w.ChainID = tx.ChainID
		w.Sign(&tx)
		want := viemRaw(t, keyHex, c)
		if got := tx.Raw(); !bytes.Equal(got, want) {
			t.Fatalf("nonce %d: raw\n%x\nviem\n%x", c.Nonce, got, want)
		}
		back, err := DecodeDynamicFeeTx(want)
		if err != nil {
			t.Fatalf("decode viem's: %v", err)
		}
		if !bytes.Equal(back.Raw(), want) || back.Hash() != tx.Hash() {
			t.Fatalf("decoded %+v does not encode back", back)
		}
		if who, err := back.Sender(); err != nil || who != w.Address {
			t.Fatalf("sender %s, %v; want %s", who, err, w.Address)
		}
	}
}

// TestDynamicFeeTxOnGeth: geth, the oracle, takes a locally signed transfer of the token from
// the wallet, names it by the hash known before sending, and mines it with the amounts moved;
// sending the same bytes again is harmless; a transaction signed for another chain, or reusing
// a mined nonce, is refused.
func TestDynamicFeeTxOnGeth(t *testing.T) {
	c := startDevChain(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	accts, err := c.Accounts(ctx)
	if err != nil || len(accts) != 1 {
		t.Fatalf("accounts %v, %v", accts, err)
	}
	dev := accts[0]
	chainID, err := c.ChainID(ctx)
	if err != nil {
		t.Fatal(err)
	}
	addr, _, err := c.Deploy(ctx, dev, compileToken(t), EncodeStrings("USDC", "2"))
	if err != nil {
		t.Fatal(err)
	}
	tok := Token{Client: c, Address: addr}
	key, _ := keyOf(0x21)
	w := NewWallet(key, chainID)
	_, payee := keyOf(0x22)
	fund := Tx{From: dev, To: &w.Address, Value: big.NewInt(1e18)}
	h, err := c.SendTransaction(ctx, fund)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.WaitReceipt(ctx, h); err != nil {
		t.Fatal(err)
	}
	if _, err := tok.Mint(ctx, dev, w.Address, big.NewInt(5_000_000)); err != nil {
		t.Fatal(err)
	}

	nonce, err := c.NonceAt(ctx, w.Address, "pending")
	if err != nil || nonce != 0 {
		t.Fatalf("nonce %d, %v", nonce, err)
	}
	tx, err := w.TokenTransfer(ctx, c, addr, payee, big.NewInt(1_004_750), nonce)
	if err != nil {
		t.Fatal(err)
	}
	known := tx.Hash()
	sent, err := c.SendRawTransaction(ctx, tx.Raw())
	if err != nil {
		t.Fatalf("geth refused the signed transaction: %v", err)
	}
	if sent != known {
		t.Fatalf("geth names it %x, signed as %x", sent, known)
	}
	if again, err := c.SendRawTransaction(ctx, tx.Raw()); err != nil && !strings.Contains(err.Error(), "nonce too low") || err == nil && again != known {
		t.Fatalf("the same bytes again: %x, %v", again, err)
	}
	r, err := c.WaitReceipt(ctx, known)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.EqualFold(r.TxHash, lowerHex(known[:])) {
		t.Fatalf("receipt of %s", r.TxHash)
	}
	if got := balance(t, ctx, tok, payee); got != 1_004_750 {
		t.Fatalf("payee %d, want 1004750", got)
	}
	if got := balance(t, ctx, tok, w.Address); got != 5_000_000-1_004_750 {
		t.Fatalf("wallet %d", got)
	}

	// Mined: the same nonce again is refused.
	dup, err := w.TokenTransfer(ctx, c, addr, payee, big.NewInt(1), 0)
	if err != nil {
		t.Fatal(err)
	}
	var rpcErr *RPCError
	if _, err := c.SendRawTransaction(ctx, dup.Raw()); !errors.As(err, &rpcErr) || !strings.Contains(rpcErr.Message, "nonce too low") {
		t.Fatalf("a mined nonce again: %v", err)
	}
	// Signed for another chain: refused.
	other := NewWallet(key, chainID+1)
	wrong, err := other.TokenTransfer(ctx, c, addr, payee, big.NewInt(1), 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.SendRawTransaction(ctx, wrong.Raw()); !errors.As(err, &rpcErr) {
		t.Fatalf("another chain's transaction: %v", err)
	}
	if got := balance(t, ctx, tok, payee); got != 1_004_750 {
		t.Fatalf("payee %d after the refusals", got)
	}
}

// TestDecodeDynamicFeeTxRefuses: non-canonical or foreign encodings are refused.
func TestDecodeDynamicFeeTxRefuses(t *testing.T) {
	key, to := keyOf(3)
	tx := DynamicFeeTx{ChainID: 1337, Nonce: 5, GasTipCap: big.NewInt(1), GasFeeCap: big.NewInt(9), Gas: 50_000,
		To: to, Value: new(big.Int), Data: []byte{1, 2, 3}}
	tx.Sign(key)
	good := tx.Raw()
	if _, err := DecodeDynamicFeeTx(good); err != nil {
		t.Fatal(err)
	}
	bad := map[string][]byte{
		"empty":         nil,
		"legacy type":   append([]byte{0x01}, good[1:]...),
		"trailing byte": append(append([]byte{}, good...), 0),
		"truncated":     good[:len(good)-1],
		"not a list":    {0x02, 0x80},
		"eleven items":  append([]byte{0x02}, rlpEncode(tx.fields()[:9])...),
		"leading zero":  append([]byte{0x02}, rlpEncode(append([]any{[]byte{0, 5}}, append(tx.fields()[1:], u64Int(0), tx.R, tx.S)...))...),
		"short to":      append([]byte{0x02}, rlpEncode(append(append(tx.fields()[:5:5], to[:19]), append(tx.fields()[6:], u64Int(0), tx.R, tx.S)...))...),
		"access list":   append([]byte{0x02}, rlpEncode(append(append(tx.fields()[:8:8], []any{[]any{to[:], []any{}}}), u64Int(0), tx.R, tx.S))...),
		"parity 2":      append([]byte{0x02}, rlpEncode(append(tx.fields(), u64Int(2), tx.R, tx.S))...),
	}
	// A single byte below 0x80 written as a one-byte string (0x81 0x05) for the nonce.
	f := append(tx.fields(), u64Int(uint64(tx.V)), tx.R, tx.S)
	body := rlpEncode(f)
	i := bytes.Index(body, []byte{0x82, 0x05, 0x39}) // chain id 1337 is 0x82 05 39, then nonce 0x05
	if i < 0 || body[i+3] != 0x05 {
		t.Fatalf("layout %x", body)
	}
	list := append(append(append([]byte{}, body[2:i+3]...), 0x81, 0x05), body[i+4:]...)
	bad["byte as string"] = append([]byte{0x02}, append(rlpHeader(0xc0, len(list)), list...)...)
	for name, raw := range bad {
		if got, err := DecodeDynamicFeeTx(raw); err == nil {
			t.Errorf("%s: decoded %+v", name, got)
		}
	}
}

// FuzzDecodeDynamicFeeTx: no input panics the decoder, and whatever it accepts is canonical:
// it encodes back to exactly the input.
func FuzzDecodeDynamicFeeTx(f *testing.F) {
	key, to := keyOf(3)
	tx := DynamicFeeTx{ChainID: 5042002, Nonce: 9, GasTipCap: big.NewInt(1), GasFeeCap: big.NewInt(1e9), Gas: 65_000,
		To: to, Value: new(big.Int), Data: TransferData(to, big.NewInt(1_000_000))}
	tx.Sign(key)
	f.Add(tx.Raw())
	f.Add([]byte{0x02, 0xc0})
	f.Add([]byte{0x02, 0xf8, 0x38})
	f.Fuzz(func(t *testing.T, raw []byte) {
		d, err := DecodeDynamicFeeTx(raw)
		if err != nil {
			return
		}
		if got := d.Raw(); !bytes.Equal(got, raw) {
			t.Fatalf("accepted %x, encodes back as %x", raw, got)
		}
		_, _ = d.Sender()
	})
}
