package actors

import (
	"crypto/ed25519"
	"encoding/hex"
	"strings"
	"testing"
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
