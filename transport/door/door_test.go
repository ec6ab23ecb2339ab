package door

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/labstack/echo/v4"

	"arena/games"
)

func TestLooksLikeToken(t *testing.T) {
	for s, want := range map[string]bool{
		"w_5sQTbktzqk_C2P46CMWxIVgIWVYthNtFdTC83glLZJ0": true,
		"w_0123456789abcdef":                            true,
		"w_0123456789abcde":                             false, // too short
		"w_alice":                                       false,
		"x_0123456789abcdef0123":                        false,
		"w_0123456789abcdef!":                           false,
		"":                                              false,
	} {
		if got := LooksLikeToken(s); got != want {
			t.Errorf("LooksLikeToken(%q) = %v, want %v", s, got, want)
		}
	}
}

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
