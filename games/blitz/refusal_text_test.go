package blitz

import (
	"encoding/json"
	"errors"
	"regexp"
	"testing"

	"arena/games"
)

// internals matches what no refusal text may carry: Go's decoder and type names, package
// prefixes, source positions (the texts reach agents, walk-ins and chat assistants).
var internals = regexp.MustCompile(`(?i:go struct|go value|struct field|unmarshal|goroutine)|json: |canon: |reflect\.|of type |\.go:\d|\bu?int(8|16|32|64)?\b|float64|map\[|json\.RawMessage|\*[a-z]+\.[A-Z]`)

// Every refusal an answer or a lever can earn, whole or part by part (the error of Act, the
// dropped[] of the reply, the private commitment.rejected), says what is wrong in the protocol's
// words: hostile bodies of every kind (wrong JSON types at the top and inside items, fractions,
// exponents, unsafe integers, unknown members, lone surrogates) find no Go decoder text.
func TestRefusalTextsCarryNoDecoderInternals(t *testing.T) {
	s := testSetup("short", 3, `{"mole":3,"task":{"kind":"broker","named":[]}}`)
	seatOpts(&s.Seats[0], func(o *SeatOptions) { o.Walkin, o.Kind = false, "byo" })
	h := newHarness(t, s)
	checked := 0
	scan := func(what, text string) {
		t.Helper()
		checked++
		if text == "" {
			t.Errorf("%s: a refusal with no text", what)
		}
		if internals.MatchString(text) {
			t.Errorf("%s: refusal text carries decoder internals: %q", what, text)
		}
	}
	act := func(seat int, kind, body string) {
		t.Helper()
		st, err := h.act(seat, kind, body)
		if err != nil {
			var ge *games.Error
			if !errors.As(err, &ge) {
				t.Fatalf("%s %s: a refusal that is no *games.Error: %v", kind, body, err)
			}
			scan(kind+" "+body, ge.Msg)
			return
		}
		var r struct{ Dropped []Dropped }
		_ = json.Unmarshal(st.Reply, &r)
		for _, d := range r.Dropped {
			scan(kind+" "+body+" dropped", d.Msg)
		}
		for _, e := range st.Events {
			if e.Type == "commitment.rejected" {
				var p struct{ Msg string }
				_ = json.Unmarshal(e.Payload, &p)
				scan(kind+" "+body+" rejected", p.Msg)
			}
		}
	}
	wholes := []string{
		`{"turn":"1"}`, `{"turn":1.5}`, `{"turn":1e0}`, `{"turn":true}`, `{"turn":[1]}`, `{"turn":{"n":1}}`,
		`{"round":7}`, `{"phase":false}`, `{"exchange":"1"}`, `{"seat":"1"}`, `{"v":"1"}`, `{"v":1.0}`,
		`{"messages":"hi"}`, `{"messages":{"type":"public"}}`, `{"commitments":7}`, `{"accusation":"2"}`,
		`{"accusation":2.5}`, `{"turn":99999999999999999999}`, `{"zzz":1}`, `[]`, `"answer"`, `7`, `{"turn":1}x`,
		`{"turn":1,"turn":1}`, `{"turn":1,"Turn":1}`, "{\"phase\":\"t\xffk\"}", `{"phase":"\ud800"}`, `{`,
	}
	messages := `{"messages":[` +
		`{"type":"public","text":5},{"type":7,"text":"a"},{"type":"private","to":"x","text":"a"},` +
		`{"type":"private","to":2.5,"text":"a"},{"type":"public","text":"a","tone":5},{"type":"public","text":"\ud800"},` +
		`{"type":"public","text":"a","zzz":1},"line",5,null,[1],{"type":"public","text":"a","text":"b"},` +
		`{"type":"private","to":99999999999999999999,"text":"a"}]}`
	intents := `{"commitments":[` +
		`{"payee":"2","amount":"1000000"},{"payee":2,"amount":1e6},{"payee":2,"amount":2000000.0},` +
		`{"payee":2,"chips":"5"},{"payee":2,"amount":1000000,"due":"3"},{"payee":2,"amount":1000000,"condition":"always"},` +
		`{"payee":2,"amount":1000000,"condition":{"backs":["a",2]}},{"payee":2,"amount":1000000,"ref":5},` +
		`{"payee":2,"amount":1000000,"zzz":1},{"payee":[2],"amount":1000000},"promise",7,null]}`
	signed := `{"commitments":[` +
		`{"v":"1","round":"T-7","turn":1,"seq":1,"payer":"` + agentID(1) + `","payee":"` + agentID(2) + `","amount":1000000,"condition":{"always":true},"due":1,"sig":"ed25519:00"},` +
		`{"v":1,"round":"T-7","turn":1,"seq":"1","payer":"` + agentID(1) + `","payee":"` + agentID(2) + `","amount":1000000,"condition":{"always":true},"due":1,"sig":"ed25519:00"},` +
		`{"v":1,"round":"T-7","turn":1,"seq":1,"payer":"` + agentID(1) + `","payee":"` + agentID(2) + `","amount":1e6,"condition":{"always":true},"due":1,"sig":"ed25519:00"},` +
		`{"v":1,"round":"T-7","turn":1,"seq":1,"payer":5,"payee":"` + agentID(2) + `","amount":1000000,"condition":{"always":true},"due":1,"sig":7}]}`
	levers := []struct{ kind, body string }{
		{"call", `{"text":5}`}, {"call", `{"text":["a"]}`}, {"call", `{"zzz":"a"}`}, {"call", `"a"`},
		{"veto", `{"pending_id":5}`}, {"veto", `{"ref":{"a":1}}`}, {"veto", `[]`},
		{"accuse", `{"seat":"2"}`}, {"accuse", `{"seat":2.5}`}, {"accuse", `{"seat":1e0}`}, {"accuse", `{"zzz":2}`},
	}
	for _, phase := range []string{"talk", "commit"} {
		h.to(1, phase, map[string]int{"talk": 1, "commit": 0}[phase])
		for _, b := range wholes {
			act(1, "answer", b)
			act(2, "answer", b)
		}
		for _, l := range levers {
			act(2, l.kind, l.body)
		}
		if phase == "talk" {
			act(1, "answer", messages)
			act(2, "answer", messages)
		} else {
			act(1, "answer", signed)
			act(2, "answer", intents)
		}
	}
	if checked < 100 {
		t.Fatalf("only %d refusal texts were read: the corpus did not reach the game", checked)
	}
}
