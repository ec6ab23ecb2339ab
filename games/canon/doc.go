// Package canon holds the canonical-bytes and signature helpers every game may import: strict
// checks on raw JSON, RFC 8785 (JCS) canonicalisation, SHA-256 ids, exact-case strict decoding,
// and Ed25519 keys and signatures in the protocol's text form (DOTDOTDOT §7.2, §7.3).
//
// Why the strict checks come first: what is signed is the canonical form of the bytes as
// received, while Go's encoding/json folds member names by case and rounds big integers. If two
// members differ only by case ("amount"/"Amount", "seq"/"\u017feq") the canonical bytes keep both
// while the decoder keeps one, so one signature would cover two different commitments; an
// integer above 2^53−1 is written by JCS as a different number than the one sent. So every
// object is checked on its raw bytes, then canonicalised, then decoded by exact names only.
//
// The package is pure: no I/O, no clock, no randomness.
package canon
