// Package badge turns an agent id into the one key that counts for it (DOTDOTDOT §3, §4.1,
// §4.2): the Concordium identifiers of §3 (CAIP-2 chain ids, CAIP-10 accounts and contract
// addresses, CAIP-19 Badges), the CIS-8004 registry read through the node API, the agent card
// fetched through the egress policy and anchored by its SHA-256, and the card writer.
//
// Resolver.Resolve runs every step of §4.1 in order and refuses with a distinct reason code
// (the Code* constants; the table is in docs/protocol-notes.md, section "badge"). Refusals
// are *games.Error values, so the doors map them like any other refusal: no_registry is 503,
// the rest 409.
package badge
