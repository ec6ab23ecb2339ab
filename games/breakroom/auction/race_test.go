//go:build race

package auction

// raceBuild: the race detector runs this package's pure, single-goroutine matches about ten
// times slower, so TestInvariants plays fewer of them there (the same assertions on every step).
const raceBuild = true
