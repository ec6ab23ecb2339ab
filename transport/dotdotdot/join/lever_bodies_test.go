package join

import (
	"context"
	"encoding/json"
	"log/slog"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"arena/transport/dotdotdot/codes"
	"arena/transport/dotdotdot/desk"
	"arena/transport/dotdotdot/desk/desktest"
)

// leverDesk is the walk-in desk's fake with every lever accepted: what the door refuses is then
// the door's own reading of the body.
type leverDesk struct{ *desktest.Fake }

func (leverDesk) Lever(ctx context.Context, token, round, kind string, body []byte) (json.RawMessage, error) {
	return json.RawMessage(`{"ok":true}`), nil
}

// Both DOTDOTDOT doors that take §12's levers, the walk-in desk over x-walkin and this door over
// an owner's session, read a lever body with one parser: the same bytes get the same answer and
// the same code from either.
func TestLeverBodiesSameInBothDoors(t *testing.T) {
	v := newEnv(t)
	v.e = echo.New()
	v.e.HTTPErrorHandler = codes.ErrorHandler(slog.New(slog.DiscardHandler))
	desk.Mount(v.e, leverDesk{desktest.New()}, desk.Options{})
	Mount(v.e, Options{Seater: v.seat, Resolver: v.res, Nonces: NewStoreNonces(v.db, func() time.Time { return v.now }), Now: func() time.Time { return v.now }})
	_, body := v.openSession(t, v.key)
	session, _ := body["session"].(string)
	doors := map[string]map[string]string{
		"desk": {"X-Walkin": "w_0123456789abcdef0123"},
		"join": {"Authorization": "Bearer " + session},
	}
	tests := []struct {
		kind, body string
		status     int
		code       string // "" when accepted
	}{
		{"call", `{"text":"seat 3 is lying"}`, 200, ""},
		{"call", `{}`, 200, ""},
		{"call", `{"text":3}`, 400, "bad_request"},
		{"call", `{"text":"a","round":"T-9"}`, 400, "bad_request"},
		{"call", `{"Text":"a"}`, 400, "bad_request"},
		{"veto", `{"pending_id":"sha256:00"}`, 200, ""},
		{"veto", `{"ref":"a"}`, 200, ""},
		{"veto", `{}`, 400, "bad_request"},
		{"veto", `{"pending_id":""}`, 400, "bad_request"},
		{"veto", `{"pending_id":"sha256:00","ref":"a"}`, 400, "bad_request"},
		{"veto", `{"pending_id":"sha256:00","pending_id":"sha256:01"}`, 400, "bad_request"},
		{"veto", `{"id":"sha256:00"}`, 400, "bad_request"},
		{"accuse", `{"seat":3}`, 200, ""},
		{"accuse", `{"seat":0}`, 400, "bad_request"},
		{"accuse", `{"seat":"3"}`, 400, "bad_request"},
		{"accuse", `{"seat":3}{}`, 400, "bad_request"},
		{"accuse", `[3]`, 400, "bad_request"},
		{"accuse", ` `, 400, "bad_request"},
	}
	for _, tt := range tests {
		for name, hdr := range doors {
			code, body := v.do("POST", "/v1/rounds/T-5/"+tt.kind, []byte(tt.body), hdr)
			if tt.code == "" {
				if code != tt.status {
					t.Errorf("%s %s %s: %d %v, want %d", name, tt.kind, tt.body, code, body, tt.status)
				}
				continue
			}
			if code != tt.status || body["code"] != tt.code {
				t.Errorf("%s %s %s: %d %v, want %d %s", name, tt.kind, tt.body, code, body, tt.status, tt.code)
			}
		}
	}
}
