package desk_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"arena/actors/dotdotdot"
	"arena/transport/dotdotdot/codes"
	"arena/transport/dotdotdot/desk"
	"arena/transport/dotdotdot/desk/desktest"
	"arena/transport/dotdotdot/walkin"
)

// hostedFake is the fake desk with one hosted table, started (so it has a round to watch).
type hostedFake struct{ *desktest.Fake }

func (hostedFake) HostTable(ctx context.Context, token, format string, seats int) (dotdotdot.HostedTable, error) {
	return dotdotdot.HostedTable{Code: "K7QX", Link: "/t/K7QX", Format: "blitz", Host: "Ann", Seats: 6, Status: "started", Round: "T-9"}, nil
}
func (h hostedFake) StartHosted(ctx context.Context, token string) (dotdotdot.HostedTable, error) {
	return h.HostTable(ctx, token, "", 0)
}
func (hostedFake) LeaveTable(ctx context.Context, token string) error { return nil }
func (h hostedFake) ListHosted(ctx context.Context) ([]dotdotdot.HostedTable, error) {
	t, _ := h.HostTable(ctx, "", "", 0)
	return []dotdotdot.HostedTable{t}, nil
}
func (h hostedFake) HostedByCode(ctx context.Context, code string) (dotdotdot.HostedTable, error) {
	return h.HostTable(ctx, "", "", 0)
}

// The links of a hosted table name Options.Site, never a forged Host header; without a Site
// they name the request's origin.
func TestHostedLinksNameTheConfiguredSite(t *testing.T) {
	for _, tc := range []struct{ site, want string }{
		{"https://arena.example/", "https://arena.example"},
		{"", "http://evil.example"},
	} {
		e := echo.New()
		e.HTTPErrorHandler = codes.ErrorHandler(slog.New(slog.DiscardHandler))
		f := desktest.New()
		tok, err := f.RegisterWalkin(t.Context(), "Ann", "")
		if err != nil {
			t.Fatal(err)
		}
		desk.Mount(e, hostedFake{f}, desk.Options{Site: tc.site})
		for _, r := range []struct{ method, path string }{
			{"POST", "/v1/walkin/host"}, {"POST", "/v1/walkin/start"}, {"GET", "/v1/tables/hosted/K7QX"}, {"GET", "/v1/tables/hosted"},
		} {
			req := httptest.NewRequest(r.method, r.path, strings.NewReader(""))
			req.Host = "evil.example"
			req.Header.Set(walkin.Header, tok)
			rec := httptest.NewRecorder()
			e.ServeHTTP(rec, req)
			body := rec.Body.String()
			if rec.Code >= 300 {
				t.Fatalf("site %q %s %s: %d %s", tc.site, r.method, r.path, rec.Code, body)
			}
			var one dotdotdot.HostedTable
			if r.path == "/v1/tables/hosted" {
				var l struct{ Tables []dotdotdot.HostedTable }
				_ = json.Unmarshal(rec.Body.Bytes(), &l)
				if len(l.Tables) == 1 {
					one = l.Tables[0]
				}
			} else {
				_ = json.Unmarshal(rec.Body.Bytes(), &one)
			}
			if one.Link != tc.want+"/t/K7QX" || one.Watch != tc.want+"/r/T-9" {
				t.Fatalf("site %q %s %s: link %q watch %q, want them on %s (%s)", tc.site, r.method, r.path, one.Link, one.Watch, tc.want, body)
			}
		}
	}
}
