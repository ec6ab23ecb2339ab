// Package ccd is the arena's Concordium client: account addresses, the arena's account key,
// account transactions (Register Data for §5.5 anchors, Update Contract for the escrow calls of
// §5.5 and §11.5) built, signed and hashed offline, and a node client over the node's gRPC API
// v2 (SendBlockItem, GetNextAccountSequenceNumber, GetBlockItemStatus, InvokeInstance,
// GetConsensusInfo).
//
// It is built on github.com/Concordium/concordium-go-sdk v0.4.0: the SDK makes the header, the
// payload, the energy and the sign digest, signs, and carries the gRPC client and its generated
// protobuf types. Where the SDK is missing a part or disagrees with the vectors made by
// Concordium's own web SDK (testdata/concordium), this package supplies or replaces that
// part and docs/protocol-notes.md (section "chain") says which, with the bytes:
//   - the SDK cannot serialize a signed block item nor compute its transaction hash, which the
//     arena needs at signing time (it answers tables with the hash before submitting): Tx does it;
//   - the SDK's AccountAddressFromString accepts any base58check version byte: ParseAddress
//     requires version 1 (an account);
//   - the SDK's InvokeInstance always sends an (empty) invoker, where the official SDK omits it:
//     Client.Invoke builds the request itself;
//   - the SDK never checks that an exported key file's verifyKey belongs to its signKey, and
//     never checks the 256-byte Register Data limit: LoadKey and RegisterData do.
//
// Everything here is safe for concurrent use unless a doc comment says otherwise.
package ccd
