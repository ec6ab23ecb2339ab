package dotdotdot

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"strings"
	"testing"

	"arena/actors"
	"arena/games"
)

func TestHouseKeysAreDerivedAndDistinct(t *testing.T) {
	master := ed25519.NewKeyFromSeed(make([]byte, 32))
	a1, a1again := HouseKey(master, "t1", 1), HouseKey(master, "t1", 1)
	if !a1.Equal(a1again) {
		t.Fatal("house key derivation is not deterministic")
	}
	seen := map[string]bool{}
	for _, k := range []ed25519.PrivateKey{a1, HouseKey(master, "t1", 2), HouseKey(master, "t2", 1),
		HouseKey(ed25519.NewKeyFromSeed(append(make([]byte, 31), 1)), "t1", 1)} {
		seen[hex.EncodeToString(k.Seed())] = true
	}
	if len(seen) != 4 {
		t.Fatal("house keys collide across seats, tables or instances")
	}
	agent := HouseAgent("ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:4dKzQp7", a1.Public().(ed25519.PublicKey))
	token, ok := strings.CutPrefix(agent, "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:")
	if !ok || len(token) < 16 || strings.ContainsAny(token, "0OIl") {
		t.Fatalf("house agent %q", agent)
	}
}

// TestHouseKeyDerivationIsPinned: the lent key and Badge of a seat are derived, not stored, so a
// data directory's tables keep their seats' keys and agent ids across restarts only while the
// derivation stays byte for byte what it is (§4.4).
func TestHouseKeyDerivationIsPinned(t *testing.T) {
	key := HouseKey(ed25519.NewKeyFromSeed(make([]byte, 32)), "t1", 1)
	if got, want := hex.EncodeToString(key.Seed()), "1ae785c47788c4cc7ae3211554284c960cfc55ee413d7fa4ef0153e05b50e772"; got != want {
		t.Fatalf("house key seed %s, want %s", got, want)
	}
	pub := key.Public().(ed25519.PublicKey)
	if got, want := HouseAgent("ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:4dKzQp7", pub), "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:4FEGxmS5tMiJXt5H5QsD"; got != want {
		t.Fatalf("house agent %s, want %s", got, want)
	}
	if got, want := HouseAgent("", pub), "ccd:00000000000000000000000000000000/cis-2:4FEGxmS5tMiJXt5H5QsD"; got != want {
		t.Fatalf("house agent of an instance id that names no chain: %s, want %s", got, want)
	}
}

// TestKeysLendPinnedBadges: a table's lent seat gets the pinned key and Badge through Keys (Open
// at the table's opening, Keyring at every restart).
func TestKeysLendPinnedBadges(t *testing.T) {
	k := &Keys{Instance: ed25519.NewKeyFromSeed(make([]byte, 32)), Agent: "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:4dKzQp7"}
	seats := []actors.SeatSpec{{Seat: games.Seat{Seat: 1}, Channel: actors.ChannelHouse}}
	ring, byo, err := k.Open(context.Background(), "t1", seats)
	if err != nil {
		t.Fatal(err)
	}
	if want := "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:4FEGxmS5tMiJXt5H5QsD"; seats[0].Seat.Agent != want {
		t.Fatalf("lent Badge %s, want %s", seats[0].Seat.Agent, want)
	}
	again, err := k.Keyring("t1", seats, byo)
	if err != nil {
		t.Fatal(err)
	}
	want := HouseKey(k.Instance, "t1", 1).Public().(ed25519.PublicKey)
	for _, r := range []games.Keyring{ring, again} {
		if pub, ok := r.PublicKey(1); !ok || !pub.Equal(want) {
			t.Fatalf("lent key %x, want %x", pub, want)
		}
	}
}

// TestOTSSeatWithoutAGrantHasNoKey: an off-the-shelf seat is signed for with the key of its
// owner's token (OTSKey under the seat's OTSGrant). A seat spec that lost its grant (a record
// written before seats kept it, or a path that rebuilt the spec without it) must not be signed
// for with OTSKey(agent, ""), a key no card carries: Open and Keyring refuse it, and a seat with
// its grant gets the key of that grant at opening and at every restart.
func TestOTSSeatWithoutAGrantHasNoKey(t *testing.T) {
	k := &Keys{Instance: ed25519.NewKeyFromSeed(make([]byte, 32)), Agent: "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:4dKzQp7"}
	agent := "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:4FEGxmS5tMiJXt5H5QsD"
	grant := OTSGrant("ots_" + strings.Repeat("ab", 32))
	seat := func(g string) []actors.SeatSpec {
		return []actors.SeatSpec{{Seat: games.Seat{Seat: 1, Agent: agent}, Kind: "ots", Channel: ChannelOTS, OTSGrant: g}}
	}
	for _, g := range []string{"", "not-a-grant", strings.ToUpper(grant), grant[:62]} {
		if _, _, err := k.Open(context.Background(), "t1", seat(g)); err == nil {
			t.Fatalf("Open of an ots seat with grant %q: a keyring (want a refusal)", g)
		}
		if _, err := k.Keyring("t1", seat(g), nil); err == nil {
			t.Fatalf("Keyring of an ots seat with grant %q: a keyring (want a refusal)", g)
		}
	}
	ring, byo, err := k.Open(context.Background(), "t1", seat(grant))
	if err != nil {
		t.Fatal(err)
	}
	again, err := k.Keyring("t1", seat(grant), byo)
	if err != nil {
		t.Fatal(err)
	}
	want := OTSKey(k.Instance, agent, grant)
	for _, r := range []games.Keyring{ring, again} {
		if pub, ok := r.PublicKey(1); !ok || !pub.Equal(want.Public()) {
			t.Fatalf("ots key %x, want %x", pub, want.Public())
		}
		sig, err := r.Sign(1, []byte("msg"))
		if err != nil || !ed25519.Verify(want.Public().(ed25519.PublicKey), []byte("msg"), sig) {
			t.Fatalf("ots seat signed with another key (%v)", err)
		}
	}
}

// TestOTSKeyDerivationIsPinned: an off-the-shelf seat's key is derived, not stored, so a table
// restored after a restart signs with the key its card carries only while the derivation stays
// byte for byte what it is (docs/protocol-notes.md, the off-the-shelf door).
func TestOTSKeyDerivationIsPinned(t *testing.T) {
	grant := OTSGrant("ots_" + strings.Repeat("ab", 32))
	if want := "024325f4b363d65132adadd1ab99d17ac5a19e9e30f154adcecf9aef5c1611f1"; grant != want {
		t.Fatalf("grant %s, want %s", grant, want)
	}
	key := OTSKey(ed25519.NewKeyFromSeed(make([]byte, 32)), "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:4FEGxmS5tMiJXt5H5QsD", grant)
	if got, want := hex.EncodeToString(key.Seed()), "90ad403001e8d7926ea842268d83902eb906f30523c3ef9181075e8f6ab87ec1"; got != want {
		t.Fatalf("ots key seed %s, want %s", got, want)
	}
}
