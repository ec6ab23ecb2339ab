package ccd

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"sort"

	sdk "github.com/Concordium/concordium-go-sdk/v2"
	"github.com/Concordium/concordium-go-sdk/v2/pb"
	"github.com/Concordium/concordium-go-sdk/v2/transactions/construct"
)

// MaxRegisterData is the most bytes one Register Data transaction carries.
const MaxRegisterData = 256

// HeaderSize is the size of an account transaction header: sender(32) || nonce u64 ||
// energy u64 || payload size u32 || expiry u64, big endian.
const HeaderSize = 60

// Tx is a signed account transaction, laid out as the node hashes it
// (testdata/concordium/register_data.json notes):
//
//	header         = sender(32) || nonce u64 BE || energy u64 BE || payload_size u32 BE || expiry u64 BE
//	sign_digest    = SHA-256(header || payload); each signature = ed25519(seed, sign_digest)
//	signature_map  = u8 ncreds || (u8 cred || u8 nkeys || (u8 key || u16 BE len || sig)*)*, ascending
//	block_item     = 0x00 (account transaction) || signature_map || header || payload
//	transaction hash = SHA-256(block_item), the hash SendBlockItem returns
//
// A Tx is immutable once made; its fields must not be modified.
type Tx struct {
	Sender     Address
	Nonce      uint64 // the account's sequence number, from 1
	Energy     uint64 // NRG the sender pays for at most
	Expiry     uint64 // Unix seconds; the node refuses the transaction after it
	Payload    []byte // the serialized payload, type byte first (21 Register Data, 2 Update Contract)
	SignDigest [32]byte
	Sigs       []Sig // ascending by (Cred, Key)
	BlockItem  []byte
	Hash       [32]byte
}

// Sig is one signature of the signature map.
type Sig struct {
	Cred, Key uint8
	Value     []byte // 64 bytes (ed25519)
}

// HashHex is the transaction hash in hex, as the transcript records it.
func (t *Tx) HashHex() string { return hex.EncodeToString(t.Hash[:]) }

// RegisterData builds and signs a Register Data transaction (payload 0x15 || u16 BE len ||
// data) with the SDK's construct.RegisterData: energy = 100·sigs + (60 + payload size) + 300.
// data may be empty and at most 256 bytes (ErrDataSize). expiry is in Unix seconds.
func RegisterData(k *Key, nonce, expiry uint64, data []byte) (*Tx, error) {
	if len(data) > MaxRegisterData {
		return nil, fmt.Errorf("%w: %d bytes", ErrDataSize, len(data))
	}
	pre := construct.RegisterData(uint32(k.Signatures()), k.addr.sdk(), sdk.SequenceNumber{Value: nonce},
		sdk.TransactionTime{Value: expiry}, sdk.RegisteredData{Value: append([]byte{}, data...)})
	return k.sign(pre)
}

// ContractCall is an Update Contract payload: send Amount microCCD with Parameter to the
// contract instance <Index, Subindex> at entrypoint Receive ("<contract>.<entrypoint>", e.g.
// "escrow.settle"), allowing MaxEnergy NRG of contract execution.
type ContractCall struct {
	Amount    uint64 // microCCD
	Index     uint64
	Subindex  uint64
	Receive   string
	Parameter []byte
	MaxEnergy uint64
}

// ContractPayload is the serialized Update Contract payload of c (what UpdateContract signs),
// through the SDK's UpdateContractPayload.Encode.
func ContractPayload(c ContractCall) ([]byte, error) {
	if len(c.Receive) > 100 || len(c.Parameter) > 65535 {
		return nil, fmt.Errorf("ccd: update contract: receive name %d bytes (max 100), parameter %d bytes (max 65535)", len(c.Receive), len(c.Parameter))
	}
	p := sdk.UpdateContract{Payload: &sdk.UpdateContractPayload{
		Amount:      &sdk.Amount{Value: c.Amount},
		Address:     &sdk.ContractAddress{Index: c.Index, Subindex: c.Subindex},
		ReceiveName: &sdk.ReceiveName{Value: c.Receive},
		Parameter:   &sdk.Parameter{Value: append([]byte{}, c.Parameter...)},
	}}
	return p.Encode().Value, nil
}

// UpdateContract builds and signs an Update Contract transaction (payload 0x02 || amount u64 ||
// index u64 || subindex u64 || u16 len || receive name || u16 len || parameter, big endian) with
// the SDK's construct.UpdateContract: energy = 100·sigs + 60 + payload size + MaxEnergy.
func UpdateContract(k *Key, nonce, expiry uint64, c ContractCall) (*Tx, error) {
	if len(c.Receive) > 100 || len(c.Parameter) > 65535 {
		return nil, fmt.Errorf("ccd: update contract: receive name %d bytes (max 100), parameter %d bytes (max 65535)", len(c.Receive), len(c.Parameter))
	}
	payload := sdk.UpdateContractPayload{
		Amount:      &sdk.Amount{Value: c.Amount},
		Address:     &sdk.ContractAddress{Index: c.Index, Subindex: c.Subindex},
		ReceiveName: &sdk.ReceiveName{Value: c.Receive},
		Parameter:   &sdk.Parameter{Value: append([]byte{}, c.Parameter...)},
	}
	pre := construct.UpdateContract(uint32(k.Signatures()), k.addr.sdk(), sdk.SequenceNumber{Value: nonce},
		sdk.TransactionTime{Value: expiry}, payload, sdk.Energy{Value: c.MaxEnergy})
	return k.sign(pre)
}

// Resign signs t's payload again, unchanged and with the same energy, under a new nonce and
// expiry: the arena does this when t can no longer land (its nonce was taken, it expired, or
// the chain rejected it). The result has a new transaction hash.
func (t *Tx) Resign(k *Key, nonce, expiry uint64) (*Tx, error) {
	size := sdk.PayloadSize{Value: uint32(len(t.Payload))}
	sender := k.addr.sdk()
	pre := &sdk.PreAccountTransaction{
		Header: &sdk.AccountTransactionHeader{
			Sender:         &sender,
			SequenceNumber: &sdk.SequenceNumber{Value: nonce},
			EnergyAmount:   &sdk.Energy{Value: t.Energy},
			PayloadSize:    &size,
			Expiry:         &sdk.TransactionTime{Value: expiry},
		},
		Encoded: &sdk.RawPayload{Value: append([]byte{}, t.Payload...)},
	}
	pre.Payload = &sdk.AccountTransactionPayload{Payload: pre.Encoded}
	pre.HashToSign = sdk.ComputeTransactionSignHash(pre.Header, pre.Payload)
	return k.sign(pre)
}

// sign signs pre with k through the SDK and lays out the block item, which the SDK cannot do.
func (k *Key) sign(pre *sdk.PreAccountTransaction) (*Tx, error) {
	at, err := pre.Sign(k.wallet)
	if err != nil {
		return nil, fmt.Errorf("ccd: sign: %w", err)
	}
	h := pre.Header
	t := &Tx{
		Sender:     Address(h.Sender.Value),
		Nonce:      h.SequenceNumber.Value,
		Energy:     h.EnergyAmount.Value,
		Expiry:     h.Expiry.Value,
		Payload:    append([]byte{}, pre.Encoded.Value...),
		SignDigest: pre.HashToSign.Value,
	}
	for ci, m := range at.Signature.Signatures {
		for ki, s := range m.Signatures {
			t.Sigs = append(t.Sigs, Sig{Cred: ci, Key: ki, Value: append([]byte{}, s.Value...)})
		}
	}
	sort.Slice(t.Sigs, func(i, j int) bool {
		if t.Sigs[i].Cred != t.Sigs[j].Cred {
			return t.Sigs[i].Cred < t.Sigs[j].Cred
		}
		return t.Sigs[i].Key < t.Sigs[j].Key
	})
	t.BlockItem = t.layout()
	t.Hash = sha256.Sum256(t.BlockItem)
	return t, nil
}

// Header is the 60 header bytes.
func (t *Tx) Header() []byte {
	b := make([]byte, 0, HeaderSize)
	b = append(b, t.Sender[:]...)
	b = binary.BigEndian.AppendUint64(b, t.Nonce)
	b = binary.BigEndian.AppendUint64(b, t.Energy)
	b = binary.BigEndian.AppendUint32(b, uint32(len(t.Payload)))
	return binary.BigEndian.AppendUint64(b, t.Expiry)
}

// SignatureMap is the serialized signature map.
func (t *Tx) SignatureMap() []byte {
	var b []byte
	creds := 0
	for i := range t.Sigs {
		if i == 0 || t.Sigs[i].Cred != t.Sigs[i-1].Cred {
			creds++
		}
	}
	b = append(b, byte(creds))
	for i := 0; i < len(t.Sigs); {
		j := i
		for j < len(t.Sigs) && t.Sigs[j].Cred == t.Sigs[i].Cred {
			j++
		}
		b = append(b, t.Sigs[i].Cred, byte(j-i))
		for _, s := range t.Sigs[i:j] {
			b = append(b, s.Key)
			b = binary.BigEndian.AppendUint16(b, uint16(len(s.Value)))
			b = append(b, s.Value...)
		}
		i = j
	}
	return b
}

func (t *Tx) layout() []byte {
	b := []byte{0}
	b = append(b, t.SignatureMap()...)
	b = append(b, t.Header()...)
	return append(b, t.Payload...)
}

// ParseBlockItem reads a block item made by this package (an account transaction) back into a
// Tx, recomputing its sign digest and hash. It refuses anything else, trailing bytes included,
// with ErrBlockItem; it never panics. It does not check signatures.
func ParseBlockItem(b []byte) (*Tx, error) {
	bad := func(what string) (*Tx, error) { return nil, fmt.Errorf("%w: %s", ErrBlockItem, what) }
	if len(b) < 2 || b[0] != 0 {
		return bad("not an account transaction")
	}
	off := 1
	ncreds := int(b[off])
	off++
	if ncreds == 0 {
		return bad("empty signature map")
	}
	t := &Tx{}
	for c := 0; c < ncreds; c++ {
		if off+2 > len(b) {
			return bad("signature map truncated")
		}
		cred, nkeys := b[off], int(b[off+1])
		off += 2
		if nkeys == 0 {
			return bad("credential without signatures")
		}
		for k := 0; k < nkeys; k++ {
			if off+3 > len(b) {
				return bad("signature truncated")
			}
			key, n := b[off], int(binary.BigEndian.Uint16(b[off+1:]))
			off += 3
			if off+n > len(b) {
				return bad("signature truncated")
			}
			s := Sig{Cred: cred, Key: key, Value: append([]byte{}, b[off:off+n]...)}
			if len(t.Sigs) > 0 {
				p := t.Sigs[len(t.Sigs)-1]
				if p.Cred > s.Cred || (p.Cred == s.Cred && p.Key >= s.Key) {
					return bad("signature map not in ascending order")
				}
			}
			t.Sigs = append(t.Sigs, s)
			off += n
		}
	}
	if off+HeaderSize > len(b) {
		return bad("header truncated")
	}
	h := b[off : off+HeaderSize]
	off += HeaderSize
	copy(t.Sender[:], h[:32])
	t.Nonce = binary.BigEndian.Uint64(h[32:])
	t.Energy = binary.BigEndian.Uint64(h[40:])
	size := int(binary.BigEndian.Uint32(h[48:]))
	t.Expiry = binary.BigEndian.Uint64(h[52:])
	if len(b)-off != size {
		return bad(fmt.Sprintf("payload is %d bytes, header says %d", len(b)-off, size))
	}
	t.Payload = append([]byte{}, b[off:]...)
	t.SignDigest = sha256.Sum256(append(append([]byte{}, h...), t.Payload...))
	t.BlockItem = append([]byte{}, b...)
	t.Hash = sha256.Sum256(t.BlockItem)
	return t, nil
}

// RegisteredData returns the data of a Register Data payload; false for any other payload.
func (t *Tx) RegisteredData() ([]byte, bool) {
	p := t.Payload
	if len(p) < 3 || p[0] != byte(sdk.RegisterDataPayloadType) || int(binary.BigEndian.Uint16(p[1:])) != len(p)-3 {
		return nil, false
	}
	return p[3:], true
}

// Request is the gRPC SendBlockItemRequest for t: the structured account_transaction with a
// raw payload, as Concordium's web SDK sends version-0 transactions (the vectors'
// grpc_send_block_item_request_structured). The SDK v0.4.0 pb has no raw_block_item field.
func (t *Tx) Request() *pb.SendBlockItemRequest {
	sigs := map[uint32]*pb.AccountSignatureMap{}
	for _, s := range t.Sigs {
		m := sigs[uint32(s.Cred)]
		if m == nil {
			m = &pb.AccountSignatureMap{Signatures: map[uint32]*pb.Signature{}}
			sigs[uint32(s.Cred)] = m
		}
		m.Signatures[uint32(s.Key)] = &pb.Signature{Value: append([]byte{}, s.Value...)}
	}
	return &pb.SendBlockItemRequest{BlockItem: &pb.SendBlockItemRequest_AccountTransaction{
		AccountTransaction: &pb.AccountTransaction{
			Signature: &pb.AccountTransactionSignature{Signatures: sigs},
			Header: &pb.AccountTransactionHeader{
				Sender:         &pb.AccountAddress{Value: append([]byte{}, t.Sender[:]...)},
				SequenceNumber: &pb.SequenceNumber{Value: t.Nonce},
				EnergyAmount:   &pb.Energy{Value: t.Energy},
				Expiry:         &pb.TransactionTime{Value: t.Expiry},
			},
			Payload: &pb.AccountTransactionPayload{Payload: &pb.AccountTransactionPayload_RawPayload{
				RawPayload: append([]byte{}, t.Payload...),
			}},
		},
	}}
}
