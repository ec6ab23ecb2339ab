package market

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// ruleConfig is testConfig with hidden Game Rules: a grant on wood offered, a withdrawal on
// credits requested (which can make a Settlement unfunded), and a rule active only in a window.
func ruleConfig() Config {
	c := testConfig()
	c.Rules = []Rule{
		{ID: "wood-bonus", When: Match{Offered: []Holding{{"wood", 5}}},
			Moves: []RuleMove{{Kind: moveGrant, Party: partyProposer, AssetID: "stone", Quantity: 2}},
			Lines: []string{"The harbourmaster nods.", "A gull drops a pebble at your feet.", "Someone owed you a favour."}},
		{ID: "credit-levy", When: Match{Requested: []Holding{{"credits", 30}}},
			Moves: []RuleMove{{Kind: moveWithdrawal, Party: partyCounterparty, AssetID: "credits", Quantity: 25}},
			Lines: []string{"The tax collector was waiting."}},
		{ID: "evening", ActiveFrom: t0.Add(2 * time.Hour), ActiveUntil: t0.Add(3 * time.Hour),
			Moves: []RuleMove{{Kind: moveGrant, Party: partyCounterparty, AssetID: "wood", Quantity: 1}}},
	}
	return c
}

// ownerName is an Owner ID no public output may carry: distinctive enough never to appear by
// chance.
func ownerName(i int) string { return fmt.Sprintf("OWNER-Zq%03d-secret", i) }

// checkInvariants holds st to the market's invariants: every Asset conserved across the
// Players, @treasury and @issuance (their sum is zero: @issuance is minus what it issued);
// no Inventory with Reserved beyond Holdings; and every Reserved quantity is exactly the live
// Round author's side of the open Exchanges, so exactly one party holds each open Exchange's
// reservation.
func checkInvariants(tb testing.TB, st *State) {
	tb.Helper()
	for _, a := range st.cfg.Assets {
		var sum int64
		for _, inv := range st.invs {
			sum += inv.Holdings[a.ID]
		}
		if sum != 0 {
			tb.Fatalf("asset %s not conserved: Players, @treasury and @issuance sum to %d", a.ID, sum)
		}
	}
	want := map[string]map[string]int64{}
	for _, x := range st.exs {
		if !x.open() {
			continue
		}
		live := x.live()
		if live.Author != x.Proposer && live.Author != x.Counterparty {
			tb.Fatalf("exchange %s: live author %s is no party", x.ID, live.Author)
		}
		if want[live.Author] == nil {
			want[live.Author] = map[string]int64{}
		}
		for _, h := range x.side(live, live.Author) {
			want[live.Author][h.AssetID] += h.Quantity
		}
	}
	for id, inv := range st.invs {
		for asset, r := range inv.Reserved {
			if r != want[id][asset] {
				tb.Fatalf("%s reserves %d %s, the open Exchanges it authored hold %d", id, r, asset, want[id][asset])
			}
			if r > inv.Holdings[asset] || r < 0 {
				tb.Fatalf("%s reserves %d %s of %d held", id, r, asset, inv.Holdings[asset])
			}
		}
		for asset, w := range want[id] {
			if inv.Reserved[asset] != w {
				tb.Fatalf("%s reserves %d %s, want %d", id, inv.Reserved[asset], asset, w)
			}
		}
	}
}

// sent is one mutation a Player's Command record answers: its retry must give these bytes.
type sent struct {
	owner, body string
	response    []byte
}

// TestScriptedMarket plays a market of 24 Owners (4 never enrol) through 4,000 random requests,
// valid and not, and after every one checks the invariants, that the State Version moved by
// exactly the accepted changes (an expiry pass that concluded anything, plus a command that
// changed state), that no output carries an Owner ID, and, from time to time, that retrying any
// earlier Command gives its first response byte for byte. At the end a State rebuilt from the
// Deltas, through JSON, answers alike.
func TestScriptedMarket(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { scriptedMarket(t, seed, 4000, true) })
	}
}

// FuzzScriptedMarket runs short scripts of fuzzed seeds under every check but the coverage
// floor.
func FuzzScriptedMarket(f *testing.F) {
	for _, s := range []uint64{0, 7, 1 << 40} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, seed uint64) { scriptedMarket(t, seed, 300, false) })
}

// scriptedMarket plays steps random requests drawn from seed; covered also holds the script to
// a floor of what it reached.
func scriptedMarket(t *testing.T, seed uint64, steps int, covered bool) {
	rng := rand.New(rand.NewPCG(seed, 99))
	st := newMarket(t, ruleConfig())
	const owners = 24
	names := map[string]string{} // owner → trading name the model expects
	pids := map[string]string{}  // owner → playerId
	var history []sent
	m := newMoneyModel()
	var deltas [][]byte
	cmdN := 0
	codes := map[string]int{} // action:code → count, logged with -v
	defer func() { t.Log(codes) }()
	maxOpen := 0
	now := t0
	assets := []string{"credits", "wood", "stone", "medal", "gold"}
	pickGoods := func() string {
		n := 1 + rng.IntN(2)
		var p []any
		for range n {
			p = append(p, assets[rng.IntN(3)], 1+rng.IntN(30))
			if rng.IntN(50) == 0 {
				p = append(p, "medal", 1)
			}
		}
		if rng.IntN(40) == 0 {
			p = append(p, "gold", 1)
		}
		return goods(p...)
	}
	deadline := func() string {
		d := now.Add(time.Duration(1+rng.IntN(90)) * time.Minute)
		if rng.IntN(30) == 0 {
			d = now.Add(-time.Minute)
		}
		if rng.IntN(2) == 0 {
			return d.In(time.FixedZone("", 3600)).Format("2006-01-02T15:04:05.000-07:00")
		}
		return d.Format(time.RFC3339)
	}
	randomPlayer := func() string {
		if rng.IntN(20) == 0 {
			return "pl_nobody"
		}
		if len(pids) == 0 {
			return "pl_none"
		}
		keys := make([]string, 0, len(pids))
		for o := range pids {
			keys = append(keys, o)
		}
		slices.Sort(keys)
		return pids[keys[rng.IntN(len(keys))]]
	}
	for step := 0; step < steps; step++ {
		now = now.Add(time.Duration(rng.IntN(90)) * time.Second)
		o := rng.IntN(owners)
		owner := ownerName(o)
		if rng.IntN(200) == 0 {
			owner = " "
		}
		cmdN++
		cid := fmt.Sprintf("c-%d", cmdN)
		if rng.IntN(25) == 0 && cmdN > 10 {
			cid = fmt.Sprintf("c-%d", 1+rng.IntN(cmdN-1)) // a reused id: a replay or command_id_reuse
		}
		var body string
		var exOf *Exchange
		if len(st.exOrder) > 0 {
			exOf = st.exs[st.exOrder[len(st.exOrder)-1-rng.IntN(min(len(st.exOrder), 20))]]
			if len(st.open) > 0 && rng.IntN(5) > 0 {
				exOf = st.exs[st.open[rng.IntN(len(st.open))].id]
			}
			if o < owners-4 && rng.IntN(3) > 0 {
				// Act as one of its parties most of the time, mostly the one whose turn it is.
				party := exOf.Proposer
				if exOf.open() && rng.IntN(4) > 0 {
					party = exOf.answering()
				} else if rng.IntN(2) == 0 {
					party = exOf.Counterparty
				}
				owner = st.players[party].OwnerID
			}
		}
		version, hash := uint64(1), strings.Repeat("0", 64)
		if exOf != nil {
			version, hash = exOf.Version, exOf.live().TermsHash
			if rng.IntN(15) == 0 {
				version++
			}
			if rng.IntN(15) == 0 {
				hash = strings.Repeat("a", 64)
			}
		}
		exID := "ex_missing"
		if exOf != nil && rng.IntN(20) > 0 {
			exID = exOf.ID
		}
		nameModel := ""
		switch k := rng.IntN(100); {
		case k < 4 || o >= owners-4 && k < 30:
			body = fmt.Sprintf(`{"protocolVersion":2,"commandId":%q,"action":"enroll"}`, cid)
		case k < 14:
			pool := []string{"Marlow's Yard", "  Marlow's Yard ", "", "Amber Heron", DerivedName(randomPlayer()), strings.Repeat("x", 33), "bad\u0007name"}
			i := rng.IntN(len(pool) + 1)
			if i == len(pool) {
				body = fmt.Sprintf(`{"protocolVersion":2,"commandId":%q,"action":"setTradingName","tradingName":null}`, cid)
			} else {
				nameModel = strings.TrimSpace(pool[i])
				nb, _ := json.Marshal(pool[i])
				body = fmt.Sprintf(`{"protocolVersion":2,"commandId":%q,"action":"setTradingName","tradingName":%s}`, cid, nb)
			}
		case k < 28:
			body = transferBody(cid, randomPlayer(), assets[rng.IntN(3)+2*rng.IntN(2)*rng.IntN(2)], int64(1+rng.IntN(40)))
		case k < 45:
			body = proposeBody(cid, randomPlayer(), pickGoods(), pickGoods(), deadline())
		case k < 58:
			d := "approve"
			if rng.IntN(4) == 0 {
				d = "decline"
			}
			body = respondBody(cid, exID, version, hash, d)
		case k < 70:
			body = counterBody(cid, exID, version, hash, pickGoods(), pickGoods(), deadline())
		case k < 75:
			body = cancelBody(cid, exID, version)
		case k < 80:
			body = `{"protocolVersion":2,"action":"readInventory"}`
		case k < 84:
			body = fmt.Sprintf(`{"protocolVersion":2,"action":"readStatement","limit":%d}`, 1+rng.IntN(100))
		case k < 88:
			body = fmt.Sprintf(`{"protocolVersion":2,"action":"getExchange","exchangeId":%q,"roundLimit":%d}`, exID, 1+rng.IntN(5))
		case k < 91:
			body = `{"protocolVersion":2,"action":"listExchanges","status":"awaiting_counterparty","limit":3}`
		case k < 94:
			body = `{"protocolVersion":2,"action":"readStanding"}`
		case k < 96 && len(history) > 0:
			h := history[rng.IntN(len(history))]
			before := st.version
			due := st.dueCount(now)
			s := Apply(st, h.owner, []byte(h.body), now)
			st.Commit(s.Delta)
			deltas = append(deltas, encode(s.Delta))
			if !bytes.Equal(s.Response, h.response) {
				t.Fatalf("step %d: retry of %s\n got %s\nwant %s", step, h.body, s.Response, h.response)
			}
			if st.version != before+due {
				t.Fatalf("step %d: a retry moved the State Version %d → %d (expiry bumps %d)", step, before, st.version, due)
			}
			checkInvariants(t, st)
			continue
		default:
			body = []string{`{"protocolVersion":3,"action":"readInventory"}`, `{"protocolVersion":2,"action":"readInventory","x":1}`,
				`{"protocolVersion":2,"action":"enroll"}`, `[1]`, `{"protocolVersion":2,"action":"fly","commandId":"z"}`,
				fmt.Sprintf(`{"protocolVersion":2,"commandId":%q,"action":"setTradingName","tradingName":7}`, cid)}[rng.IntN(6)]
		}
		before := st.version
		due := st.dueCount(now)
		_, wasEnrolled := st.owners[owner]
		prevName := ""
		if wasEnrolled {
			prevName = st.players[st.owners[owner]].TradingName
		}
		_, replay := st.cmds[cmdKey{st.owners[owner], cid}]
		var outcome expectation
		if exOf != nil && strings.Contains(body, `"decision":"approve"`) {
			outcome = m.expect(st, exOf, now)
		}
		s := Apply(st, owner, []byte(body), now)
		st.Commit(s.Delta)
		deltas = append(deltas, encode(s.Delta))
		var r reply
		if err := json.Unmarshal(s.Response, &r); err != nil {
			t.Fatalf("step %d: %s: response %s: %v", step, body, s.Response, err)
		}
		if stored := st.cmds[cmdKey{st.owners[owner], cid}]; replay && stored != nil && bytes.Equal(stored.Response, s.Response) {
			if st.version != before+due {
				t.Fatalf("step %d: a replay moved the State Version", step)
			}
			checkInvariants(t, st)
			continue
		}
		if r.StateVersion != st.version {
			t.Fatalf("step %d: response stateVersion %d, state %d", step, r.StateVersion, st.version)
		}
		for i := range owners {
			if bytes.Contains(s.Response, []byte(ownerName(i))) {
				t.Fatalf("step %d: an Owner ID in %s", step, s.Response)
			}
		}
		codes[action0(body)+":"+r.code()]++
		var action struct {
			Action string `json:"action"`
		}
		_ = json.Unmarshal([]byte(body), &action)
		changed := false
		if r.OK && !replay {
			switch action.Action {
			case ActEnroll:
				changed = !wasEnrolled
			case ActSetTradingName:
				changed = nameModel != prevName
			case ActTransfer, ActProposeExchange, ActRespond, ActCounter, ActCancel:
				changed = true
			}
		}
		want := before + due
		if changed {
			want++
		}
		if st.version != want {
			t.Fatalf("step %d: %s → %s: State Version %d → %d, want %d (expiry %d, changed %v)",
				step, body, s.Response, before, st.version, want, due, changed)
		}
		if r.OK && action.Action == ActEnroll {
			var e struct {
				PlayerID string `json:"playerId"`
			}
			_ = json.Unmarshal(r.Result, &e)
			pids[owner] = e.PlayerID
		}
		if r.OK && action.Action == ActSetTradingName && !replay {
			names[owner] = nameModel
		}
		if st.owners[owner] != "" && s.Delta.Command != nil {
			history = append(history, sent{owner, body, s.Response})
		}
		if r.OK && !replay {
			m.apply(t, step, st, action.Action, body, r, owner, wasEnrolled, outcome)
		}
		m.check(t, step, st)
		checkInvariants(t, st)
		maxOpen = max(maxOpen, len(st.open))
	}
	// Public projections carry no Owner ID either.
	admin := encode(Admin(st, now))
	stand := Standing(st, now)
	for i := range owners {
		if bytes.Contains(admin, []byte(ownerName(i))) || bytes.Contains(stand, []byte(ownerName(i))) {
			t.Fatalf("an Owner ID in the Admin view or the Standing")
		}
	}
	// Nor does the Admin view carry a Command ID (every one the script sent is "c-<n>").
	if bytes.Contains(admin, []byte(`"c-`)) {
		t.Fatalf("a Command ID in the Admin view")
	}
	counts := map[string]int{StatusAwaiting: maxOpen}
	for _, x := range st.exs {
		counts[x.Status]++
	}
	for _, s := range []string{StatusAwaiting, StatusSettled, StatusDeclined, StatusCancelled, StatusExpired, StatusUnfunded} {
		if covered && counts[s] == 0 {
			t.Errorf("the script reached no %s Exchange (%v): it tests too little", s, counts)
		}
	}
	if covered && (len(st.order) < 15 || len(st.ledger) < 300) {
		t.Errorf("%d Players, %d Ledger rows: the script tests too little", len(st.order), len(st.ledger))
	}
	// Rebuild from the Deltas as the actor would read them back.
	re := newMarket(t, ruleConfig())
	for _, b := range deltas {
		var d Delta
		if err := json.Unmarshal(b, &d); err != nil {
			t.Fatal(err)
		}
		re.Commit(d)
	}
	if a, b := encode(Admin(re, now)), admin; !bytes.Equal(a, b) {
		t.Fatalf("a State rebuilt from its Deltas reads differently:\n%s\n%s", a, b)
	}
	// And from one Snapshot, through JSON.
	snap := newMarket(t, ruleConfig())
	for _, d := range st.Snapshot() {
		var dd Delta
		if err := json.Unmarshal(encode(d), &dd); err != nil {
			t.Fatal(err)
		}
		snap.Commit(dd)
	}
	if a := encode(Admin(snap, now)); !bytes.Equal(a, admin) {
		t.Fatalf("a State rebuilt from its Snapshot reads differently:\n%s\n%s", a, admin)
	}
	for o := range owners {
		for _, q := range []string{`{"protocolVersion":2,"action":"readStatement","limit":100}`, `{"protocolVersion":2,"action":"listExchanges","limit":100}`} {
			x, y, z := Apply(st, ownerName(o), []byte(q), now), Apply(re, ownerName(o), []byte(q), now), Apply(snap, ownerName(o), []byte(q), now)
			if !bytes.Equal(x.Response, y.Response) || !bytes.Equal(x.Response, z.Response) {
				t.Fatalf("rebuilt State answers %s differently", q)
			}
		}
	}
}

// dueCount is 1 when an expiry pass at now concludes anything, else 0: the bumps it makes.
func (st *State) dueCount(now time.Time) uint64 {
	if len(st.open) > 0 && !st.open[0].at.After(now) {
		return 1
	}
	return 0
}

func action0(body string) string {
	var a struct {
		Action string `json:"action"`
	}
	_ = json.Unmarshal([]byte(body), &a)
	return a.Action
}

// moneyModel is a second, naive account of every Inventory's Holdings, moved by what each
// accepted command should move (Starting Assets, a transfer, a Settlement with the rules of
// ruleConfig worked out here again), and compared with the market's after every request: a
// move in the wrong direction, of the wrong amount or by the wrong rule shows.
type moneyModel struct{ h map[string]map[string]int64 }

func newMoneyModel() *moneyModel { return &moneyModel{h: map[string]map[string]int64{}} }

func (m *moneyModel) move(from, to, asset string, q int64) {
	for _, id := range []string{from, to} {
		if m.h[id] == nil {
			m.h[id] = map[string]int64{}
		}
	}
	m.h[from][asset] -= q
	m.h[to][asset] += q
}

// expectation is what approving Exchange x at now should do, worked out before the request.
type expectation struct {
	x        *Exchange
	settles  bool
	moves    [][4]any // from, to, asset, quantity
	ruleHits map[string]bool
}

// expect works out an approval of x's live Round by the answering party: funded from what it
// has Available once the request's expiry pass has run, then the matching rules in order on
// what each party would have Available after the Settlement.
func (m *moneyModel) expect(st *State, x *Exchange, now time.Time) expectation {
	due := map[string]bool{}
	for i, d := range st.open {
		if i == expiryBatch || d.at.After(now) {
			break
		}
		due[d.id] = true
	}
	reserved := func(party, asset string) int64 {
		var r int64
		for _, y := range st.exs {
			if y.open() && !due[y.ID] && y.live().Author == party {
				for _, h := range y.side(y.live(), party) {
					if h.AssetID == asset {
						r += h.Quantity
					}
				}
			}
		}
		return r
	}
	live := x.live()
	author, answerer := live.Author, x.answering()
	give, take := x.side(live, author), x.side(live, answerer)
	e := expectation{x: x, ruleHits: map[string]bool{}}
	after := map[[2]string]int64{}
	avail := func(party, asset string) int64 {
		k := [2]string{party, asset}
		if v, ok := after[k]; ok {
			return v
		}
		v := m.h[party][asset] - reserved(party, asset)
		if party == author {
			for _, h := range give {
				if h.AssetID == asset {
					v += h.Quantity // its own reservation here is released
				}
			}
		}
		return v
	}
	for _, h := range take {
		if avail(answerer, h.AssetID) < h.Quantity {
			return e
		}
	}
	for _, h := range give {
		e.moves = append(e.moves, [4]any{author, answerer, h.AssetID, h.Quantity})
	}
	for _, h := range take {
		e.moves = append(e.moves, [4]any{answerer, author, h.AssetID, h.Quantity})
	}
	for _, mv := range e.moves {
		from, to, asset, q := mv[0].(string), mv[1].(string), mv[2].(string), mv[3].(int64)
		after[[2]string{from, asset}] = avail(from, asset) - q
		after[[2]string{to, asset}] = avail(to, asset) + q
	}
	for _, rule := range ruleConfig().Rules {
		if !rule.ActiveFrom.IsZero() && now.Before(rule.ActiveFrom) || !rule.ActiveUntil.IsZero() && !now.Before(rule.ActiveUntil) {
			continue
		}
		if !carriesAtLeast(live.Offered, rule.When.Offered) || !carriesAtLeast(live.Requested, rule.When.Requested) {
			continue
		}
		for _, mv := range rule.Moves {
			party := x.Proposer
			if mv.Party == partyCounterparty {
				party = x.Counterparty
			}
			k := [2]string{party, mv.AssetID}
			if mv.Kind == moveGrant {
				after[k] = avail(party, mv.AssetID) + mv.Quantity
				e.moves = append(e.moves, [4]any{Issuance, party, mv.AssetID, mv.Quantity})
			} else {
				after[k] = avail(party, mv.AssetID) - mv.Quantity
				if after[k] < 0 {
					return expectation{x: x, ruleHits: map[string]bool{}}
				}
				e.moves = append(e.moves, [4]any{party, Treasury, mv.AssetID, mv.Quantity})
			}
			e.ruleHits[party] = true
		}
	}
	e.settles = true
	return e
}

func carriesAtLeast(have, want []Holding) bool {
	for _, w := range want {
		found := false
		for _, h := range have {
			found = found || h.AssetID == w.AssetID && h.Quantity >= w.Quantity
		}
		if !found {
			return false
		}
	}
	return true
}

// apply moves the model by one accepted command.
func (m *moneyModel) apply(t *testing.T, step int, st *State, action, body string, r reply, owner string, wasEnrolled bool, e expectation) {
	t.Helper()
	pid := st.owners[owner]
	switch action {
	case ActEnroll:
		if !wasEnrolled {
			for _, h := range ruleConfig().StartingAssets {
				m.move(Issuance, pid, h.AssetID, h.Quantity)
			}
		}
	case ActTransfer:
		var q struct {
			To       string `json:"toPlayerId"`
			Asset    string `json:"assetId"`
			Quantity int64  `json:"quantity"`
		}
		_ = json.Unmarshal([]byte(body), &q)
		m.move(pid, q.To, q.Asset, q.Quantity)
	case ActRespond:
		var x exView
		_ = json.Unmarshal(r.Result, &x)
		if !strings.Contains(body, `"decision":"approve"`) {
			return
		}
		want := StatusUnfunded
		if e.settles {
			want = StatusSettled
		}
		if e.x == nil || x.Status != want {
			t.Fatalf("step %d: approval concluded %s, the model says %s", step, x.Status, want)
		}
		if x.RuleApplied != e.ruleHits[pid] {
			t.Fatalf("step %d: ruleApplied %v for the approver, the model says %v", step, x.RuleApplied, e.ruleHits[pid])
		}
		for _, mv := range e.moves {
			m.move(mv[0].(string), mv[1].(string), mv[2].(string), mv[3].(int64))
		}
	}
}

// check compares every Inventory's Holdings with the model's.
func (m *moneyModel) check(t *testing.T, step int, st *State) {
	t.Helper()
	for id, inv := range st.invs {
		for _, a := range st.cfg.Assets {
			if inv.Holdings[a.ID] != m.h[id][a.ID] {
				t.Fatalf("step %d: %s holds %d %s, the model %d", step, id, inv.Holdings[a.ID], a.ID, m.h[id][a.ID])
			}
		}
	}
}
