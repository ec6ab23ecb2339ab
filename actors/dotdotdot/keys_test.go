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
