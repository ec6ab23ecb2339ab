package blitz

import "testing"

// The quick reader's literal matchers cover exactly the §6 vocabularies talk judges by.
func TestKnownWordsAreTheVocabularies(t *testing.T) {
	for _, c := range []struct {
		words []string
		known func([]byte) (string, int)
	}{{messageTypes, knownType}, {tones, knownTone}} {
		for _, w := range c.words {
			lit := `"` + w + `",`
			if got, n := c.known([]byte(lit)); got != w || n != len(w)+2 {
				t.Errorf("%s: matched as %q, %d bytes", lit, got, n)
			}
			if got := vocabWord([]byte(w), c.words); got != w {
				t.Errorf("vocabWord(%q) = %q", w, got)
			}
		}
		for _, other := range []string{`"Public"`, `"asks"`, `"neutra"`, `"x"`, `public`} {
			if got, n := c.known([]byte(other)); n != 0 {
				t.Errorf("%s matched as %q", other, got)
			}
		}
	}
	if !toneOK("decline") || toneOK("Decline") || toneOK("") {
		t.Error("toneOK")
	}
}
