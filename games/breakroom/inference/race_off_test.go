//go:build !race

package inference

// raceDetector says the tests run under the race detector (go test -race); see race_on_test.go.
const raceDetector = false
