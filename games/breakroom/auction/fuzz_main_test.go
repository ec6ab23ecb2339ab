package auction

import (
	"flag"
	"os"
	"testing"
)

// TestMain gives `go test -fuzz` a short minimization unless -fuzzminimizetime is set: the
// fuzzer minimizes every input that finds new coverage for up to 60 s by default, trying O(n²)
// candidates in the input's length, each a whole match or verify, and its exec count does not
// move meanwhile (FuzzVerify looked stalled after its seeds). A crasher is still written whole.
func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.fuzzminimizetime" })
	if !set {
		_ = flag.Set("test.fuzzminimizetime", "10x")
	}
	os.Exit(m.Run())
}
