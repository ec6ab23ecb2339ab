package inference

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"arena/games"
)

// ledger follows a match's lines and checks §2.9's invariants after every one: the credits and
// the pot it computes from the lines alone, and what the hand has dealt, raised and revealed.
type ledger struct {
	t        testing.TB
	cfg      Config
	matchID  string
	n        int
	credits  []int64
	inPot    []int64
	start    []int64
	folded   []bool
	dealtIn  []bool
	pot      int64
	raises   int
	values   map[int]int    // this hand's dealt values by seat (deal_private)
	commits  map[int]string // this hand's commitments by seat
	lines    int
	mucked   map[[2]int]int // (round, seat) → value, every mucked card so far
	revealed map[[2]int]bool
}

func newLedger(t testing.TB, cfg Config, matchID string, n int) *ledger {
	l := &ledger{t: t, cfg: cfg, matchID: matchID, n: n, credits: make([]int64, n), inPot: make([]int64, n),
		start: make([]int64, n), folded: make([]bool, n), dealtIn: make([]bool, n),
		mucked: map[[2]int]int{}, revealed: map[[2]int]bool{}}
	for i := range l.credits {
		l.credits[i] = cfg.StartingCredits
	}
	return l
}

// capNow is the cap over the seats still in.
func (l *ledger) capNow() int64 {
	c := int64(-1)
	for i := range l.start {
		if l.dealtIn[i] && !l.folded[i] && (c < 0 || l.start[i] < c) {
			c = l.start[i]
		}
	}
	return c
}

// line applies one event and checks the invariants after it.
func (l *ledger) line(e games.Event) {
	t := l.t
	t.Helper()
	l.lines++
	var p struct {
		Round   int    `json:"round"`
		Seat    int    `json:"seat"`
		Value   int    `json:"value"`
		Amount  int64  `json:"amount"`
		Action  string `json:"action"`
		Auto    any    `json:"auto"`
		Seats   []int  `json:"seats"`
		Pot     int64  `json:"pot"`
		Commits []struct {
			Seat   int
			Commit string
		} `json:"commits"`
		Reveals []struct {
			Seat  int
			Value int
			Salt  string
		} `json:"reveals"`
		Mucked  []int `json:"mucked"`
		Winners []int `json:"winners"`
		Payouts []struct {
			Seat   int
			Amount int64
		} `json:"payouts"`
		Uncontested bool `json:"uncontested"`
	}
	if err := json.Unmarshal(e.Payload, &p); err != nil {
		t.Fatalf("%s: %v", e.Type, err)
	}
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("line %d (%s %s): %s", l.lines, e.Type, e.Payload, fmt.Sprintf(format, args...))
	}
	switch e.Type {
	case "round_start":
		if l.pot != 0 {
			fail("pot %d between hands", l.pot)
		}
		l.values, l.commits, l.raises = map[int]int{}, map[int]string{}, 0
		for i := range l.n {
			l.dealtIn[i], l.folded[i], l.inPot[i] = false, false, 0
		}
		for _, s := range p.Seats {
			l.dealtIn[s], l.start[s] = true, l.credits[s]
		}
	case "deal_private":
		if e.Visibility != games.Private(p.Seat+1).Never() {
			fail("visibility %s, want the seat's, never revealed", e.Visibility)
		}
		if p.Value < 1 || p.Value > l.cfg.DeckSize {
			fail("value %d outside 1..%d", p.Value, l.cfg.DeckSize)
		}
		for s, v := range l.values {
			if v == p.Value {
				fail("value %d dealt to seats %d and %d", v, s, p.Seat)
			}
		}
		l.values[p.Seat] = p.Value
	case "deal":
		for _, c := range p.Commits {
			l.commits[c.Seat] = c.Commit
		}
	case "ante":
		l.credits[p.Seat] -= p.Amount
		l.inPot[p.Seat] += p.Amount
		l.pot += p.Amount
	case "action":
		switch p.Action {
		case ActionCall:
			l.credits[p.Seat] -= p.Amount
			l.inPot[p.Seat] += p.Amount
			l.pot += p.Amount
		case ActionRaise:
			bet := int64(0)
			for _, x := range l.inPot {
				bet = max(bet, x)
			}
			pay := bet - l.inPot[p.Seat] + p.Amount
			l.credits[p.Seat] -= pay
			l.inPot[p.Seat] += pay
			l.pot += pay
			l.raises++
			if l.raises > l.cfg.MaxRaises {
				fail("%d raises in a hand, at most %d", l.raises, l.cfg.MaxRaises)
			}
		case ActionFold:
			l.folded[p.Seat] = true
		}
	case "timeout":
		if p.Auto == ActionFold {
			l.folded[p.Seat] = true
		}
	case "showdown":
		if p.Pot != l.pot {
			fail("pot %d, the lines put %d in", p.Pot, l.pot)
		}
		best, bestSeat := 0, -1
		maxActive := 0
		for s, v := range l.values {
			if !l.folded[s] {
				maxActive = max(maxActive, v)
			}
		}
		for _, r := range p.Reveals {
			if Commit(l.matchID, p.Round, r.Seat, r.Value, r.Salt) != l.commits[r.Seat] {
				fail("seat %d's reveal does not hash to its commitment", r.Seat)
			}
			if r.Value != l.values[r.Seat] {
				fail("seat %d revealed %d, was dealt %d", r.Seat, r.Value, l.values[r.Seat])
			}
			if r.Value > best {
				best, bestSeat = r.Value, r.Seat
			}
			l.revealed[[2]int{p.Round, r.Seat}] = true
		}
		for _, s := range p.Mucked {
			l.mucked[[2]int{p.Round, s}] = l.values[s]
			if l.values[s] > best {
				fail("seat %d mucked %d above the best shown %d", s, l.values[s], best)
			}
		}
		if len(p.Winners) != 1 || len(p.Payouts) != 1 || p.Payouts[0].Seat != p.Winners[0] || p.Payouts[0].Amount != p.Pot {
			fail("winners %v payouts %v", p.Winners, p.Payouts)
		}
		if !p.Uncontested && (p.Winners[0] != bestSeat || best != maxActive) {
			fail("winner %d, the best shown is seat %d's %d, the best still in %d", p.Winners[0], bestSeat, best, maxActive)
		}
		l.credits[p.Winners[0]] += p.Pot
		l.pot = 0
		for i := range l.inPot {
			l.inPot[i] = 0
		}
	case "match_abandoned":
		for i := range l.credits {
			l.credits[i] += l.inPot[i]
			l.inPot[i] = 0
		}
		l.pot = 0
	}
	sum := l.pot
	for _, c := range l.credits {
		sum += c
	}
	if want := int64(l.n) * l.cfg.StartingCredits; sum != want {
		fail("Σ credits + pot = %d, want %d", sum, want)
	}
	if c := l.capNow(); c >= 0 && e.Type != "showdown" {
		for i, x := range l.inPot {
			if l.dealtIn[i] && !l.folded[i] && x > c {
				fail("seat %d has %d in the pot, cap %d", i, x, c)
			}
		}
	}
}

// TestInvariants: §2.9's invariants after every line of thousands of random matches (3 to 8
// seats, random seeds and deal keys, random legal and illegal moves, timeouts, away seats, sit
// outs and returns, some abandoned, some with short stacks that bust): credits conserved, pot 0
// between hands, no in_pot above the cap, distinct values in range, every reveal honest, the
// winner the best value still in, at most max_raises raises a hand. After every step the
// engine's own credits, pot and in_pot equal the ledger's, and every mucked value stays out of
// every public line, view and other seat's state.
func TestInvariants(t *testing.T) {
	matches := 2000
	if testing.Short() || raceDetector {
		matches = 300 // the race detector slows every step tenfold; -short is a quick look
	}
	rnd := newRand(2026)
	// Short matches mostly, so thousands run in seconds; one in ten is the default 40 hands.
	opts := []string{`{"rounds":6}`, `{"rounds":12,"starting_credits":12,"ante":3,"max_raise":4}`,
		`{"rounds":8,"max_raises":5,"deck_size":9,"low_value_max":4}`, `{"rounds":5,"strikes_limit":1}`,
		`{"rounds":10,"starting_credits":30}`, `{"rounds":4}`, `{"rounds":7,"ante":1,"max_raises":0}`,
		`{"rounds":9,"starting_credits":8,"ante":2,"max_raise":10}`, `{"rounds":3,"turn_deadline_ms":2000}`, ""}
	seen := map[string]int{}
	for k := range matches {
		n := 3 + k%6
		cfgOpts := opts[k%len(opts)]
		abandon := 0
		if k%9 == 8 {
			abandon = 1 + rnd.IntN(60)
		}
		var l *ledger
		done := 0
		tb := randomMatch(t, n, cfgOpts, rnd, abandon, func(tb *table) {
			if l == nil {
				l = newLedger(t, tb.m.cfg, tb.m.setup.Round, n)
			}
			fresh := tb.evs[done:]
			for _, e := range fresh {
				l.line(e)
				seen[e.Type]++
			}
			done = len(tb.evs)
			for i, s := range tb.m.seats {
				if s.credits != l.credits[i] || s.inPot != l.inPot[i] {
					t.Fatalf("match %d: seat %d has credits %d in_pot %d, the lines say %d and %d", k, i, s.credits, s.inPot, l.credits[i], l.inPot[i])
				}
			}
			if tb.m.pot != l.pot {
				t.Fatalf("match %d: pot %d, the lines say %d", k, tb.m.pot, l.pot)
			}
			noMuckedValue(t, tb, l, fresh)
		})
		if _, ok := tb.m.Result(); !ok {
			t.Fatalf("match %d did not end", k)
		}
		checkRanking(t, tb, l)
		if rep := VerifyJSONL(tb.publicLog()); !rep.OK {
			t.Fatalf("match %d: verify-log of its public log: %+v", k, rep)
		}
	}
	for _, typ := range []string{"showdown", "bust", "sit_out", "sit_in", "timeout", "message", "match_abandoned", "match_end"} {
		if seen[typ] == 0 {
			t.Errorf("no %s line in %d matches: the random play does not reach it", typ, matches)
		}
	}
}

// noMuckedValue: no mucked card's value (round, seat, value) shows in a public line, the
// spectator's view, or any seat's view after a step that wrote fresh: a public line names a value only in a reveal, and a
// view only its own seat's current card and the last showdown's reveals.
func noMuckedValue(t testing.TB, tb *table, l *ledger, fresh []games.Event) {
	t.Helper()
	for _, e := range fresh {
		if !e.Visibility.Shows(0, true) {
			continue
		}
		var p struct {
			Round   int `json:"round"`
			Reveals []struct{ Seat, Value int }
		}
		_ = json.Unmarshal(e.Payload, &p)
		for _, r := range p.Reveals {
			if !l.revealed[[2]int{p.Round, r.Seat}] {
				t.Fatalf("public %s reveals seat %d's unrevealed value", e.Type, r.Seat)
			}
		}
		if e.Type != "showdown" && bytes.Contains(e.Payload, []byte(`"value"`)) {
			t.Fatalf("public %s names a value: %s", e.Type, e.Payload)
		}
	}
	for v := 0; v <= len(tb.m.seats); v++ {
		var st struct {
			Seat         *int `json:"seat"`
			Value        *int `json:"value"`
			LastShowdown *struct {
				Round   int `json:"round"`
				Reveals []struct{ Seat, Value int }
			} `json:"last_showdown"`
		}
		b := tb.m.View(v).Bytes()
		if err := json.Unmarshal(b, &st); err != nil {
			t.Fatal(err)
		}
		if v == 0 && (st.Seat != nil || st.Value != nil) {
			t.Fatalf("the spectator's view has a seat or a value: %s", b)
		}
		if st.Value != nil && (tb.m.phase != phasePlaying || *st.Value != tb.m.seats[v-1].card.value) {
			t.Fatalf("seat %d's view holds value %d, not its own card", v-1, *st.Value)
		}
		if st.LastShowdown != nil {
			for _, r := range st.LastShowdown.Reveals {
				if !l.revealed[[2]int{st.LastShowdown.Round, r.Seat}] {
					t.Fatalf("a view's last_showdown holds an unrevealed value")
				}
			}
		}
		if bytes.Count(b, []byte(`"value"`)) != boolInt(st.Value != nil)+lenReveals(st.LastShowdown) {
			t.Fatalf("view %d names a value outside its own card and the last reveals: %s", v, b)
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func lenReveals(s *struct {
	Round   int `json:"round"`
	Reveals []struct{ Seat, Value int }
}) int {
	if s == nil {
		return 0
	}
	return len(s.Reveals)
}

// checkRanking: the end line's ranking (§2.8, §1.9) has every seat once with the credits the
// lines give; seats that never busted first by credits descending, then busted seats by
// bustOrder descending; equal keys share a competition rank, listed in ascending seat order.
func checkRanking(t testing.TB, tb *table, l *ledger) {
	t.Helper()
	var end map[string]any
	if e := tb.ofType("match_end"); len(e) == 1 {
		end = e[0]
	} else if e := tb.ofType("match_abandoned"); len(e) == 1 {
		end = e[0]
	} else {
		t.Fatal("no end line")
	}
	var ranking []struct {
		Rank, Seat int
		Credits    int64
		Busted     bool
		BustOrder  *int
	}
	b, _ := json.Marshal(end["ranking"])
	if err := json.Unmarshal(b, &ranking); err != nil || len(ranking) != l.n {
		t.Fatalf("ranking %s: %v", b, err)
	}
	bustOrder := map[int]int{}
	for _, bl := range tb.ofType("bust") {
		bustOrder[int(bl["seat"].(float64))] = int(bl["bustOrder"].(float64))
	}
	key := func(i int) (int, int64) {
		r := ranking[i]
		if r.Busted {
			return 0, int64(*r.BustOrder)
		}
		return 1, r.Credits
	}
	seen := map[int]bool{}
	for i, r := range ranking {
		if seen[r.Seat] || r.Credits != l.credits[r.Seat] {
			t.Fatalf("ranking %s: seat %d twice or credits not %d", b, r.Seat, l.credits[r.Seat])
		}
		seen[r.Seat] = true
		if bo, ok := bustOrder[r.Seat]; ok != r.Busted || ok && (r.BustOrder == nil || *r.BustOrder != bo) || !ok && r.BustOrder != nil {
			t.Fatalf("ranking %s: seat %d's bust is not its bust line's", b, r.Seat)
		}
		if i == 0 {
			if r.Rank != 1 {
				t.Fatalf("ranking %s: first rank %d", b, r.Rank)
			}
			continue
		}
		g0, k0 := key(i - 1)
		g1, k1 := key(i)
		switch {
		case g0 < g1 || g0 == g1 && k0 < k1:
			t.Fatalf("ranking %s: entry %d above entry %d out of order", b, i-1, i)
		case g0 == g1 && k0 == k1 && (r.Rank != ranking[i-1].Rank || r.Seat < ranking[i-1].Seat):
			t.Fatalf("ranking %s: a tie not sharing its rank in seat order", b)
		case (g0 != g1 || k0 != k1) && r.Rank != i+1:
			t.Fatalf("ranking %s: rank %d at place %d", b, r.Rank, i+1)
		}
	}
}
