// Package devchain is the embedded local Concordium node: it serves the SDK's generated gRPC
// service (concordium.v2.Queries, github.com/Concordium/concordium-go-sdk v0.4.0 v2/pb) on a
// real loopback socket, keeps its blocks, transactions and accounts in bbolt, finalizes after a
// configurable delay, and hosts stand-ins of the CIS-8004 Badge registry (§4.1, agentOf) and of
// the round escrow contract (§5.5 open_round/anchor/settle, §5.7 deposit, §11.5).
//
// It is the arena's default chain when no node address is configured, and the node tests point
// the real SDK client at. It checks what a real node checks for an account transaction (the
// signature map against the sender's keys, the sequence number, the expiry, the energy) and
// answers with the real node's gRPC status codes: ALREADY_EXISTS for a duplicate, INVALID_ARGUMENT
// for a refusal, NOT_FOUND for an unknown hash or account. Faults can be injected (latency, an
// Unavailable rate, dropped submissions, a restart on the same port).
//
// Start runs a node; every exported method of Node is safe for concurrent use.
package devchain
