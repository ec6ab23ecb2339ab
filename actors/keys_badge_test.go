package actors

import (
	"bytes"
	"crypto/ed25519"
	"testing"

	"arena/chain/badge"
)

// The lent Badge of a house or walk-in seat (§4.4: "a derived id") is the agent id the seat
// signs every commitment with as payer and that seat.taken, transcripts and anchor-check carry.
// §3/§4 make an agent id a CAIP-19 Badge, ccd:<chain>/cis-2:<token address>, and the arena's own
// parser (chain/badge.ParseAgentID, the join door's first check) refuses HouseAgent's ids: the
// token address is base58(SHA-256(key)[:16]) with no CIS-2 version byte or checksum ("bad
// checksum or version"). So nobody can resolve a walk-in's or house seat's key through the
// registry, and anchor-check reports every such commitment "sig well-formed, not verified".
func TestLentHouseBadgeIsAWellFormedAgentID(t *testing.T) {
	instance := badge.NewAgentID(badge.Testnet, badge.TestnetRegistry, 77).String()
	if _, err := badge.ParseAgentID(instance); err != nil {
		t.Fatalf("the instance id itself: %v", err)
	}
	key := HouseKey(ed25519.NewKeyFromSeed(bytes.Repeat([]byte{9}, 32)), "p0123456789abcdef", 2)
	lent := HouseAgent(instance, key.Public().(ed25519.PublicKey))
	if _, err := badge.ParseAgentID(lent); err != nil {
		t.Fatalf("lent house Badge %s is not an agent id the arena itself accepts: %v", lent, err)
	}
}
