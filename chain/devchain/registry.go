package devchain

import (
	"encoding/binary"
	"fmt"

	v2 "github.com/Concordium/concordium-go-sdk/v2"
	bolt "go.etcd.io/bbolt"
)

// registryName is the CIS-8004 registry's contract name; its view is "CIS-8004.agentOf".
const registryName = "CIS-8004"

// AgentStatus is a registration's status in the CIS-8004 registry. Only AgentActive may be
// seated (§4.1); a live registry returns the other statuses as records, not errors.
type AgentStatus uint8

// The statuses, with their wire tags (u8).
const (
	AgentActive    AgentStatus = 0
	AgentSuspended AgentStatus = 1
	AgentRevoked   AgentStatus = 2
)

func (s AgentStatus) String() string {
	switch s {
	case AgentActive:
		return "Active"
	case AgentSuspended:
		return "Suspended"
	case AgentRevoked:
		return "Revoked"
	}
	return fmt.Sprintf("AgentStatus(%d)", uint8(s))
}

// Agent is one registration in the CIS-8004 registry, as agentOf returns it (cis8004.json
// example_agent_view_spec_u32_lengths). Optional fields are absent when zero.
type Agent struct {
	// TokenID is the Badge's CIS-2 token id (TokenIdU64, wire form 0x08 || u64 LE).
	TokenID uint64
	// Owner is the account that owns the Badge, the accountable party (§2).
	Owner v2.AccountAddress
	// AgentURI is where the agent card is served; "" is None (to be refused, §4.1).
	AgentURI string
	// MetadataHash is SHA-256 of the card as served, 32 bytes; nil is None.
	MetadataHash []byte
	// ExternalReference is optional; "" is None.
	ExternalReference string
	// AgentWallet is the delegated agent wallet (§5.7 pay_from); nil is None.
	AgentWallet *v2.AccountAddress
	// Status is Active, Suspended or Revoked.
	Status AgentStatus
	// RegisteredAtMs is the registration time in Unix milliseconds.
	RegisteredAtMs uint64
	// RevokedAtMs is the revocation time in Unix milliseconds; 0 is None.
	RevokedAtMs uint64
	// RevocationReason is optional; "" is None.
	RevocationReason string
}

// EncodeAgentView lays an Agent out as agentOf's return value, in smart-contract encoding:
// token_id (u8 len 8 || u64 LE) || owner(32) || Option<String> agent_uri ||
// Option<[32]> metadata_hash || Option<String> external_reference ||
// Option<AccountAddress> agent_wallet || status u8 || registered_at u64 LE (ms) ||
// Option<u64 LE> revoked_at || Option<String> revocation_reason, where Option is 0x00 | 0x01 ||
// value and String is u32 LE length || UTF-8 (the CIS-8004 draft's u32 lengths).
func EncodeAgentView(a Agent) []byte {
	out := []byte{8}
	out = binary.LittleEndian.AppendUint64(out, a.TokenID)
	out = append(out, a.Owner.Value[:]...)
	optStr := func(s string) {
		if s == "" {
			out = append(out, 0)
			return
		}
		out = appendStr(append(out, 1), []byte(s))
	}
	optStr(a.AgentURI)
	if a.MetadataHash == nil {
		out = append(out, 0)
	} else {
		out = append(append(out, 1), a.MetadataHash...)
	}
	optStr(a.ExternalReference)
	if a.AgentWallet == nil {
		out = append(out, 0)
	} else {
		out = append(append(out, 1), a.AgentWallet.Value[:]...)
	}
	out = append(out, byte(a.Status))
	out = binary.LittleEndian.AppendUint64(out, a.RegisteredAtMs)
	if a.RevokedAtMs == 0 {
		out = append(out, 0)
	} else {
		out = binary.LittleEndian.AppendUint64(append(out, 1), a.RevokedAtMs)
	}
	optStr(a.RevocationReason)
	return out
}

// DecodeAgentView parses agentOf's return value (the layout of EncodeAgentView). It refuses
// trailing bytes, unknown option tags and a token id that is not a TokenIdU64.
func DecodeAgentView(b []byte) (Agent, error) {
	r := newLE(b)
	var a Agent
	bad := func(what string) (Agent, error) {
		return Agent{}, fmt.Errorf("devchain: agent view: bad %s", what)
	}
	if n, ok := r.u8(); !ok || n != 8 {
		return bad("token id")
	}
	id, ok := r.u64()
	if !ok {
		return bad("token id")
	}
	a.TokenID = id
	owner, ok := r.bytes(32)
	if !ok {
		return bad("owner")
	}
	copy(a.Owner.Value[:], owner)
	optStr := func(dst *string, what string) bool {
		tag, ok := r.u8()
		switch {
		case !ok || tag > 1:
			return false
		case tag == 0:
			return true
		}
		s, ok := r.str(1 << 16)
		if !ok || len(s) == 0 {
			return false
		}
		*dst = string(s)
		return true
	}
	if !optStr(&a.AgentURI, "agent_uri") {
		return bad("agent_uri")
	}
	switch tag, ok := r.u8(); {
	case !ok || tag > 1:
		return bad("metadata_hash")
	case tag == 1:
		h, ok := r.bytes(32)
		if !ok {
			return bad("metadata_hash")
		}
		a.MetadataHash = append([]byte(nil), h...)
	}
	if !optStr(&a.ExternalReference, "external_reference") {
		return bad("external_reference")
	}
	switch tag, ok := r.u8(); {
	case !ok || tag > 1:
		return bad("agent_wallet")
	case tag == 1:
		w, ok := r.bytes(32)
		if !ok {
			return bad("agent_wallet")
		}
		var wa v2.AccountAddress
		copy(wa.Value[:], w)
		a.AgentWallet = &wa
	}
	st, ok := r.u8()
	if !ok || st > uint8(AgentRevoked) {
		return bad("status")
	}
	a.Status = AgentStatus(st)
	if a.RegisteredAtMs, ok = r.u64(); !ok {
		return bad("registered_at")
	}
	switch tag, ok := r.u8(); {
	case !ok || tag > 1:
		return bad("revoked_at")
	case tag == 1:
		if a.RevokedAtMs, ok = r.u64(); !ok || a.RevokedAtMs == 0 {
			return bad("revoked_at")
		}
	}
	if !optStr(&a.RevocationReason, "revocation_reason") {
		return bad("revocation_reason")
	}
	if !r.done() {
		return bad("trailing bytes")
	}
	return a, nil
}

// EncodeTokenID is the agentOf parameter: a CIS-2 TokenIdU64, 0x08 || u64 LE
// (cis8004.json agent_token_id_encoding).
func EncodeTokenID(id uint64) []byte {
	return binary.LittleEndian.AppendUint64([]byte{8}, id)
}

// callRegistry runs a CIS-8004 entrypoint: the view agentOf, and the stand-in's update
// register (registerAgent). Other registrations are made through the Go API
// (Node.RegisterAgent, Node.SetAgentStatus).
func (cs *contracts) callRegistry(c *contractCall, entry string) (callResult, error) {
	if entry == "register" {
		return cs.registerAgent(c)
	}
	if entry != "agentOf" {
		return badMethod(c, registryName), nil
	}
	if c.amount != 0 {
		return rejected(c, RejectNotPayable), nil
	}
	r := newLE(c.param)
	n, ok := r.u8()
	id, ok2 := r.u64()
	if !ok || !ok2 || n != 8 || !r.done() {
		return rejected(c, RejectParse), nil
	}
	raw := c.btx.Bucket(bAgents).Get(u64key(id))
	if raw == nil {
		return rejected(c, RejectAgentNotFound), nil
	}
	return callResult{ret: append([]byte(nil), raw...)}, nil
}

// putAgent stores a registration (its encoded view), overwriting any with the same token id.
func putAgent(btx *bolt.Tx, a Agent) error {
	if a.MetadataHash != nil && len(a.MetadataHash) != 32 {
		return fmt.Errorf("%w: metadata hash of %d bytes", ErrOptions, len(a.MetadataHash))
	}
	if a.Status > AgentRevoked {
		return fmt.Errorf("%w: agent status %d", ErrOptions, a.Status)
	}
	return btx.Bucket(bAgents).Put(u64key(a.TokenID), EncodeAgentView(a))
}

func getAgent(btx *bolt.Tx, id uint64) (Agent, bool, error) {
	raw := btx.Bucket(bAgents).Get(u64key(id))
	if raw == nil {
		return Agent{}, false, nil
	}
	a, err := DecodeAgentView(raw)
	return a, err == nil, err
}

// RegisterAgent adds a registration under the next free token id (one more than the highest
// in use, 0 for the first) and returns it as stored. A zero RegisteredAtMs is set to the
// chain's clock. a.TokenID is ignored; use PutAgent to choose it.
func (n *Node) RegisterAgent(a Agent) (Agent, error) {
	err := n.ch().db.Update(func(btx *bolt.Tx) error {
		k, _ := btx.Bucket(bAgents).Cursor().Last()
		a.TokenID = 0
		if k != nil {
			a.TokenID = binary.BigEndian.Uint64(k) + 1
		}
		if a.RegisteredAtMs == 0 {
			a.RegisteredAtMs = uint64(n.ch().now().UnixMilli())
		}
		return putAgent(btx, a)
	})
	if err != nil {
		return Agent{}, fmt.Errorf("devchain: register agent: %w", err)
	}
	return a, nil
}

// PutAgent stores a registration under a.TokenID, replacing any there (for tests that need a
// given token id, e.g. the vectors' 0, 1 and 484).
func (n *Node) PutAgent(a Agent) error {
	if err := n.ch().db.Update(func(btx *bolt.Tx) error { return putAgent(btx, a) }); err != nil {
		return fmt.Errorf("devchain: put agent %d: %w", a.TokenID, err)
	}
	return nil
}

// SetAgentStatus changes a registration's status. Revoking stamps RevokedAtMs with the
// chain's clock and keeps reason; any other status clears both. ErrNotFound when the token
// id was never registered.
func (n *Node) SetAgentStatus(tokenID uint64, s AgentStatus, reason string) error {
	err := n.ch().db.Update(func(btx *bolt.Tx) error {
		a, ok, err := getAgent(btx, tokenID)
		if err != nil {
			return err
		}
		if !ok {
			return ErrNotFound
		}
		a.Status, a.RevokedAtMs, a.RevocationReason = s, 0, ""
		if s == AgentRevoked {
			a.RevokedAtMs, a.RevocationReason = uint64(n.ch().now().UnixMilli()), reason
		}
		return putAgent(btx, a)
	})
	if err != nil {
		return fmt.Errorf("devchain: set agent %d status: %w", tokenID, err)
	}
	return nil
}

// Agent reads a registration; ok is false when the token id was never registered.
func (n *Node) Agent(tokenID uint64) (a Agent, ok bool, err error) {
	err = n.ch().db.View(func(btx *bolt.Tx) error {
		a, ok, err = getAgent(btx, tokenID)
		return err
	})
	return a, ok, err
}

// RejectAgentExists is the stand-in registry's refusal of a register naming a token id that is
// already registered (ours: the CIS-8004 draft chooses token ids itself and has no such code).
const RejectAgentExists int32 = -7290

// RejectRegisterUnauthorized is CIS-8004's Unauthorized: register from an account other than the
// arena's.
const RejectRegisterUnauthorized int32 = -7201

// EncodeRegister is the parameter of the stand-in's CIS-8004.register: token id (0x08 || u64
// LE) || owner (32 bytes) || agent_uri (u32 LE length || UTF-8, 1 to 65536 bytes) ||
// metadata_hash (32 bytes). The arena mints a lent Badge with it under the token id derived
// from the seat's key (docs/protocol-notes.md "badge.minted").
func EncodeRegister(tokenID uint64, owner [32]byte, agentURI string, metadataHash [32]byte) []byte {
	out := EncodeTokenID(tokenID)
	out = append(out, owner[:]...)
	out = appendStr(out, []byte(agentURI))
	return append(out, metadataHash[:]...)
}

// registerAgent is the stand-in's CIS-8004.register: only the arena's account (the escrow's
// admin) may register, under the token id it names, once: a registered token id is refused
// (RejectAgentExists), so a second mint of the same lent Badge changes nothing. The
// registration is Active, stamped with the block's time, with no wallet.
func (cs *contracts) registerAgent(c *contractCall) (callResult, error) {
	if c.amount != 0 {
		return rejected(c, RejectNotPayable), nil
	}
	if !cs.hasAdmin || c.invoker != cs.admin {
		return rejected(c, RejectRegisterUnauthorized), nil
	}
	r := newLE(c.param)
	n, ok1 := r.u8()
	id, ok2 := r.u64()
	owner, ok3 := r.bytes(32)
	owner = append([]byte(nil), owner...)
	uri, ok4 := r.str(1 << 16)
	hash, ok5 := r.bytes(32)
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || n != 8 || len(uri) == 0 || !r.done() {
		return rejected(c, RejectParse), nil
	}
	if c.btx.Bucket(bAgents).Get(u64key(id)) != nil {
		return rejected(c, RejectAgentExists), nil
	}
	a := Agent{TokenID: id, AgentURI: string(uri), MetadataHash: append([]byte(nil), hash...),
		Status: AgentActive, RegisteredAtMs: uint64(c.now.UnixMilli())}
	copy(a.Owner.Value[:], owner)
	if err := putAgent(c.btx, a); err != nil {
		return callResult{}, err
	}
	return callResult{}, nil
}
