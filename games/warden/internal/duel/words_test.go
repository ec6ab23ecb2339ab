package duel

import (
	"encoding/json"
	"reflect"
	"testing"

	"arena/games"
)

func event(typ, payload string) games.Event {
	return games.Event{Type: typ, Visibility: games.Public, Payload: json.RawMessage(payload)}
}

// TestWho: a seat by letter, with its name when it has one; neither seat is "seat ?".
func TestWho(t *testing.T) {
	names := map[int]string{1: "Ada"}
	for _, tt := range []struct {
		seat       int
		who, start string
	}{{1, "seat A (Ada)", "Seat A (Ada)"}, {2, "seat B", "Seat B"}, {0, "seat ?", "Seat ?"}, {3, "seat ?", "Seat ?"}} {
		if got := Who(names, tt.seat); got != tt.who {
			t.Errorf("Who(%d) = %q, want %q", tt.seat, got, tt.who)
		}
		if got := WhoStart(names, tt.seat); got != tt.start {
			t.Errorf("WhoStart(%d) = %q, want %q", tt.seat, got, tt.start)
		}
	}
	if SeatOf("A") != 1 || SeatOf("B") != 2 || SeatOf("C") != 0 || SeatOf("a") != 0 || SeatName(0) != "A" || SeatName(1) != "B" {
		t.Fatal("seat letters")
	}
}

// TestPercent: basis points in their shortest percent form.
func TestPercent(t *testing.T) {
	for bps, want := range map[int64]string{0: "0%", 4500: "45%", 1234: "12.34%", 10000: "100%", 5: "0.05%", 6950: "69.5%"} {
		if got := Percent(bps); got != want {
			t.Errorf("Percent(%d) = %q, want %q", bps, got, want)
		}
	}
}

// TestNames: names from match_started's seats only; a seat without a name, an unknown seat
// letter and an undecodable match_started give nothing.
func TestNames(t *testing.T) {
	evs := []games.Event{
		event("match_started", `{"seats":{"A":{"name":"Ada"},"B":{"name":""},"C":{"name":"Cy"}}}`),
		event("step_opened", `{"seats":{"B":{"name":"Bo"}}}`),
		event("match_started", `{"seats":`),
	}
	if got := Names(evs); !reflect.DeepEqual(got, map[int]string{1: "Ada"}) {
		t.Fatalf("names %v", got)
	}
}

// TestNarrateEnd: the end of a match in words; any other event is not an end.
func TestNarrateEnd(t *testing.T) {
	names := map[int]string{2: "Bo"}
	tests := []struct {
		e    games.Event
		want string
		ok   bool
	}{
		{event("match_finished", `{"seats":{"A":{"result":"loss"},"B":{"result":"win"}}}`), "The match is over: seat B (Bo) wins.", true},
		{event("match_finished", `{"seats":{"A":{"result":"win"},"B":{"result":"loss"}}}`), "The match is over: seat A wins.", true},
		{event("match_finished", `{"seats":{"A":{"result":"draw"},"B":{"result":"draw"}}}`), "The match is over: a draw.", true},
		{event("match_finished", `not json`), "The match is over.", true},
		{event("match_abandoned", `{"reason":"stake_window_expired"}`), "The match was abandoned (stake_window_expired): every stake is returned.", true},
		{event("round_revealed", `{"reason":"x"}`), "", false},
	}
	for _, tt := range tests {
		if got, ok := NarrateEnd(tt.e, names); got != tt.want || ok != tt.ok {
			t.Errorf("%s %s: %q %v, want %q %v", tt.e.Type, tt.e.Payload, got, ok, tt.want, tt.ok)
		}
	}
	if Final(event("match_finished", `{}`)) != games.EndRevealed || Final(event("match_abandoned", `{}`)) != games.EndAbandoned || Final(event("round_revealed", `{}`)) != "" {
		t.Fatal("Final")
	}
}

// TestAbandonedPanel: the card says why; an undecodable payload gives no card.
func TestAbandonedPanel(t *testing.T) {
	p, ok := AbandonedPanel(event("match_abandoned", `{"reason":"fault"}`))
	want := games.Panel{Lead: []games.Run{{Text: "The match was "}, {Text: "abandoned", Strong: true}, {Text: " (fault): every stake was returned."}}}
	if !ok || !reflect.DeepEqual(p, want) {
		t.Fatalf("panel %+v %v", p, ok)
	}
	if _, ok := AbandonedPanel(event("match_abandoned", `{"reason":7}`)); ok {
		t.Fatal("a card from a reason that is not a string")
	}
}

// TestReturnsInWords: the money of a Result in words, the abandon's second line, nothing without
// payouts.
func TestReturnsInWords(t *testing.T) {
	r := games.Result{Unit: Unit, Payouts: map[int]int64{1: 1_300_000, 2: 300_000}, House: 400_000}
	if got, want := Returns(r), "Returns (gross, micro-units): seat A 1300000; seat B 300000; the house 400000."; got != want {
		t.Errorf("played: %q, want %q", got, want)
	}
	r = games.Result{Unit: Unit, Payouts: map[int]int64{1: 5, 2: 5}, Abandoned: "fault"}
	if got, want := Returns(r), "Returns (gross, micro-units): seat A 5; seat B 5; the house 0.\nThe match was abandoned (fault): every stake was returned."; got != want {
		t.Errorf("abandoned: %q, want %q", got, want)
	}
	if got := Returns(games.Result{}); got != "" {
		t.Errorf("no payouts: %q", got)
	}
}

// FuzzWords: no payload panics the words, and every end of a match has a line.
func FuzzWords(f *testing.F) {
	f.Add("match_finished", `{"seats":{"A":{"result":"win"}}}`)
	f.Add("match_abandoned", `{"reason":"x"}`)
	f.Add("match_started", `{"seats":{"A":{"name":"Ada"}}}`)
	f.Fuzz(func(t *testing.T, typ, payload string) {
		e := event(typ, payload)
		names := Names([]games.Event{e})
		line, ok := NarrateEnd(e, names)
		if ok != (typ == "match_finished" || typ == "match_abandoned") || ok && line == "" {
			t.Fatalf("%s: %q %v", typ, line, ok)
		}
		AbandonedPanel(e)
	})
}
