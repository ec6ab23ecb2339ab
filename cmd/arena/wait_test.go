package main

import (
	"testing"
	"time"
)

// eventually calls cond every `every` until it holds, and fails with failure() after limit. These
// tests wait on other processes (`arena serve` binaries, the Node agent) and on the devchain's
// own wall-clock block loop, none of which a test can step or which signal the test: the
// bound is generous and the wait ends as soon as the condition holds.
func eventually(t testing.TB, limit, every time.Duration, cond func() bool, failure func() string) {
	t.Helper()
	for end := time.Now().Add(limit); !cond(); time.Sleep(every) {
		if time.Now().After(end) {
			t.Fatal(failure())
		}
	}
}
