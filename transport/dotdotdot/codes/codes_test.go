package codes

import (
	"encoding/json"
	"net/http/httptest"
	"testing"

	"github.com/labstack/echo/v4"

	"arena/transport/door"
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

// Extra members never override error, code or retry.
func TestWriteKeepsFixedMembers(t *testing.T) {
	e := echo.New()
	rec := httptest.NewRecorder()
	c := e.NewContext(httptest.NewRequest("GET", "/", nil), rec)
	r := &door.Refusal{Code: "not_yet", Msg: "2 of 3", Extra: map[string]any{"retry": "x", "code": "y", "error": "z", "practice": 2}}
	if err := Write(c, r); err != nil {
		t.Fatal(err)
	}
	var body map[string]any
	json.Unmarshal(rec.Body.Bytes(), &body)
	if rec.Code != 409 || body["code"] != "not_yet" || body["error"] != "2 of 3" || body["retry"] != false || body["practice"] != float64(2) {
		t.Fatalf("%d %s", rec.Code, rec.Body.Bytes())
	}
}
