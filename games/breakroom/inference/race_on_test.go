//go:build race

package inference

// raceDetector says the tests run under the race detector (go test -race), which slows the
// random matches tenfold: TestInvariants plays fewer of them.
const raceDetector = true
