package script

import (
	"errors"
	"testing"
)

// FuzzScript feeds arbitrary bytes to Parse: it must never panic, and every refusal must be an
// *Error (exit 2), never anything else.
func FuzzScript(f *testing.F) {
	f.Add([]byte(baseScript))
	f.Add([]byte(`{"format":"short","round":"T-7","seed":"abababababababababababababababababababababababababababababababab","seats":[]}`))
	f.Add([]byte(`{"moves":[{"turn":1,"phase":"commit","seat":1,"answer":{"commitments":[{"condition":{"not":{"honoured":"ref:a"}}}]}}]}`))
	f.Add([]byte(`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Parse refused with %T %v, want *Error", err, err)
			}
			return
		}
		// A script that parses has a format, and its order is a permutation of its moves.
		if s.Turns() == 0 {
			t.Fatalf("parsed script has format %q with no turns", s.Format)
		}
		seen := make(map[int]bool)
		for _, i := range s.Order() {
			if i < 0 || i >= len(s.Moves) || seen[i] {
				t.Fatalf("Order is not a permutation: %v", s.Order())
			}
			seen[i] = true
		}
	})
}
