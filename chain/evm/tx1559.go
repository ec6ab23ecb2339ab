package evm

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strconv"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"

	"arena/chain/x402"
)

// DynamicFeeTx is an EIP-1559 (type 2) transaction with an empty access list (warden-games
// §11): the Warden's payouts and refunds, signed here with the wallet's key. Fees are in wei
// per gas; Value in wei. V, R and S are the signature (V the y parity, 0 or 1) once signed.
type DynamicFeeTx struct {
	ChainID   uint64
	Nonce     uint64
	GasTipCap *big.Int // maxPriorityFeePerGas
	GasFeeCap *big.Int // maxFeePerGas
	Gas       uint64
	To        x402.Address // a transaction here always calls an account; no contract creation
	Value     *big.Int
	Data      []byte
	V         byte
	R, S      *big.Int
}

// dynamicFeeType is EIP-2718's type byte of an EIP-1559 transaction.
const dynamicFeeType = 0x02

// fields is the transaction's RLP list before the signature: [chainId, nonce, tip, feeCap,
// gas, to, value, data, accessList].
func (tx *DynamicFeeTx) fields() []any {
	return []any{u64Int(tx.ChainID), u64Int(tx.Nonce), orZero(tx.GasTipCap), orZero(tx.GasFeeCap), u64Int(tx.Gas),
		tx.To[:], orZero(tx.Value), tx.Data, []any{}}
}

// SigningHash is the hash the sender signs: keccak256(0x02 ‖ rlp(fields)) (EIP-1559).
func (tx *DynamicFeeTx) SigningHash() [32]byte {
	return keccak256(append([]byte{dynamicFeeType}, rlpEncode(tx.fields())...))
}

// Raw is the signed transaction as eth_sendRawTransaction takes it: 0x02 ‖ rlp(fields ‖ [v,
// r, s]). It is only meaningful once signed (R and S set).
func (tx *DynamicFeeTx) Raw() []byte {
	f := append(tx.fields(), u64Int(uint64(tx.V)), orZero(tx.R), orZero(tx.S))
	return append([]byte{dynamicFeeType}, rlpEncode(f)...)
}

// Hash is the signed transaction's hash, keccak256(Raw()): the node's name for it, known
// before it is sent.
func (tx *DynamicFeeTx) Hash() [32]byte { return keccak256(tx.Raw()) }

// Sign signs tx with key (RFC 6979, low s) and sets V, R and S.
func (tx *DynamicFeeTx) Sign(key *secp256k1.PrivateKey) {
	h := tx.SigningHash()
	c := ecdsa.SignCompact(key, h[:], false) // 27+parity ‖ r ‖ s
	tx.V = c[0] - 27
	tx.R = new(big.Int).SetBytes(c[1:33])
	tx.S = new(big.Int).SetBytes(c[33:65])
}

// Sender recovers the address that signed tx. Errors: no signature, a high s or a parity
// other than 0 or 1 (EIP-2), or a signature that recovers no key.
func (tx *DynamicFeeTx) Sender() (x402.Address, error) {
	if tx.R == nil || tx.S == nil || tx.V > 1 {
		return x402.Address{}, errors.New("evm: transaction is not signed")
	}
	if tx.R.BitLen() > 256 || tx.S.BitLen() > 256 {
		return x402.Address{}, errors.New("evm: signature out of range")
	}
	sig := make([]byte, 65)
	tx.R.FillBytes(sig[:32])
	tx.S.FillBytes(sig[32:64])
	sig[64] = tx.V
	return x402.Recover(tx.SigningHash(), sig)
}

// DecodeDynamicFeeTx reads a signed EIP-1559 transaction (0x02 ‖ rlp list of 12) as Raw
// writes it, strictly: canonical RLP (shortest lengths, no leading zero bytes in an integer,
// nothing after the list), a 20-byte to, an empty access list, integers within their widths
// (chain id, nonce and gas 64 bits; fees, value, r and s 256), y parity 0 or 1. It does not
// check the signature (Sender does).
func DecodeDynamicFeeTx(raw []byte) (*DynamicFeeTx, error) {
	if len(raw) == 0 || raw[0] != dynamicFeeType {
		return nil, errors.New("evm: not an EIP-1559 transaction (type 0x02)")
	}
	item, rest, err := rlpDecode(raw[1:], 0)
	if err != nil {
		return nil, fmt.Errorf("evm: transaction: %w", err)
	}
	if len(rest) != 0 {
		return nil, errors.New("evm: transaction: bytes after the RLP list")
	}
	l, ok := item.([]any)
	if !ok || len(l) != 12 {
		return nil, errors.New("evm: transaction: not an RLP list of 12 items")
	}
	var tx DynamicFeeTx
	u64 := func(i int) (uint64, error) {
		n, err := rlpInt(l[i], 64)
		if err != nil {
			return 0, fmt.Errorf("evm: transaction item %d: %w", i, err)
		}
		return n.Uint64(), nil
	}
	big256 := func(i int) (*big.Int, error) {
		n, err := rlpInt(l[i], 256)
		if err != nil {
			return nil, fmt.Errorf("evm: transaction item %d: %w", i, err)
		}
		return n, nil
	}
	if tx.ChainID, err = u64(0); err != nil {
		return nil, err
	}
	if tx.Nonce, err = u64(1); err != nil {
		return nil, err
	}
	if tx.GasTipCap, err = big256(2); err != nil {
		return nil, err
	}
	if tx.GasFeeCap, err = big256(3); err != nil {
		return nil, err
	}
	if tx.Gas, err = u64(4); err != nil {
		return nil, err
	}
	to, ok := l[5].([]byte)
	if !ok || len(to) != 20 {
		return nil, errors.New("evm: transaction: to is not 20 bytes")
	}
	copy(tx.To[:], to)
	if tx.Value, err = big256(6); err != nil {
		return nil, err
	}
	if tx.Data, ok = l[7].([]byte); !ok {
		return nil, errors.New("evm: transaction: data is a list")
	}
	if al, ok := l[8].([]any); !ok || len(al) != 0 {
		return nil, errors.New("evm: transaction: an access list is not supported")
	}
	v, err := u64(9)
	if err != nil {
		return nil, err
	}
	if v > 1 {
		return nil, fmt.Errorf("evm: transaction: y parity %d", v)
	}
	tx.V = byte(v)
	if tx.R, err = big256(10); err != nil {
		return nil, err
	}
	if tx.S, err = big256(11); err != nil {
		return nil, err
	}
	return &tx, nil
}

func u64Int(n uint64) *big.Int { return new(big.Int).SetUint64(n) }

func orZero(n *big.Int) *big.Int {
	if n == nil {
		return new(big.Int)
	}
	return n
}

// rlpEncode encodes a tree of []byte, *big.Int (non-negative, as its shortest big-endian bytes)
// and []any (lists).
func rlpEncode(v any) []byte {
	switch x := v.(type) {
	case []byte:
		if len(x) == 1 && x[0] < 0x80 {
			return []byte{x[0]}
		}
		return append(rlpHeader(0x80, len(x)), x...)
	case *big.Int:
		return rlpEncode(x.Bytes())
	case []any:
		var body []byte
		for _, e := range x {
			body = append(body, rlpEncode(e)...)
		}
		return append(rlpHeader(0xc0, len(body)), body...)
	}
	panic(fmt.Sprintf("evm: rlp of %T", v))
}

func rlpHeader(base byte, n int) []byte {
	if n < 56 {
		return []byte{base + byte(n)}
	}
	b := new(big.Int).SetUint64(uint64(n)).Bytes()
	return append([]byte{base + 55 + byte(len(b))}, b...)
}

// maxRLPDepth bounds list nesting in what rlpDecode reads.
const maxRLPDepth = 8

// rlpDecode reads one canonical RLP item from b: []byte or []any. It returns the rest of b.
func rlpDecode(b []byte, depth int) (any, []byte, error) {
	if depth > maxRLPDepth {
		return nil, nil, errors.New("rlp: nested too deep")
	}
	if len(b) == 0 {
		return nil, nil, errors.New("rlp: empty input")
	}
	p := b[0]
	var list bool
	var n, hdr int
	switch {
	case p < 0x80:
		return []byte{p}, b[1:], nil
	case p <= 0xb7:
		n, hdr = int(p-0x80), 1
	case p <= 0xbf:
		ll := int(p - 0xb7)
		var err error
		if n, err = rlpLength(b[1:], ll); err != nil {
			return nil, nil, err
		}
		hdr = 1 + ll
	case p <= 0xf7:
		list, n, hdr = true, int(p-0xc0), 1
	default:
		ll := int(p - 0xf7)
		var err error
		if n, err = rlpLength(b[1:], ll); err != nil {
			return nil, nil, err
		}
		list, hdr = true, 1+ll
	}
	if n > len(b)-hdr {
		return nil, nil, errors.New("rlp: item longer than the input")
	}
	body, rest := b[hdr:hdr+n], b[hdr+n:]
	if !list {
		if n == 1 && hdr == 1 && body[0] < 0x80 {
			return nil, nil, errors.New("rlp: a single byte below 0x80 is encoded as itself")
		}
		return append([]byte{}, body...), rest, nil
	}
	items := []any{}
	for len(body) > 0 {
		it, r, err := rlpDecode(body, depth+1)
		if err != nil {
			return nil, nil, err
		}
		items = append(items, it)
		body = r
	}
	return items, rest, nil
}

// rlpLength reads a long form's ll-byte length: no leading zero, at least 56.
func rlpLength(b []byte, ll int) (int, error) {
	if ll > 4 || len(b) < ll {
		return 0, errors.New("rlp: bad length of length")
	}
	if b[0] == 0 {
		return 0, errors.New("rlp: length with a leading zero")
	}
	n := 0
	for _, c := range b[:ll] {
		n = n<<8 | int(c)
	}
	if n < 56 {
		return 0, errors.New("rlp: long form for a short item")
	}
	return n, nil
}

// rlpInt reads a canonical RLP integer of at most bits bits: a string without leading zeros.
func rlpInt(v any, bits int) (*big.Int, error) {
	b, ok := v.([]byte)
	switch {
	case !ok:
		return nil, errors.New("an integer is a list")
	case len(b) > 0 && b[0] == 0:
		return nil, errors.New("an integer with a leading zero byte")
	case len(b)*8 > bits:
		return nil, fmt.Errorf("an integer wider than %d bits", bits)
	}
	return new(big.Int).SetBytes(b), nil
}

// Fees are an EIP-1559 transaction's fee fields, wei per gas.
type Fees struct {
	TipCap  *big.Int // maxPriorityFeePerGas
	FeeCap  *big.Int // maxFeePerGas
	BaseFee *big.Int // the latest block's baseFeePerGas
}

// SuggestFees reads the node's fee fields: the tip is eth_maxPriorityFeePerGas, the cap twice
// the latest block's baseFeePerGas plus the tip (room for six full blocks of base-fee rise).
func (c *Client) SuggestFees(ctx context.Context) (Fees, error) {
	var tip string
	if err := c.call(ctx, &tip, "eth_maxPriorityFeePerGas"); err != nil {
		return Fees{}, err
	}
	t, err := parseQuantity(tip)
	if err != nil {
		return Fees{}, err
	}
	var blk *struct {
		BaseFee *string `json:"baseFeePerGas"`
	}
	if err := c.call(ctx, &blk, "eth_getBlockByNumber", "latest", false); err != nil {
		return Fees{}, err
	}
	if blk == nil || blk.BaseFee == nil {
		return Fees{}, errors.New("evm: the latest block has no baseFeePerGas (no EIP-1559 on this chain)")
	}
	base, err := parseQuantity(*blk.BaseFee)
	if err != nil {
		return Fees{}, err
	}
	return Fees{TipCap: t, FeeCap: new(big.Int).Add(new(big.Int).Lsh(base, 1), t), BaseFee: base}, nil
}

// EstimateGas is eth_estimateGas of a call from from to to with data: the gas it needs. A call
// the EVM reverts is an *RPCError (code 3) carrying the reason.
func (c *Client) EstimateGas(ctx context.Context, from, to x402.Address, data []byte) (uint64, error) {
	var s string
	m := map[string]string{"from": lowerHex(from[:]), "to": lowerHex(to[:]), "input": lowerHex(data)}
	if err := c.call(ctx, &s, "eth_estimateGas", m); err != nil {
		return 0, err
	}
	return parseQuantity64(s)
}

// SendRawTransaction is eth_sendRawTransaction: the node takes the signed bytes and answers
// their hash. A transaction the node has already ("already known") is not an error here: the
// hash is keccak256(raw) either way, and a re-broadcast after a crash sends the same bytes.
func (c *Client) SendRawTransaction(ctx context.Context, raw []byte) ([32]byte, error) {
	var s string
	err := c.call(ctx, &s, "eth_sendRawTransaction", lowerHex(raw))
	var e *RPCError
	if errors.As(err, &e) && e.Message == "already known" {
		return keccak256(raw), nil
	}
	if err != nil {
		return [32]byte{}, err
	}
	return parseHash(s)
}

// TransferData is the calldata of ERC-20 transfer(to, amount) (selector 0xa9059cbb, §11).
func TransferData(to x402.Address, amount *big.Int) []byte {
	return calldata("transfer(address,uint256)", wordAddress(to), word(amount))
}

// String names the transaction for logs: its nonce and hash.
func (tx *DynamicFeeTx) String() string {
	h := tx.Hash()
	return "nonce " + strconv.FormatUint(tx.Nonce, 10) + " " + lowerHex(h[:])
}
