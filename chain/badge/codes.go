package badge

import "arena/games"

// Refusal codes of Resolve, one per rule of §3, §4.1 and §4.2, in the order the rules run.
// Every refusal is a *games.Error with one of these codes; the table with the messages is in
// docs/protocol-notes.md, section "badge". Retry is true only where the same request can
// succeed later without anyone changing the registration or the card (the registry or the
// card host being down).
const (
	CodeNoRegistry          = "no_registry"            // no registry configured: nobody is seated (503)
	CodeNotBase58           = "agent_id_not_base58"    // §3: 0, O, I, l or another character outside base58
	CodeBadAgentID          = "bad_agent_id"           // not ccd:<chain>/cis-2:<token address> of a TokenIdU64
	CodeRegistryUnreadable  = "registry_unreadable"    // the node did not answer or the record does not parse
	CodeWrongNetwork        = "wrong_network"          // the Badge's chain is not the network in use
	CodeWrongRegistry       = "wrong_registry"         // the Badge's contract is not the network's registry
	CodeNotRegistered       = "not_registered"         // agentOf: no such token
	CodeStatusNotActive     = "status_not_active"      // Suspended, Revoked or any status but Active
	CodeNoAgentURI          = "no_agent_uri"           // registration without agent_uri
	CodeNoMetadataHash      = "no_metadata_hash"       // registration without metadata_hash
	CodeCardURLRefused      = "card_url_refused"       // agent_uri is not https or points inside (egress policy)
	CodeCardUnreachable     = "card_unreachable"       // GET agent_uri failed, timed out or was not 200
	CodeCardTooLarge        = "card_too_large"         // the card is over the size cap
	CodeCardHashMismatch    = "card_hash_mismatch"     // SHA-256 of the bytes as served is not metadata_hash
	CodeBadCard             = "bad_card"               // not strict JSON, or a field of the wrong type or value
	CodeBadgeMissing        = "badge_missing"          // neither the Badge extension nor a legacy concordium object
	CodeCardAgentMismatch   = "card_agent_mismatch"    // card.agent is not the Badge asked for
	CodeBadgeMismatch       = "badge_mismatch"         // the badge's tokenAddress, contracts or registrations disagree
	CodeOwnerMismatch       = "owner_mismatch"         // the badge's owner.account is not the registry's owner
	CodeBadSigningKey       = "bad_signing_key"        // signing_key missing, malformed, small-order or non-canonical
	CodeKindNotHouseOwned   = "kind_not_house_owned"   // kind house/arena under an owner other than the house account
	CodeHouseKindUndisclose = "house_kind_undisclosed" // a house-owned Badge whose card says player
	CodeBadEndpoint         = "bad_endpoint"           // endpoint not https or points inside (egress policy)
	CodeOperatorMissing     = "operator_missing"       // an off-the-shelf card without operator
	CodeOperatorNotHouse    = "operator_not_house"     // operator does not resolve, or is not house-owned
	CodeKeyReused           = "key_reused"             // signing_key already belongs to another Badge
	CodeBusy                = "busy"                   // the key index could not be saved: retry (503)
)

func refuse(code, format string, args ...any) *games.Error {
	return games.Errorf(code, format, args...)
}

func refuseRetry(code, format string, args ...any) *games.Error {
	e := games.Errorf(code, format, args...)
	e.Retry = true
	return e
}
