package devchain

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	v2 "github.com/Concordium/concordium-go-sdk/v2"
)

// Genesis is the chain's first state: its accounts and its start time. It is fixed at the
// first start of a data store and kept in it; later starts read it back and ignore
// Options.Genesis.
type Genesis struct {
	// Time is the genesis block's timestamp; zero means the first start's clock reading.
	Time time.Time
	// Accounts are created at genesis, in order (the order gives each its account index).
	Accounts []GenesisAccount
	// BlockHash is the genesis block's hash, which GetConsensusInfo reports and from which a
	// client derives the CAIP-2 chain id (its first 16 bytes, §3). Zero derives the devchain's
	// own; TestnetGenesisHash makes the devchain pose as testnet, whose registry address
	// (<12802,0>) it serves by default.
	BlockHash [32]byte
}

// Genesis block hashes of the public networks. Their first 16 bytes are the CAIP-2 ids of §3
// (testnet ccd:4221332d34e1694168c2a0c0b3fd0f27, mainnet ccd:9dd9ca4d19e9393877d2c44b70f89acb).
const (
	TestnetGenesisHash = "4221332d34e1694168c2a0c0b3fd0f273809612cb13d000d5c2e00e85f50f796"
	MainnetGenesisHash = "9dd9ca4d19e9393877d2c44b70f89acbfc0883c2243e5eeaecc0d1cd0503f478"
)

// GenesisAccount is one account at genesis, with a single ed25519 key (credential 0, key 0,
// thresholds 1).
type GenesisAccount struct {
	// Name finds the account through Node.Account ("arena", "house", "test-1", ...).
	Name string
	// Address is the account address; zero derives it from the key:
	// SHA-256("devchain/account" || public key).
	Address v2.AccountAddress
	// Seed is the 32-byte ed25519 seed. It may be nil when PublicKey is given (an account the
	// devchain cannot sign for).
	Seed []byte
	// PublicKey is the ed25519 verification key; nil derives it from Seed.
	PublicKey ed25519.PublicKey
	// Balance in microCCD.
	Balance uint64
	// NextNonce is the first sequence number the account may use; 0 means 1.
	NextNonce uint64
}

// Default account names and balance of a generated genesis.
const (
	AccountArena = "arena" // the arena's account: signs anchors, administers the escrow
	AccountHouse = "house" // the house identity account: owns house Badges (§3)
	// DefaultBalance is each generated account's balance: one million CCD, in microCCD.
	DefaultBalance = 1_000_000 * 1_000_000
	// defaultTestAccounts is how many "test-N" accounts a generated genesis holds.
	defaultTestAccounts = 4
)

// DefaultGenesis generates a genesis with fresh random keys: the arena's account, the house
// identity account and test accounts test-1..test-4, each holding DefaultBalance.
func DefaultGenesis() (Genesis, error) {
	names := []string{AccountArena, AccountHouse}
	for i := 1; i <= defaultTestAccounts; i++ {
		names = append(names, fmt.Sprintf("test-%d", i))
	}
	g := Genesis{}
	for _, n := range names {
		seed := make([]byte, ed25519.SeedSize)
		if _, err := rand.Read(seed); err != nil {
			return Genesis{}, fmt.Errorf("devchain: generate key for %s: %w", n, err)
		}
		g.Accounts = append(g.Accounts, GenesisAccount{Name: n, Seed: seed, Balance: DefaultBalance})
	}
	return g, nil
}

// normalize fills derived fields and checks every account.
func (g *Genesis) normalize(now time.Time) error {
	if g.Time.IsZero() {
		g.Time = now
	}
	seen := map[[32]byte]bool{}
	names := map[string]bool{}
	for i := range g.Accounts {
		a := &g.Accounts[i]
		if a.PublicKey == nil {
			if len(a.Seed) != ed25519.SeedSize {
				return fmt.Errorf("%w: genesis account %d (%q) has neither a public key nor a 32-byte seed", ErrOptions, i, a.Name)
			}
			a.PublicKey = ed25519.NewKeyFromSeed(a.Seed).Public().(ed25519.PublicKey)
		}
		if len(a.PublicKey) != ed25519.PublicKeySize {
			return fmt.Errorf("%w: genesis account %q public key length %d", ErrOptions, a.Name, len(a.PublicKey))
		}
		if a.Seed != nil {
			if len(a.Seed) != ed25519.SeedSize || !ed25519.NewKeyFromSeed(a.Seed).Public().(ed25519.PublicKey).Equal(a.PublicKey) {
				return fmt.Errorf("%w: genesis account %q seed does not match its public key", ErrOptions, a.Name)
			}
		}
		if a.Address == (v2.AccountAddress{}) {
			a.Address.Value = sha256.Sum256(append([]byte("devchain/account"), a.PublicKey...))
		}
		if a.NextNonce == 0 {
			a.NextNonce = 1
		}
		if seen[a.Address.Value] {
			return fmt.Errorf("%w: genesis account %s appears twice", ErrOptions, a.Address.ToBase58())
		}
		seen[a.Address.Value] = true
		if a.Name != "" {
			if names[a.Name] {
				return fmt.Errorf("%w: genesis account name %q appears twice", ErrOptions, a.Name)
			}
			names[a.Name] = true
		}
	}
	return nil
}

// genesisFile is the JSON form of a Genesis kept in the store and written to
// <Dir>/devchain-genesis.json: keys and addresses in hex and base58, balances in microCCD.
type genesisFile struct {
	TimeMs    int64                `json:"time_ms"`
	BlockHash string               `json:"block_hash,omitempty"`
	Accounts  []genesisFileAccount `json:"accounts"`
}

type genesisFileAccount struct {
	Name      string `json:"name,omitempty"`
	Address   string `json:"address"`
	Seed      string `json:"seed,omitempty"`
	PublicKey string `json:"public_key"`
	Balance   uint64 `json:"balance_micro_ccd"`
	NextNonce uint64 `json:"next_nonce"`
}

func (g Genesis) marshal() ([]byte, error) {
	f := genesisFile{TimeMs: g.Time.UnixMilli()}
	if g.BlockHash != ([32]byte{}) {
		f.BlockHash = hex.EncodeToString(g.BlockHash[:])
	}
	for _, a := range g.Accounts {
		f.Accounts = append(f.Accounts, genesisFileAccount{
			Name: a.Name, Address: a.Address.ToBase58(), Seed: hex.EncodeToString(a.Seed),
			PublicKey: hex.EncodeToString(a.PublicKey), Balance: a.Balance, NextNonce: a.NextNonce,
		})
	}
	return json.MarshalIndent(f, "", "  ")
}

func unmarshalGenesis(b []byte) (Genesis, error) {
	var f genesisFile
	if err := json.Unmarshal(b, &f); err != nil {
		return Genesis{}, fmt.Errorf("devchain: read genesis: %w", err)
	}
	g := Genesis{Time: time.UnixMilli(f.TimeMs)}
	if f.BlockHash != "" {
		bh, err := hex.DecodeString(f.BlockHash)
		if err != nil || len(bh) != 32 {
			return Genesis{}, fmt.Errorf("devchain: read genesis: block_hash must be 64 hex digits")
		}
		g.BlockHash = [32]byte(bh)
	}
	for _, fa := range f.Accounts {
		addr, err := v2.AccountAddressFromString(fa.Address)
		if err != nil {
			return Genesis{}, fmt.Errorf("devchain: read genesis account %q: %w", fa.Name, err)
		}
		seed, err1 := hex.DecodeString(fa.Seed)
		pub, err2 := hex.DecodeString(fa.PublicKey)
		if err1 != nil || err2 != nil {
			return Genesis{}, fmt.Errorf("devchain: read genesis account %q: bad hex", fa.Name)
		}
		if len(seed) == 0 {
			seed = nil
		}
		g.Accounts = append(g.Accounts, GenesisAccount{
			Name: fa.Name, Address: addr, Seed: seed, PublicKey: pub, Balance: fa.Balance, NextNonce: fa.NextNonce,
		})
	}
	return g, nil
}
