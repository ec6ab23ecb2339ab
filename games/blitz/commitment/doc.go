// Package commitment holds the DOTDOTDOT commitment object (§7.1–§7.3), its closed condition
// vocabulary (§10) and the walk-in commitment intent the arena fills and signs (§4.4).
//
// Order of checks on a received commitment, and why: the raw bytes are checked and
// canonicalised FIRST (canon.Parse, then the JCS of the object without sig: UTF-8, one value,
// no member twice, no two members equal under case folding, no integer beyond ±(2^53−1)), so
// that the bytes signed and the values settled cannot differ; then the members are read from
// that same checked tree by exact name only (no unknown member, no reflection, no case
// folding); then the schema of §7.1 is checked. The signature (§7.3) is checked by Verify against a key the caller
// resolved (§4.1 is not this package's job). Round-state checks (seq strictly increasing, payee
// seated and alive, due ≤ the format's turns, budgets, pairs) belong to the round engine.
//
// Refusals are *games.Error with the protocol's codes (§13): bad_condition for a condition,
// invalid_signature for a signature, and bad_commitment (the project's own code, see
// docs/protocol-notes.md) for any other malformed object.
package commitment
