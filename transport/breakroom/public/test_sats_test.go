package public

import (
	"strings"
	"testing"
)

// TestTestSatsOnEveryPage: where the development wallet runs the paid tables, every page and the
// agents' start text say "Test sats" (issue's "the site says test sats wherever it runs"); with
// paid tables on a real wallet, or none, no page says it.
func TestTestSatsOnEveryPage(t *testing.T) {
	paths := []struct{ path, accept string }{
		{"/", "text/html"}, {"/", ""}, {"/llms.txt", ""}, {"/start", "text/html"}, {"/payments", "text/html"},
		{"/matches", "text/html"}, {"/stats", "text/html"},
	}
	for _, tc := range []struct {
		name string
		pay  *Payments
		want bool
	}{
		{"dev wallet", &Payments{RakeBps: 2000, Stakes: []int64{10}, Rules: "rules", TestSats: true}, true},
		{"real wallet", &Payments{RakeBps: 2000, Stakes: []int64{10}, Rules: "rules"}, false},
		{"no paid tables", nil, false},
	} {
		r := newRig(t, func(o *Options) { o.Payments = tc.pay })
		for _, p := range paths {
			st, _, b := r.get(p.path, p.accept)
			if st != 200 {
				t.Fatalf("%s: %s: %d", tc.name, p.path, st)
			}
			if got := strings.Contains(b, "Test sats"); got != tc.want {
				t.Errorf("%s: %s (Accept %q) says Test sats: %v, want %v", tc.name, p.path, p.accept, got, tc.want)
			}
		}
	}
}
