package devchain

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"time"

	v2 "github.com/Concordium/concordium-go-sdk/v2"
	"github.com/Concordium/concordium-go-sdk/v2/pb"
	bolt "go.etcd.io/bbolt"
)

// SignBlockItem builds and signs an account transaction as a wallet does (register_data.json
// layout, one signature by credential 0 key 0) and returns the block item bytes. energy is in
// NRG, expiry in Unix seconds. It is the devchain's own signer, for operators and tests; the
// arena's client signs with chain/ccd.
func SignBlockItem(seed []byte, sender v2.AccountAddress, nonce, energy, expiry uint64, payload []byte) ([]byte, error) {
	if len(seed) != ed25519.SeedSize {
		return nil, fmt.Errorf("%w: seed of %d bytes", ErrOptions, len(seed))
	}
	hdr := append([]byte(nil), sender.Value[:]...)
	hdr = binary.BigEndian.AppendUint64(hdr, nonce)
	hdr = binary.BigEndian.AppendUint64(hdr, energy)
	hdr = binary.BigEndian.AppendUint32(hdr, uint32(len(payload)))
	hdr = binary.BigEndian.AppendUint64(hdr, expiry)
	digest := sha256.Sum256(append(append([]byte(nil), hdr...), payload...))
	sig := ed25519.Sign(ed25519.NewKeyFromSeed(seed), digest[:])
	out := []byte{0, 1, 0, 1, 0}
	out = binary.BigEndian.AppendUint16(out, uint16(len(sig)))
	out = append(out, sig...)
	out = append(out, hdr...)
	return append(out, payload...), nil
}

// SendUpdate signs an update-contract transaction from the named account (its seed must be
// known to the node: a generated or seeded genesis account, or one made by CreateAccount) at
// its next sequence number and submits it. amount is in microCCD. The energy covers the
// stand-ins' execution cost. Do not use an account another signer (the chain actor) is
// assigning nonces for.
func (n *Node) SendUpdate(from string, contract ContractAddress, receive string, param []byte, amount uint64) ([32]byte, error) {
	p := EncodeUpdatePayload(amount, contract.Index, contract.Subindex, receive, param)
	return n.send(from, p, baseEnergy(1, len(p))+energyContractCall+uint64(len(param))*energyPerParamByte)
}

// SendTransfer signs a simple transfer of amount microCCD from the named account to to at its
// next sequence number and submits it (a faucet, or money leaving an account, for tests).
func (n *Node) SendTransfer(from string, to v2.AccountAddress, amount uint64) ([32]byte, error) {
	p := append([]byte{payloadTransfer}, to.Value[:]...)
	p = binary.BigEndian.AppendUint64(p, amount)
	return n.send(from, p, baseEnergy(1, len(p))+energyTransfer)
}

// SendRegisterData signs a Register Data transaction (at most 256 bytes) from the named
// account at its next sequence number and submits it.
func (n *Node) SendRegisterData(from string, data []byte) ([32]byte, error) {
	if len(data) > maxRegisterData {
		return [32]byte{}, fmt.Errorf("%w: register data of %d bytes", ErrMalformed, len(data))
	}
	p := binary.BigEndian.AppendUint16([]byte{payloadRegisterData}, uint16(len(data)))
	p = append(p, data...)
	return n.send(from, p, baseEnergy(1, len(p))+energyRegisterData)
}

func (n *Node) send(from string, payload []byte, energy uint64) ([32]byte, error) {
	a, ok := n.Account(from)
	if !ok || a.Seed == nil {
		return [32]byte{}, fmt.Errorf("%w: no account %q with a known key", ErrNotFound, from)
	}
	c := n.ch()
	rec, _, err := c.account(a.Address.Value[:])
	if err != nil {
		return [32]byte{}, err
	}
	bi, err := SignBlockItem(a.Seed, a.Address, rec.NextNonce, energy, uint64(c.now().Add(time.Hour).Unix()), payload)
	if err != nil {
		return [32]byte{}, err
	}
	return c.submit(bi, false)
}

// WaitFinalized waits until the transaction is finalized and returns its outcome. It fails
// with ErrNotFound for an unknown hash and with ctx's error when ctx ends first.
func (n *Node) WaitFinalized(ctx context.Context, hash [32]byte) (*pb.BlockItemSummary, error) {
	t := time.NewTicker(5 * time.Millisecond)
	defer t.Stop()
	for {
		st, err := n.ch().status(hash[:])
		if err != nil {
			return nil, err
		}
		if f := st.GetFinalized(); f != nil {
			return f.GetOutcome().GetOutcome(), nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-t.C:
		}
	}
}

// CreateAccount adds an account after genesis (a faucet for tests: an agent's owner, a
// custodial wallet). The address is derived from the key when zero; the seed may be nil.
// Accounts it creates are found by Account under their names, like genesis ones, until the
// node restarts with a fresh Node value (they stay on the chain either way).
func (n *Node) CreateAccount(a GenesisAccount) (GenesisAccount, error) {
	g := Genesis{Time: time.Unix(0, 0), Accounts: []GenesisAccount{a}}
	if err := g.normalize(time.Unix(0, 0)); err != nil {
		return GenesisAccount{}, err
	}
	a = g.Accounts[0]
	if a.Name != "" {
		if _, dup := n.Account(a.Name); dup {
			return GenesisAccount{}, fmt.Errorf("%w: account name %q taken", ErrOptions, a.Name)
		}
	}
	c := n.ch()
	err := c.db.Update(func(btx *bolt.Tx) error {
		accts := btx.Bucket(bAccounts)
		if accts.Get(a.Address.Value[:]) != nil {
			return fmt.Errorf("%w: account %s exists", ErrOptions, a.Address.ToBase58())
		}
		rec := accountRec{Name: a.Name, Index: uint64(accts.Stats().KeyN), PublicKey: a.PublicKey, Balance: a.Balance, NextNonce: a.NextNonce}
		return putJSON(accts, a.Address.Value[:], rec)
	})
	if err != nil {
		return GenesisAccount{}, fmt.Errorf("devchain: create account: %w", err)
	}
	n.mu.Lock()
	n.extra = append(n.extra, a)
	n.mu.Unlock()
	return a, nil
}
