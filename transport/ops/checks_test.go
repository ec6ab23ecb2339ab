package ops

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/labstack/echo/v4"

	"arena/actors"
	"arena/games"
	"arena/transport/door"
)

type noTables struct{}

func (noTables) Tables(context.Context) ([]actors.TableInfo, error) { return nil, nil }
func (noTables) RestartTable(context.Context, string) error         { return actors.ErrNoTable }
func (noTables) StopTable(context.Context, string) error            { return actors.ErrNoTable }

// A product's checks at /ops/checks/{name}: behind the operator token; ok with no findings, each
// finding as the check wrote it; a check that cannot run is its refusal; an unknown name is
// not_found.
func TestChecks(t *testing.T) {
	e := echo.New()
	site := door.Site{Statuses: door.Statuses{Codes: map[string]int{door.CodeNotFound: 404, door.CodeForbidden: 403, "busy": 503}, Else: 400},
		Shape: func(c echo.Context, status int, r *door.Refusal) error {
			return c.JSON(status, map[string]string{"code": r.Code, "error": r.Msg})
		}}
	e.HTTPErrorHandler = site.ErrorHandler(slog.New(slog.DiscardHandler))
	Mount(e, noTables{}, Options{Token: "op_token_0123456789", Checks: map[string]Check{
		"quiet": func(context.Context) ([]any, error) { return nil, nil },
		"loud": func(context.Context) ([]any, error) {
			return []any{map[string]any{"kind": "refund", "payer": "x"}, "second"}, nil
		},
		"down": func(context.Context) ([]any, error) {
			return nil, &games.Error{Code: "busy", Msg: "the node is down", Retry: true}
		},
		"broken": func(context.Context) ([]any, error) { return nil, errors.New("internal") },
	}})
	get := func(name, token string) (int, map[string]any) {
		req := httptest.NewRequest(http.MethodGet, "/ops/checks/"+name, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		var m map[string]any
		json.Unmarshal(rec.Body.Bytes(), &m)
		return rec.Code, m
	}
	if code, m := get("quiet", "op_token_0123456789"); code != 200 || m["check"] != "quiet" || m["ok"] != true || len(m["findings"].([]any)) != 0 {
		t.Fatalf("quiet: %d %v", code, m)
	}
	code, m := get("loud", "op_token_0123456789")
	f, _ := m["findings"].([]any)
	if code != 200 || m["ok"] != false || len(f) != 2 || f[0].(map[string]any)["kind"] != "refund" || f[1] != "second" {
		t.Fatalf("loud: %d %v", code, m)
	}
	if code, m := get("down", "op_token_0123456789"); code != 503 || m["code"] != "busy" {
		t.Fatalf("down: %d %v", code, m)
	}
	if code, m := get("broken", "op_token_0123456789"); code == 200 || m["error"] == "internal" {
		t.Fatalf("broken: %d %v: an internal error's text reached the wire", code, m)
	}
	if code, m := get("nope", "op_token_0123456789"); code != 404 || m["code"] != door.CodeNotFound {
		t.Fatalf("unknown check: %d %v", code, m)
	}
	if code, _ := get("loud", "op_wrong_token_0000"); code != 403 {
		t.Fatalf("wrong token: %d", code)
	}
}
