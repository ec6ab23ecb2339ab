// Package x402 is the x402 payment codec and verifier of the Warden's USDC payments
// (warden-games §10): the one strict reader of a payment payload (the X-PAYMENT header of x402
// v1, PAYMENT-SIGNATURE of v2, or the JSON object an MCP request carries), the 402 challenge's
// requirements as the v1 body and the v2 PAYMENT-REQUIRED header, and the local checks of an
// "exact" EVM payment: the EIP-3009 transferWithAuthorization authorization, its EIP-712
// signature recovered with secp256k1 under the domain of the offer (never one named by the
// payload), the recipient, the amount and the time window (§10.3 steps 1, 3 and 4; §10.7.1).
//
// Time is an argument (Unix seconds), never read from a clock; the package does no I/O and
// keeps no state. Claiming an authorization's nonce (§10.8) is the caller's, through a
// ReplayStore keyed by ReplayKey.
//
// Every refusal is a *Refusal carrying the §10.10 code a door sends.
package x402
