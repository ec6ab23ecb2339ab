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

// House keys (walk-ins are lent a house Badge and key per table). Until Badge
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
// Its seats are a short slice searched in order: a live table holds one keyring, and three maps
// for six seats cost more than the keys.
type keyring struct {
	instance ed25519.PrivateKey
	table    string
	seats    []ringSeat
}

type ringSeat struct {
	seat int
	lent bool
	pub  ed25519.PublicKey // a lent key's is its private key's last 32 bytes
	priv ed25519.PrivateKey
}

// of is seat's entry, or nil for a seat the table does not have.
func (k *keyring) of(seat int) *ringSeat {
	for i := range k.seats {
		if k.seats[i].seat == seat {
			return &k.seats[i]
		}
	}
	return nil
}

// derive is seat's entry with its private key derived if the arena holds it (lent), or nil.
func (k *keyring) derive(seat int) *ringSeat {
	s := k.of(seat)
	switch {
	case s == nil:
		return nil
	case s.priv != nil:
		return s
	case !s.lent:
		return nil
	}
	s.priv = HouseKey(k.instance, k.table, seat)
	s.pub = ed25519.PublicKey(s.priv[ed25519.SeedSize:]) // crypto/ed25519 keeps the public key there
	return s
}

func (k *keyring) PublicKey(seat int) (ed25519.PublicKey, bool) {
	k.derive(seat)
	if s := k.of(seat); s != nil && s.pub != nil {
		return s.pub, true
	}
	return nil, false
}

func (k *keyring) Sign(seat int, msg []byte) ([]byte, error) {
	s := k.derive(seat)
	if s == nil {
		return nil, fmt.Errorf("actors: keyring: seat %d's key is not held by the arena", seat)
	}
	return ed25519.Sign(s.priv, msg), nil
}

// lentKey says whether the arena holds a seat's key: house seats and those the protocol lends
// a key (SeatSpec.Lent: DOTDOTDOT walk-ins).
func lentKey(s SeatSpec) bool {
	return s.Channel == ChannelHouse || s.Lent
}

// buildKeyring makes a table's keyring from its seats: lent keys for house and walk-in seats
// (derived when first used), the recorded resolved keys (hex) for the others.
func buildKeyring(instance ed25519.PrivateKey, tableID string, seats []SeatSpec, byo map[int]string) (*keyring, error) {
	k := &keyring{instance: instance, table: tableID, seats: make([]ringSeat, 0, len(seats))}
	for _, s := range seats {
		e := ringSeat{seat: s.Seat.Seat, lent: lentKey(s)}
		if h, ok := byo[e.seat]; ok && !e.lent {
			b, err := hex.DecodeString(h)
			if err != nil || len(b) != ed25519.PublicKeySize {
				return nil, fmt.Errorf("actors: keyring of table %s: seat %d: bad recorded key", tableID, e.seat)
			}
			e.pub = b
		}
		k.seats = append(k.seats, e)
	}
	return k, nil
}
