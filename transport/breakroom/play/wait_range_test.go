package play

import (
	"context"
	"slices"
	"testing"
)

// TestHTTPWaitBeyondDurationRange: a wait too many milliseconds for a time.Duration (past about
// 292 years) is capped at 25,000 like any other long one, never wrapped round to a negative wait
// that answers at once.
func TestHTTPWaitBeyondDurationRange(t *testing.T) {
	r := newRig(t, nil)
	_, q := r.httpJoin(newKey(t, 1), "coin")
	tok := q["token"].(string)
	for i, w := range []string{"9223372036854775807", "10000000000000"} {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			r.httpCtx(ctx, "GET", "/v0/join/"+tok+"?wait="+w, "", nil)
		}()
		waitFor(t, func() bool { return count(r.f.log(), "poll-wait 25s") == i+1 })
		cancel()
		<-done
		if l := r.f.log(); slices.ContainsFunc(l, func(s string) bool { return s != "poll-wait 25s" && len(s) > 9 && s[:9] == "poll-wait" }) {
			t.Fatalf("wait=%s: %v", w, l)
		}
	}
}

// count is how many of l are s.
func count(l []string, s string) int {
	n := 0
	for _, x := range l {
		if x == s {
			n++
		}
	}
	return n
}
