package blitz

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"time"

	"arena/games"
)

// The quick answer path (answer_quick.go) against the path every answer took before it: each
// talk answer quickAnswer takes is also sent, spelled so that quickAnswer declines it (one member
// name written with a \u escape, the same JSON value), to a twin match, which reads it through
// canon.Parse and fastAnswer (or the lenient top level). Both matches must refuse or take it the
// same way: same error and code, same dropped list, same events, prompts and inbox items.

var memberName = regexp.MustCompile(`"(text|type|tone|to|messages|v|turn|round|phase|exchange|seat|accusation|commitments)"\s*:`)

// forceStrict spells the first member name of raw with a \u escape of its first letter: the same
// answer, which quickAnswer (no escapes) declines. false when raw has no member to respell.
func forceStrict(raw []byte) ([]byte, bool) {
	loc := memberName.FindIndex(raw)
	if loc == nil {
		return nil, false
	}
	c := raw[loc[0]+1]
	out := append([]byte{}, raw[:loc[0]+1]...)
	out = fmt.Appendf(out, `\u%04x`, c)
	out = append(out, raw[loc[0]+2:]...)
	return out, true
}

// talkTwins is two identical matches at turn 1, talk exchange 1 (restored from one snapshot).
func talkTwins(t testing.TB, snap []byte) (*Match, *Match) {
	t.Helper()
	keys := newTestKeys(6)
	eng := NewEngine(DefaultFees())
	a, err := eng.Restore(snap, keys)
	if err != nil {
		t.Fatal(err)
	}
	b, err := eng.Restore(snap, keys)
	if err != nil {
		t.Fatal(err)
	}
	return a.(*Match), b.(*Match)
}

func talkSnapshot(t testing.TB) []byte {
	t.Helper()
	s := hostileSetup(1)
	h := newHarness(t, s)
	h.to(1, "talk", 1)
	snap, err := h.m.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// sameAnswer applies raw to a and its strict spelling to b, from seat, and compares what they
// hand out; then both advance and the next prompts must match too.
func sameAnswer(t *testing.T, a, b *Match, seat int, raw []byte) bool {
	t.Helper()
	if _, ok := quickAnswer(raw); !ok {
		return false
	}
	forced, ok := forceStrict(raw)
	if !ok {
		return false
	}
	if _, ok := quickAnswer(forced); ok {
		t.Fatalf("%s: quickAnswer took the escaped spelling %s", raw, forced)
	}
	dl, _ := a.Deadline()
	at := dl.Add(-time.Second)
	mv := a.Phase()
	x := apply(a, tick{At: at, In: &games.Input{Seat: seat, Kind: "answer", Move: mv, Body: raw}})
	y := apply(b, tick{At: at, In: &games.Input{Seat: seat, Kind: "answer", Move: mv, Body: forced}})
	if x != y {
		t.Fatalf("answer %s\nquick path handed out\n %.600s\nstrict path (%s)\n %.600s", raw, x, forced, y)
	}
	return true
}

// TestQuickAnswerSameAsStrictInMatch: the fingerprint's talk answers and hand-made hostile ones.
func TestQuickAnswerSameAsStrictInMatch(t *testing.T) {
	snap := talkSnapshot(t)
	bodies := []string{
		`{"messages":[{"type":"public","text":"I offer 40 CCD","tone":"offer"}]}`,
		`{"messages":[{"type":"private","to":3,"text":"psst","tone":"ask"},{"text":"é 😀 <b>&amp;</b>","type":"public"}]}`,
		`{"messages":[{"type":"private","to":1,"text":"me"}]}`,
		`{"messages":[{"type":"private","to":7,"text":"nobody"}]}`,
		`{"messages":[{"type":"private","to":-0,"text":"zero"}]}`,
		`{"messages":[{"type":"private","to":-3,"text":"neg"}]}`,
		`{"messages":[{"type":"private","to":000000003,"text":"lead"}]}`,
		`{"messages":[{"type":"private","to":123456789,"text":"big"}]}`,
		`{"messages":[{"type":"public","to":2,"text":"public with to"}]}`,
		`{"messages":[{"type":"shout","text":"x"}]}`,
		`{"messages":[{"type":"public","text":"x","tone":"Offer"}]}`,
		`{"messages":[{"type":"public","text":""}]}`,
		`{"messages":[{"type":"public","text":"` + strings.Repeat("é", 600) + `"}]}`,
		`{"messages":[{"type":"public","text":"` + strings.Repeat("é", 601) + `"}]}`,
		`{"messages":[{"type":"public","text":"` + "\u2028\u2029\x7f" + `"}]}`,
		`{"messages":[{}]}`,
		`{"messages":[],"accusation":3}`,
		`{"messages":[],"accusation":4}`,
		`{"messages":[],"accusation":1}`,
		`{"messages":[],"accusation":99}`,
		`{"messages":[],"accusation":null,"commitments":null}`,
		`{"v":2,"messages":[]}`,
		`{"v":1,"round":"T-8","messages":[]}`,
		`{"turn":2,"messages":[]}`,
		`{"phase":"commit","messages":[]}`,
		`{"exchange":2,"messages":[]}`,
		`{"seat":2,"messages":[]}`,
		`{"seat":1,"v":1,"round":"T-7","turn":1,"phase":"talk","exchange":1,"messages":[{"type":"public","text":"echo"}]}`,
	}
	var many []string
	for i := 0; i < 64; i++ {
		many = append(many, fmt.Sprintf(`{"type":"%s","to":%d,"text":"line %d 3 chips"}`, []string{"public", "private"}[i%2], 2+i%5, i))
	}
	bodies = append(bodies, `{"messages":[`+strings.Join(many, ",")+`]}`)
	bodies = append(bodies, strings.Replace(`{"messages":[`+strings.Join(many, ",")+`]}`, `"to":2`, `"to":2.0`, 1))
	r := rand.New(rand.NewPCG(3, 3))
	for i := 0; i < 300; i++ {
		bodies = append(bodies, fpTalk(r, 1+i%6, 6, games.Move{Turn: 1, Phase: "talk", Exchange: 1}))
	}
	n := 0
	for i, body := range bodies {
		a, b := talkTwins(t, snap)
		if sameAnswer(t, a, b, 1+i%6, []byte(body)) {
			n++
		}
	}
	if n < 50 {
		t.Fatalf("only %d answers went through both paths", n)
	}
}

// FuzzQuickAnswerInMatch: any talk answer quickAnswer takes is taken by the strict path with
// the same outcome, in a match.
func FuzzQuickAnswerInMatch(f *testing.F) {
	snap := talkSnapshot(f)
	r := rand.New(rand.NewPCG(5, 5))
	for i := 0; i < 20; i++ {
		f.Add(uint8(i%6), []byte(fpTalk(r, 1+i%6, 6, games.Move{Turn: 1, Phase: "talk", Exchange: 1})))
	}
	f.Add(uint8(0), []byte(`{"messages":[{"type":"private","to":-0,"text":"zero"}],"accusation":3}`))
	f.Fuzz(func(t *testing.T, seat uint8, raw []byte) {
		if len(raw) > 8192 {
			return
		}
		if _, ok := quickAnswer(raw); !ok {
			return
		}
		a, b := talkTwins(t, snap)
		sameAnswer(t, a, b, 1+int(seat%6), raw)
		if !bytes.Equal([]byte(promptsOf(a)), []byte(promptsOf(b))) {
			t.Fatal("prompts differ")
		}
	})
}
