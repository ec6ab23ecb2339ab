package config

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"arena/chain/badge"
)

// Secrets are what Provision read from, or made in, the data directory.
type Secrets struct {
	// InstanceKey signs every envelope this instance sends (§4) and publishes its public half
	// in /.well-known/agent.json.
	InstanceKey ed25519.PrivateKey
	// InstanceAgent is Config.Dotdotdot.InstanceAgent, or DeriveAgent of the key.
	InstanceAgent string
	// OperatorToken is the bearer token of /ops/*.
	OperatorToken string
}

// Provision makes the data directory (0700) and returns the instance secrets: the instance key
// from KeyPath (generated and written 0600 when the file does not exist), the agent id, and the
// operator token (Config.OperatorToken, else TokenPath, generated and written 0600 when missing).
// A key or token file that exists but cannot be read or parsed is an error, never replaced:
// replacing an instance key would change the instance's identity.
func Provision(c Config) (Secrets, error) {
	if err := os.MkdirAll(c.DataDir, 0o700); err != nil {
		return Secrets{}, fmt.Errorf("config: make data dir %s: %w", c.DataDir, err)
	}
	key, err := loadOrMakeKey(c.KeyPath())
	if err != nil {
		return Secrets{}, err
	}
	s := Secrets{InstanceKey: key, InstanceAgent: c.Dotdotdot.InstanceAgent, OperatorToken: c.OperatorToken}
	if s.InstanceAgent == "" {
		s.InstanceAgent = DeriveAgent(key.Public().(ed25519.PublicKey))
	}
	if s.OperatorToken == "" {
		if s.OperatorToken, err = loadOrMakeToken(c.TokenPath()); err != nil {
			return Secrets{}, err
		}
	}
	return s, nil
}

// ReadOperatorToken reads the operator token `arena serve` wrote in dataDir (for `arena ops`).
func ReadOperatorToken(dataDir string) (string, error) {
	b, err := os.ReadFile(Config{DataDir: dataDir}.TokenPath())
	if err != nil {
		return "", fmt.Errorf("config: read operator token: %w", err)
	}
	return strings.TrimSpace(string(b)), nil
}

func loadOrMakeKey(path string) (ed25519.PrivateKey, error) {
	b, err := os.ReadFile(path)
	switch {
	case err == nil:
		seed, err := hex.DecodeString(strings.TrimSpace(string(b)))
		if err != nil || len(seed) != ed25519.SeedSize {
			return nil, fmt.Errorf("config: instance key %s: want %d hex digits of ed25519 seed", path, 2*ed25519.SeedSize)
		}
		return ed25519.NewKeyFromSeed(seed), nil
	case errors.Is(err, fs.ErrNotExist):
		seed := make([]byte, ed25519.SeedSize)
		if _, err := rand.Read(seed); err != nil {
			return nil, fmt.Errorf("config: generate instance key: %w", err)
		}
		if err := writeSecret(path, hex.EncodeToString(seed)+"\n"); err != nil {
			return nil, err
		}
		return ed25519.NewKeyFromSeed(seed), nil
	default:
		return nil, fmt.Errorf("config: read instance key: %w", err)
	}
}

func loadOrMakeToken(path string) (string, error) {
	b, err := os.ReadFile(path)
	switch {
	case err == nil:
		t := strings.TrimSpace(string(b))
		if len(t) < 16 {
			return "", fmt.Errorf("config: operator token %s: shorter than 16 characters", path)
		}
		return t, nil
	case errors.Is(err, fs.ErrNotExist):
		r := make([]byte, 24)
		if _, err := rand.Read(r); err != nil {
			return "", fmt.Errorf("config: generate operator token: %w", err)
		}
		t := "op_" + hex.EncodeToString(r)
		return t, writeSecret(path, t+"\n")
	default:
		return "", fmt.Errorf("config: read operator token: %w", err)
	}
}

// writeSecret creates path with mode 0600, failing if it already exists (two servers starting on
// one data dir must not overwrite each other's secret).
func writeSecret(path, content string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("config: make dir for %s: %w", path, err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("config: write %s: %w", path, err)
	}
	if _, err := f.WriteString(content); err != nil {
		f.Close()
		return fmt.Errorf("config: write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("config: write %s: %w", path, err)
	}
	return nil
}

// TestnetChain is the CAIP-2 id of Concordium testnet (§3).
const TestnetChain = string(badge.Testnet)

// TestnetRegistry is the CIS-8004 Badge registry on testnet (§4.1: <12802,0>).
var TestnetRegistry = badge.Contract{Chain: badge.Testnet, Index: 12802, Subindex: 0}

// DeriveAgent is the stand-in agent id of an instance with no registered Badge yet: the
// CAIP-19 Badge on the testnet registry <12802,0> whose token id (TokenIdU64) is the low 53 bits
// of the first 8 bytes, little-endian, of SHA-256("arena-instance:" || pub). It is stable for a
// key, distinct per key (instances must not share an id, §3), a well-formed CIS-2 token address
// (base58check, no 0, O, I or l), and its token id is at most 2^53 − 1, so the instance card's
// registrations carry it as a JSON number (§4.2; I-JSON carries no larger integer exactly).
// Configure the real Badge with --agent once registered.
func DeriveAgent(pub ed25519.PublicKey) string {
	h := sha256.Sum256(append([]byte("arena-instance:"), pub...))
	return badge.NewAgentID(badge.Testnet, TestnetRegistry, binary.LittleEndian.Uint64(h[:8])&(1<<53-1)).String()
}
