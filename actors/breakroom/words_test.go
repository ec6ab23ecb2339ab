package breakroom

import (
	"strings"
	"testing"
	"unicode/utf8"

	"arena/games/breakroom/wire"
)

// TestPostStatesNoRankWithoutSpoilers: the nostr_post names the rank only for a key that joined
// with spoilers; both link the replay and carry the protocol's tags.
func TestPostStatesNoRankWithoutSpoilers(t *testing.T) {
	r := &Room{opts: Options{PublicURL: "https://b.test"}}
	m := &match{seating: seating{Game: "dilemma", Seats: make([]seatRec, 4)}, id: "T-9"}
	me := wire.MatchEnd{MatchID: "T-9", YourRank: 1, ReplayURL: "https://b.test/r/T-9"}
	g := Game{ID: "dilemma", Name: "Dilemma"}
	plain := r.post(g, m, &session{key: "ab"}, me, ending{rounds: 3})
	spoil := r.post(g, m, &session{key: "ab", spoilers: true}, me, ending{rounds: 3})
	for _, p := range []wire.NostrPost{plain, spoil} {
		if p.Kind != 1 || !strings.Contains(p.Content, "Replay: https://b.test/r/T-9") || !strings.Contains(p.Content, "a 3-round match of Dilemma") ||
			!strings.Contains(p.Content, "https://b.test/play?ref=ab") || len(p.Tags) != 5 || p.Tags[1][1] != "dilemma" || p.Tags[3][1] != me.ReplayURL {
			t.Errorf("post %+v", p)
		}
	}
	for _, w := range []string{"1st", "Finished", "rank"} {
		if strings.Contains(plain.Content, w) {
			t.Errorf("the post without spoilers says %q: %q", w, plain.Content)
		}
	}
	if !strings.Contains(plain.Content, "Who won?") || !strings.HasPrefix(spoil.Content, "Finished 1st of 4") {
		t.Errorf("posts %q / %q", plain.Content, spoil.Content)
	}
}

// TestBartenderAnswers: a question gets the rules paragraph sharing the most words with it, a
// question the rules do not cover the rules' address; an answer is cut to the message limit.
func TestBartenderAnswers(t *testing.T) {
	g := Game{ID: "dilemma", Name: "Dilemma", Rules: dilemmaRules}
	for q, want := range map[string]string{
		"How many points when both cooperate?":    "Both cooperate: 3 points each.",
		"What about missed deadlines?":            "Answer within deadline_ms",
		"Bartender, what is the meaning of life?": "not in the rules of Dilemma; they are at /rules/dilemma",
	} {
		if got := answerFrom(g, q); !strings.Contains(got, want) {
			t.Errorf("%q: %q, want it to hold %q", q, got, want)
		}
	}
	long := strings.Repeat("word ", 100)
	if c := clipText(long, 280); utf8.RuneCountInString(c) > 280 || !strings.HasSuffix(c, "…") {
		t.Errorf("clipped to %d: %q", utf8.RuneCountInString(c), c)
	}
	if c := clipText("short", 280); c != "short" {
		t.Errorf("%q", c)
	}
	var s staffSay
	if s.next() != staffGreeting || s.next() != "" {
		t.Error("the greeting first, once")
	}
	s.queue = []string{"a", "b"}
	if s.next() != "a" || s.next() != "b" || s.next() != "" {
		t.Error("answers in order")
	}
}
