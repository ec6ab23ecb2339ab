// Package script plays one DOTDOTDOT Blitz or Short round offline from a round script
// (docs/round-script.md): it parses and validates the script strictly, runs it on the
// Blitz engine with every seat a walk-in whose key derives from the script's seed, and builds
// the Output (payouts, house, commitments, rejections, eliminations, accusations, bounty,
// transcript hash and events). `arena sim` is its command-line face.
//
// A malformed script is an *Error naming the field at fault; a round that does not conserve
// money is a *ConservationError. Nothing in this package panics on any input.
package script
