package x402

// The §10.10 codes this package refuses with. A door maps each to its HTTP status (the
// Warden's site table) and sends the code as the answer's error.
const (
	// CodePaymentRequired: no payment was sent (402 with the challenge).
	CodePaymentRequired = "payment_required"
	// CodeBadPayment: both payment headers were sent (400).
	CodeBadPayment = "bad_payment"
	// CodeInvalidPayload: the payment is not base64, not strict JSON, not the x402 shape, or a
	// member of it is malformed (400).
	CodeInvalidPayload = "invalid_payload"
	// CodeInvalidVersion: x402Version is neither 1 nor 2, or not the version of the header
	// it came in.
	CodeInvalidVersion = "invalid_x402_version"
	// CodeInvalidRequirements: the payment names no offer of this resource.
	CodeInvalidRequirements = "invalid_payment_requirements"
	// CodeInvalidScheme: a v1 payment's scheme is offered nowhere for this resource.
	CodeInvalidScheme = "invalid_scheme"
	// CodeInvalidNetwork: a v1 payment's network is offered nowhere for its scheme.
	CodeInvalidNetwork = "invalid_network"
	// CodeSignature: the signature is malformed (not 65 bytes, v outside 27/28 and 0/1, s above
	// n/2) or does not recover to the authorization's from under the offer's domain.
	CodeSignature = "invalid_exact_evm_payload_signature"
	// CodeRecipient: the authorization pays another address than the offer's payTo.
	CodeRecipient = "invalid_exact_evm_payload_recipient_mismatch"
	// CodeValue: the authorization's value is not the offer's amount (more is refused too).
	CodeValue = "invalid_exact_evm_payload_authorization_value"
	// CodeValidAfter: the authorization is not valid yet (validAfter > now).
	CodeValidAfter = "invalid_exact_evm_payload_authorization_valid_after"
	// CodeValidBefore: the authorization expires too soon for the offer's kind (§10.3 step 4).
	CodeValidBefore = "invalid_exact_evm_payload_authorization_valid_before"
	// CodePaymentReplayed: the authorization's nonce (its ReplayKey) is held by a payment for
	// another resource (warden-games §10.3 step 5: the same resource answers the holder's
	// outcome instead). Given by the caller of a ReplayStore, never by Verify.
	CodePaymentReplayed = "payment_replayed"
)

// Refusal is every error this package returns: the §10.10 code and a detail for the payer (in
// the protocol's words, never a Go type's). errors.Is matches a Refusal against one of the
// sentinels below by code alone.
type Refusal struct {
	Code   string
	Detail string
}

func (r *Refusal) Error() string {
	if r.Detail == "" {
		return "x402: " + r.Code
	}
	return "x402: " + r.Code + ": " + r.Detail
}

// Is reports whether target is a Refusal of the same code.
func (r *Refusal) Is(target error) bool {
	t, ok := target.(*Refusal)
	return ok && t.Code == r.Code
}

// Sentinels for errors.Is, one per code.
var (
	ErrPaymentRequired     = &Refusal{Code: CodePaymentRequired}
	ErrBadPayment          = &Refusal{Code: CodeBadPayment}
	ErrInvalidPayload      = &Refusal{Code: CodeInvalidPayload}
	ErrInvalidVersion      = &Refusal{Code: CodeInvalidVersion}
	ErrInvalidRequirements = &Refusal{Code: CodeInvalidRequirements}
	ErrInvalidScheme       = &Refusal{Code: CodeInvalidScheme}
	ErrInvalidNetwork      = &Refusal{Code: CodeInvalidNetwork}
	ErrSignature           = &Refusal{Code: CodeSignature}
	ErrRecipient           = &Refusal{Code: CodeRecipient}
	ErrValue               = &Refusal{Code: CodeValue}
	ErrValidAfter          = &Refusal{Code: CodeValidAfter}
	ErrValidBefore         = &Refusal{Code: CodeValidBefore}
	ErrPaymentReplayed     = &Refusal{Code: CodePaymentReplayed}
)

func refuse(code, detail string) *Refusal { return &Refusal{Code: code, Detail: detail} }
