package claims

import (
	"encoding/json"
	"testing"

	"arena/games"
)

// TestWorkedExample plays warden-games §3.9 on the §3.2 seed and checks every round's pot, pay,
// spill and balances and the final result against testdata/worked_example.md (worked by hand).
func TestWorkedExample(t *testing.T) {
	m, err := Engine{}.New(setup(1_000_000), nil)
	if err != nil {
		t.Fatal(err)
	}
	m.Advance(t0)
	rounds := []struct {
		claims [2]string // "" = timeout
		offers [2]string
	}{
		{[2]string{`6900`, `4600`}, [2]string{`6900,"escalate":0`, `3100,"escalate":2`}},
		{[2]string{`5500`, `7200`}, [2]string{`2800,"escalate":1`, `7200,"escalate":1`}},
		{[2]string{`6500`, `6100`}, [2]string{`5500,"escalate":4`, `6100,"escalate":0`}},
		{[2]string{`4300`, ``}, [2]string{`4300,"escalate":0`, ``}},
		{[2]string{`4000`, `6300`}, [2]string{`3700,"escalate":2`, `6300,"escalate":2`}},
	}
	want := []struct {
		pot, payA, payB, spill, balA, balB int64
		overshoot                          bool
		devA, devB                         int64
	}{
		{300_000, 207_000, 93_000, 0, 1_057_000, 943_000, false, 0, 1500},
		{300_000, 84_000, 216_000, 0, 991_000, 1_009_000, false, 2700, 0},
		{400_000, 0, 244_000, 156_000, 791_000, 1_053_000, true, 1000, 0},
		{200_000, 86_000, 0, 114_000, 777_000, 953_000, false, 0, 10001},
		{400_000, 148_000, 252_000, 0, 725_000, 1_005_000, false, 300, 0},
	}
	var revealed []games.Event
	run := func(st games.Step) {
		for _, e := range st.Events {
			if e.Type == "round_revealed" {
				revealed = append(revealed, e)
			}
		}
	}
	for n, r := range rounds {
		now, _ := m.Deadline()
		now = now.Add(-m.(*match).st.Lengths[phaseMessage] + 1)
		run(act(t, m, now, 1, `{"action":"pass"}`))
		run(act(t, m, now, 2, `{"action":"pass"}`))
		for _, step := range []struct {
			bodies [2]string
			pre    string
		}{{r.claims, `{"action":"claim","claim_bps":`}, {r.offers, `{"action":"offer","ask_bps":`}} {
			before := m.(*match).st.Phase
			for i, b := range step.bodies {
				if b != "" {
					run(act(t, m, now, i+1, step.pre+b+`}`))
				}
			}
			if d, _ := m.Deadline(); m.(*match).st.Phase == before {
				run(m.Advance(d)) // the timeouts of round 4
				now = d
			}
		}
		if len(revealed) != n+1 {
			t.Fatalf("round %d: %d reveals", n+1, len(revealed))
		}
		d, _ := m.Deadline()
		run(m.Advance(d))
	}
	for n, e := range revealed {
		var p struct {
			Pot, Spill int64
			Overshoot  bool
			Pay        struct{ A, B int64 }
			Balances   struct{ A, B int64 }
			Deviations struct{ A, B int64 }
		}
		if err := json.Unmarshal(e.Payload, &p); err != nil {
			t.Fatal(err)
		}
		w := want[n]
		if p.Pot != w.pot || p.Pay.A != w.payA || p.Pay.B != w.payB || p.Spill != w.spill ||
			p.Balances.A != w.balA || p.Balances.B != w.balB || p.Overshoot != w.overshoot ||
			p.Deviations.A != w.devA || p.Deviations.B != w.devB {
			t.Errorf("round %d: %s", n+1, e.Payload)
		}
	}
	res, ok := m.Result()
	if !ok {
		t.Fatal("not done")
	}
	if res.Payouts[1] != 725_000 || res.Payouts[2] != 1_005_000 || res.House != 270_000 {
		t.Fatalf("result %v house %d", res.Payouts, res.House)
	}
	if res.Standings[0].Seat != 2 {
		t.Fatalf("standings %+v", res.Standings)
	}
	var rv struct {
		Stats struct{ A, B map[string]int64 }
	}
	json.Unmarshal(res.Reveal, &rv)
	if rv.Stats.A["bluffs"] != 1 || rv.Stats.A["zeroed"] != 1 || rv.Stats.A["truthful"] != 3 || rv.Stats.A["understated"] != 1 ||
		rv.Stats.B["timeouts"] != 2 || rv.Stats.B["claims_made"] != 4 || rv.Stats.A["escalation_steps"] != 7 {
		t.Fatalf("stats %s", res.Reveal)
	}
}

// TestResolutionTable is warden-games §3.10 (pot 200 000, no escalation), worked by hand in
// testdata/worked_example.md.
func TestResolutionTable(t *testing.T) {
	type side struct {
		claim   int64
		claimed bool
		ask     int64
	}
	for _, c := range []struct {
		name       string
		a, b       side
		payA, payB int64
		spill      int64
	}{
		{"exact split", side{5000, true, 5000}, side{5000, true, 5000}, 100_000, 100_000, 0},
		{"under-ask", side{6000, true, 3000}, side{6000, true, 3000}, 60_000, 60_000, 80_000},
		{"overshoot, A deviated more", side{7000, true, 5000}, side{6000, true, 6000}, 0, 120_000, 80_000},
		{"overshoot, tie", side{7000, true, 7000}, side{7000, true, 7000}, 0, 0, 200_000},
		{"overshoot, both claims missing", side{0, false, 6000}, side{0, false, 6000}, 0, 0, 200_000},
		{"overshoot, one claim missing", side{8000, true, 8000}, side{0, false, 3000}, 160_000, 0, 40_000},
	} {
		pot := Pot(1_000_000, 0, 0)
		r := Resolve(pot, [2]int64{c.a.ask, c.b.ask},
			[2]int64{Deviation(c.a.ask, c.a.claim, c.a.claimed), Deviation(c.b.ask, c.b.claim, c.b.claimed)})
		if pot != 200_000 || r.Pay[0] != c.payA || r.Pay[1] != c.payB || r.Spill != c.spill {
			t.Errorf("%s: %+v", c.name, r)
		}
	}
	if _, err := ParseAnswer(phaseOffer, []byte(`{"action":"offer","ask_bps":4100,"escalate":0}`), 4000); code(err) != CodeAskAboveValuation {
		t.Errorf("ask above valuation: %v", err)
	}
}
