package door

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/labstack/echo/v4"

	"arena/games"
)

func TestStatus(t *testing.T) {
	tests := map[string]int{
		"bad_request": 400, "token_in_url": 400, "no_token": 401, "unknown_token": 401, "unauthorized": 401,
		"forbidden": 403, "not_seated": 403, "not_found": 404, "unknown_round": 404, "unknown_table": 404,
		"stale": 409, "not_yet": 409, "in_a_round": 409, "lever_spent": 409, "not_now": 409, "is_mole": 409,
		"claimed": 410, "too_large": 413, "unsupported_media_type": 415, "bad_condition": 422,
		"busy": 503, "table_down": 503, "too_many_polls": 429, "internal": 500, "some_new_game_code": 409,
	}
	for code, want := range tests {
		if got := Status(code); got != want {
			t.Errorf("Status(%q) = %d, want %d", code, got, want)
		}
	}
}

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

// Extra members never override error, code or retry.
func TestWriteKeepsFixedMembers(t *testing.T) {
	e := echo.New()
	rec := httptest.NewRecorder()
	c := e.NewContext(httptest.NewRequest("GET", "/", nil), rec)
	r := &Refusal{Code: "not_yet", Msg: "2 of 3", Extra: map[string]any{"retry": "x", "code": "y", "error": "z", "practice": 2}}
	if err := Write(c, r); err != nil {
		t.Fatal(err)
	}
	var body map[string]any
	json.Unmarshal(rec.Body.Bytes(), &body)
	if rec.Code != 409 || body["code"] != "not_yet" || body["error"] != "2 of 3" || body["retry"] != false || body["practice"] != float64(2) {
		t.Fatalf("%d %s", rec.Code, rec.Body.Bytes())
	}
}
