package devchain

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"sort"

	"github.com/Concordium/concordium-go-sdk/v2/pb"
	"google.golang.org/protobuf/encoding/protowire"
)

// headerSize is the account transaction header: sender(32) || nonce u64 BE || energy u64 BE ||
// payload_size u32 BE || expiry u64 BE (register_data.json notes).
const headerSize = 60

// maxPayloadSize bounds a payload as the node's PROTOCOL_MAX_TRANSACTION_SIZE does (100 KiB).
const maxPayloadSize = 100 * 1024

// sigKey names one signature in the map: credential index and key index.
type sigKey struct{ cred, key uint8 }

// accountTx is a decoded account transaction block item.
type accountTx struct {
	sigs    map[sigKey][]byte
	sender  [32]byte
	nonce   uint64
	energy  uint64
	expiry  uint64 // Unix seconds
	payload []byte
	// signDigest is SHA-256(header || payload), the bytes every key signs.
	signDigest [32]byte
	// blockItem is 0x00 || signature_map || header || payload; its SHA-256 is the tx hash.
	blockItem []byte
	hash      [32]byte
}

// nsigs is the number of signatures, which the base energy cost charges 100 NRG each.
func (t *accountTx) nsigs() int { return len(t.sigs) }

// parseBlockItem decodes a serialized block item: 0x00 (account transaction) || signature_map ||
// header || payload, with signature_map = u8 ncreds || (u8 credIdx || u8 nkeys || (u8 keyIdx ||
// u16 BE siglen || sig)*)*. Trailing bytes, unsorted or repeated indices and a payload whose
// length differs from payload_size are refused with ErrMalformed.
func parseBlockItem(b []byte) (*accountTx, error) {
	if len(b) == 0 {
		return nil, fmt.Errorf("%w: empty", ErrMalformed)
	}
	if b[0] != 0 {
		return nil, fmt.Errorf("%w: block item kind %d", ErrNotAccountTx, b[0])
	}
	r := reader{b: b, off: 1}
	tx := &accountTx{sigs: map[sigKey][]byte{}}
	ncreds, ok := r.u8()
	if !ok || ncreds == 0 {
		return nil, fmt.Errorf("%w: signature map has no credential", ErrMalformed)
	}
	lastCred := -1
	for range int(ncreds) {
		cred, ok1 := r.u8()
		nkeys, ok2 := r.u8()
		if !ok1 || !ok2 || nkeys == 0 || int(cred) <= lastCred {
			return nil, fmt.Errorf("%w: signature map credential", ErrMalformed)
		}
		lastCred = int(cred)
		lastKey := -1
		for range int(nkeys) {
			key, ok1 := r.u8()
			n, ok2 := r.u16()
			sig, ok3 := r.bytes(int(n))
			if !ok1 || !ok2 || !ok3 || int(key) <= lastKey {
				return nil, fmt.Errorf("%w: signature map key", ErrMalformed)
			}
			lastKey = int(key)
			tx.sigs[sigKey{cred, key}] = sig
		}
	}
	hdrStart := r.off
	sender, ok := r.bytes(32)
	if !ok {
		return nil, fmt.Errorf("%w: short header", ErrMalformed)
	}
	copy(tx.sender[:], sender)
	tx.nonce, _ = r.u64()
	tx.energy, _ = r.u64()
	size, _ := r.u32()
	expiry, ok := r.u64()
	if !ok {
		return nil, fmt.Errorf("%w: short header", ErrMalformed)
	}
	tx.expiry = expiry
	if size > maxPayloadSize {
		return nil, fmt.Errorf("%w: payload of %d bytes exceeds the maximum", ErrMalformed, size)
	}
	payload, ok := r.bytes(int(size))
	if !ok || r.off != len(b) {
		return nil, fmt.Errorf("%w: payload_size %d does not match the %d bytes after the header", ErrMalformed, size, len(b)-hdrStart-headerSize)
	}
	tx.payload = payload
	tx.signDigest = sha256.Sum256(b[hdrStart:])
	tx.blockItem = b
	tx.hash = sha256.Sum256(b)
	return tx, nil
}

// blockItemFromRequest returns the serialized block item a SendBlockItemRequest carries: the
// structured account_transaction (signature map, header, payload; payload_size is computed
// from the payload, as the node does) or the raw_block_item of field 5, which the v0.4.0
// generated types do not know and so keep among the unknown fields.
func blockItemFromRequest(req *pb.SendBlockItemRequest) ([]byte, error) {
	if at := req.GetAccountTransaction(); at != nil {
		return serializeAccountTx(at)
	}
	if req.GetCredentialDeployment() != nil || req.GetUpdateInstruction() != nil {
		return nil, ErrNotAccountTx
	}
	unknown := req.ProtoReflect().GetUnknown()
	for len(unknown) > 0 {
		num, typ, n := protowire.ConsumeTag(unknown)
		if n < 0 {
			return nil, fmt.Errorf("%w: request fields", ErrMalformed)
		}
		unknown = unknown[n:]
		if num == 5 && typ == protowire.BytesType {
			v, m := protowire.ConsumeBytes(unknown)
			if m < 0 {
				return nil, fmt.Errorf("%w: raw_block_item", ErrMalformed)
			}
			return append([]byte(nil), v...), nil
		}
		m := protowire.ConsumeFieldValue(num, typ, unknown)
		if m < 0 {
			return nil, fmt.Errorf("%w: request fields", ErrMalformed)
		}
		unknown = unknown[m:]
	}
	return nil, fmt.Errorf("%w: no block item in the request", ErrMalformed)
}

// serializeAccountTx lays a structured account transaction out as the block item bytes:
// 0x00 || signature_map (indices ascending) || header || payload.
func serializeAccountTx(at *pb.AccountTransaction) ([]byte, error) {
	h := at.GetHeader()
	if h == nil || len(h.GetSender().GetValue()) != 32 || h.GetSequenceNumber() == nil || h.GetEnergyAmount() == nil || h.GetExpiry() == nil {
		return nil, fmt.Errorf("%w: header fields missing", ErrMalformed)
	}
	payload, err := encodePayload(at.GetPayload())
	if err != nil {
		return nil, err
	}
	if len(payload) > maxPayloadSize {
		return nil, fmt.Errorf("%w: payload of %d bytes exceeds the maximum", ErrMalformed, len(payload))
	}
	sigs := at.GetSignature().GetSignatures()
	if len(sigs) == 0 || len(sigs) > 255 {
		return nil, fmt.Errorf("%w: signature map has %d credentials", ErrMalformed, len(sigs))
	}
	out := []byte{0, byte(len(sigs))}
	creds := make([]uint32, 0, len(sigs))
	for c := range sigs {
		creds = append(creds, c)
	}
	sort.Slice(creds, func(i, j int) bool { return creds[i] < creds[j] })
	for _, c := range creds {
		keys := sigs[c].GetSignatures()
		if c > 255 || len(keys) == 0 || len(keys) > 255 {
			return nil, fmt.Errorf("%w: credential %d", ErrMalformed, c)
		}
		out = append(out, byte(c), byte(len(keys)))
		idx := make([]uint32, 0, len(keys))
		for k := range keys {
			idx = append(idx, k)
		}
		sort.Slice(idx, func(i, j int) bool { return idx[i] < idx[j] })
		for _, k := range idx {
			sig := keys[k].GetValue()
			if k > 255 || len(sig) > 0xffff {
				return nil, fmt.Errorf("%w: key %d of credential %d", ErrMalformed, k, c)
			}
			out = append(out, byte(k))
			out = binary.BigEndian.AppendUint16(out, uint16(len(sig)))
			out = append(out, sig...)
		}
	}
	out = append(out, h.GetSender().GetValue()...)
	out = binary.BigEndian.AppendUint64(out, h.GetSequenceNumber().GetValue())
	out = binary.BigEndian.AppendUint64(out, h.GetEnergyAmount().GetValue())
	out = binary.BigEndian.AppendUint32(out, uint32(len(payload)))
	out = binary.BigEndian.AppendUint64(out, h.GetExpiry().GetValue())
	return append(out, payload...), nil
}

// encodePayload returns the serialized payload of a structured AccountTransactionPayload: the
// raw payload as is, or the encoding of RegisterData (0x15 || u16 BE len || data), Transfer
// (0x03 || to(32) || amount u64 BE) or UpdateContract (0x02 || amount u64 BE || index u64 BE ||
// subindex u64 BE || u16 BE len || receive name || u16 BE len || parameter).
func encodePayload(p *pb.AccountTransactionPayload) ([]byte, error) {
	switch v := p.GetPayload().(type) {
	case *pb.AccountTransactionPayload_RawPayload:
		return v.RawPayload, nil
	case *pb.AccountTransactionPayload_RegisterData:
		d := v.RegisterData.GetValue()
		if len(d) > maxRegisterData {
			return nil, fmt.Errorf("%w: register data of %d bytes", ErrMalformed, len(d))
		}
		out := []byte{payloadRegisterData}
		out = binary.BigEndian.AppendUint16(out, uint16(len(d)))
		return append(out, d...), nil
	case *pb.AccountTransactionPayload_Transfer:
		to := v.Transfer.GetReceiver().GetValue()
		if len(to) != 32 {
			return nil, fmt.Errorf("%w: transfer receiver", ErrMalformed)
		}
		out := append([]byte{payloadTransfer}, to...)
		return binary.BigEndian.AppendUint64(out, v.Transfer.GetAmount().GetValue()), nil
	case *pb.AccountTransactionPayload_UpdateContract:
		u := v.UpdateContract
		name, param := u.GetReceiveName().GetValue(), u.GetParameter().GetValue()
		if len(name) > 100 || len(param) > 0xffff {
			return nil, fmt.Errorf("%w: update contract payload", ErrMalformed)
		}
		out := []byte{payloadUpdate}
		out = binary.BigEndian.AppendUint64(out, u.GetAmount().GetValue())
		out = binary.BigEndian.AppendUint64(out, u.GetAddress().GetIndex())
		out = binary.BigEndian.AppendUint64(out, u.GetAddress().GetSubindex())
		out = binary.BigEndian.AppendUint16(out, uint16(len(name)))
		out = append(out, name...)
		out = binary.BigEndian.AppendUint16(out, uint16(len(param)))
		return append(out, param...), nil
	case nil:
		return nil, fmt.Errorf("%w: no payload", ErrMalformed)
	default:
		return nil, fmt.Errorf("%w: payload kind %T is not served by the devchain", ErrMalformed, v)
	}
}

// reader walks a byte slice; every method reports false when the input is short.
type reader struct {
	b   []byte
	off int
}

func (r *reader) bytes(n int) ([]byte, bool) {
	if n < 0 || len(r.b)-r.off < n {
		return nil, false
	}
	v := r.b[r.off : r.off+n]
	r.off += n
	return v, true
}

func (r *reader) u8() (uint8, bool) {
	v, ok := r.bytes(1)
	if !ok {
		return 0, false
	}
	return v[0], true
}

func (r *reader) u16() (uint16, bool) {
	v, ok := r.bytes(2)
	if !ok {
		return 0, false
	}
	return binary.BigEndian.Uint16(v), true
}

func (r *reader) u32() (uint32, bool) {
	v, ok := r.bytes(4)
	if !ok {
		return 0, false
	}
	return binary.BigEndian.Uint32(v), true
}

func (r *reader) u64() (uint64, bool) {
	v, ok := r.bytes(8)
	if !ok {
		return 0, false
	}
	return binary.BigEndian.Uint64(v), true
}
