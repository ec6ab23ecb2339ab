package blitz

import (
	"testing"

	"arena/games"
)

// TestPlaybookTextRefusesControlAndFormatCharacters: playbook text reaches the house model's
// system prompt and the public reveal (reveal.playbooks), so it is held to the rule of every
// other free text the arena shows (games.HiddenRune): NUL, ESC, DEL, a C1 control, CR, a bidi
// override or isolate, a zero-width joiner, the byte-order mark, a line separator are refused
// bad_request, by ParsePlaybook and by Check; line feeds and tabs, and printable text in any
// script, are the owner's paragraphs and are kept.
func TestPlaybookTextRefusesControlAndFormatCharacters(t *testing.T) {
	for _, raw := range []string{`{"text":"a\u0000b"}`, `{"text":"\u001b[2Jcleared"}`, `{"text":"\u202egnirts desrever"}`,
		`{"text":"a\u007fb"}`, `{"text":"a\u0085b"}`, `{"text":"a\rb"}`, `{"text":"a\u2066b\u2069"}`, `{"text":"a\u200db"}`,
		`{"text":"\ufeffa"}`, `{"text":"a\u2028b"}`} {
		pb, err := ParsePlaybook([]byte(raw))
		if ge, ok := err.(*games.Error); !ok || ge.Code != games.CodeBadRequest {
			t.Errorf("ParsePlaybook(%s) = %q, %v; want bad_request", raw, pb.Text, err)
		}
	}
	for _, text := range []string{"a\x00b", "\u202egnirts", "x\u200by"} {
		p := DefaultPlaybook()
		p.Text = text
		if ge, ok := p.Check().(*games.Error); !ok || ge.Code != games.CodeBadRequest {
			t.Errorf("Playbook{Text: %q}.Check() = %v; want bad_request", text, p.Check())
		}
	}
	const kept = "Be the honest broker.\n\n\tKeep every promise; trust 信用, مرحبا, émigré."
	pb, err := ParsePlaybook([]byte(`{"text":"Be the honest broker.\n\n\tKeep every promise; trust 信用, مرحبا, émigré.","dials":{"trust":7}}`))
	if err != nil || pb.Text != kept || pb.Dials.Trust != 7 {
		t.Fatalf("ParsePlaybook of a playbook in paragraphs: %+v %v, want text %q", pb, err, kept)
	}
}
