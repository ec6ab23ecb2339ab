package blitz

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"arena/games"
	"arena/games/blitz/commitment"
	"arena/games/canon"
)

// checkQuick holds quickAnswer to the strict path: whenever it takes raw, canon.Parse and
// fastAnswer take it too, with the same members, the same message spans, and readMessage
// reading every message as quickAnswer did.
func checkQuick(t *testing.T, raw []byte) bool {
	t.Helper()
	q, ok := quickAnswer(raw)
	if !ok {
		return false
	}
	v, err := canon.Parse(raw)
	if err != nil || v.Kind() != canon.Object {
		t.Fatalf("quickAnswer took %q, canon.Parse did not: %v", raw, err)
	}
	s, ok := fastAnswer(v)
	if !ok {
		t.Fatalf("quickAnswer took %q, fastAnswer did not", raw)
	}
	eqInt := func(name string, a, b *int) {
		if (a == nil) != (b == nil) || (a != nil && *a != *b) {
			t.Fatalf("%q: %s differs: %v vs %v", raw, name, a, b)
		}
	}
	eqStr := func(name string, a, b *string) {
		if (a == nil) != (b == nil) || (a != nil && *a != *b) {
			t.Fatalf("%q: %s differs", raw, name)
		}
	}
	eqInt("v", q.V, s.V)
	eqInt("turn", q.Turn, s.Turn)
	eqInt("exchange", q.Exchange, s.Exchange)
	eqInt("seat", q.Seat, s.Seat)
	eqInt("accusation", q.Accusation, s.Accusation)
	eqStr("round", q.Round, s.Round)
	eqStr("phase", q.Phase, s.Phase)
	if len(q.Commitments) != len(s.Commitments) || len(q.quickCom) != len(q.Commitments) {
		t.Fatalf("%q: %d commitments (%d read), strict %d", raw, len(q.Commitments), len(q.quickCom), len(s.Commitments))
	}
	for i := range q.Commitments {
		if !bytes.Equal(q.Commitments[i], s.Commitments[i]) {
			t.Fatalf("%q: commitment %d span %q, strict %q", raw, i, q.Commitments[i], s.Commitments[i])
		}
		c, cb, f, err := commitment.ParseValue(s.comVals[i])
		got := q.quickCom[i]
		if err != nil || !reflect.DeepEqual(got.Commitment, c) || got.Canonical.ID != cb.ID ||
			!bytes.Equal(got.Canonical.Bytes, cb.Bytes) || !bytes.Equal(got.Forms.Signed, f.Signed) ||
			!bytes.Equal(got.Forms.Condition, f.Condition) {
			t.Fatalf("%q: commitment %d read %+v, ParseValue %+v %+v (%v)", raw, i, got, c, cb, err)
		}
	}
	if len(q.Messages) != len(s.Messages) || len(q.quick) != len(q.Messages) {
		t.Fatalf("%q: %d messages (%d read), strict %d", raw, len(q.Messages), len(q.quick), len(s.Messages))
	}
	for i := range q.Messages {
		if !bytes.Equal(q.Messages[i], s.Messages[i]) {
			t.Fatalf("%q: message %d span %q, strict %q", raw, i, q.Messages[i], s.Messages[i])
		}
		want, bad := readMessage(s.Messages[i], &s.msgVals[i])
		if bad != "" {
			t.Fatalf("%q: quickAnswer read message %d, readMessage refused it: %s", raw, i, bad)
		}
		got := q.quick[i]
		if got.typ != want.typ || got.tone != want.tone || !bytes.Equal(got.text, want.text) ||
			!bytes.Equal(got.textJCS, want.textJCS) || !bytes.Equal(got.to, want.to) || got.hasTo != want.hasTo ||
			got.runes != want.runes {
			t.Fatalf("%q: message %d read %+v, readMessage %+v", raw, i, got, want)
		}
	}
	return true
}

var quickSeeds = []string{
	`{"messages":[{"type":"public","text":"hi","tone":"offer"}]}`,
	`{"messages":[{"type":"private","to":3,"text":"psst","tone":"ask"},{"text":"é 😀","type":"public"}]}`,
	` { "v" : 1 , "round":"T-7","turn":2,"phase":"talk","exchange":3,"seat":4,"messages":[ ] , "accusation":null} `,
	`{"messages":null,"commitments":null,"accusation":5}`,
	`{}`, `{"messages":[{}]}`, `{"messages":[{"to":-0}]}`, `{"turn":-12}`, `{"commitments":[]}`,
	// each of these takes the strict path
	`{"messages":[{"type":"public","text":"a\nb"}]}`, `{"messages":[{"type":"public","Type":"public"}]}`,
	`{"messages":[{"type":"public","type":"public"}]}`, `{"messages":[{"to":3.0}]}`, `{"messages":[{"to":"3"}]}`,
	`{"messages":[{"to":007}]}`, `{"turn":1e0}`, `{"turn":9007199254740993}`, `{"messages":[1]}`, `{"Messages":[]}`,
	`{"commitments":[{}]}`, `{"messages":[{"text":"` + "\xff" + `"}]}`, `{"messages":[{"text":"` + "\x01" + `"}]}`,
	`{"messages":[]`, `{"messages":[]} x`, `[]`, `null`, `{"round":"\u0054-7"}`, `{"seat":1234567890}`,
}

func TestQuickAnswerMatchesStrict(t *testing.T) {
	took := 0
	for _, s := range quickSeeds {
		if checkQuick(t, []byte(s)) {
			took++
		}
	}
	if took != 9 {
		t.Errorf("quickAnswer took %d seeds, want the first 9", took)
	}
	// The fingerprint's talk answers: varied, partly hostile.
	r := rand.New(rand.NewPCG(9, 9))
	took = 0
	for i := 0; i < 3000; i++ {
		if checkQuick(t, []byte(fpTalk(r, 1+i%6, 6, games.Move{Turn: 1 + i%5, Phase: "talk", Exchange: 1 + i%3}))) {
			took++
		}
	}
	if took < 100 {
		t.Errorf("quickAnswer took only %d of 3000 generated answers", took)
	}
	// The fingerprint's commit answers of BYO seats: signed, some hostile.
	keys := newTestKeys(6)
	took = 0
	for i := 0; i < 600; i++ {
		seat, turn, seq := 1+i%3, 1+i%5, i
		var subs []string
		for j, n := 0, r.IntN(5); j < n; j++ {
			subs = append(subs, fpSigned(r, keys, seat, 6, turn, &seq))
		}
		if checkQuick(t, []byte(`{"commitments":[`+strings.Join(subs, ","+fpWS(r))+`]}`)) {
			took++
		}
	}
	if took < 100 {
		t.Errorf("quickAnswer took only %d of 600 generated commit answers", took)
	}
	// 64 messages is the limit; 65 goes to the strict path.
	many := func(n int) []byte {
		b := []byte(`{"messages":[`)
		for i := 0; i < n; i++ {
			if i > 0 {
				b = append(b, ',')
			}
			b = fmt.Appendf(b, `{"type":"public","text":"line %d"}`, i)
		}
		return append(b, "]}"...)
	}
	if !checkQuick(t, many(64)) || checkQuick(t, many(65)) {
		t.Error("the 64-message limit")
	}
}

func FuzzQuickAnswer(f *testing.F) {
	for _, s := range quickSeeds {
		f.Add(s)
	}
	r, keys, seq := rand.New(rand.NewPCG(5, 5)), newTestKeys(6), 0
	for i := 0; i < 4; i++ {
		f.Add(`{"commitments":[` + fpSigned(r, keys, 1, 6, 1, &seq) + `,` + fpSigned(r, keys, 1, 6, 1, &seq) + `]}`)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkQuick(t, []byte(s))
	})
}
