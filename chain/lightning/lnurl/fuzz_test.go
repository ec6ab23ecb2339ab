package lnurl

import (
	"strings"
	"testing"
)

// FuzzParseAddress: never panics; an accepted address prints as it parses.
func FuzzParseAddress(f *testing.F) {
	for _, s := range []string{"bob@example.com", "a+b@x.y:80", "@", "bob@x..y", "b@[::1]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseAddress(s)
		if err != nil {
			return
		}
		b, err := ParseAddress(a.String())
		if err != nil || b != a {
			t.Fatalf("%q → %v → %v %v", s, a, b, err)
		}
	})
}

// FuzzParsePayParams: never panics; accepted params satisfy what ParsePayParams promises.
func FuzzParsePayParams(f *testing.F) {
	f.Add([]byte(`{"tag":"payRequest","callback":"https://x.y/cb","minSendable":1000,"maxSendable":2000,"metadata":"[[\"text/plain\",\"hi\"]]"}`))
	f.Add([]byte(`{"status":"ERROR","reason":"no"}`))
	f.Add([]byte(`{"tag":"payRequest","minSendable":-1}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := ParsePayParams(b)
		if err != nil {
			return
		}
		if p.MinSendable < 1 || p.MinSendable > p.MaxSendable || p.Callback == "" || !strings.Contains(p.Metadata, "text/plain") {
			t.Fatalf("%s → %+v", b, p)
		}
	})
}

// FuzzParseCallback: never panics; an accepted answer has a pr.
func FuzzParseCallback(f *testing.F) {
	f.Add([]byte(`{"pr":"lnsb1...","routes":[]}`))
	f.Add([]byte(`{"status":"ERROR","reason":"x"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		pr, err := ParseCallback(b)
		if err == nil && pr == "" {
			t.Fatalf("%s → empty pr", b)
		}
	})
}
