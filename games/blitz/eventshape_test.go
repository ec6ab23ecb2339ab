package blitz

import (
	"encoding/json"
	"testing"
)

// §9 mole.rung { rung, turn, phase, exchange? }: a bell rung in a talk exchange carries its
// exchange; any other bell leaves the member out (never "exchange": null). §15: an event's
// phase is the phase it belongs to, so turn.started carries its own turn and phase "talk".
func TestBellAndTurnStartedShape(t *testing.T) {
	for _, task := range []string{`{"kind":"whisper","named":[]}`, `{"kind":"veto","named":[]}`} {
		s := testSetup("blitz", 6, `{"mole":3,"task":`+task+`}`)
		seatOpts(&s.Seats[0], func(o *SeatOptions) { o.Human = true })
		h := newHarness(t, s)
		h.to(1, "talk", 2)
		h.talk(1, `{"type":"private","to":3,"text":"psst","tone":"ask"}`)
		h.to(1, "commit", 0)
		h.mustNoDrop(1, commitBody(`{"ref":"v","payee":3,"amount":10000000,"condition":{"always":true},"due":2}`))
		if _, err := h.act(1, "veto", `{"ref":"v"}`); err != nil {
			t.Fatal(err)
		}
		h.finish()
		bells := h.events("mole.rung")
		if len(bells) == 0 {
			t.Fatalf("%s: no bell", task)
		}
		for _, e := range bells {
			var p map[string]json.RawMessage
			if err := json.Unmarshal(e.Payload, &p); err != nil {
				t.Fatal(err)
			}
			x, has := p["exchange"]
			var phase string
			_ = json.Unmarshal(p["phase"], &phase)
			switch {
			case phase == "talk" && (!has || string(x) == "null" || string(x) == "0"):
				t.Fatalf("%s: talk bell without its exchange: %s", task, e.Payload)
			case phase != "talk" && has:
				t.Fatalf("%s: %s bell carries exchange: %s", task, phase, e.Payload)
			case len(p) != 3+map[bool]int{true: 1}[has]:
				t.Fatalf("%s: bell members %s", task, e.Payload)
			}
		}
		first := bells[0]
		want := map[string]string{`{"kind":"whisper","named":[]}`: `{"exchange":2,"phase":"talk","rung":1,"turn":1}`,
			`{"kind":"veto","named":[]}`: `{"phase":"commit","rung":1,"turn":1}`}[task]
		if string(first.Payload) != want || first.Turn != 1 || first.Phase != "talk" && first.Phase != "commit" {
			t.Fatalf("%s: first bell %s (phase %s), want %s", task, first.Payload, first.Phase, want)
		}
		ts := h.events("turn.started")
		if len(ts) != 5 {
			t.Fatalf("turn.started %d, want 5", len(ts))
		}
		for i, e := range ts {
			if e.Turn != i+1 || e.Phase != "talk" || string(e.Payload) != `{"of":5,"turn":`+itoa(i+1)+`}` {
				t.Fatalf("turn.started %d: turn %d phase %q payload %s; want turn %d phase talk", i+1, e.Turn, e.Phase, e.Payload, i+1)
			}
		}
	}
}
