package identity

import (
	"regexp"
	"slices"
	"testing"
)

// checkName never panics, and a name it takes is 3–20 of [a-z0-9_-], not reserved.
func FuzzCheckName(f *testing.F) {
	for _, s := range []string{"ada", "ab", "admin", "house-bot", "Ada", "adé", "_", "a\x00b", "abcdefghijklmnopqrst", "abcdefghijklmnopqrstu"} {
		f.Add(s)
	}
	valid := regexp.MustCompile(`^[a-z0-9_-]{3,20}$`)
	f.Fuzz(func(t *testing.T, name string) {
		code, detail := checkName(name)
		switch code {
		case "":
			if !valid.MatchString(name) || slices.Contains(Reserved, name) {
				t.Fatalf("took %q", name)
			}
		case CodeInvalid, CodeReserved:
			if detail == "" {
				t.Fatalf("%q: %s without a detail", name, code)
			}
			if code == CodeReserved && !valid.MatchString(name) {
				t.Fatalf("%q: reserved before it was valid", name)
			}
		default:
			t.Fatalf("%q: code %q", name, code)
		}
	})
}
