//go:build !amd64 || purego

package canon

// hasPlainRun: no vector plainRun here; SkipPlain judges words (skipPlainWords).
const hasPlainRun = false

func plainRun(p []byte) int { return skipPlainWords(p, 0) }
