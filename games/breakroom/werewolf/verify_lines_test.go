package werewolf

import (
	"bytes"
	"testing"
)

// TestVerifyFailsWhereALineIsMissingOrMoved: in the worked example's honest log, dropping any one
// line fails at the place of that line, swapping any two neighbouring lines fails at the first
// of them, repeating any line fails at the copy, and any line added after match_end that is not
// a money line fails at that line. A move's talk does not stand in for its move: dropping or
// moving the action line after a message fails at the action's place, not at the talk.
func TestVerifyFailsWhereALineIsMissingOrMoved(t *testing.T) {
	lines := workedExample(t).lines()
	check := func(what string, alt [][]byte, at int) {
		t.Helper()
		if rep := Verify(alt); rep.OK || rep.At != at || rep.Reason == "" {
			t.Errorf("%s: report %+v, want a failure at line %d", what, rep, at)
		}
	}
	for i := range lines {
		check("line "+itoa(i)+" dropped", append(append([][]byte{}, lines[:i]...), lines[i+1:]...), i)
		if i+1 < len(lines) && !bytes.Equal(lines[i], lines[i+1]) {
			alt := append([][]byte{}, lines...)
			alt[i], alt[i+1] = alt[i+1], alt[i]
			check("lines "+itoa(i)+" and "+itoa(i+1)+" swapped", alt, i)
		}
		check("line "+itoa(i)+" repeated", append(append(append([][]byte{}, lines[:i+1]...), lines[i]), lines[i+1:]...), i+1)
	}
	for _, extra := range []string{
		`{"seq":65,"t":"2026-10-02T08:00:52.000Z","type":"message","round":2,"seat":1,"text":"hi","turn":99}`,
		`{"seq":65,"t":"2026-10-02T08:00:52.000Z","type":"action_private","action":"vote","reveal":"end","round":2,"seat":1,"target":4,"turn":12}`,
		`{"seq":65,"t":"2026-10-02T08:00:52.000Z","type":"match_end"}`,
		`not json`,
	} {
		check("added after the end: "+extra, append(append([][]byte{}, lines...), []byte(extra)), len(lines))
	}
}

func itoa(i int) string { return string(appendInt(nil, i)) }
