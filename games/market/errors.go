package market

import "slices"

// The protocol's error codes (game-master-protocol-v2.md "Errors"). The set is closed: every
// refusal Apply gives carries one of these, and ErrorCodes lists them all (the protocol's
// ERROR_CODES).
const (
	// CodeAuthenticationRequired: the request has no authenticated Owner, or a blank one
	// ("Trust boundary").
	CodeAuthenticationRequired = "authentication_required"
	// CodeMalformedRequest: the body is not one strict JSON object of a known action with
	// exactly its members, of their types and ranges; or a cursor this market did not issue.
	CodeMalformedRequest = "malformed_request"
	// CodeUnsupportedProtocolVersion: protocolVersion is a whole number other than 2.
	CodeUnsupportedProtocolVersion = "unsupported_protocol_version"
	// CodeNotEnrolled: the Owner has no Player and the action needs one (every action but
	// enroll and readStanding).
	CodeNotEnrolled = "not_enrolled"
	// CodeUnknownPlayer: toPlayerId or counterpartyPlayerId names no Player of this game.
	CodeUnknownPlayer = "unknown_player"
	// CodeInvalidTradingName: a Trading Name over 32 characters after trimming, or carrying a
	// control character.
	CodeInvalidTradingName = "invalid_trading_name"
	// CodeNotAParty: the Exchange exists and the caller is neither of its parties.
	CodeNotAParty = "not_a_party"
	// CodeNotYourTurn: a party acting out of turn (respond/counter by the live Round's author,
	// cancel by the other party).
	CodeNotYourTurn = "not_your_turn"
	// CodeSelfDealing: a transfer to, or an Exchange proposed with, the caller's own Player.
	CodeSelfDealing = "self_dealing"
	// CodeTermsMismatch: termsHash is not the live Round's Terms Hash.
	CodeTermsMismatch = "terms_mismatch"
	// CodeUnknownAsset: an assetId this game does not define, or defines as not transferable.
	CodeUnknownAsset = "unknown_asset"
	// CodeUnknownExchange: no Exchange of this game has that exchangeId (checked before
	// not_a_party).
	CodeUnknownExchange = "unknown_exchange"
	// CodeStaleExchangeVersion: exchangeVersion is not the Exchange's current version.
	CodeStaleExchangeVersion = "stale_exchange_version"
	// CodeExchangeNotOpen: the Exchange has concluded (or its deadline has passed and the
	// sweep has yet to conclude it).
	CodeExchangeNotOpen = "exchange_not_open"
	// CodeInsufficientAvailable: the caller's Available does not cover what it would give or
	// reserve.
	CodeInsufficientAvailable = "insufficient_available"
	// CodeCommandIDReuse: a commandId this Player used before, with different content.
	CodeCommandIDReuse = "command_id_reuse"
)

// ErrorCodes is the closed set of error codes, the protocol's ERROR_CODES, in the order the
// site's status table lists them (a fresh slice each call).
func ErrorCodes() []string { return slices.Clone(errorCodes[:]) }

var errorCodes = [...]string{
	CodeAuthenticationRequired, CodeMalformedRequest, CodeUnsupportedProtocolVersion,
	CodeNotEnrolled, CodeUnknownPlayer, CodeInvalidTradingName, CodeNotAParty, CodeNotYourTurn,
	CodeSelfDealing, CodeTermsMismatch, CodeUnknownAsset, CodeUnknownExchange,
	CodeStaleExchangeVersion, CodeExchangeNotOpen, CodeInsufficientAvailable, CodeCommandIDReuse,
}

// refusal is one refused request: its code and the message sent with it.
type refusal struct{ code, msg string }

func refuse(code, msg string) *refusal { return &refusal{code, msg} }
