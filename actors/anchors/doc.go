// Package anchors is the chain actor: it takes tables' anchor requests (§5.5), signs each as a
// Register Data transaction with the arena's account key under a nonce it assigns itself, and
// answers the table at once with the transaction hash, which the table records in its transcript
// (anchor.<kind>). Play never waits on the chain: submission, retry, re-sync and finality
// watching happen afterwards, in batches, off the actor's goroutine.
//
// Durability. Every submission is written to the arena's store (storage's chain queue: bucket
// chainq, keyed by the hash the table was given; storage.ApplyChain) BEFORE the table is
// answered, and before the node ever sees it. After a crash the actor reloads the queue and
// resubmits everything not yet finalized; a node that already has a transaction answers
// ALREADY_EXISTS, which counts as success. The anchor bytes themselves are indexed (bucket
// chainidx), so the same anchor requested twice (a table that replays a step after a restart) is
// answered with the transaction already made and is never registered twice.
//
// Nonces. The actor keeps the next nonce (bucket chainmeta) and hands out consecutive nonces
// without waiting for finality. When the node refuses a submission (gRPC InvalidArgument:
// duplicate nonce, expired, ...) or reports it lost, the actor re-syncs from the node
// (GetNextAccountSequenceNumber and GetBlockItemStatus of every pending item) and re-signs only
// the items that can provably never land: their nonce was consumed by another transaction, they
// expired, or they failed in a finalized block. A re-signed item keeps its chainq key (the hash
// the transcript holds) and records the hash that replaces it (see Lookup).
//
// Timers are one-shot with a generation (never SendRepeatedly); queue writes are storage's group
// commits, run from a goroutine; node calls run on goroutines and come back as messages.
package anchors
