package claims

import (
	"testing"

	"arena/games"
)

// FuzzParseAnswer: the move decoder never panics, refuses with a code, and what it accepts is in
// range for its phase.
func FuzzParseAnswer(f *testing.F) {
	for _, s := range []string{`{"action":"pass"}`, `{"action":"message","text":"hi"}`, `{"action":"claim","claim_bps":5000}`,
		`{"action":"offer","ask_bps":4000,"escalate":2}`, `{"action":"offer","ask_bps":1e3,"escalate":0}`, `{"action":"claim","claim_bps":-0}`,
		`{"action":"message","text":"\u0000"}`, `[]`, `null`} {
		f.Add(s, uint8(0), int64(5000))
	}
	f.Fuzz(func(t *testing.T, body string, ph uint8, val int64) {
		phase := []string{phaseMessage, phaseClaim, phaseOffer, phaseReveal}[ph%4]
		a, err := ParseAnswer(phase, []byte(body), val)
		if err != nil {
			if ge, ok := err.(*games.Error); !ok || ge.Code == "" {
				t.Fatalf("error without code: %v", err)
			}
			return
		}
		switch phase {
		case phaseClaim:
			if a.Action != ActionClaim || a.Value < 0 || a.Value > 10000 {
				t.Fatalf("claim %+v", a)
			}
		case phaseOffer:
			if a.Action != ActionOffer || a.Value < 0 || a.Value > val || a.Esc < 0 || a.Esc > MaxSteps {
				t.Fatalf("offer %+v", a)
			}
		case phaseMessage:
			if a.Action == ActionMessage && (a.Text == "" || len([]rune(a.Text)) > MaxChars) {
				t.Fatalf("message %+v", a)
			}
		default:
			t.Fatalf("accepted in %s: %+v", phase, a)
		}
	})
}
