//go:build amd64 && !purego

package canon

// plainRun is the length of the run of plain bytes (see SkipPlain) at the head of p, which
// holds at least 16 bytes: sixteen or thirty-two judged at a time with SSE2 (skipplain_amd64.s).
//
//go:noescape
func plainRun(p []byte) int

// hasPlainRun: plainRun exists on this platform.
const hasPlainRun = true
