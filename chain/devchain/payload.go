package devchain

import (
	"encoding/binary"
	"fmt"
)

// Payload tags of the account transactions the devchain executes.
const (
	payloadUpdate       = 0x02 // update a contract instance
	payloadTransfer     = 0x03 // simple transfer
	payloadRegisterData = 0x15 // register data (21)
)

// maxRegisterData is the most data one Register Data transaction carries, in bytes.
const maxRegisterData = 256

// Energy costs, in NRG. The base cost of every account transaction is
// 100 per signature + 60 (header) + the payload size in bytes (register_data.json
// "energy_formula"); each kind adds its own.
const (
	energyPerSignature = 100
	energyRegisterData = 300
	energyTransfer     = 300
	// energyContractCall is the execution energy of one stand-in contract call; each
	// parameter byte adds energyPerParamByte. A real contract charges by Wasm instructions.
	energyContractCall = 500
	energyPerParamByte = 1
)

// baseEnergy is the cost every account transaction pays before its payload runs.
func baseEnergy(nsigs, payloadSize int) uint64 {
	return uint64(energyPerSignature*nsigs + headerSize + payloadSize)
}

// payload is one decoded account transaction payload.
type payload struct {
	kind byte
	// register data
	data []byte
	// transfer
	to     [32]byte
	amount uint64 // microCCD, transfer or update
	// update
	contract ContractAddress
	receive  string
	param    []byte
}

// ContractAddress is a smart contract instance address <index, subindex>.
type ContractAddress struct{ Index, Subindex uint64 }

func (c ContractAddress) String() string { return fmt.Sprintf("<%d,%d>", c.Index, c.Subindex) }

// decodePayload decodes the payload kinds the devchain executes. Anything else is an error,
// which execution turns into a SerializationFailure rejection, as a real node does.
func decodePayload(b []byte) (payload, error) {
	if len(b) == 0 {
		return payload{}, fmt.Errorf("devchain: empty payload")
	}
	r := reader{b: b, off: 1}
	p := payload{kind: b[0]}
	switch p.kind {
	case payloadRegisterData:
		n, ok := r.u16()
		d, ok2 := r.bytes(int(n))
		if !ok || !ok2 || r.off != len(b) || n > maxRegisterData {
			return payload{}, fmt.Errorf("devchain: register data payload")
		}
		p.data = d
	case payloadTransfer:
		to, ok := r.bytes(32)
		amt, ok2 := r.u64()
		if !ok || !ok2 || r.off != len(b) {
			return payload{}, fmt.Errorf("devchain: transfer payload")
		}
		copy(p.to[:], to)
		p.amount = amt
	case payloadUpdate:
		amt, ok1 := r.u64()
		idx, ok2 := r.u64()
		sub, ok3 := r.u64()
		nl, ok4 := r.u16()
		name, ok5 := r.bytes(int(nl))
		pl, ok6 := r.u16()
		param, ok7 := r.bytes(int(pl))
		if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6 && ok7) || r.off != len(b) {
			return payload{}, fmt.Errorf("devchain: update payload")
		}
		p.amount, p.contract, p.receive, p.param = amt, ContractAddress{idx, sub}, string(name), param
	default:
		return payload{}, fmt.Errorf("devchain: payload tag %d not served", p.kind)
	}
	return p, nil
}

// EncodeUpdatePayload returns the Update contract payload of update_contract.json:
// 0x02 || amount u64 BE || index u64 BE || subindex u64 BE || u16 BE len || receive name ||
// u16 BE len || parameter. amount is in microCCD.
func EncodeUpdatePayload(amount, index, subindex uint64, receive string, param []byte) []byte {
	out := []byte{payloadUpdate}
	out = binary.BigEndian.AppendUint64(out, amount)
	out = binary.BigEndian.AppendUint64(out, index)
	out = binary.BigEndian.AppendUint64(out, subindex)
	out = binary.BigEndian.AppendUint16(out, uint16(len(receive)))
	out = append(out, receive...)
	out = binary.BigEndian.AppendUint16(out, uint16(len(param)))
	return append(out, param...)
}
