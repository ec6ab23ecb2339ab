package actors

import (
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strconv"

	"arena/chain/badge"
)

// House keys (issue 3: "Walk-ins are lent a house Badge and key per table"). Until Badge
// resolution exists, house and walk-in seats get a key derived from the instance key, so it need
// not be stored and is the same after a restart:
//
//	seed = HMAC-SHA256(key = InstanceKey.Seed(), msg = "arena/house-key/v1" 0x00 <table id> 0x00 <seat decimal>)
//	key  = ed25519.NewKeyFromSeed(seed)
//
// and the lent Badge id is a CAIP-19 Badge in the instance's registry whose token id is the first
// 8 bytes of SHA-256(public key) (HouseAgent; docs/protocol-notes.md "actors: house keys").
func HouseKey(instance ed25519.PrivateKey, tableID string, seat int) ed25519.PrivateKey {
	mac := hmac.New(sha256.New, instance.Seed())
	mac.Write([]byte("arena/house-key/v1\x00" + tableID + "\x00" + strconv.Itoa(seat)))
	return ed25519.NewKeyFromSeed(mac.Sum(nil))
}

// defaultBadgeChain is the chain of lent Badges when the instance agent id names none.
const defaultBadgeChain = badge.Chain("ccd:00000000000000000000000000000000")

// HouseAgent is the lent house Badge id for a house key (see HouseKey): a well-formed CAIP-19
// Badge (§3; chain/badge.ParseAgentID reads it) in the instance's own registry contract (its
// chain, index and subindex; chain ccd:000…0 and contract 0,0 when the instance id is not a
// Badge), whose u64 token id is the first 8 bytes of SHA-256(pub), little-endian (the CIS-2
// token id bytes, as Badges are minted).
func HouseAgent(instanceAgent string, pub ed25519.PublicKey) string {
	sum := sha256.Sum256(pub)
	reg := badge.Contract{Chain: defaultBadgeChain}
	if id, err := badge.ParseAgentID(instanceAgent); err == nil {
		reg = badge.Contract{Chain: id.Chain, Index: id.Token.Index, Subindex: id.Token.Subindex}
	} else if len(instanceAgent) >= len(defaultBadgeChain) {
		if ch, err := badge.ParseChain(instanceAgent[:len(defaultBadgeChain)]); err == nil {
			reg.Chain = ch
		}
	}
	return badge.NewAgentID(reg.Chain, reg, binary.LittleEndian.Uint64(sum[:8])).String()
}

// keyring is a table's games.Keyring: lent house keys for house and walk-in seats (it signs for
// them, §4.4), resolved public keys for BYO seats (no private key). Lent keys are derived on
// first use (an ed25519 derivation costs a scalar multiplication; a table restored from its
// snapshot often needs none). Like the Match it serves, it is used by one goroutine at a time.
type keyring struct {
	instance ed25519.PrivateKey
	table    string
	lent     map[int]bool
	pub      map[int]ed25519.PublicKey
	priv     map[int]ed25519.PrivateKey
}

func (k *keyring) derive(seat int) bool {
	if _, ok := k.priv[seat]; ok {
		return true
	}
	if !k.lent[seat] {
		return false
	}
	p := HouseKey(k.instance, k.table, seat)
	k.priv[seat] = p
	k.pub[seat] = p.Public().(ed25519.PublicKey)
	return true
}

func (k *keyring) PublicKey(seat int) (ed25519.PublicKey, bool) {
	k.derive(seat)
	p, ok := k.pub[seat]
	return p, ok
}

func (k *keyring) Sign(seat int, msg []byte) ([]byte, error) {
	if !k.derive(seat) {
		return nil, fmt.Errorf("actors: keyring: seat %d's key is not held by the arena", seat)
	}
	return ed25519.Sign(k.priv[seat], msg), nil
}

// lentKey says whether the arena holds a seat's key: house seats and walk-ins.
func lentKey(s SeatSpec) bool {
	return s.Channel == ChannelHouse || s.Channel == ChannelMailbox || s.Seat.Walkin ||
		s.Seat.Kind == "house" || s.Seat.Kind == "walkin"
}

// buildKeyring makes a table's keyring from its seats: lent keys for house and walk-in seats
// (derived when first used), the recorded resolved keys (hex) for the others.
func buildKeyring(instance ed25519.PrivateKey, tableID string, seats []SeatSpec, byo map[int]string) (*keyring, error) {
	k := &keyring{instance: instance, table: tableID, lent: map[int]bool{},
		pub: map[int]ed25519.PublicKey{}, priv: map[int]ed25519.PrivateKey{}}
	for _, s := range seats {
		n := s.Seat.Seat
		if lentKey(s) {
			k.lent[n] = true
			continue
		}
		if h, ok := byo[n]; ok {
			b, err := hex.DecodeString(h)
			if err != nil || len(b) != ed25519.PublicKeySize {
				return nil, fmt.Errorf("actors: keyring of table %s: seat %d: bad recorded key", tableID, n)
			}
			k.pub[n] = b
		}
	}
	return k, nil
}
