package door

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
)

type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

func TestLimiterBurstThenRate(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1_800_000_000, 0)}
	l := NewLimiter(Rate{Burst: 3, Every: 10 * time.Second}, LimiterOptions{Now: clk.now})
	for i := range 3 {
		if err := l.Allow("a"); err != nil {
			t.Fatalf("call %d within the burst: %v", i+1, err)
		}
	}
	err := l.Allow("a")
	var r *Refusal
	if !errors.As(err, &r) || r.Code != CodeRateLimited || !r.Retry || r.RetryAfter != 10*time.Second || r.Extra["retry_after"] != int64(10) {
		t.Fatalf("past the burst: %#v", err)
	}
	if err := l.Allow("b"); err != nil {
		t.Fatalf("another key is its own: %v", err)
	}
	clk.t = clk.t.Add(4 * time.Second)
	if err := l.Allow("a"); !errors.As(err, &r) || r.RetryAfter != 6*time.Second {
		t.Fatalf("4 s later: %#v, want 6 s to wait", err)
	}
	clk.t = clk.t.Add(6 * time.Second)
	if err := l.Allow("a"); err != nil {
		t.Fatalf("one token earned: %v", err)
	}
	if err := l.Allow("a"); err == nil {
		t.Fatal("only one token was earned")
	}
	clk.t = clk.t.Add(time.Hour)
	for i := range 3 {
		if err := l.Allow("a"); err != nil {
			t.Fatalf("refilled to the burst and no further: call %d: %v", i+1, err)
		}
	}
	if err := l.Allow("a"); err == nil {
		t.Fatal("the bucket grew past its burst")
	}
}

func TestLimiterZeroRateAllowsAll(t *testing.T) {
	var nilL *Limiter
	l := NewLimiter(Rate{}, LimiterOptions{})
	for range 1000 {
		if nilL.Allow("a") != nil || l.Allow("a") != nil {
			t.Fatal("a zero rate refused")
		}
	}
	if l.Len() != 0 {
		t.Fatalf("a zero rate tracked %d keys", l.Len())
	}
}

// Full, the limiter forgets only keys whose bucket is full again, and refuses a new key rather
// than forget one still counting.
func TestLimiterNeverForgetsACountingKey(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1_800_000_000, 0)}
	l := NewLimiter(Rate{Burst: 2, Every: time.Minute}, LimiterOptions{MaxKeys: 2, Now: clk.now})
	_ = l.Allow("a")
	_ = l.Allow("a") // a: spent
	_ = l.Allow("b") // b: one left
	if err := l.Allow("c"); err == nil {
		t.Fatal("a third key was taken by forgetting a counting one")
	}
	if err := l.Allow("a"); err == nil {
		t.Fatal("a's count was forgotten")
	}
	clk.t = clk.t.Add(time.Minute) // b is full again, a has one
	if err := l.Allow("c"); err != nil {
		t.Fatalf("b's full bucket makes room: %v", err)
	}
	if err := l.Allow("a"); err != nil {
		t.Fatalf("a earned one: %v", err)
	}
	if err := l.Allow("a"); err == nil {
		t.Fatal("a's count was forgotten making room")
	}
}

func TestRetryAfterHeader(t *testing.T) {
	e := echo.New()
	rec := httptest.NewRecorder()
	c := e.NewContext(httptest.NewRequest(http.MethodPost, "/", nil), rec)
	site := Site{Statuses: Statuses{Codes: map[string]int{CodeRateLimited: 429}, Else: 400},
		Shape: func(c echo.Context, status int, r *Refusal) error { return c.NoContent(status) }}
	if err := site.Write(c, RateLimited(1500*time.Millisecond, "slow down")); err != nil {
		t.Fatal(err)
	}
	if rec.Code != 429 || rec.Header().Get("Retry-After") != "2" {
		t.Fatalf("status %d Retry-After %q, want 429 and 2", rec.Code, rec.Header().Get("Retry-After"))
	}
}

func TestClientAddr(t *testing.T) {
	for _, tt := range []struct {
		remote, xff string
		forwarded   bool
		want        string
	}{
		{"192.0.2.7:5555", "", false, "192.0.2.7"},
		{"192.0.2.7:5555", "198.51.100.1", false, "192.0.2.7"}, // the header is not trusted
		{"127.0.0.1:5555", "203.0.113.9, 198.51.100.1", true, "198.51.100.1"},
		{"127.0.0.1:5555", "not an ip", true, "127.0.0.1"},
		{"[2001:db8:1:2:3:4:5:6]:443", "", false, "2001:db8:1:2::/64"},
		{"[2001:db8:1:2:ffff::1]:443", "", false, "2001:db8:1:2::/64"},
	} {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.RemoteAddr = tt.remote
		if tt.xff != "" {
			r.Header.Set("X-Forwarded-For", tt.xff)
		}
		if got := ClientAddr(r, tt.forwarded); got != tt.want {
			t.Errorf("ClientAddr(%s, xff %q, %v) = %q, want %q", tt.remote, tt.xff, tt.forwarded, got, tt.want)
		}
	}
}

// Exhausted reports what Allow would refuse without taking a token: nothing for an untracked
// key or one with a token left, the refusal (and its wait) once the burst is spent, nothing
// again once a token is earned; asking it never spends one.
func TestLimiterExhaustedTakesNothing(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1_800_000_000, 0)}
	l := NewLimiter(Rate{Burst: 2, Every: 10 * time.Second}, LimiterOptions{Now: clk.now})
	for range 5 {
		if err := l.Exhausted("a"); err != nil {
			t.Fatalf("an untracked key: %v", err)
		}
	}
	l.Allow("a")
	if err := l.Exhausted("a"); err != nil {
		t.Fatalf("one token left: %v", err)
	}
	l.Allow("a")
	var r *Refusal
	if err := l.Exhausted("a"); !errors.As(err, &r) || r.Code != CodeRateLimited || r.RetryAfter != 10*time.Second {
		t.Fatalf("burst spent: %#v", err)
	}
	clk.t = clk.t.Add(10 * time.Second)
	if err := l.Exhausted("a"); err != nil {
		t.Fatalf("a token earned: %v", err)
	}
	if err := l.Allow("a"); err != nil {
		t.Fatalf("Exhausted spent the earned token: %v", err)
	}
}
