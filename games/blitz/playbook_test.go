package blitz

import (
	"encoding/json"
	"reflect"
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
	f.Add([]byte(`{"text":"a\nb\tc \u202e\u0000"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := ParsePlaybook(b)
		if err != nil {
			return
		}
		if r, bad := games.HiddenRune(p.Text, "\n\t"); bad {
			t.Fatalf("ParsePlaybook(%q) took text with %U", b, r)
		}
		q, err := ParsePlaybook(p.JSON())
		if err != nil || q != p {
			t.Fatalf("round trip of %q: %+v, %v; want %+v", b, q, err, p)
		}
	})
}

// TestPlaybookEditableUntilScoutingEnds: an off-the-shelf seat's playbook may change while
// scouting is open (§5.2): the change is taken strictly, answered with its canonical bytes,
// recorded privately (playbook.set), carried in the seat's own state from its next envelope
// (state.me.playbook, only for that seat), and is what the open-round anchor commits at
// scouting's close (§5.5) and the reveal publishes; once scouting is over it is refused
// playbook_locked. A seat that is not off-the-shelf has no playbook, and the input log replays
// to the same transcript.
func TestPlaybookEditableUntilScoutingEnds(t *testing.T) {
	first := DefaultPlaybook().JSON()
	s := testSetup("short", 3, `{"playbooks":{"1":`+string(first)+`}}`)
	seatOpts(&s.Seats[0], func(o *SeatOptions) { o.Kind = "ots" })
	h := newHarness(t, s)
	meOf := func(p games.Prompt) map[string]json.RawMessage {
		var st struct {
			Me map[string]json.RawMessage `json:"me"`
		}
		if err := json.Unmarshal(p.State.Bytes(), &st); err != nil {
			t.Fatal(err)
		}
		return st.Me
	}
	for _, p := range h.next().Prompts {
		if me := meOf(p); (p.Seat == 1) != (me["playbook"] != nil) || (p.Seat == 1 && string(me["playbook"]) != string(first)) {
			t.Fatalf("scouting envelope of seat %d: playbook %s", p.Seat, me["playbook"])
		}
	}
	want := Playbook{Text: "Back seat 2 only <and> keep it.", Dials: Dials{Boldness: 2, Trust: 5, Chatter: 5}}.JSON()
	st, err := h.act(1, "playbook", `{"text":"Back seat 2 only <and> keep it.","dials":{"boldness":2}}`)
	if err != nil {
		t.Fatal(err)
	}
	var reply struct {
		Playbook json.RawMessage `json:"playbook"`
	}
	if json.Unmarshal(st.Reply, &reply) != nil || !jsonSame(reply.Playbook, want) {
		t.Fatalf("reply %s, want the playbook %s", st.Reply, want)
	}
	if ev := h.events("playbook.set"); len(ev) != 1 || ev[0].Visibility != "private:1" || !strings.Contains(string(ev[0].Payload), `"seat":1`) {
		t.Fatalf("playbook.set %+v", ev)
	}
	for _, c := range []struct {
		seat int
		body string
		code string
	}{{2, string(want), games.CodeBadRequest}, {1, `{"dials":{"trust":12}}`, games.CodeBadRequest}, {1, `{"text":"a","mood":"b"}`, games.CodeBadRequest}} {
		if _, err := h.act(c.seat, "playbook", c.body); !isCode(err, c.code, false) {
			t.Fatalf("seat %d playbook %s: %v, want %s", c.seat, c.body, err, c.code)
		}
	}
	st = h.next() // scouting closes: the anchor is taken now
	if len(st.Anchors) != 1 || st.Anchors[0].Kind != "opened" {
		t.Fatalf("anchors at scouting's close %+v", st.Anchors)
	}
	opened := st.Anchors[0].Hash
	for _, p := range st.Prompts {
		if me := meOf(p); p.Seat == 1 && !jsonSame(me["playbook"], want) {
			t.Fatalf("turn 1 envelope of seat 1: playbook %s, want %s", me["playbook"], want)
		}
	}
	if _, err := h.act(1, "playbook", `{}`); !isCode(err, CodePlaybookLocked, false) {
		t.Fatalf("after scouting: %v", err)
	}
	r := h.finish()
	var rev Reveal
	if err := json.Unmarshal(r.Reveal, &rev); err != nil {
		t.Fatal(err)
	}
	if _, hsh, err := OpenAnchor(rev); err != nil || hsh != opened || !jsonSame(rev.Playbooks["1"], want) {
		t.Fatalf("reveal playbook %s (want %s), open anchor %x vs asked %x (%v)", rev.Playbooks["1"], want, hsh, opened, err)
	}
	got, again := mustEvents(h.m.Events()), mustEvents(h.replayLog().Events())
	a, _ := json.Marshal(got)
	b, _ := json.Marshal(again)
	if string(a) != string(b) {
		t.Fatal("the input log does not replay to the same transcript")
	}
}

// jsonSame reports whether two JSON texts are the same value.
func jsonSame(a, b []byte) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}
