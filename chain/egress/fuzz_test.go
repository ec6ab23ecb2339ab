package egress

import (
	"errors"
	"net/netip"
	"testing"
)

// FuzzCheckURLShape: no input panics, and whatever passes the shape check with an IP literal
// host is an admitted address.
func FuzzCheckURLShape(f *testing.F) {
	for _, s := range []string{"https://public.test/", "http://127.0.0.1:8080/a", "https://[fe80::1%25eth0]/",
		"https://[::ffff:10.0.0.1]/", "https://user@x/", "https://x:99999/", "%", "https://[::1", ""} {
		f.Add(s)
	}
	p := Policy{}
	f.Fuzz(func(t *testing.T, raw string) {
		err := p.CheckURLShape(raw)
		if err != nil && !IsRefusal(err) {
			t.Fatalf("%q: error outside the refusal set: %v", raw, err)
		}
		if err != nil {
			return
		}
		u, _ := p.parse(raw)
		if a, perr := netip.ParseAddr(u.Hostname()); perr == nil && Classify(a) != "" {
			t.Fatalf("%q admitted with host %s (%s)", raw, a, Classify(a))
		}
		if u.Scheme != "https" && !errors.Is(p.checkScheme(u), ErrScheme) {
			t.Fatalf("%q admitted with scheme %q", raw, u.Scheme)
		}
	})
}
