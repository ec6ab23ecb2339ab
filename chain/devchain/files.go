package devchain

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"

	v2 "github.com/Concordium/concordium-go-sdk/v2"
)

// LoadGenesis reads a genesis file in the form the node writes to
// <Dir>/devchain-genesis.json: {"time_ms", "accounts": [{"name", "address" (base58, may be
// empty to derive it), "seed" (hex, optional), "public_key" (hex, optional when seed is
// given), "balance_micro_ccd", "next_nonce"}]}.
func LoadGenesis(path string) (Genesis, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return Genesis{}, fmt.Errorf("devchain: read genesis %s: %w", path, err)
	}
	var f genesisFile
	if err := json.Unmarshal(raw, &f); err != nil {
		return Genesis{}, fmt.Errorf("devchain: read genesis %s: %w", path, err)
	}
	for i := range f.Accounts {
		if f.Accounts[i].Address == "" {
			// unmarshalGenesis wants an address; a zero one is derived by normalize.
			f.Accounts[i].Address = (&v2.AccountAddress{}).ToBase58()
		}
	}
	fixed, err := json.Marshal(f)
	if err != nil {
		return Genesis{}, err
	}
	g, err := unmarshalGenesis(fixed)
	if err != nil {
		return Genesis{}, err
	}
	for i := range g.Accounts {
		if len(g.Accounts[i].PublicKey) == 0 {
			g.Accounts[i].PublicKey = nil
		}
	}
	return g, nil
}

// agentFile is one registration in an agents file.
type agentFile struct {
	TokenID           uint64 `json:"token_id"`
	Owner             string `json:"owner"`                        // base58
	AgentURI          string `json:"agent_uri,omitempty"`          // "" = None
	MetadataHash      string `json:"metadata_hash,omitempty"`      // hex, "" = None
	ExternalReference string `json:"external_reference,omitempty"` // "" = None
	AgentWallet       string `json:"agent_wallet,omitempty"`       // base58, "" = None
	Status            string `json:"status,omitempty"`             // Active (default), Suspended, Revoked
	RegisteredAtMs    uint64 `json:"registered_at_ms,omitempty"`
	RevokedAtMs       uint64 `json:"revoked_at_ms,omitempty"`
	RevocationReason  string `json:"revocation_reason,omitempty"`
}

// LoadAgents reads an agents file: a JSON array of registrations {"token_id", "owner"
// (base58), "agent_uri", "metadata_hash" (hex), "external_reference", "agent_wallet"
// (base58), "status" ("Active" | "Suspended" | "Revoked"), "registered_at_ms",
// "revoked_at_ms", "revocation_reason"}, every field but token_id and owner optional. Store
// them with Node.PutAgent.
func LoadAgents(path string) ([]Agent, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("devchain: read agents %s: %w", path, err)
	}
	var list []agentFile
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, fmt.Errorf("devchain: read agents %s: %w", path, err)
	}
	out := make([]Agent, 0, len(list))
	for _, f := range list {
		bad := func(what string, err error) ([]Agent, error) {
			return nil, fmt.Errorf("devchain: agents %s: token %d: %s: %v", path, f.TokenID, what, err)
		}
		a := Agent{TokenID: f.TokenID, AgentURI: f.AgentURI, ExternalReference: f.ExternalReference,
			RegisteredAtMs: f.RegisteredAtMs, RevokedAtMs: f.RevokedAtMs, RevocationReason: f.RevocationReason}
		if a.Owner, err = v2.AccountAddressFromString(f.Owner); err != nil {
			return bad("owner", err)
		}
		if f.MetadataHash != "" {
			if a.MetadataHash, err = hex.DecodeString(f.MetadataHash); err != nil || len(a.MetadataHash) != 32 {
				return bad("metadata_hash", fmt.Errorf("want 64 hex digits"))
			}
		}
		if f.AgentWallet != "" {
			w, err := v2.AccountAddressFromString(f.AgentWallet)
			if err != nil {
				return bad("agent_wallet", err)
			}
			a.AgentWallet = &w
		}
		switch f.Status {
		case "", "Active":
			a.Status = AgentActive
		case "Suspended":
			a.Status = AgentSuspended
		case "Revoked":
			a.Status = AgentRevoked
		default:
			return bad("status", fmt.Errorf("%q is not Active, Suspended or Revoked", f.Status))
		}
		out = append(out, a)
	}
	return out, nil
}
