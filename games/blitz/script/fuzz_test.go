package script

import (
	"errors"
	"os"
	"testing"
)

// FuzzScript feeds arbitrary bytes to Parse and runs what parses: nothing may panic, every
// refusal must be an *Error (exit 2), and a valid script must play to the end with money conserved.
func FuzzScript(f *testing.F) {
	f.Add([]byte(baseScript))
	for _, name := range []string{"settle_basics", "short_whisper"} {
		if b, err := os.ReadFile("../testdata/scripts/" + name + ".json"); err == nil {
			f.Add(b)
		}
	}
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
		// A valid script runs: the run ends with an output, or a refusal of the setup (*Error);
		// never a panic, a broken invariant or money not conserved.
		if _, err := Run(s); err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Run: %v", err)
			}
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
