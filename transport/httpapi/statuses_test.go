package httpapi_test

import (
	"net/http"
	"testing"

	"arena/transport/breakroom"
	"arena/transport/door"
	"arena/transport/dotdotdot/codes"
	"arena/transport/market"
	"arena/transport/warden"
)

// TestSiteStatusesNeverSuccessForUnknown: on every site, the shared doors' codes a request can
// meet anywhere (the limiter's rate_limited, ops' unauthorized and forbidden, the door's own)
// keep their HTTP meaning, and a code the site's table does not list never answers 2xx.
func TestSiteStatusesNeverSuccessForUnknown(t *testing.T) {
	sites := map[string]door.Statuses{
		"dotdotdot": codes.Dotdotdot.Statuses,
		"breakroom": breakroom.Statuses,
		"warden":    warden.Statuses,
		"market":    market.Statuses,
	}
	want := map[string]int{
		door.CodeRateLimited:  http.StatusTooManyRequests,
		door.CodeUnauthorized: http.StatusUnauthorized,
		door.CodeForbidden:    http.StatusForbidden,
		door.CodeNotFound:     http.StatusNotFound,
		door.CodeMethod:       http.StatusMethodNotAllowed,
		door.CodeTooLarge:     http.StatusRequestEntityTooLarge,
		door.CodeMediaType:    http.StatusUnsupportedMediaType,
		door.CodeBusy:         http.StatusServiceUnavailable,
		door.CodeInternal:     http.StatusInternalServerError,
	}
	for name, st := range sites {
		for code, status := range want {
			if got := st.Status(code); got != status {
				t.Errorf("%s: %s answers %d, want %d", name, code, got, status)
			}
		}
		for _, code := range []string{"no_such_code", ""} {
			if got := st.Status(code); got < 400 {
				t.Errorf("%s: the unlisted code %q answers %d, want an error status", name, code, got)
			}
		}
		for code, got := range st.Codes {
			if got < 200 || got > 599 {
				t.Errorf("%s: %s answers %d", name, code, got)
			}
		}
	}
}
