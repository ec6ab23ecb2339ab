package main

import "crypto/ed25519"

// Proven passes the join door's verified signatures on to the Badge resolver's key index
// (join.KeyProver): a Badge that signed with its key holds it for good (§4.2 "a key MUST be
// used by exactly one Badge, ever"; chain/badge KeyIndex).
func (j joinResolver) Proven(agent string, key ed25519.PublicKey) bool {
	return j.r.Proven(agent, key)
}
