package warden

import (
	"strings"
	"testing"
)

// With no stake rail (NoRail), registration and the public reads serve, and every money door
// (queue, open, join, stake) answers facilitator_unavailable (503, §10.10) with the reason,
// writing nothing.
func TestNoRailMoneyDoors(t *testing.T) {
	r := newPlainRig(t)
	r.doors.NoRail = "this Warden has no stake rail configured (warden.evm.rpc_url)"
	a := r.register(0x31, "steadfast")
	countMatches := func() int {
		n := 0
		if err := r.store.WardenKeys("", func(k string, _ []byte) error {
			if strings.HasPrefix(k, "match/") || strings.HasPrefix(k, "ticket") || strings.HasPrefix(k, "queue") {
				n++
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := countMatches()
	for _, c := range []struct{ method, path string }{
		{"POST", "/v1/warden/queue"},
		{"POST", "/v1/warden/matches"},
		{"POST", "/v1/warden/matches/m1/join"},
		{"POST", "/v1/warden/matches/m1/stake"},
	} {
		got := r.do(c.method, c.path, a.token, map[string]any{"game": "warden.dilemma", "stake": testStake}, nil)
		if got.status != 503 || got.body["error"] != "facilitator_unavailable" || got.body["detail"] != r.doors.NoRail {
			t.Errorf("%s %s: %d %v", c.method, c.path, got.status, got.body)
		}
	}
	if got := r.do("GET", "/v1/warden/matches/m1", "", nil, nil); got.status != 404 || got.body["error"] != "unknown_match" {
		t.Errorf("public read: %d %v", got.status, got.body)
	}
	if after := countMatches(); after != before {
		t.Errorf("matches and tickets: %d before, %d after", before, after)
	}
	if n := r.payments(); len(n) != 0 {
		t.Errorf("payments written: %v", n)
	}
}
