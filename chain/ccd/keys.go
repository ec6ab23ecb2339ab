package ccd

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	sdk "github.com/Concordium/concordium-go-sdk/v2"
)

// Key is an account and the ed25519 keys that sign for it. Its zero value is unusable; make one
// with NewKey, LoadKey or LoadOrCreateKey. A Key never changes after it is made.
type Key struct {
	addr   Address
	wallet *sdk.WalletAccount
	pairs  []keyRef // (credential, key) indexes in ascending order
}

type keyRef struct {
	cred, key uint8
	pub       ed25519.PublicKey
}

// NewKey makes a single-key account signer (credential 0, key 0, thresholds 1): the usual shape
// of an account, and the shape of every devchain account. seed is the 32-byte ed25519 seed (the
// "signKey" of a Concordium export).
func NewKey(addr Address, seed []byte) (*Key, error) {
	pair, err := sdk.NewKeyPairFromSignKey(seed)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrKeyFile, err)
	}
	k := &Key{addr: addr, wallet: sdk.NewWalletAccount(addr.sdk(), *pair)}
	k.pairs = []keyRef{{0, 0, pair.Public()}}
	return k, nil
}

// Address is the account the key signs for.
func (k *Key) Address() Address { return k.addr }

// PublicKey is the verification key of the first (credential, key) pair.
func (k *Key) PublicKey() ed25519.PublicKey { return bytes.Clone(k.pairs[0].pub) }

// Signatures is how many signatures each transaction carries (the energy formula's numSigs).
func (k *Key) Signatures() int { return len(k.pairs) }

// DevAddress is the address the embedded devchain gives an account it creates from a public
// key: SHA-256("devchain/account" || public key). Real accounts take their address from their
// first credential instead; a generated key file uses this one.
func DevAddress(pub ed25519.PublicKey) Address {
	return sha256.Sum256(append([]byte("devchain/account"), pub...))
}

// keyFile is the arena's own key file shape, documented in docs/protocol-notes.md "chain":
// {"address": "<base58check>", "seed": "<64 hex>"}. The file is written 0600.
type keyFile struct {
	Address Address `json:"address"`
	Seed    string  `json:"seed"`
}

// LoadKey reads an account key file in either of two shapes:
//   - Concordium's account export ({"type": ..., "value": {"address": ..., "accountKeys":
//     {"keys": {"0": {"keys": {"0": {"signKey", "verifyKey"}}, "threshold"}}, "threshold"}}}), as
//     the browser wallet and concordium-client write it; read through the SDK's
//     NewWalletAccountFromFile, then every verifyKey is checked against its signKey (the SDK does
//     not, and a mismatch would sign transactions the node refuses);
//   - the arena's own {"address", "seed"} (what LoadOrCreateKey writes).
//
// Errors wrap ErrKeyFile (or the os error for an unreadable file).
func LoadKey(path string) (*Key, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("ccd: read key file: %w", err)
	}
	var probe struct {
		Value   json.RawMessage `json:"value"`
		Address *string         `json:"address"`
		Seed    *string         `json:"seed"`
	}
	if err := json.Unmarshal(raw, &probe); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrKeyFile, path, err)
	}
	switch {
	case probe.Value != nil:
		return loadExport(path, raw)
	case probe.Address != nil && probe.Seed != nil:
		var f keyFile
		if err := json.Unmarshal(raw, &f); err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrKeyFile, path, err)
		}
		seed, err := hex.DecodeString(f.Seed)
		if err != nil || len(seed) != ed25519.SeedSize {
			return nil, fmt.Errorf("%w: %s: seed must be 64 hex digits", ErrKeyFile, path)
		}
		return NewKey(f.Address, seed)
	default:
		return nil, fmt.Errorf("%w: %s: neither a Concordium export (value.accountKeys) nor {address, seed}", ErrKeyFile, path)
	}
}

func loadExport(path string, raw []byte) (*Key, error) {
	// The SDK reads the address and the keys; a malformed file may make it index a nil map, so
	// the structure is checked first.
	var shape struct {
		Value struct {
			Address     string `json:"address"`
			AccountKeys struct {
				Keys map[string]struct {
					Keys map[string]struct {
						SignKey   string `json:"signKey"`
						VerifyKey string `json:"verifyKey"`
					} `json:"keys"`
				} `json:"keys"`
			} `json:"accountKeys"`
		} `json:"value"`
	}
	if err := json.Unmarshal(raw, &shape); err != nil || len(shape.Value.AccountKeys.Keys) == 0 {
		return nil, fmt.Errorf("%w: %s: export without value.accountKeys.keys", ErrKeyFile, path)
	}
	addr, err := ParseAddress(shape.Value.Address)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrKeyFile, path, err)
	}
	w, err := sdk.NewWalletAccountFromFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrKeyFile, path, err)
	}
	k := &Key{addr: addr, wallet: w}
	for ci, cd := range w.Keys.Keys {
		for ki, kp := range cd.Keys {
			seed := kp.Secret()
			if len(seed) != ed25519.SeedSize {
				return nil, fmt.Errorf("%w: %s: key %d/%d: signKey is not 32 bytes", ErrKeyFile, path, ci, ki)
			}
			pub := ed25519.NewKeyFromSeed(seed).Public().(ed25519.PublicKey)
			if !pub.Equal(kp.Public()) {
				return nil, fmt.Errorf("%w: %s: key %d/%d: verifyKey does not belong to signKey", ErrKeyFile, path, ci, ki)
			}
			k.pairs = append(k.pairs, keyRef{uint8(ci), uint8(ki), pub})
		}
	}
	if len(k.pairs) == 0 {
		return nil, fmt.Errorf("%w: %s: no keys", ErrKeyFile, path)
	}
	sort.Slice(k.pairs, func(i, j int) bool {
		if k.pairs[i].cred != k.pairs[j].cred {
			return k.pairs[i].cred < k.pairs[j].cred
		}
		return k.pairs[i].key < k.pairs[j].key
	})
	return k, nil
}

// LoadOrCreateKey loads the key file at path (LoadKey) or, when there is none, generates a
// fresh single-key account from rnd (nil: crypto/rand), addressed by DevAddress, and writes it
// there as {"address", "seed"} with mode 0600: the embedded default, whose account the devchain
// creates at genesis from this seed.
func LoadOrCreateKey(path string, rnd io.Reader) (*Key, error) {
	k, err := LoadKey(path)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return k, err
	}
	if rnd == nil {
		rnd = rand.Reader
	}
	seed := make([]byte, ed25519.SeedSize)
	if _, err := io.ReadFull(rnd, seed); err != nil {
		return nil, fmt.Errorf("ccd: generate account key: %w", err)
	}
	addr := DevAddress(ed25519.NewKeyFromSeed(seed).Public().(ed25519.PublicKey))
	b, _ := json.MarshalIndent(keyFile{Address: addr, Seed: hex.EncodeToString(seed)}, "", "  ")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("ccd: write account key: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("ccd: write account key: %w", err)
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		return nil, fmt.Errorf("ccd: write account key: %w", err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("ccd: write account key: %w", err)
	}
	return NewKey(addr, seed)
}

// Seed returns the 32-byte seed of a single-key account (for handing the arena's account to the
// embedded devchain's genesis); false for a multi-key account.
func (k *Key) Seed() ([]byte, bool) {
	if len(k.pairs) != 1 {
		return nil, false
	}
	for _, cd := range k.wallet.Keys.Keys {
		for _, kp := range cd.Keys {
			return bytes.Clone(kp.Secret()), true
		}
	}
	return nil, false
}
