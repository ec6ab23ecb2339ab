package join

import (
	"testing"
	"time"

	"arena/transport/door"
)

// Sign-in challenges are limited per address: past the burst, rate_limited (429) with
// Retry-After, and no challenge issued.
func TestChallengesAreLimitedPerAddress(t *testing.T) {
	v := newEnv(t)
	v.limit = door.NewLimiter(door.Rate{Burst: 3, Every: time.Minute}, door.LimiterOptions{})
	v.mount(t)
	for i := range 3 {
		if code, body := v.do("POST", "/v1/session/challenge", []byte(`{"agent":"`+agentID+`"}`), nil); code != 200 {
			t.Fatalf("challenge %d: %d %v", i+1, code, body)
		}
	}
	code, body := v.do("POST", "/v1/session/challenge", []byte(`{"agent":"`+agentID+`"}`), nil)
	if code != 429 || body["code"] != door.CodeRateLimited || body["challenge"] != nil || body["retry"] != true {
		t.Fatalf("past the burst: %d %v", code, body)
	}
}
