package blitz

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"arena/games"
)

// playHouse plays every open prompt with the house policy, then advances, until the match is
// revealed or stop says so. It returns the inputs it made.
func playHouse(h *harness, seed uint64, stop func() bool) {
	h.t.Helper()
	e := NewEngine(DefaultFees())
	for i := 0; i < 500; i++ {
		if _, ok := h.m.Deadline(); !ok || (stop != nil && stop()) {
			return
		}
		for _, p := range h.m.Prompts() {
			body := e.HouseAnswer(p, seed)
			if _, err := h.act(p.Seat, "answer", string(body)); err != nil {
				h.t.Fatalf("house answer %s refused: %v", body, err)
			}
		}
		h.next()
	}
}

// No sealed value reaches a seat that is not entitled to it, nor any public event, before the
// round settles: private text, sealed amounts and locks, conditions, the mole, its task kind
// and named seats.
func TestNoSealedValueLeaks(t *testing.T) {
	s := testSetup("blitz", 6, `{"mole":6,"task":{"kind":"scapegoat","named":[1]}}`)
	h := newHarness(t, s)
	var prompts []games.Prompt
	collect := func(st games.Step) { prompts = append(prompts, st.Prompts...) }
	for h.m.Phase().Phase != "revealed" {
		mv := h.m.Phase()
		switch {
		case mv.Turn == 1 && mv.Phase == "talk" && mv.Exchange == 1:
			h.talk(1, priv(2, "SECRET-PRIV-TEXT"), `{"type":"public","text":"hello all"}`)
			if _, err := h.act(3, "accuse", `{"seat":6}`); err != nil {
				t.Fatal(err)
			}
		case mv.Turn == 1 && mv.Phase == "commit":
			h.mustNoDrop(1, commitBody(`{"payee":2,"amount":7777777,"condition":{"backs":[3,4,3333333]},"due":5}`))
		}
		collect(h.next())
	}
	secretFor := map[string]func(seat int) bool{ // which seats may see it
		"SECRET-PRIV-TEXT": func(s int) bool { return s == 2 },
		"7777777":          func(s int) bool { return s == 1 || s == 2 },
		"3888889":          func(s int) bool { return s == 1 || s == 2 }, // its lock
		"3333333":          func(s int) bool { return s == 1 || s == 2 }, // the condition's min
		"scapegoat":        func(s int) bool { return s == 6 },
		`"named"`:          func(s int) bool { return s == 6 },
		`"role":"mole"`:    func(s int) bool { return s == 6 },
	}
	res := map[string]*regexp.Regexp{}
	for secret := range secretFor {
		res[secret] = regexp.MustCompile(`(^|[^0-9])` + regexp.QuoteMeta(secret) + `($|[^0-9])`)
	}
	token := func(secret string) *regexp.Regexp { return res[secret] }
	checked := 0
	seen := map[string]bool{} // positive control: entitled seats do receive each secret
	for _, p := range prompts {
		blob := p.State.AppendTo(nil)
		for _, it := range p.Inbox {
			blob = append(blob, it...)
		}
		for secret, ok := range secretFor {
			has := bytes.Contains(blob, []byte(secret)) && token(secret).Match(blob)
			if !ok(p.Seat) && has {
				t.Fatalf("seat %d's prompt %+v carries %s", p.Seat, p.Move, secret)
			}
			seen[secret] = seen[secret] || has
		}
		checked++
	}
	for secret := range secretFor {
		if !seen[secret] {
			t.Fatalf("no entitled seat ever saw %s: the scan proves nothing", secret)
		}
	}
	if checked < 6*20 {
		t.Fatalf("only %d prompts checked", checked)
	}
	// public events and every seat's view before round settlement
	var pre []games.Event
	for _, e := range mustEvents(h.m.Events()) {
		if e.Phase == "settled" || e.Type == "round.revealed" {
			break
		}
		pre = append(pre, e)
	}
	for _, e := range pre {
		if e.Visibility != "public" {
			continue
		}
		for secret := range secretFor {
			if token(secret).Match(e.Payload) {
				t.Fatalf("public event %s carries %s: %s", e.Type, secret, e.Payload)
			}
		}
		if e.Type == "mole.rung" && strings.Contains(string(e.Payload), `"seat"`) {
			t.Fatalf("bell names a seat")
		}
	}
	for seat := 0; seat <= 6; seat++ {
		for _, e := range View(pre, seat) {
			if e.Visibility == "sealed" || (e.Visibility != "public" && string(e.Visibility) != visPrivate(seat)) {
				t.Fatalf("seat %d's view holds %s %s", seat, e.Visibility, e.Type)
			}
		}
	}
	// after the reveal the view is the whole transcript, private messages included
	if v := View(mustEvents(h.m.Events()), 4); len(v) != len(mustEvents(h.m.Events())) {
		t.Fatalf("revealed view %d of %d", len(v), len(mustEvents(h.m.Events())))
	}
	var rev Reveal
	r, _ := h.m.Result()
	_ = json.Unmarshal(r.Reveal, &rev)
	if rev.Mole != 6 || rev.Task.Kind != "scapegoat" || len(rev.Task.Named) != 1 || rev.Task.Named[0] != 1 {
		t.Fatalf("reveal %+v", rev)
	}
}
