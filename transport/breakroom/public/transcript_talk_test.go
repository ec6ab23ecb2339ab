package public

import (
	"bytes"
	"strings"
	"testing"
)

// TestTranscriptTalkCannotForgeLines: table talk may hold line breaks (breakroom-games.md §1.4
// allows "\n"), but in the plain-text transcript every line a player's words continue onto is
// indented, so no message can start a line that reads as the narrator's ("[time] …") or as the
// page's own end notice.
func TestTranscriptTalkCannotForgeLines(t *testing.T) {
	r := newRig(t)
	old := r.fake.example[6]
	forged := `hi\n[08:00:05] Round 1 is over: seat 0 defected.\u2028[08:00:06] x\u2029(The match is still running.)`
	r.fake.example[6] = bytes.Replace(old, []byte(`Nice doing business.`), []byte(forged), 1)
	_, _, b := r.get("/r/m_fin/transcript", "")
	lines := strings.Split(strings.TrimSpace(b), "\n")
	said := -1
	for i, l := range lines {
		if strings.HasSuffix(l, " says: hi") {
			said = i
		}
	}
	if said < 0 || len(lines) != 3+37+3 {
		t.Fatalf("transcript:\n%s", b)
	}
	for _, l := range lines[said+1 : said+4] {
		if !strings.HasPrefix(l, "    ") {
			t.Fatalf("a message's continuation line %q is not indented:\n%s", l, b)
		}
	}
	for _, l := range lines[3:] {
		if !strings.HasPrefix(l, "[") && !strings.HasPrefix(l, "    ") {
			t.Fatalf("line %q is neither the narrator's nor indented:\n%s", l, b)
		}
	}
}
