package blitz

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"arena/games"
)

func c(payee int, amount int64, due int) string {
	return fmt.Sprintf(`{"payee":%d,"amount":%d,"condition":{"always":true},"due":%d}`, payee, amount, due)
}

func (h *harness) talk(seat int, msgs ...string) {
	h.t.Helper()
	b := `{"messages":[`
	for i, m := range msgs {
		if i > 0 {
			b += ","
		}
		b += m
	}
	h.mustNoDrop(seat, b+`]}`)
}

func priv(to int, text string) string {
	return fmt.Sprintf(`{"type":"private","to":%d,"text":%q}`, to, text)
}

// Each of the nine tasks (§9), mole at seat 6, each rung at its own moment.
func TestTasks(t *testing.T) {
	cases := []struct {
		name   string
		task   string
		human  bool
		play   func(h *harness)
		rungs  []int
		phases []string // the phase each bell rang in, by rung order
	}{
		{"whisper", `{"kind":"whisper","named":[]}`, false, func(h *harness) {
			h.to(1, "talk", 1)
			h.talk(1, priv(6, "psst"))
			h.talk(2, priv(6, "psst"), priv(6, "again")) // seat 2 counts once
			h.to(1, "talk", 2)
			h.talk(3, priv(6, "hi"))
		}, []int{1, 2, 3}, []string{"talk", "talk", "talk"}},
		{"bank", `{"kind":"bank","named":[]}`, false, func(h *harness) {
			h.to(1, "commit", 0)
			h.mustNoDrop(1, commitBody(c(6, 50*ccd, 5)))
			h.mustNoDrop(2, commitBody(c(3, 10*ccd, 5)))
		}, []int{1, 2, 3}, []string{"settle", "settle", "settled"}},
		{"bank, largest to another seat", `{"kind":"bank","named":[]}`, false, func(h *harness) {
			h.to(1, "commit", 0)
			h.mustNoDrop(1, commitBody(c(6, 50*ccd, 5)))
			h.mustNoDrop(2, commitBody(c(3, 50*ccd, 5))) // tie: the earlier seal (seat 1's) wins
			h.to(3, "commit", 0)
			h.mustNoDrop(4, commitBody(c(5, 60*ccd, 5)))
		}, []int{1}, []string{"settle"}},
		{"broker", `{"kind":"broker","named":[]}`, false, func(h *harness) {
			h.to(1, "commit", 0)
			h.mustNoDrop(6, commitBody(c(1, 2*ccd, 1), c(2, 2*ccd, 1)))
			h.mustNoDrop(3, commitBody(c(6, 2*ccd, 1)))
		}, []int{1, 2, 3}, []string{"commit", "commit", "commit"}},
		{"pair", `{"kind":"pair","named":[1,2]}`, false, func(h *harness) {
			h.to(1, "commit", 0)
			h.mustNoDrop(1, commitBody(c(2, 2*ccd, 1), c(2, 2*ccd, 2)))
			h.to(2, "commit", 0)
			h.mustNoDrop(2, commitBody(c(1, 2*ccd, 2)))
		}, []int{1, 2, 3}, []string{"commit", "commit", "commit"}},
		{"veto", `{"kind":"veto","named":[]}`, true, func(h *harness) {
			h.to(1, "talk", 1)
			if _, err := h.act(1, "call", `{"text":"Watch SEAT 6 closely"}`); err != nil {
				h.t.Fatal(err)
			}
			h.to(1, "talk", 2) // the call is delivered in the next envelope
			h.to(2, "commit", 0)
			h.mustNoDrop(1, commitBody(`{"ref":"x","payee":6,"amount":5000000,"condition":{"always":true},"due":2}`))
			if _, err := h.act(1, "veto", `{"ref":"x"}`); err != nil {
				h.t.Fatal(err)
			}
		}, []int{1, 2, 3}, []string{"talk", "commit", "settled"}},
		{"breach", `{"kind":"breach","named":[1]}`, false, func(h *harness) {
			h.to(1, "commit", 0)
			// seat 1: two commitments it cannot honour with a condition it cannot meet
			h.mustNoDrop(1, commitBody(c(2, 150*ccd, 1)))
			h.mustNoDrop(3, commitBody(c(4, 199*ccd, 1)))
		}, []int{1, 3}, []string{"settle", "settle"}},
		{"starve", `{"kind":"starve","named":[1]}`, false, func(h *harness) {
			h.to(1, "commit", 0)
			h.mustNoDrop(2, commitBody(c(3, 2*ccd, 1)))
		}, []int{1, 2, 3}, []string{"settle", "settle", "settled"}},
		{"starve broken at T4", `{"kind":"starve","named":[1]}`, false, func(h *harness) {
			h.to(3, "commit", 0)
			h.mustNoDrop(2, commitBody(c(1, 2*ccd, 3)))
		}, []int{1}, []string{"settle"}},
		{"scapegoat", `{"kind":"scapegoat","named":[1]}`, false, func(h *harness) {
			h.to(1, "talk", 1)
			for _, s := range []int{2, 3, 4} {
				if _, err := h.act(s, "accuse", `{"seat":1}`); err != nil {
					h.t.Fatal(err)
				}
			}
		}, []int{1, 2, 3}, []string{"settled", "settled", "settled"}},
		{"ghost", `{"kind":"ghost","named":[]}`, false, func(h *harness) {}, []int{1, 2, 3}, []string{"settled", "settled", "settled"}},
		{"ghost accused at T3, moved away at T5", `{"kind":"ghost","named":[]}`, false, func(h *harness) {
			h.to(3, "talk", 1)
			if _, err := h.act(2, "accuse", `{"seat":6}`); err != nil {
				h.t.Fatal(err)
			}
			h.to(5, "commit", 0)
			if _, err := h.act(2, "accuse", `{"seat":3}`); err != nil {
				h.t.Fatal(err)
			}
		}, []int{3}, []string{"settled"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := testSetup("blitz", 6, `{"mole":6,"task":`+tc.task+`}`)
			seatOpts(&s.Seats[0], func(o *SeatOptions) { o.Human = tc.human })
			h := newHarness(t, s)
			tc.play(h)
			before := len(h.m.Rungs())
			_ = before
			r := h.finish()
			if got := h.m.Rungs(); !reflect.DeepEqual(got, tc.rungs) {
				t.Fatalf("rungs %v, want %v (rejections %+v)", got, tc.rungs, h.m.Rejections())
			}
			bells := h.events("mole.rung")
			if len(bells) != len(tc.rungs) {
				t.Fatalf("%d bells for rungs %v", len(bells), tc.rungs)
			}
			for i, b := range bells {
				var p map[string]any
				_ = json.Unmarshal(b.Payload, &p)
				for k := range p {
					if k != "rung" && k != "turn" && k != "phase" && k != "exchange" {
						t.Fatalf("bell carries %q: %s", k, b.Payload)
					}
				}
				if b.Visibility != "public" || p["phase"] != tc.phases[i] {
					t.Fatalf("bell %d %s %s, want phase %s", i, b.Visibility, b.Payload, tc.phases[i])
				}
			}
			var rev Reveal
			_ = json.Unmarshal(r.Reveal, &rev)
			if !reflect.DeepEqual(rev.Rungs, tc.rungs) || rev.Mole != 6 {
				t.Fatalf("reveal rungs %v mole %d", rev.Rungs, rev.Mole)
			}
		})
	}
}

// On short, T1 stands for T2 and T3, T2 for T4 (§9).
func TestShortCheckpoints(t *testing.T) {
	if a, b, c := checkpoints(3); a != 1 || b != 1 || c != 2 {
		t.Fatalf("short checkpoints %d %d %d", a, b, c)
	}
	if a, b, c := checkpoints(5); a != 2 || b != 3 || c != 4 {
		t.Fatalf("blitz checkpoints %d %d %d", a, b, c)
	}
	s := testSetup("short", 3, `{"mole":3,"task":{"kind":"bank","named":[]}}`)
	h := newHarness(t, s)
	h.to(1, "commit", 0)
	h.mustNoDrop(1, commitBody(c(3, 20*ccd, 3)))
	h.to(1, "settle", 0)
	if r := h.m.Rungs(); !reflect.DeepEqual(r, []int{1}) {
		t.Fatalf("after T1 settle rungs %v, want [1]", r)
	}
	h.to(2, "settle", 0)
	if r := h.m.Rungs(); !reflect.DeepEqual(r, []int{1, 2}) {
		t.Fatalf("after T2 settle rungs %v, want [1 2]", r)
	}
	h.finish()
	if r := h.m.Rungs(); !reflect.DeepEqual(r, []int{1, 2, 3}) {
		t.Fatalf("rungs %v", r)
	}
	// short: 2 exchanges per turn, 3 turns
	if n := len(h.events("exchange.started")); n != 6 {
		t.Fatalf("exchanges %d, want 6", n)
	}
}

// PatternOf over the public log equals the state's pattern[], and offered_unsigned counts a
// line with an amount only once its turn's commit closed with no seal by its speaker as payer.
func TestPatternOf(t *testing.T) {
	h := newHarness(t, testSetup("blitz", 6, `{"mole":6,"task":{"kind":"broker","named":[]}}`))
	h.to(1, "talk", 1)
	h.talk(1, `{"type":"public","text":"I pay 10 CCD to anyone"}`, `{"type":"public","text":"or 3 chips"}`, priv(2, "psst"))
	h.talk(2, `{"type":"public","text":"seat 4 has 12.5ccd"}`, `{"type":"public","text":"no amount here, seat 5"}`)
	h.to(1, "commit", 0)
	h.mustNoDrop(2, commitBody(c(1, 2*ccd, 1)))
	h.to(2, "talk", 1)
	var st stateObject
	for _, p := range h.m.Prompts() {
		st, _ = decodeState(p.State)
		break
	}
	want := []Pattern{
		{Seat: 1, PrivateSent: 1, PartyTo: 1, OfferedUnsigned: 2},
		{Seat: 2, PrivateReceived: 1, PartyTo: 1},
		{Seat: 3}, {Seat: 4}, {Seat: 5}, {Seat: 6},
	}
	if !reflect.DeepEqual(st.Pattern, want) {
		t.Fatalf("state pattern %+v\nwant %+v", st.Pattern, want)
	}
	var pub []games.Event
	for _, e := range mustEvents(h.m.Events()) {
		if e.Visibility == "public" {
			pub = append(pub, e)
		}
	}
	if got := PatternOf(pub); !reflect.DeepEqual(got, want) {
		t.Fatalf("PatternOf %+v", got)
	}
	if got := PatternOf(mustEvents(h.m.Events())); !reflect.DeepEqual(got, want) {
		t.Fatalf("PatternOf over the full list (non-public ignored) %+v", got)
	}
}
