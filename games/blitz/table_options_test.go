package blitz

import (
	"encoding/json"
	"strings"
	"testing"

	"arena/games"
)

// A table may narrow §14's collateral band of 40–80% of entry (Options.Collateral): a seat's
// collateral outside the table's band is refused at New, naming the band; a band that widens
// §14's, or is upside down, is refused; round.created names a narrowed band (and says nothing of
// the default one, which §14 states).
func TestTableNarrowsTheCollateralBand(t *testing.T) {
	e := NewEngine(DefaultFees())
	setup := func(opts string, pct int64) games.Setup {
		s := testSetup("blitz", 6, opts)
		for i := range s.Seats {
			seatOpts(&s.Seats[i], func(o *SeatOptions) { o.Collateral = s.Seats[i].Entry * pct / 100 })
		}
		return s
	}
	narrow := `{"collateral":{"min":50,"max":70}}`
	for _, c := range []struct {
		opts string
		pct  int64
		want string // "" accepted, else a word of the refusal
	}{
		{narrow, 60, ""},
		{narrow, 50, ""},
		{narrow, 70, ""},
		{narrow, 45, "50–70%"},
		{narrow, 75, "50–70%"},
		{`{}`, 40, ""},
		{`{}`, 80, ""},
		{`{}`, 81, "40–80%"},
		{`{"collateral":{"min":30,"max":70}}`, 60, "options.collateral"},
		{`{"collateral":{"min":50,"max":90}}`, 60, "options.collateral"},
		{`{"collateral":{"min":70,"max":50}}`, 60, "options.collateral"},
		{`{"collateral":{"min":50}}`, 60, "options.collateral"},
		{`{"collateral":{"min":50,"max":70,"step":5}}`, 60, "options"},
	} {
		_, err := e.New(setup(c.opts, c.pct), newTestKeys(6))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s at %d%%: refused: %v", c.opts, c.pct, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s at %d%%: %v, want a refusal naming %q", c.opts, c.pct, err, c.want)
		}
	}
	created := func(opts string) map[string]json.RawMessage {
		h := newHarness(t, setup(opts, 60))
		for _, ev := range h.next().Events {
			if ev.Type == "round.created" {
				var p map[string]json.RawMessage
				if err := json.Unmarshal(ev.Payload, &p); err != nil {
					t.Fatal(err)
				}
				return p
			}
		}
		t.Fatal("no round.created")
		return nil
	}
	if got := string(created(narrow)["collateral"]); got != `{"max":70,"min":50}` {
		t.Errorf("round.created collateral %s, want the table's band", got)
	}
	if got, ok := created(`{}`)["collateral"]; ok {
		t.Errorf("round.created names the default band: %s", got)
	}
}

// A table's fees (Options.Fees, microCCD, §14 "arena config") override the engine's for that
// table: the action fee at every seal, the table and inference fees at round settlement. They
// ride in the Setup, so the table's input log replays to the same events on an engine of other
// fees (a restart after the configuration changed). Negative fees are refused.
func TestTableFeesOverrideTheEngines(t *testing.T) {
	opts := `{"fees":{"action":2000000,"table":7000000,"inference":11000000}}`
	s := testSetup("short", 3, opts)
	seatOpts(&s.Seats[0], func(o *SeatOptions) { o.Human = true })
	seatOpts(&s.Seats[1], func(o *SeatOptions) { o.Kind, o.Walkin, o.Human = "ots", false, true })
	h := newHarness(t, s)
	h.to(1, "commit", 0)
	h.mustNoDrop(1, `{"commitments":[{"payee":2,"amount":4000000,"condition":{"always":true},"due":1}]}`)
	res := h.finish()
	var settled struct {
		Fees  map[string]int64 `json:"fees"`
		House int64            `json:"house"`
	}
	for _, ev := range h.events("round.settled") {
		if err := json.Unmarshal(ev.Payload, &settled); err != nil {
			t.Fatal(err)
		}
	}
	if settled.Fees["1"] != 7_000_000 || settled.Fees["2"] != 18_000_000 || settled.House != 2_000_000+25_000_000 || res.House != settled.House {
		t.Fatalf("round.settled fees %v house %d (result %d), want table 7 CCD, table+inference 18 CCD, house 27 CCD",
			settled.Fees, settled.House, res.House)
	}
	head, _ := json.Marshal(games.LogHead{V: 1, Setup: h.setup})
	entries := make([][]byte, len(h.log))
	for i, l := range h.log {
		entries[i], _ = json.Marshal(l)
	}
	r, err := games.ReplayLog(NewEngine(Fees{Action: 9 * ccd, Table: 1, Inference: 1}), head, entries, h.keys)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(mustEvents(h.m.Events()))
	b, _ := json.Marshal(mustEvents(r.(*Match).Events()))
	if string(a) != string(b) {
		t.Fatal("the table's input log replays to other events on an engine of other fees")
	}
	for _, bad := range []string{`{"fees":{"action":-1,"table":0,"inference":0}}`, `{"fees":{"action":0,"table":-5,"inference":0}}`, `{"fees":{"action":0,"table":0,"inference":9007199254740992}}`} {
		if _, err := NewEngine(DefaultFees()).New(testSetup("short", 3, bad), newTestKeys(3)); err == nil || !strings.Contains(err.Error(), "fees") {
			t.Errorf("%s: %v, want a refusal naming the fees", bad, err)
		}
	}
}
