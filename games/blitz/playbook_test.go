package blitz

import (
	"strings"
	"testing"

	"arena/games"
)

// TestParsePlaybook: a playbook decodes strictly, a missing text or dial takes its default, and
// its JSON is canonical with every member written, so the same configuration always commits to
// the same bytes (§5.5 playbooks).
func TestParsePlaybook(t *testing.T) {
	cases := []struct {
		in   string
		want Playbook
		json string
	}{
		{`{}`, DefaultPlaybook(), `{"dials":{"boldness":5,"chatter":5,"trust":5},"text":""}`},
		{`{"text":"keep promises","dials":{"trust":9}}`, Playbook{Text: "keep promises", Dials: Dials{Boldness: 5, Trust: 9, Chatter: 5}},
			`{"dials":{"boldness":5,"chatter":5,"trust":9},"text":"keep promises"}`},
		{`{"dials":{"boldness":0,"trust":10,"chatter":0}}`, Playbook{Dials: Dials{Boldness: 0, Trust: 10, Chatter: 0}},
			`{"dials":{"boldness":0,"chatter":0,"trust":10},"text":""}`},
		{`{"text":"` + strings.Repeat("é", MaxPlaybookText) + `"}`, Playbook{Text: strings.Repeat("é", MaxPlaybookText), Dials: DefaultPlaybook().Dials}, ""},
	}
	for _, c := range cases {
		got, err := ParsePlaybook([]byte(c.in))
		if err != nil || got != c.want {
			t.Fatalf("ParsePlaybook(%.60s) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
		if c.json != "" && string(got.JSON()) != c.json {
			t.Fatalf("JSON %s, want %s", got.JSON(), c.json)
		}
	}
}

// TestParsePlaybookRefuses: every malformed playbook is bad_request, never a playbook.
func TestParsePlaybookRefuses(t *testing.T) {
	for _, in := range []string{``, `null`, `[]`, `"text"`, `{"text":1}`, `{"text":null}`, `{"Text":"x"}`, `{"text":"a","text":"b"}`,
		`{"extra":1}`, `{"dials":{"boldness":-1}}`, `{"dials":{"trust":11}}`, `{"dials":{"chatter":1.5}}`, `{"dials":{"nerve":3}}`,
		`{"dials":[]}`, `{"dials":null}`, `{"dials":{"trust":null}}`, `{"text":"` + strings.Repeat("a", MaxPlaybookText+1) + `"}`, `{"text":"\ud800"}`, `{} {}`} {
		_, err := ParsePlaybook([]byte(in))
		if ge, ok := err.(*games.Error); !ok || ge.Code != games.CodeBadRequest {
			t.Errorf("ParsePlaybook(%.60s): %v, want bad_request", in, err)
		}
	}
}

// FuzzParsePlaybook: no bytes panic the reader, and a playbook it takes round-trips through its
// canonical JSON unchanged.
func FuzzParsePlaybook(f *testing.F) {
	f.Add([]byte(`{"text":"x","dials":{"boldness":1,"trust":2,"chatter":3}}`))
	f.Add([]byte(`{"dials":null}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := ParsePlaybook(b)
		if err != nil {
			return
		}
		q, err := ParsePlaybook(p.JSON())
		if err != nil || q != p {
			t.Fatalf("round trip of %q: %+v, %v; want %+v", b, q, err, p)
		}
	})
}
