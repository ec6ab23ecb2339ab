package site

import (
	"testing"

	"arena/transport/dotdotdot/desk"
)

// TestRepeatedQueryParameter: a query parameter given twice is as ambiguous as a JSON member
// given twice, which the doors refuse (bad_request); GET /v1/walkin/next with wait or format
// twice is refused the same way, not read by its first value.
func TestRepeatedQueryParameter(t *testing.T) {
	for _, q := range []string{"wait=0&wait=30", "wait=0&format=brief&format=envelope", "wait=0&format=brief&wait=0"} {
		t.Run(q, func(t *testing.T) {
			en := newEnv(t, desk.Options{})
			tok, _ := en.joined("Walker")
			before := en.desk.Changes()
			refused(t, en.do("GET", "/v1/walkin/next?"+q, "", "X-Walkin", tok), 400, "bad_request")
			en.unchanged(before)
		})
	}
}

// TestTokenInRepeatedParameter: a walk-in token in a repeated query parameter is refused as
// token_in_url (the token is exposed, which is the refusal that matters), before the repeat.
func TestTokenInRepeatedParameter(t *testing.T) {
	en := newEnv(t, desk.Options{})
	tok, _ := en.joined("Walker")
	before := en.desk.Changes()
	for _, q := range []string{"token=a&token=b", "wait=0&wait=" + tok, "x=" + tok + "&x=" + tok} {
		refused(t, en.do("GET", "/v1/walkin/next?"+q, "", "X-Walkin", tok), 400, "token_in_url")
	}
	en.unchanged(before)
}
