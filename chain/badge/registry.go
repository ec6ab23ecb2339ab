package badge

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"

	"arena/chain/ccd"
)

// Node is the node API the registry is read through; *ccd.Client satisfies it.
type Node interface {
	// Invoke runs a read-only contract call at the last finalized block and returns its
	// return value; a call the contract rejected wraps ccd.ErrInvokeFailed.
	Invoke(ctx context.Context, call ccd.ContractCall) ([]byte, error)
	// Network is the node's CAIP-2 chain id.
	Network(ctx context.Context) (string, error)
}

var _ Node = (*ccd.Client)(nil)

// The CIS-8004 registry instances of the public networks (§4.1). A Badge on any other
// contract is not a Badge.
var (
	TestnetRegistry = Contract{Chain: Testnet, Index: 12802, Subindex: 0}
	MainnetRegistry = Contract{Chain: Mainnet, Index: 10082, Subindex: 0}
)

// RegistryFor is the registry contract of chain: testnet's and mainnet's are fixed (§4.1); any
// other chain (a devchain with its own genesis) uses configured when it is set, else the
// testnet address <12802,0>, which is where the devchain serves its stand-in.
func RegistryFor(chain Chain, configured *Contract) Contract {
	switch chain {
	case Testnet:
		return TestnetRegistry
	case Mainnet:
		return MainnetRegistry
	}
	if configured != nil {
		return Contract{Chain: chain, Index: configured.Index, Subindex: configured.Subindex}
	}
	return Contract{Chain: chain, Index: TestnetRegistry.Index, Subindex: TestnetRegistry.Subindex}
}

// agentOfEntrypoint is the registry's view (cis8004.json receive_name).
const agentOfEntrypoint = "CIS-8004.agentOf"

// agentOfEnergy is the energy allowed for one agentOf call (cis8004.json: 30000 NRG).
const agentOfEnergy = 30000

// rejectAgentNotFound is CIS-8004's AgentNotFound reject code (cis8004.json spec_reject_codes).
const rejectAgentNotFound = -7200

// Status is a registration's status in the CIS-8004 registry. Only StatusActive may be
// seated (§4.1); a live registry returns the others as records, not errors.
type Status uint8

// The statuses, by their wire tag (u8). A tag not listed decodes as itself and is not Active.
const (
	StatusActive    Status = 0
	StatusSuspended Status = 1
	StatusRevoked   Status = 2
)

func (s Status) String() string {
	switch s {
	case StatusActive:
		return "Active"
	case StatusSuspended:
		return "Suspended"
	case StatusRevoked:
		return "Revoked"
	}
	return fmt.Sprintf("Status(%d)", uint8(s))
}

// Record is what agentOf returns for a Badge (the fields §4.1 reads, and the wallet of §5.7).
type Record struct {
	TokenID        uint64
	Owner          ccd.Address
	AgentURI       string       // "" when None
	MetadataHash   []byte       // 32 bytes, nil when None
	Wallet         *ccd.Address // agent_wallet, nil when None
	Status         Status
	RegisteredAtMs uint64 // Unix milliseconds
}

// errRecord: agentOf's answer does not parse.
var errRecord = errors.New("badge: registry record does not parse")

// DecodeRecord parses agentOf's return value. It accepts the bare AgentView of the CIS-8004
// draft (u32 LE string lengths, the devchain's form: first byte 0x08, the token id's length),
// and the Option-wrapped form third-party notes describe for the deployed contract (0x01 ||
// AgentView, optionally followed by an empty on-chain metadata list u32 0; 0x00 alone is
// None, found false). Anything else, trailing bytes included, is an error: an answer that
// cannot be read is never taken as a pass.
func DecodeRecord(b []byte) (rec Record, found bool, err error) {
	if len(b) == 0 {
		return Record{}, false, fmt.Errorf("%w: empty", errRecord)
	}
	r := &leReader{b: b}
	switch b[0] {
	case 0x00:
		if len(b) != 1 {
			return Record{}, false, fmt.Errorf("%w: bytes after None", errRecord)
		}
		return Record{}, false, nil
	case 0x01:
		r.off = 1
	case 0x08:
	default:
		return Record{}, false, fmt.Errorf("%w: first byte %#x", errRecord, b[0])
	}
	rec, err = readView(r)
	if err != nil {
		return Record{}, false, err
	}
	if b[0] == 0x01 && r.left() == 4 {
		if n, _ := r.u32(); n != 0 {
			return Record{}, false, fmt.Errorf("%w: on-chain metadata list of %d", errRecord, n)
		}
	}
	if r.left() != 0 {
		return Record{}, false, fmt.Errorf("%w: %d trailing bytes", errRecord, r.left())
	}
	return rec, true, nil
}

func readView(r *leReader) (Record, error) {
	var rec Record
	bad := func(what string) (Record, error) { return Record{}, fmt.Errorf("%w: bad %s", errRecord, what) }
	if n, ok := r.u8(); !ok || n != 8 {
		return bad("token id")
	}
	var ok bool
	if rec.TokenID, ok = r.u64(); !ok {
		return bad("token id")
	}
	owner, ok := r.bytes(32)
	if !ok {
		return bad("owner")
	}
	copy(rec.Owner[:], owner)
	if rec.AgentURI, ok = r.optStr(); !ok {
		return bad("agent_uri")
	}
	h, ok := r.opt(32)
	if !ok {
		return bad("metadata_hash")
	}
	rec.MetadataHash = h
	if _, ok = r.optStr(); !ok {
		return bad("external_reference")
	}
	w, ok := r.opt(32)
	if !ok {
		return bad("agent_wallet")
	}
	if w != nil {
		rec.Wallet = new(ccd.Address)
		copy(rec.Wallet[:], w)
	}
	st, ok := r.u8()
	if !ok {
		return bad("status")
	}
	rec.Status = Status(st)
	if rec.RegisteredAtMs, ok = r.u64(); !ok {
		return bad("registered_at")
	}
	if _, ok = r.opt(8); !ok {
		return bad("revoked_at")
	}
	if _, ok = r.optStr(); !ok {
		return bad("revocation_reason")
	}
	return rec, nil
}

// leReader reads smart-contract (little-endian) encodings.
type leReader struct {
	b   []byte
	off int
}

func (r *leReader) left() int { return len(r.b) - r.off }

func (r *leReader) bytes(n int) ([]byte, bool) {
	if n < 0 || r.left() < n {
		return nil, false
	}
	out := r.b[r.off : r.off+n]
	r.off += n
	return out, true
}

func (r *leReader) u8() (byte, bool) {
	b, ok := r.bytes(1)
	if !ok {
		return 0, false
	}
	return b[0], true
}

func (r *leReader) u32() (uint32, bool) {
	b, ok := r.bytes(4)
	if !ok {
		return 0, false
	}
	return binary.LittleEndian.Uint32(b), true
}

func (r *leReader) u64() (uint64, bool) {
	b, ok := r.bytes(8)
	if !ok {
		return 0, false
	}
	return binary.LittleEndian.Uint64(b), true
}

// opt reads Option<[n]byte>: nil for None.
func (r *leReader) opt(n int) ([]byte, bool) {
	tag, ok := r.u8()
	switch {
	case !ok || tag > 1:
		return nil, false
	case tag == 0:
		return nil, true
	}
	b, ok := r.bytes(n)
	return append([]byte(nil), b...), ok
}

// maxRecordString bounds a string in a registry record (a URI); longer is malformed.
const maxRecordString = 1 << 16

// optStr reads Option<String> (u32 LE length || UTF-8): "" for None.
func (r *leReader) optStr() (string, bool) {
	tag, ok := r.u8()
	switch {
	case !ok || tag > 1:
		return "", false
	case tag == 0:
		return "", true
	}
	n, ok := r.u32()
	if !ok || n > maxRecordString {
		return "", false
	}
	b, ok := r.bytes(int(n))
	return string(b), ok
}

// agentOfCall is the InvokeInstance call reading Badge tokenID from registry
// (cis8004.json invoke_requests: parameter 0x08 || u64 LE).
func agentOfCall(registry Contract, tokenID uint64) ccd.ContractCall {
	return ccd.ContractCall{
		Index:     registry.Index,
		Subindex:  registry.Subindex,
		Receive:   agentOfEntrypoint,
		Parameter: binary.LittleEndian.AppendUint64([]byte{8}, tokenID),
		MaxEnergy: agentOfEnergy,
	}
}

// registerEntrypoint is the devchain stand-in registry's update that mints a Badge under a token
// id its caller names (chain/devchain: CIS-8004.register; the CIS-8004 draft's own register
// chooses the token id itself).
const registerEntrypoint = "CIS-8004.register"

// registerEnergy is the energy allowed for one register call.
const registerEnergy = 30000

// RegisterCall is the contract call that registers Badge tokenID in registry, owned by owner,
// its card at agentURI with SHA-256 metadataHash: the parameter is token id (0x08 || u64 LE) ||
// owner (32) || agent_uri (u32 LE length || UTF-8) || metadata_hash (32), the layout
// chain/devchain.EncodeRegister reads. The arena mints its lent Badges with it (§15
// badge.minted; docs/protocol-notes.md "badge.minted").
func RegisterCall(registry Contract, tokenID uint64, owner ccd.Address, agentURI string, metadataHash [32]byte) ccd.ContractCall {
	p := binary.LittleEndian.AppendUint64([]byte{8}, tokenID)
	p = append(p, owner[:]...)
	p = binary.LittleEndian.AppendUint32(p, uint32(len(agentURI)))
	p = append(append(p, agentURI...), metadataHash[:]...)
	return ccd.ContractCall{Index: registry.Index, Subindex: registry.Subindex, Receive: registerEntrypoint,
		Parameter: p, MaxEnergy: registerEnergy}
}
