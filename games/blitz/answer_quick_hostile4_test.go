package blitz

import (
	"strings"
	"testing"
)

// TestQuickAnswerLiteralEdges: talk answers at the edges of what the quick reader matches as whole
// literals (member names and values next to longer or shorter words, duplicates, every kind of
// JSON whitespace between every token, numbers at the edge of "a short plain integer", literals
// cut short, trailing bytes) are taken or refused by the quick path exactly as by the strict
// path: same error and code, same dropped list, events, prompts and inbox items (sameAnswer).
func TestQuickAnswerLiteralEdges(t *testing.T) {
	snap := talkSnapshot(t)
	ws := " \t\n\r"
	spaced := `{` + ws + `"messages"` + ws + `:` + ws + `[` + ws + `{` + ws + `"type"` + ws + `:` + ws + `"private"` + ws + `,` + ws +
		`"to"` + ws + `:` + ws + `3` + ws + `,` + ws + `"text"` + ws + `:` + ws + `"hi"` + ws + `,` + ws + `"tone"` + ws + `:` + ws +
		`"ask"` + ws + `}` + ws + `]` + ws + `,` + ws + `"accusation"` + ws + `:` + ws + `null` + ws + `}` + ws
	bodies := []string{
		spaced,
		`{"messages":[{"type":"public","type":"private","to":2,"text":"dup type"}]}`,
		`{"messages":[{"type":"public","text":"a","text":"b"}]}`,
		`{"messages":[{"type":"private","to":2,"to":3,"text":"dup to"}]}`,
		`{"messages":[{"type":"public","text":"t","tone":"ask","tone":"offer"}]}`,
		`{"messages":[],"messages":[]}`,
		`{"messages":[{"type":"public","text":"x"}],"accusation":2,"accusation":3}`,
		`{"messages":[{"type":"publicx","text":"x"}]}`,
		`{"messages":[{"type":"publi","text":"x"}]}`,
		`{"messages":[{"type":"private ","to":2,"text":"x"}]}`,
		`{"messages":[{"types":"public","text":"x"}]}`,
		`{"messages":[{"typ":"public","text":"x"}]}`,
		`{"messages":[{"type":"public","texts":"x"}]}`,
		`{"messages":[{"type":"private","top":2,"text":"x"}]}`,
		`{"messages":[{"type":"private","t":2,"text":"x"}]}`,
		`{"messages":[{"type":"public","text":"x","tone":"asks"}]}`,
		`{"messages":[{"type":"public","text":"x","tone":"as"}]}`,
		`{"messages":[{"type":"public","text":"x","tone":null}]}`,
		`{"messages":[{"type":"public","text":null}]}`,
		`{"messages":[{"type":null,"text":"x"}]}`,
		`{"messages":[{"type":"private","to":null,"text":"x"}]}`,
		`{"messages":[{"type":"private","to":"2","text":"x"}]}`,
		`{"messages":[{"type":"private","to":2.5,"text":"x"}]}`,
		`{"messages":[{"type":"private","to":2e0,"text":"x"}]}`,
		`{"messages":[{"type":"private","to":-0,"text":"x"}]}`,
		`{"messages":[{"type":"private","to":02,"text":"x"}]}`,
		`{"messages":[{"type":"private","to":999999999,"text":"x"}]}`,
		`{"messages":[{"type":"private","to":1000000000,"text":"x"}]}`,
		`{"messages":[{"type":"private","to":-999999999,"text":"x"}]}`,
		`{"messages":[{"type":"private","to":2-1,"text":"x"}]}`,
		`{"messages":[{"type":"private","to":+2,"text":"x"}]}`,
		`{"messages":[{"type":"private","to":2 ,"text":"x"}]}`,
		`{"messages":[],"accusation":nul}`,
		`{"messages":[],"accusation":nullx}`,
		`{"messages":[],"accusation":NULL}`,
		`{"messages":[],"accusation":true}`,
		`{"messages":[],"accusation":"3"}`,
		`{"messages":[],"accusation":3.0}`,
		`{"messages":[],"accusation":0}`,
		`{"messages":[],"accusation":-1}`,
		`{"messages":[]}x`,
		`{"messages":[]}{}`,
		`{"messages":[]},`,
		`{"messages":[],}`,
		`{"messages":[{"type":"public","text":"x"},]}`,
		`{"messages":[{"type":"public","text":"x",}]}`,
		`{"messages":[{"type":"public","text":"x"}`,
		`{"messages":[{"type":"public","text":"x`,
		`{"messages":[{"type":"public","text":"x"}]`,
		`{"messages"`,
		`{"messages":`,
		"\ufeff{\"messages\":[]}",
		"{\"messages\":[]}\x00",
		"{\"messages\":[{\"type\":\"public\",\"text\":\"a\x7fb\"}]}",
		"{\"messages\":[{\"type\":\"public\",\"text\":\"\xed\xa0\x80\"}]}",
		"{\"messages\":[{\"type\":\"public\",\"text\":\"\xc0\xaf\"}]}",
		`{"messages":[{"type":"public","text":"` + strings.Repeat("a", 601) + `"}]}`,
		`{"messages":[{"type":"public","text":"` + strings.Repeat("a", 600) + `"}]}`,
		`{"v":1,"v":1,"messages":[]}`,
		`{"round":"T-7","round":"T-7","messages":[]}`,
		`{"turn":1,"turn":1,"messages":[]}`,
		`{"seat":1,"messages":[]}`,
		`{"exchange":0,"messages":[]}`,
		`{"phase":"talkx","messages":[]}`,
		`{"phase":"tal","messages":[]}`,
		`{"round":"T-77","messages":[]}`,
		`{"round":"T-","messages":[]}`,
		`{"v":01,"messages":[]}`,
		`{"commitments":[],"messages":[]}`,
		`{"commitments":null,"messages":[]}`,
	}
	var many []string
	for i := 0; i < 65; i++ {
		many = append(many, `{"type":"public","text":"l"}`)
	}
	bodies = append(bodies, `{"messages":[`+strings.Join(many, ",")+`]}`, `{"messages":[`+strings.Join(many[:64], ",")+`]}`)
	n := 0
	for i, body := range bodies {
		a, b := talkTwins(t, snap)
		if sameAnswer(t, a, b, 1+i%6, []byte(body)) {
			n++
		}
	}
	if n < 20 {
		t.Fatalf("only %d of %d answers went through both paths", n, len(bodies))
	}
	t.Logf("%d of %d answers through both paths", n, len(bodies))
}
