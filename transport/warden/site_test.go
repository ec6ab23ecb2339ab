package warden

import (
	"net/http"
	"testing"

	"arena/chain/x402"
)

// TestPaymentCodesHaveTheirStatus: every code chain/x402 refuses a payment with has the
// status §10.10 gives it on this site: 400 for a payment that cannot be read, 402 otherwise
// (a code missing from the table would fall to 400 and lose its challenge).
func TestPaymentCodesHaveTheirStatus(t *testing.T) {
	for code, want := range map[string]int{
		x402.CodePaymentRequired:     http.StatusPaymentRequired,
		x402.CodeBadPayment:          http.StatusBadRequest,
		x402.CodeInvalidPayload:      http.StatusBadRequest,
		x402.CodeInvalidVersion:      http.StatusPaymentRequired,
		x402.CodeInvalidRequirements: http.StatusPaymentRequired,
		x402.CodeInvalidScheme:       http.StatusPaymentRequired,
		x402.CodeInvalidNetwork:      http.StatusPaymentRequired,
		x402.CodeSignature:           http.StatusPaymentRequired,
		x402.CodeRecipient:           http.StatusPaymentRequired,
		x402.CodeValue:               http.StatusPaymentRequired,
		x402.CodeValidAfter:          http.StatusPaymentRequired,
		x402.CodeValidBefore:         http.StatusPaymentRequired,
		x402.CodePaymentReplayed:     http.StatusPaymentRequired,
	} {
		if got, ok := Statuses.Codes[code]; !ok || got != want {
			t.Errorf("%s: status %d (listed %v), want %d", code, got, ok, want)
		}
	}
}
