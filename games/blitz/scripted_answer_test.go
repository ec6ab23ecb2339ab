package blitz

import (
	"encoding/json"
	"testing"

	"arena/games"
)

// An answer from the house policy (games.Input.House, set by the runtime for the seats it plays)
// of a seat with a fallback policy (§15: "an in-house or off-the-shelf seat answered from the
// fallback policy") is announced by one public agent.scripted {seat, turn, phase} per turn and
// phase, ahead of the answer's own events; a walk-in's flag is ignored, as is an answer that is
// not the house policy's. The events replay from the input log.
func TestHouseAnswerIsScripted(t *testing.T) {
	s := testSetup("blitz", 6, "")
	seatOpts(&s.Seats[2], func(o *SeatOptions) { o.Kind = "house" })
	seatOpts(&s.Seats[3], func(o *SeatOptions) { o.Kind, o.Walkin = "ots", false })
	seatOpts(&s.Seats[4], func(o *SeatOptions) { o.Kind = "house" })
	h := newHarness(t, s)
	e := NewEngine(DefaultFees())
	house := func(seat int, flag bool) {
		t.Helper()
		for _, p := range h.m.Prompts() {
			if p.Seat == seat {
				in := games.Input{Seat: seat, Kind: "answer", Move: p.Move, Body: e.HouseAnswer(p, 7), House: flag}
				st, err := h.m.Act(h.now, in)
				if err != nil {
					t.Fatalf("seat %d %+v: %v", seat, p.Move, err)
				}
				h.steps = append(h.steps, st)
				h.log = append(h.log, games.Logged{Op: games.OpAct, At: h.now, Input: in})
				if flag && (seat == 3 || seat == 4) && p.Move.Exchange <= 1 {
					if len(st.Events) == 0 || st.Events[0].Type != "agent.scripted" {
						t.Fatalf("seat %d %+v: the answer's first event is not agent.scripted: %+v", seat, p.Move, st.Events)
					}
				}
				return
			}
		}
		t.Fatalf("seat %d has no open prompt at %+v", seat, h.m.Phase())
	}
	h.to(1, "talk", 1)
	for x := 1; x <= 3; x++ {
		h.to(1, "talk", x)
		house(1, true)  // a walk-in: no fallback policy, the flag is ignored
		house(3, true)  // house
		house(4, true)  // ots
		house(5, false) // house, answering as any seat would: nothing to announce
	}
	h.to(1, "commit", 0)
	house(3, true)
	var got []string
	for _, ev := range h.events("agent.scripted") {
		if ev.Visibility != games.Public {
			t.Fatalf("agent.scripted is %s", ev.Visibility)
		}
		got = append(got, string(ev.Payload))
	}
	want := []string{`{"phase":"talk","seat":3,"turn":1}`, `{"phase":"talk","seat":4,"turn":1}`, `{"phase":"commit","seat":3,"turn":1}`}
	if a, b := string(mustJSON(got)), string(mustJSON(want)); a != b {
		t.Fatalf("agent.scripted %s, want %s", a, b)
	}
	r := h.replayLog()
	a, _ := json.Marshal(mustEvents(h.m.Events()))
	b, _ := json.Marshal(mustEvents(r.Events()))
	if string(a) != string(b) {
		t.Fatal("the input log replays to other events")
	}
}
