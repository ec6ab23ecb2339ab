package blitz

import (
	"encoding/json"
	"strings"
	"testing"
)

// The house policy plays whole rounds without a refusal or a dropped part, varies its play,
// and is deterministic from its seed.
func TestHousePolicy(t *testing.T) {
	e := NewEngine(DefaultFees())
	totals := map[string]int{}
	for _, seed := range []uint64{1, 2, 3} {
		s := testSetup("blitz", 6, "")
		s.Seed[0] = byte(seed)
		h := newHarness(t, s)
		for i := 0; i < 500; i++ {
			if _, ok := h.m.Deadline(); !ok {
				break
			}
			for _, p := range h.m.Prompts() {
				body := e.HouseAnswer(p, seed)
				if string(body) != string(e.HouseAnswer(p, seed)) {
					t.Fatal("house answer not deterministic")
				}
				h.mustNoDrop(p.Seat, string(body))
				if strings.Contains(string(body), `"accusation"`) {
					totals["accusations"]++
				}
			}
			h.next()
		}
		totals["sealed"] += len(h.m.Commitments())
		totals["public"] += len(h.events("message.public"))
		totals["private"] += len(h.events("message.private"))
		for _, r := range h.m.Commitments() {
			totals[r.Outcome]++
			if !strings.Contains(string(r.Condition), "always") || strings.Contains(string(r.Condition), "or") {
				totals["conditional"]++
			}
		}
		totals["rejected"] += len(h.m.Rejections())
	}
	for _, k := range []string{"sealed", "public", "private", "accusations", "honoured", "void", "conditional"} {
		if totals[k] == 0 {
			t.Fatalf("house play never produced %s: %v", k, totals)
		}
	}
	t.Logf("three house rounds: %v", totals)
}

func TestBrief(t *testing.T) {
	e := NewEngine(DefaultFees())
	h := newHarness(t, testSetup("blitz", 6, `{"mole":6,"task":{"kind":"breach","named":[2]}}`))
	h.to(1, "talk", 1)
	h.talk(2, `{"type":"public","text":"I offer 5 CCD"}`)
	h.next()
	for _, p := range h.m.Prompts() {
		brief, ans := e.Brief(p)
		if !strings.Contains(brief, "You are seat "+itoa(p.Seat)) || !strings.Contains(brief, "talk exchange 2 of 3") {
			t.Fatalf("brief %q", brief)
		}
		if (p.Seat == 6) != strings.Contains(brief, "the mole. Your task is breach") {
			t.Fatalf("seat %d brief %q", p.Seat, brief)
		}
		if p.Seat != 2 && !strings.Contains(brief, "Seat 2 said: I offer 5 CCD") {
			t.Fatalf("brief misses the inbox: %q", brief)
		}
		var a struct {
			Turn, Exchange int
			Phase          string
			Messages       []json.RawMessage
		}
		if err := json.Unmarshal(ans, &a); err != nil || a.Turn != 1 || a.Exchange != 2 || a.Phase != "talk" || len(a.Messages) != 1 {
			t.Fatalf("answer %s", ans)
		}
	}
}

// BenchmarkHouseRound: a 6-seat Blitz round played by the house policy, every envelope built.
func BenchmarkHouseRound(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		h := newHarness(b, testSetup("blitz", 6, `{"mole":6,"task":{"kind":"broker","named":[]}}`))
		playHouse(h, 7, nil)
	}
}
