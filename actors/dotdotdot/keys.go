package dotdotdot

import (
	"context"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"regexp"
	"strconv"

	"arena/actors"
	"arena/chain/badge"
	"arena/games"
)

// KeyResolver resolves a BYO agent's signing key from its Badge (§4.1). With none wired, BYO
// seats have no key in their table's Keyring (their signed commitments are refused by the game).
type KeyResolver interface {
	Resolve(ctx context.Context, agent string) (ed25519.PublicKey, error)
}

// Keys is DOTDOTDOT's actors.KeyProvider (§4.4): house and walk-in seats are lent a house Badge
// and a key derived from the instance key (HouseKey, HouseAgent), BYO seats' public keys are
// resolved from their Badges (Resolver) when the table opens and recorded with it.
type Keys struct {
	Instance ed25519.PrivateKey // the instance key, master of the lent keys
	Agent    string             // the instance's agent id (§3): the lent Badges' registry
	Resolver KeyResolver        // nil: BYO seats have no key
}

// BenchKeys is actors.BenchOptions.Keys: the bench's tables lend their house seats keys and
// Badges as DOTDOTDOT's do.
func BenchKeys(instance ed25519.PrivateKey, agent string) actors.KeyProvider {
	return &Keys{Instance: instance, Agent: agent}
}

// Open implements actors.KeyProvider: it resolves the BYO seats' keys (a failure is
// actors.ErrBadSpec) and names every lent seat with no Agent by its lent house Badge.
func (k *Keys) Open(ctx context.Context, table string, seats []actors.SeatSpec) (games.Keyring, map[int]string, error) {
	byo := map[int]string{}
	if k.Resolver != nil {
		for _, s := range seats {
			if s.LentKey() || s.Seat.Agent == "" || otsHeld(s) {
				continue // the arena holds the key: nothing to resolve
			}
			pub, err := k.Resolver.Resolve(ctx, s.Seat.Agent)
			if err != nil {
				return nil, nil, fmt.Errorf("%w: seat %d: resolve key of %s: %v", actors.ErrBadSpec, s.Seat.Seat, s.Seat.Agent, err)
			}
			byo[s.Seat.Seat] = hex.EncodeToString(pub)
		}
	}
	ring, err := buildKeyring(k.Instance, table, seats, byo)
	if err != nil {
		return nil, nil, err
	}
	for i := range seats {
		if s := &seats[i]; s.Seat.Agent == "" && s.LentKey() {
			pub, _ := ring.PublicKey(s.Seat.Seat)
			s.Seat.Agent = HouseAgent(k.Agent, pub)
		}
	}
	return ring, byo, nil
}

// Keyring implements actors.KeyProvider: the lent keys derived again, the BYO keys as recorded.
func (k *Keys) Keyring(table string, seats []actors.SeatSpec, resolved map[int]string) (games.Keyring, error) {
	return buildKeyring(k.Instance, table, seats, resolved)
}

// House keys: house and walk-in seats get a key derived from the instance key, so it need not be
// stored and is the same after a restart:
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

// OTSKey is the signing key the arena holds for an off-the-shelf agent it runs (§4.2: the card
// names this instance as operator, and its signing_key must be this key's public half, or the
// arena could not sign the agent's commitments). grant is OTSGrant of the owner token the key was
// issued with (POST /v1/ots/key): each issue is a fresh token and so a fresh key, and only the
// caller holding the token whose key the owner put in the card can seat the Badge (the card is
// the owner's act on chain; the token is the owner's proof at the door). Never stored; the same
// at every table and after a restart:
//
//	seed = HMAC-SHA256(key = InstanceKey.Seed(), msg = "arena/ots-key/v2" 0x00 <agent id> 0x00 <grant>)
//	key  = ed25519.NewKeyFromSeed(seed)
func OTSKey(instance ed25519.PrivateKey, agent, grant string) ed25519.PrivateKey {
	mac := hmac.New(sha256.New, instance.Seed())
	mac.Write([]byte("arena/ots-key/v2\x00" + agent + "\x00" + grant))
	return ed25519.NewKeyFromSeed(mac.Sum(nil))
}

// OTSGrant is what an owner token binds into its key (OTSKey): hex(SHA-256(token)). Seats and
// holds keep the grant, never the token, so nothing stored can seat the Badge again.
func OTSGrant(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// grantPattern is an OTSGrant: 64 lowercase hex digits (a SHA-256).
var grantPattern = regexp.MustCompile(`^[0-9a-f]{64}$`)

// otsHeld reports whether s is an off-the-shelf seat whose key the arena holds (OTSKey): kind
// ots on the ots channel, with its Badge named.
func otsHeld(s actors.SeatSpec) bool {
	return s.Kind == "ots" && s.Channel == ChannelOTS && s.Seat.Agent != "" && !s.LentKey()
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
// them, §4.4), the held keys of off-the-shelf seats (OTSKey), resolved public keys for BYO seats
// (no private key). Lent keys are derived on
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
	seat  int
	lent  bool
	ots   string // an off-the-shelf seat's Badge: its key is OTSKey(instance, ots, grant)
	grant string
	pub   ed25519.PublicKey // a lent key's is its private key's last 32 bytes
	priv  ed25519.PrivateKey
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
	case s.ots != "":
		s.priv = OTSKey(k.instance, s.ots, s.grant)
	case !s.lent:
		return nil
	default:
		s.priv = HouseKey(k.instance, k.table, seat)
	}
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
		return nil, fmt.Errorf("dotdotdot: keyring: seat %d's key is not held by the arena", seat)
	}
	return ed25519.Sign(s.priv, msg), nil
}

// buildKeyring makes a table's keyring from its seats: lent keys for house and walk-in seats
// (derived when first used), the recorded resolved keys (hex) for the others.
func buildKeyring(instance ed25519.PrivateKey, tableID string, seats []actors.SeatSpec, byo map[int]string) (*keyring, error) {
	k := &keyring{instance: instance, table: tableID, seats: make([]ringSeat, 0, len(seats))}
	for _, s := range seats {
		e := ringSeat{seat: s.Seat.Seat, lent: s.LentKey()}
		if otsHeld(s) {
			if !grantPattern.MatchString(s.OTSGrant) {
				// OTSKey(agent, "") is a key no card carries: refuse rather than sign with it.
				return nil, fmt.Errorf("%w: keyring of table %s: seat %d: off-the-shelf seat has no key grant (OTSGrant): the arena holds no key its card carries", actors.ErrBadSpec, tableID, e.seat)
			}
			e.ots, e.grant = s.Seat.Agent, s.OTSGrant
		}
		if h, ok := byo[e.seat]; ok && !e.lent {
			b, err := hex.DecodeString(h)
			if err != nil || len(b) != ed25519.PublicKeySize {
				return nil, fmt.Errorf("dotdotdot: keyring of table %s: seat %d: bad recorded key", tableID, e.seat)
			}
			e.pub = b
		}
		k.seats = append(k.seats, e)
	}
	return k, nil
}
