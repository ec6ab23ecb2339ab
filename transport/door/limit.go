package door

import (
	"fmt"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// CodeRateLimited refuses a caller past its limit (429, retry, with Retry-After).
const CodeRateLimited = "rate_limited"

// Rate is one limit: Burst requests at once, then one more every Every. A zero Rate (Burst 0)
// is no limit.
type Rate struct {
	Burst int
	Every time.Duration
}

// DefaultLimiterKeys bounds the keys a Limiter tracks when LimiterOptions.MaxKeys is 0.
const DefaultLimiterKeys = 100_000

// LimiterOptions configure a Limiter. The zero value of each field selects its default.
type LimiterOptions struct {
	// MaxKeys bounds the keys tracked at once (DefaultLimiterKeys when ≤ 0). A key whose bucket
	// is full again is the same as a key never seen, so it is dropped first; when every tracked
	// key is still below its burst, a new key is refused (rate_limited) rather than another
	// key's count forgotten.
	MaxKeys int
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// Limiter is a token bucket per key (a client address, an agent id): each key may take
// Rate.Burst at once and then one every Rate.Every. It never forgets a key that is still below
// its burst to make room for another. Safe for concurrent use; the zero Rate allows everything.
type Limiter struct {
	rate Rate
	max  int
	now  func() time.Time
	mu   struct {
		sync.Mutex
		keys map[string]bucket // guarded by mu
	}
}

// bucket is a key's tokens as of at (fractions of a token kept as float).
type bucket struct {
	tokens float64
	at     time.Time
}

// NewLimiter returns a Limiter of rate r.
func NewLimiter(r Rate, o LimiterOptions) *Limiter {
	if o.MaxKeys <= 0 {
		o.MaxKeys = DefaultLimiterKeys
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	l := &Limiter{rate: r, max: o.MaxKeys, now: o.Now}
	l.mu.keys = map[string]bucket{}
	return l
}

// Allow takes one token from key's bucket. It returns nil when it had one, else a
// rate_limited *Refusal (retry) whose RetryAfter is when the next token comes. A nil Limiter
// or a zero Rate allows everything.
func (l *Limiter) Allow(key string) error {
	if l == nil || l.rate.Burst <= 0 {
		return nil
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.mu.keys[key]
	if ok {
		b = l.refill(b, now)
	} else {
		if len(l.mu.keys) >= l.max {
			l.sweepLocked(now)
		}
		if len(l.mu.keys) >= l.max {
			return RateLimited(l.rate.Every, "too many callers at once; try again shortly")
		}
		b = bucket{tokens: float64(l.rate.Burst), at: now}
	}
	if b.tokens < 1 {
		l.mu.keys[key] = b
		wait := l.rate.Every
		if l.rate.Every > 0 {
			wait = time.Duration(math.Ceil((1 - b.tokens) * float64(l.rate.Every)))
		}
		return RateLimited(wait, fmt.Sprintf("at most %d at once, then one every %s, from one caller", l.rate.Burst, l.rate.Every))
	}
	b.tokens--
	l.mu.keys[key] = b
	return nil
}

// Exhausted is the rate_limited refusal Allow would give key now, without taking a token: nil
// while key has one (or is not tracked). A limit on failures asks it before an attempt and
// calls Allow only when the attempt failed, so successes cost nothing and, once the failures
// are spent, every attempt waits alike.
func (l *Limiter) Exhausted(key string) error {
	if l == nil || l.rate.Burst <= 0 {
		return nil
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.mu.keys[key]
	if !ok {
		return nil
	}
	if b = l.refill(b, now); b.tokens >= 1 {
		return nil
	}
	wait := l.rate.Every
	if l.rate.Every > 0 {
		wait = time.Duration(math.Ceil((1 - b.tokens) * float64(l.rate.Every)))
	}
	return RateLimited(wait, fmt.Sprintf("at most %d at once, then one every %s, from one caller", l.rate.Burst, l.rate.Every))
}

// refill adds the tokens earned since b.at, up to the burst.
func (l *Limiter) refill(b bucket, now time.Time) bucket {
	if l.rate.Every > 0 && now.After(b.at) {
		b.tokens += float64(now.Sub(b.at)) / float64(l.rate.Every)
	}
	b.tokens = min(b.tokens, float64(l.rate.Burst))
	b.at = now
	return b
}

// sweepLocked forgets every key whose bucket is full again (a fresh key would be the same).
func (l *Limiter) sweepLocked(now time.Time) {
	for k, b := range l.mu.keys {
		if l.refill(b, now).tokens >= float64(l.rate.Burst) {
			delete(l.mu.keys, k)
		}
	}
}

// Len is how many keys are tracked (tests).
func (l *Limiter) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.mu.keys)
}

// RateLimited is the rate_limited refusal (retry) telling the caller to wait retryAfter
// (written as the Retry-After header, whole seconds rounded up, and "retry_after" in seconds).
func RateLimited(retryAfter time.Duration, msg string) *Refusal {
	secs := max(int64(math.Ceil(retryAfter.Seconds())), 1)
	return &Refusal{Code: CodeRateLimited, Msg: msg, Retry: true, RetryAfter: time.Duration(secs) * time.Second,
		Extra: map[string]any{"retry_after": secs}}
}

// ClientAddr is the address a per-caller limit is kept under: the connection's IP (an IPv6
// address by its /64, what one host is usually given), never a header a client can write. With
// forwarded set (a proxy on this host adds X-Forwarded-For), the last X-Forwarded-For entry,
// the one that proxy appended, when it is an IP.
func ClientAddr(r *http.Request, forwarded bool) string {
	if forwarded {
		if vs := r.Header.Values("X-Forwarded-For"); len(vs) > 0 {
			parts := strings.Split(vs[len(vs)-1], ",")
			if ip := net.ParseIP(strings.TrimSpace(parts[len(parts)-1])); ip != nil {
				return addrKey(ip)
			}
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	if ip := net.ParseIP(host); ip != nil {
		return addrKey(ip)
	}
	return host
}

func addrKey(ip net.IP) string {
	if v4 := ip.To4(); v4 != nil {
		return v4.String()
	}
	return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
}

// retryAfterHeader is the Retry-After value of a refusal with RetryAfter set (whole seconds).
func retryAfterHeader(d time.Duration) string {
	return strconv.FormatInt(max(int64(math.Ceil(d.Seconds())), 1), 10)
}
