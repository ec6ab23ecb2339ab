//go:build hostile6

package blitz

import (
	"bytes"
	"testing"
)

// FAILS today (T6; predates this afternoon's changes): Act keeps the input it was given in the
// match's input log (logInput) with Body as the caller's own slice, not a copy, and games.Match
// says nothing of the caller having to leave Body alone afterwards. A transport that reuses its
// read buffer (or a caller that scribbles over a body it has handed in) changes the match's
// snapshot after the fact: here Snapshot (and Events, written from it) fail with "json: error
// calling MarshalJSON for type json.RawMessage", and a body overwritten with other valid JSON
// would restore to a different round silently. The steps themselves owe nothing to the body
// (TestAnswerBodyScribbledHostile6 passes). Proposed fix: Act logs a copy (in.Body =
// bytes.Clone(in.Body) before logInput; one allocation of the body's size per input taken), or
// games.Match.Act's doc states that the match keeps in.Body and the caller must not change it.
func TestActKeepsBodyHostile6(t *testing.T) {
	a, b := scribbledTwins(t, 1)
	sa, ea := a.Snapshot()
	sb, eb := b.Snapshot()
	if ea != nil || eb != nil || !bytes.Equal(sa, sb) {
		t.Fatalf("the scribbled twin's snapshot differs from the plain twin's: %v / %v (%d and %d bytes)", ea, eb, len(sa), len(sb))
	}
}
