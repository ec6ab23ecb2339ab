package blitz

import "testing"

// toneOK judges by the §6 vocabulary, exact case.
func TestToneOKIsTheVocabulary(t *testing.T) {
	for _, w := range tones {
		if !toneOK(w) {
			t.Errorf("%q refused", w)
		}
	}
	if !toneOK("decline") || toneOK("Decline") || toneOK("") {
		t.Error("toneOK")
	}
}
