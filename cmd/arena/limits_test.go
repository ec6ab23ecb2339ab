package main

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// `arena serve` on its defaults limits walk-in registrations per address: of forty in a burst,
// twenty are made (config http.limits.register, 20 at once) and the rest refused with
// rate_limited and the seconds to wait.
func TestServeLimitsRegistrationBursts(t *testing.T) {
	s := startServer(t, buildArena(t), t.TempDir())
	defer s.stop()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	made, limited := 0, 0
	for i := range 40 {
		r := s.call(ctx, "POST", "/v1/walkin", "", map[string]any{"name": fmt.Sprintf("Burst %d", i)})
		switch {
		case r.status == 201:
			made++
		case r.status == 429 && r.body["code"] == "rate_limited" && r.body["retry"] == true && r.body["retry_after"] != nil:
			limited++
		default:
			t.Fatalf("registration %d: %d %s", i, r.status, r.raw)
		}
	}
	if made != 20 || limited != 20 {
		t.Fatalf("%d made, %d rate_limited of 40; want 20 and 20", made, limited)
	}
}
