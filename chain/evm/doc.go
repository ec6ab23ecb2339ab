// Package evm is the settlement side of the Warden's local facilitator on an EVM chain
// (warden-games §10.7, §11): a JSON-RPC client that submits an x402 payment's EIP-3009
// transferWithAuthorization to the token, waits for its receipt, and reads balances and
// authorizationState(from, nonce), the chain's own record of a spent nonce (§10.8).
//
// The client is a small JSON-RPC 2.0 client over net/http rather than go-ethereum's ethclient:
// ethclient v1.17.10 would bring go-ethereum and about twenty further modules into the project's
// go.mod (among them cgo's blst and c-kzg-4844, gnark-crypto, go-eth-kzg, gopsutil) and move
// OpenTelemetry from v1.35 to v1.46 under grpc, for the few calls used here, while the types
// they need (addresses, authorizations, Keccak-256) are chain/x402's already.
// go-ethereum is still what the tests run against: geth --dev, built in its own module by
// scripts/build-geth.sh.
//
// Stakes' transferWithAuthorization is sent with eth_sendTransaction from an account the node
// holds (the relayer). The Warden's own wallet (payouts and refunds, §11) signs locally: a
// Wallet builds an EIP-1559 DynamicFeeTx (eth_estimateGas, eth_maxPriorityFeePerGas and the
// latest base fee), signs it with the chain id (RFC 6979, low s), and the caller stores its
// hash and bytes before eth_sendRawTransaction sends them; the nonce is the caller's, counted
// locally. DecodeDynamicFeeTx reads such bytes back strictly (canonical RLP only).
//
// Errors: *RPCError for a JSON-RPC error answer (a call the EVM reverts carries its reason in
// Message), *RevertedError for a mined transaction whose receipt has status 0; others are
// transport errors.
package evm
