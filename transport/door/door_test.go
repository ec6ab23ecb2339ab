package door

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/labstack/echo/v4"

	"arena/games"
)

type detailed struct{ e *games.Error }

func (d detailed) Error() string { return d.e.Error() }

func (d detailed) Unwrap() error { return d.e }
func (d detailed) Details() map[string]any {
	return map[string]any{"practice": 2, "retry": "overridden?"}
}

func TestAsRefusal(t *testing.T) {
	tests := []struct {
		name  string
		err   error
		code  string
		retry bool
		ok    bool
	}{
		{"games error", games.Errorf("stale", "late"), "stale", false, true},
		{"wrapped games error", fmt.Errorf("desk: %w", &games.Error{Code: "not_now", Retry: true}), "not_now", true, true},
		{"refusal", Refuse(CodeTooLarge, "big"), CodeTooLarge, false, true},
		{"deadline", fmt.Errorf("ask: %w", context.DeadlineExceeded), CodeBusy, true, true},
		{"echo 404", echo.ErrNotFound, CodeNotFound, false, true},
		{"echo 405", echo.ErrMethodNotAllowed, CodeMethod, false, true},
		{"echo 413", echo.NewHTTPError(http.StatusRequestEntityTooLarge), CodeTooLarge, false, true},
		{"echo 418", echo.NewHTTPError(http.StatusTeapot), CodeBadRequest, false, true},
		{"plain error", errors.New("bbolt: closed"), CodeInternal, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, ok := AsRefusal(tt.err)
			if r.Code != tt.code || r.Retry != tt.retry || ok != tt.ok || r.Msg == "" {
				t.Fatalf("AsRefusal = %+v, %v; want code %s retry %v ok %v", r, ok, tt.code, tt.retry, tt.ok)
			}
		})
	}
	r, _ := AsRefusal(detailed{games.Errorf("not_yet", "2 of 3")})
	if r.Extra["practice"] != 2 || r.Code != "not_yet" {
		t.Fatalf("details lost: %+v", r)
	}
}

// TestUniqueQuery: a query that does not parse, or gives a parameter twice, is refused
// bad_request before the handler runs; one value per parameter passes.
func TestUniqueQuery(t *testing.T) {
	for q, want := range map[string]string{
		"":                  "",
		"a=1&b=2":           "",
		"a=1&a=1":           CodeBadRequest,
		"a=1&b=2&a=3":       CodeBadRequest,
		"a=%zz":             CodeBadRequest,
		"wait=0&format=x&a": "",
	} {
		ran := false
		h := UniqueQuery()(func(echo.Context) error { ran = true; return nil })
		c := echo.New().NewContext(httptest.NewRequest(http.MethodGet, "/x?"+q, nil), httptest.NewRecorder())
		err := h(c)
		if want == "" {
			if err != nil || !ran {
				t.Errorf("%q: err %v, handler ran %v", q, err, ran)
			}
			continue
		}
		r, _ := AsRefusal(err)
		if r.Code != want || ran {
			t.Errorf("%q: refusal %+v, handler ran %v; want %s", q, r, ran, want)
		}
	}
}
