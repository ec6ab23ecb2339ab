package canon

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// A value of the wrong kind is refused in JSON's words (the member's path and what it wants),
// never with encoding/json's Go type and field names.
func TestDecodeTypeErrorsInJSONWords(t *testing.T) {
	type inner struct {
		X int `json:"x"`
	}
	type body struct {
		Format string    `json:"format"`
		N      int       `json:"n"`
		U      uint8     `json:"u"`
		F      float64   `json:"f"`
		B      bool      `json:"b"`
		M      *int      `json:"m"`
		L      []string  `json:"l"`
		S      inner     `json:"s"`
		At     time.Time `json:"at"`
		Raw    []byte    `json:"raw"`
	}
	for _, tt := range []struct{ in, want string }{
		{`{"format":5}`, "$.format: want a string"},
		{`{"n":"x"}`, "$.n: want a whole number"},
		{`{"n":1.5}`, "$.n: want a whole number"},
		{`{"n":1e3}`, "$.n: want a whole number"},
		{`{"n":2000000.0}`, "$.n: want a whole number"},
		{`{"u":-1}`, "$.u: want a whole number ≥ 0"},
		{`{"u":300}`, "$.u: out of range"},
		{`{"f":"1"}`, "$.f: want a number"},
		{`{"b":1}`, "$.b: want true or false"},
		{`{"m":true}`, "$.m: want a whole number"},
		{`{"l":[1]}`, "$.l[0]: want a string"},
		{`{"s":{"x":"y"}}`, "$.s.x: want a whole number"},
		{`{"at":5}`, "a value is not valid for its member"},
		{`{"at":"yesterday"}`, "a value is not valid for its member"},
		{`{"raw":5}`, "$.raw: want a base64 string"},
	} {
		var v body
		err := Decode([]byte(tt.in), &v)
		if !errors.Is(err, ErrType) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Decode(%s) = %v, want ErrType saying %q", tt.in, err, tt.want)
		}
		for _, bad := range []string{"Go ", "struct field", "unmarshal", "int8", "time.Time", "body."} {
			if strings.Contains(Reason(err), bad) {
				t.Errorf("Decode(%s): %q names Go's %q", tt.in, Reason(err), bad)
			}
		}
		if strings.HasPrefix(Reason(err), "canon:") {
			t.Errorf("Reason kept the package prefix: %q", Reason(err))
		}
	}
	var ok body
	if err := Decode([]byte(`{"format":"a","n":-3,"u":7,"f":1.5e2,"b":false,"m":null,"l":["x"],"s":{"x":1},"at":"2026-09-09T14:00:00Z","raw":"AA=="}`), &ok); err != nil {
		t.Fatalf("a good body: %v", err)
	}
}
