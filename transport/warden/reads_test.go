package warden

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"arena/chain/evm/evmtest"
	"arena/storage"
)

// side is one Contender of a test match.
type side struct{ id, name, temperament string }

func sideOf(b byte, name, temperament string) side {
	_, a := evmtest.Key(b)
	return side{a.String(), name, temperament}
}

var (
	ada   = sideOf(0x31, "Ada", "gambler")
	quill = sideOf(0x32, "Quill", "steadfast")
	cyd   = sideOf(0x33, "Cyd", "shark")
	dot   = sideOf(0x34, "Dot", "diplomat") // registered, never settled: UNPROVEN
)

// shapes are the two Warden games' rounds and required inputs per seat (Game I: claim and
// offer in each of 5 rounds; Game II: one commit).
var shapes = map[string]GameShape{"warden.claims": {Rounds: 5, Inputs: 10}, "warden.dilemma": {Rounds: 1, Inputs: 1}}

// settleRows builds a match's two rows as settlement writes them (§2.2): gross g out of the bank
// 2S, rake rakeBps of a positive pre-net only, paid_out = G − rake, the house total split with
// the odd unit to A; stats per seat.
func settleRows(match, game string, stake int64, g [2]int64, rakeBps int64, a, b side, stats [2]map[string]int64) []storage.WardenRow {
	var rows []storage.WardenRow
	var paid [2]int64
	for i, c := range []side{a, b} {
		rake := max(0, g[i]-stake) * rakeBps / 10000
		paid[i] = g[i] - rake
		seat, opp := "AB"[i:i+1], []side{b, a}[i]
		r := storage.WardenRow{RowID: "wl_" + match + "_" + seat, MatchID: match, Game: game, RulesVersion: game + "/1", Seat: seat,
			ContenderID: c.id, Name: c.name, Temperament: c.temperament, OpponentID: opp.id, OpponentTemperament: opp.temperament,
			Stake: stake, StakeRail: "arc-exact", StakeRef: "0x" + strings.Repeat("1", 64),
			GrossReturn: g[i], Rake: rake, PaidOut: paid[i], Net: paid[i] - stake, Stats: stats[i], ReadsSpent: int64(10 * (i + 1)),
			StartedAt: "2026-11-30T03:10:00.000Z", FinishedAt: "2026-11-30T03:16:05.000Z", SettledAt: "2026-11-30T03:16:09.120Z",
			SeedHash: "sha256:" + strings.Repeat("6", 64), LogHash: "sha256:" + strings.Repeat("7", 64), Network: "dev"}
		if paid[i] > 0 {
			ref := "0x" + strings.Repeat(fmt.Sprint(i+2), 64)
			r.PayoutRef = &ref
		}
		rows = append(rows, r)
	}
	house := 2*stake - paid[0] - paid[1]
	rows[0].HouseShare, rows[1].HouseShare = house-house/2, house/2
	res := func(x, y int64) string { return [3]string{"loss", "draw", "win"}[min(max(x-y, -1), 1)+1] }
	rows[0].Result, rows[1].Result = res(rows[0].Net, rows[1].Net), res(rows[1].Net, rows[0].Net)
	return rows
}

// claimStats is Game I's ten counters with the given values set (the rest 0, as the engine
// reports them).
func claimStats(kv ...any) map[string]int64 {
	m := map[string]int64{"claims_made": 0, "truthful": 0, "bluffs": 0, "understated": 0, "overshoots": 0,
		"zeroed": 0, "rounds_paid": 0, "escalation_steps": 0, "messages_sent": 0, "timeouts": 0}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = int64(kv[i+1].(int))
	}
	return m
}

func dilemmaStats(cooperated, defected, timeouts int64) map[string]int64 {
	return map[string]int64{"cooperated": cooperated, "defected": defected, "timeouts": timeouts}
}

const usdc = 1_000_000

// fourMatches is the Ledger every read test reads, worked by hand (S = 1 USDC):
//
//	M1 claims  A ada   G 600 000 → net −400 000 loss | B quill G 1 400 000, rake 5 % of 400 000 = 20 000 → net +380 000 win
//	M2 dilemma A quill G 900 000 → net −100 000 draw | B cyd   G   900 000 → net −100 000 draw (ACCORD 45/45)
//	M3 dilemma A cyd   G 1 300 000 → net +300 000 win | B ada  G   300 000 → net −700 000 loss (BETRAYAL 65/15)
//	M4 claims  A ada   G 800 000 → net −200 000 loss | B cyd   G 1 200 000, rake 10 000 → net +190 000 win
//
// Rows 1–8 in that order.
func fourMatches() [][]storage.WardenRow {
	return [][]storage.WardenRow{
		settleRows("wm_0000000000000001", "warden.claims", usdc, [2]int64{600_000, 1_400_000}, 500, ada, quill,
			[2]map[string]int64{claimStats("claims_made", 5, "truthful", 2, "bluffs", 3, "overshoots", 2, "timeouts", 1),
				claimStats("claims_made", 5, "truthful", 5, "overshoots", 2)}),
		settleRows("wm_0000000000000002", "warden.dilemma", usdc, [2]int64{900_000, 900_000}, 0, quill, cyd,
			[2]map[string]int64{dilemmaStats(1, 0, 0), dilemmaStats(1, 0, 0)}),
		settleRows("wm_0000000000000003", "warden.dilemma", usdc, [2]int64{1_300_000, 300_000}, 0, cyd, ada,
			[2]map[string]int64{dilemmaStats(0, 1, 0), dilemmaStats(1, 0, 1)}),
		settleRows("wm_0000000000000004", "warden.claims", usdc, [2]int64{800_000, 1_200_000}, 500, ada, cyd,
			[2]map[string]int64{claimStats("claims_made", 4, "truthful", 1, "bluffs", 3, "overshoots", 1, "timeouts", 2),
				claimStats("claims_made", 5, "truthful", 3, "bluffs", 1, "understated", 1, "overshoots", 1)}),
	}
}

type readRig struct {
	t     testing.TB
	store *storage.Store
	reads *Reads
	srv   *httptest.Server
}

// newReadRig serves Reads over a fresh store holding the matches (appended in order, each
// checked by the Ledger's invariant) and the registered Contenders.
func newReadRig(t testing.TB, matches [][]storage.WardenRow, registered ...side) *readRig {
	s, err := storage.Open(filepath.Join(t.TempDir(), "arena.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	for _, m := range matches {
		if err := storage.CheckWardenMatch(m); err != nil {
			t.Fatal(err)
		}
		if _, err := s.AppendWardenMatch(m); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.WardenUpdate(func(tx storage.WardenTx) error {
		for _, c := range registered {
			if err := tx.Put("contender/"+c.id, contender{Wallet: c.id, Temperament: c.temperament, Name: c.name}); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	r := &readRig{t: t, store: s, reads: &Reads{Store: s, Games: shapes}}
	e := echo.New()
	e.HTTPErrorHandler = Answer.ErrorHandler(slog.New(slog.NewTextHandler(io.Discard, nil)))
	r.reads.mount(e)
	r.srv = httptest.NewServer(e)
	t.Cleanup(r.srv.Close)
	return r
}

// get is GET path's status and decoded body.
func (r *readRig) get(path string) (int, map[string]any) {
	r.t.Helper()
	resp, err := http.Get(r.srv.URL + path)
	if err != nil {
		r.t.Fatal(err)
	}
	defer resp.Body.Close()
	var body map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		r.t.Fatalf("GET %s: %v", path, err)
	}
	return resp.StatusCode, body
}

// same fails unless got, re-encoded, equals the JSON want.
func same(t testing.TB, what string, got any, want string) {
	t.Helper()
	var w, g any
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("%s: bad want: %v", what, err)
	}
	b, _ := json.Marshal(got)
	json.Unmarshal(b, &g)
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s:\n got %s\nwant %s", what, b, want)
	}
}

func seqs(t testing.TB, body map[string]any) []int {
	t.Helper()
	var out []int
	for _, r := range body["rows"].([]any) {
		out = append(out, int(r.(map[string]any)["seq"].(float64)))
	}
	return out
}

// The Ledger read: all rows, paged by after and limit; one Contender's; one match's; both
// filters; the head; and bad queries refused with bad_request.
func TestLedgerRead(t *testing.T) {
	r := newReadRig(t, fourMatches(), dot)
	pages := []struct {
		query string
		want  []int
		next  any
	}{
		{"", []int{1, 2, 3, 4, 5, 6, 7, 8}, nil},
		{"?limit=3", []int{1, 2, 3}, 3.0},
		{"?limit=3&after=3", []int{4, 5, 6}, 6.0},
		{"?limit=3&after=6", []int{7, 8}, nil},
		{"?after=8", nil, nil},
		{"?contender=" + ada.id, []int{1, 6, 7}, nil},
		{"?contender=" + strings.ToLower(ada.id) + "&limit=2", []int{1, 6}, 6.0},
		{"?contender=" + ada.id + "&after=6", []int{7}, nil},
		{"?match=wm_0000000000000002", []int{3, 4}, nil},
		{"?match=wm_0000000000000002&after=3", []int{4}, nil},
		{"?match=wm_0000000000000002&contender=" + cyd.id, []int{4}, nil},
		{"?match=wm_0000000000000002&contender=" + ada.id, nil, nil},
		{"?match=wm_00000000000000ff", nil, nil},
		{"?contender=" + dot.id, nil, nil},
	}
	for _, p := range pages {
		st, body := r.get("/v1/warden/ledger" + p.query)
		if st != 200 || !reflect.DeepEqual(seqs(t, body), p.want) || body["next_after"] != p.next {
			t.Errorf("ledger%s: %d %v next %v, want %v next %v", p.query, st, seqs(t, body), body["next_after"], p.want, p.next)
		}
	}
	_, body := r.get("/v1/warden/ledger?match=wm_0000000000000001")
	row := body["rows"].([]any)[1].(map[string]any)
	if row["contender_id"] != quill.id || row["net"] != 380_000.0 || row["rake"] != 20_000.0 || row["paid_out"] != 1_380_000.0 ||
		row["house_share"] != 10_000.0 || row["result"] != "win" || row["reads_spent"] != 20.0 {
		t.Errorf("M1 row B: %v", row)
	}
	h, _ := r.store.WardenHead()
	st, head := r.get("/v1/warden/ledger/head")
	same(t, "head", head, fmt.Sprintf(`{"seq":8,"row_hash":%q}`, h.RowHash))
	if st != 200 || body["head"].(map[string]any)["seq"] != 8.0 {
		t.Errorf("head %d %v; the ledger page's head %v", st, head, body["head"])
	}
	for _, q := range []string{"?limit=0", "?limit=501", "?limit=01", "?limit=x", "?after=-1", "?after=1.5",
		"?contender=ada", "?contender=0x1234", "?match=wm_1", "?match=WM_0000000000000001", "?match=wm_000000000000000G"} {
		if st, body := r.get("/v1/warden/ledger" + q); st != 400 || body["error"] != "bad_request" {
			t.Errorf("ledger%s: %d %v, want 400 bad_request", q, st, body)
		}
	}
}

// A Contender's profile: the §13.4 Standing of each of the four, worked by hand from
// fourMatches, with its per-game figures and as_of the head; the totals and per-game sums; a
// wallet nobody registered and with no row is not_found.
func TestContenderStanding(t *testing.T) {
	r := newReadRig(t, fourMatches(), dot, ada)
	h, _ := r.store.WardenHead()
	asOf := fmt.Sprintf(`{"ledger_seq":8,"ledger_hash":%q}`, h.RowHash)
	for _, c := range []struct {
		who      side
		standing string
	}{
		// ada: three losses, −400 000 − 700 000 − 200 000.
		{ada, `{"contender_id":%q,"tier":"UNDERWATER","matches":3,"wins":0,"draws":0,"losses":3,"win_rate_bps":0,"net_total":-1300000,
			"by_game":{"warden.claims":{"matches":2,"wins":0,"net_total":-600000},"warden.dilemma":{"matches":1,"wins":0,"net_total":-700000}},"as_of":` + asOf + `}`},
		// quill: a win +380 000 and a draw −100 000; 50 % won, net positive.
		{quill, `{"contender_id":%q,"tier":"SOLVENT","matches":2,"wins":1,"draws":1,"losses":0,"win_rate_bps":5000,"net_total":280000,
			"by_game":{"warden.claims":{"matches":1,"wins":1,"net_total":380000},"warden.dilemma":{"matches":1,"wins":0,"net_total":-100000}},"as_of":` + asOf + `}`},
		// cyd: draw −100 000, wins +300 000 and +190 000; 2 × 100 ≥ 60 × 3.
		{cyd, `{"contender_id":%q,"tier":"ELITE","matches":3,"wins":2,"draws":1,"losses":0,"win_rate_bps":6666,"net_total":390000,
			"by_game":{"warden.claims":{"matches":1,"wins":1,"net_total":190000},"warden.dilemma":{"matches":2,"wins":1,"net_total":200000}},"as_of":` + asOf + `}`},
		{dot, `{"contender_id":%q,"tier":"UNPROVEN","matches":0,"wins":0,"draws":0,"losses":0,"win_rate_bps":0,"net_total":0,"by_game":{},"as_of":` + asOf + `}`},
	} {
		st, body := r.get("/v1/warden/contenders/" + strings.ToLower(c.who.id))
		if st != 200 || body["contender_id"] != c.who.id {
			t.Fatalf("%s: %d %v", c.who.name, st, body)
		}
		same(t, c.who.name+"'s standing", body["standing"], fmt.Sprintf(c.standing, c.who.id))
	}
	_, body := r.get("/v1/warden/contenders/" + ada.id)
	if body["registered"] != true || body["name"] != "Ada" || body["temperament"] != "gambler" {
		t.Errorf("ada's profile: %v", body)
	}
	// ada's sums: staked 3 USDC, paid out 600 000 + 300 000 + 800 000, no rake, reads 10 + 20 + 10.
	same(t, "ada's totals", body["totals"], `{"matches":3,"wins":0,"draws":0,"losses":3,"win_rate_bps":0,"net_total":-1300000,
		"staked_total":3000000,"paid_out_total":1700000,"rake_total":0,"reads_spent_total":40,
		"stats":{"claims_made":9,"truthful":3,"bluffs":6,"understated":0,"overshoots":3,"zeroed":0,"rounds_paid":0,
		"escalation_steps":0,"messages_sent":0,"timeouts":4,"cooperated":1,"defected":0}}`)
	_, body = r.get("/v1/warden/contenders/" + cyd.id)
	if body["registered"] != false || body["name"] != "" {
		t.Errorf("cyd is on the Ledger, not registered here: %v", body)
	}
	same(t, "cyd's Game II sums", body["per_game"].(map[string]any)["warden.dilemma"], `{"matches":2,"wins":1,"draws":1,"losses":0,
		"win_rate_bps":5000,"net_total":200000,"staked_total":2000000,"paid_out_total":2200000,"rake_total":0,"reads_spent_total":30,
		"stats":{"cooperated":1,"defected":1,"timeouts":0}}`)
	_, nobody := evmtest.Key(0x3f)
	if st, body := r.get("/v1/warden/contenders/" + nobody.String()); st != 404 || body["error"] != "not_found" {
		t.Errorf("nobody: %d %v", st, body)
	}
	if st, body := r.get("/v1/warden/contenders/ada"); st != 400 || body["error"] != "bad_request" {
		t.Errorf("a name for an id: %d %v", st, body)
	}
}

// The Standing each read serves equals a full recomputation from the rows (§13.3): the
// Contenders' and the temperaments' aggregates, folded from row 1.
func TestStandingMatchesRecomputation(t *testing.T) {
	r := newReadRig(t, append(fourMatches(), boundaryMatches()...))
	var rows []storage.WardenRow
	if err := r.store.WardenRows(1, func(w storage.WardenRow) error { rows = append(rows, w); return nil }); err != nil {
		t.Fatal(err)
	}
	full, fullT := storage.FoldWardenRows(rows)
	n := 0
	if _, err := r.store.WardenAggregates(false, func(id string, a storage.WardenAggregate) error {
		n++
		if !reflect.DeepEqual(a, full[id]) {
			t.Errorf("%s: served %+v, recomputed %+v", id, a, full[id])
		}
		s, _, err := r.store.WardenStanding(id)
		if err != nil || !reflect.DeepEqual(s, full[id]) {
			t.Errorf("%s: standing %+v %v", id, s, err)
		}
		return nil
	}); err != nil || n != len(full) {
		t.Fatalf("%d aggregates for %d Contenders: %v", n, len(full), err)
	}
	n = 0
	if _, err := r.store.WardenAggregates(true, func(id string, a storage.WardenAggregate) error {
		n++
		if !reflect.DeepEqual(a, fullT[id]) {
			t.Errorf("temperament %s: served %+v, recomputed %+v", id, a, fullT[id])
		}
		return nil
	}); err != nil || n != len(fullT) {
		t.Fatalf("%d temperament aggregates for %d: %v", n, len(fullT), err)
	}
	if _, err := r.store.VerifyWarden(); err != nil {
		t.Fatal(err)
	}
}

// boundaryMatches: three Contenders against one opponent, each match's house 0 and its rake 0
// (G_X + G_O = 2S):
//
//	xena:  W +1, W +1, W +1, L −1, L −1        → 3 of 5 (exactly 60 %), net +1: ELITE
//	yuri:  W +1, W +1, W +1, L −1, L −2        → 3 of 5, net 0: SOLVENT
//	zed:   W +5 ×4, L −1 ×3                    → 4 of 7 (57 %), net +17: SOLVENT
func boundaryMatches() [][]storage.WardenRow {
	opp := sideOf(0x40, "Opp", "mirror")
	var out [][]storage.WardenRow
	n := 0x100
	play := func(x side, deltas ...int64) {
		for _, d := range deltas {
			n++
			out = append(out, settleRows(fmt.Sprintf("wm_%016x", n), "warden.dilemma", usdc, [2]int64{usdc + d, usdc - d}, 0, x, opp,
				[2]map[string]int64{dilemmaStats(0, 1, 0), dilemmaStats(1, 0, 0)}))
		}
	}
	play(xena, 1, 1, 1, -1, -1)
	play(yuri, 1, 1, 1, -1, -2)
	play(zed, 5, 5, 5, 5, -1, -1, -1)
	return out
}

var (
	xena = sideOf(0x41, "Xena", "wildcard")
	yuri = sideOf(0x42, "Yuri", "wildcard")
	zed  = sideOf(0x43, "Zed", "wildcard")
)

// §13.1's boundaries through the Standing read: exactly 60 % with net +1 is ELITE, net 0
// SOLVENT, 57 % SOLVENT; the configured bar moves them (6 matches at least: xena SOLVENT; 50 %:
// zed ELITE).
func TestStandingTierBoundaries(t *testing.T) {
	r := newReadRig(t, boundaryMatches())
	tiers := func(rule StandingRule) map[string]string {
		reads := &Reads{Store: r.store, Rule: rule, Games: shapes}
		out := map[string]string{}
		for _, c := range []side{xena, yuri, zed} {
			a, h, err := r.store.WardenStanding(c.id)
			if err != nil {
				t.Fatal(err)
			}
			s := reads.Standing(c.id, a, h)
			out[c.name] = fmt.Sprintf("%s %d/%d %+d", s["tier"], s["wins"], s["matches"], s["net_total"])
		}
		return out
	}
	for _, c := range []struct {
		rule StandingRule
		want map[string]string
	}{
		{StandingRule{}, map[string]string{"Xena": "ELITE 3/5 +1", "Yuri": "SOLVENT 3/5 +0", "Zed": "SOLVENT 4/7 +17"}},
		{StandingRule{EliteWinRatePct: 60, EliteMinMatches: 6}, map[string]string{"Xena": "SOLVENT 3/5 +1", "Yuri": "SOLVENT 3/5 +0", "Zed": "SOLVENT 4/7 +17"}},
		{StandingRule{EliteWinRatePct: 50, EliteMinMatches: 1}, map[string]string{"Xena": "ELITE 3/5 +1", "Yuri": "SOLVENT 3/5 +0", "Zed": "ELITE 4/7 +17"}},
	} {
		if got := tiers(c.rule); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%+v: %v, want %v", c.rule, got, c.want)
		}
	}
	// The opponent lost 3+3+4 and won 2+2+3 of its 17: UNDERWATER at net −1 − 0 − 17.
	st, body := r.get("/v1/warden/contenders/" + sideOf(0x40, "", "").id)
	s := body["standing"].(map[string]any)
	if st != 200 || s["tier"] != "UNDERWATER" || s["matches"] != 17.0 || s["wins"] != 7.0 || s["net_total"] != -18.0 {
		t.Errorf("the opponent: %d %v", st, s)
	}
}

// The leaderboard (§13.5): tier first (ELITE, SOLVENT, UNDERWATER, UNPROVEN last, registered
// without a row), paged by cursor with no Contender twice; tier and game filters; and inside a
// tier net, then win rate, then matches, then id.
func TestLeaderboard(t *testing.T) {
	r := newReadRig(t, fourMatches(), dot)
	ids := func(body map[string]any) []string {
		var out []string
		for _, row := range body["rows"].([]any) {
			m := row.(map[string]any)
			out = append(out, fmt.Sprintf("%v:%v:%v", m["rank"], m["contender_id"], m["tier"]))
		}
		return out
	}
	st, body := r.get("/v1/warden/leaderboard")
	want := []string{"1:" + cyd.id + ":ELITE", "2:" + quill.id + ":SOLVENT", "3:" + ada.id + ":UNDERWATER", "4:" + dot.id + ":UNPROVEN"}
	if st != 200 || !reflect.DeepEqual(ids(body), want) || body["next_cursor"] != nil {
		t.Fatalf("leaderboard: %d %v next %v", st, ids(body), body["next_cursor"])
	}
	_, p1 := r.get("/v1/warden/leaderboard?limit=2")
	cursor, _ := p1["next_cursor"].(string)
	if !reflect.DeepEqual(ids(p1), want[:2]) || cursor != "1.280000.5000.2."+quill.id {
		t.Fatalf("page 1: %v next %q", ids(p1), cursor)
	}
	_, p2 := r.get("/v1/warden/leaderboard?limit=2&cursor=" + url.QueryEscape(cursor))
	if !reflect.DeepEqual(ids(p2), want[2:]) || p2["next_cursor"] != nil {
		t.Fatalf("page 2: %v next %v", ids(p2), p2["next_cursor"])
	}
	_, solvent := r.get("/v1/warden/leaderboard?tier=SOLVENT")
	if !reflect.DeepEqual(ids(solvent), []string{"1:" + quill.id + ":SOLVENT"}) {
		t.Errorf("SOLVENT: %v", ids(solvent))
	}
	// Game II: its sums rank (cyd +200 000 of 2, quill −100 000, ada −700 000) under the overall tier.
	_, g2 := r.get("/v1/warden/leaderboard?game=warden.dilemma")
	if got := ids(g2); !reflect.DeepEqual(got, []string{"1:" + cyd.id + ":ELITE", "2:" + quill.id + ":SOLVENT", "3:" + ada.id + ":UNDERWATER"}) {
		t.Errorf("Game II: %v", got)
	}
	same(t, "cyd's Game II figures", g2["rows"].([]any)[0].(map[string]any)["game"],
		`{"id":"warden.dilemma","matches":2,"wins":1,"draws":1,"losses":0,"win_rate_bps":5000,"net_total":200000}`)
	for _, q := range []string{"?tier=GOLD", "?limit=0", "?cursor=x", "?cursor=4.0.0.0." + dot.id, "?cursor=1.-0.0.0." + dot.id,
		"?cursor=1.01.0.0." + dot.id, "?cursor=1.0.10001.0." + dot.id, "?cursor=1.0.0.0." + strings.ToLower(dot.id)} {
		if st, body := r.get("/v1/warden/leaderboard" + q); st != 400 || body["error"] != "bad_request" {
			t.Errorf("leaderboard%s: %d %v, want bad_request", q, st, body)
		}
	}
	if st, body := r.get("/v1/warden/leaderboard?game=chess"); st != 404 || body["error"] != "unknown_game" {
		t.Errorf("unknown game: %d %v", st, body)
	}
	// Inside one tier: net, then win rate, then matches, then id.
	keys := []BoardKey{
		{Tier: 1, Net: 5, WinRate: 0, Matches: 9, ID: "0xB"},
		{Tier: 1, Net: 5, WinRate: 0, Matches: 9, ID: "0xA"},
		{Tier: 1, Net: 5, WinRate: 0, Matches: 10, ID: "0xC"},
		{Tier: 1, Net: 5, WinRate: 5000, Matches: 1, ID: "0xD"},
		{Tier: 1, Net: 6, WinRate: 0, Matches: 1, ID: "0xE"},
		{Tier: 0, Net: -5, WinRate: 0, Matches: 1, ID: "0xF"},
	}
	order := []string{"0xF", "0xE", "0xD", "0xC", "0xA", "0xB"}
	sorted := append([]BoardKey(nil), keys...)
	for i := range sorted {
		for j := i + 1; j < len(sorted); j++ {
			if sorted[j].Compare(sorted[i]) < 0 {
				sorted[i], sorted[j] = sorted[j], sorted[i]
			}
		}
	}
	var got []string
	for _, k := range sorted {
		got = append(got, k.ID)
	}
	if !reflect.DeepEqual(got, order) {
		t.Errorf("order %v, want %v", got, order)
	}
}

// The per-temperament statistics (§14), worked by hand from fourMatches: gambler is ada,
// steadfast quill, shark cyd; diplomat and the rest have no row (rates null).
func TestTemperamentStats(t *testing.T) {
	r := newReadRig(t, fourMatches(), dot)
	st, body := r.get("/v1/warden/temperaments")
	if st != 200 {
		t.Fatalf("%d %v", st, body)
	}
	byName := map[string]any{}
	var names []string
	for _, x := range body["temperaments"].([]any) {
		m := x.(map[string]any)
		byName[m["temperament"].(string)] = m
		names = append(names, m["temperament"].(string))
	}
	if !reflect.DeepEqual(names, Temperaments) {
		t.Errorf("temperaments %v, want the configured list %v", names, Temperaments)
	}
	// gambler: 3 losses; avg_net ⌊−1 300 000 / 3⌋ = −433 334; bluffs 6 of 9 claims; overshoots 3
	// of 2 matches × 5 rounds; cooperated 1 of 1; timeouts 4 of 2 × 10 + 1 × 1 = 21 inputs.
	same(t, "gambler", byName["gambler"], `{"temperament":"gambler","contenders":1,"matches":3,"wins":0,"draws":0,"losses":3,
		"win_rate_bps":0,"net_total":-1300000,"avg_net":-433334,"rake_total":0,
		"by_game":{"warden.claims":{"matches":2,"wins":0,"draws":0,"losses":2,"win_rate_bps":0,"net_total":-600000,"avg_net":-300000,"rake_total":0},
			"warden.dilemma":{"matches":1,"wins":0,"draws":0,"losses":1,"win_rate_bps":0,"net_total":-700000,"avg_net":-700000,"rake_total":0}},
		"stats":{"claims_made":9,"truthful":3,"bluffs":6,"understated":0,"overshoots":3,"zeroed":0,"rounds_paid":0,"escalation_steps":0,
			"messages_sent":0,"timeouts":4,"cooperated":1,"defected":0},
		"rates":{"bluff_rate_bps":6666,"truthful_rate_bps":3333,"overshoot_rate_bps":3000,"cooperation_rate_bps":10000,"timeout_rate_bps":1904},
		"vs":{"steadfast":{"matches":1,"wins":0,"draws":0,"losses":1},"shark":{"matches":2,"wins":0,"draws":0,"losses":2}}}`)
	// shark: avg 390 000 / 3; rake 10 000; bluffs 1 of 5; overshoots 1 of 5; 1 of 2 cooperated;
	// no timeout of 10 + 2 inputs.
	same(t, "shark", byName["shark"], `{"temperament":"shark","contenders":1,"matches":3,"wins":2,"draws":1,"losses":0,
		"win_rate_bps":6666,"net_total":390000,"avg_net":130000,"rake_total":10000,
		"by_game":{"warden.claims":{"matches":1,"wins":1,"draws":0,"losses":0,"win_rate_bps":10000,"net_total":190000,"avg_net":190000,"rake_total":10000},
			"warden.dilemma":{"matches":2,"wins":1,"draws":1,"losses":0,"win_rate_bps":5000,"net_total":200000,"avg_net":100000,"rake_total":0}},
		"stats":{"claims_made":5,"truthful":3,"bluffs":1,"understated":1,"overshoots":1,"zeroed":0,"rounds_paid":0,"escalation_steps":0,
			"messages_sent":0,"timeouts":0,"cooperated":1,"defected":1},
		"rates":{"bluff_rate_bps":2000,"truthful_rate_bps":6000,"overshoot_rate_bps":2000,"cooperation_rate_bps":5000,"timeout_rate_bps":0},
		"vs":{"steadfast":{"matches":1,"wins":0,"draws":1,"losses":0},"gambler":{"matches":2,"wins":2,"draws":0,"losses":0}}}`)
	same(t, "steadfast rates", byName["steadfast"].(map[string]any)["rates"],
		`{"bluff_rate_bps":0,"truthful_rate_bps":10000,"overshoot_rate_bps":4000,"cooperation_rate_bps":10000,"timeout_rate_bps":0}`)
	same(t, "diplomat", byName["diplomat"], `{"temperament":"diplomat","contenders":0,"matches":0,"wins":0,"draws":0,"losses":0,
		"win_rate_bps":0,"net_total":0,"avg_net":0,"rake_total":0,"by_game":{},"stats":{},"vs":{},
		"rates":{"bluff_rate_bps":null,"truthful_rate_bps":null,"overshoot_rate_bps":null,"cooperation_rate_bps":null,"timeout_rate_bps":null}}`)
	_, one := r.get("/v1/warden/temperaments?temperament=shark")
	if list := one["temperaments"].([]any); len(list) != 1 || list[0].(map[string]any)["net_total"] != 390000.0 {
		t.Errorf("?temperament=shark: %v", one)
	}
	if st, body := r.get("/v1/warden/temperaments?temperament=berserk"); st != 400 || body["error"] != "unknown_temperament" {
		t.Errorf("unknown temperament: %d %v", st, body)
	}
}

// TestReadsRefuseUnknownOrRepeatedParameters: every public read refuses a query parameter it
// does not take, or one given twice, with bad_request (400) — as the match list does — so a
// misspelt filter is never read as "no filter"; the parameters each takes still work.
func TestReadsRefuseUnknownOrRepeatedParameters(t *testing.T) {
	r := newReadRig(t, fourMatches(), dot)
	for _, q := range []string{
		"/v1/warden/ledger?contendr=" + ada.id,
		"/v1/warden/ledger?limit=2&limit=3",
		"/v1/warden/ledger/head?x=1",
		"/v1/warden/leaderboard?games=warden.claims",
		"/v1/warden/leaderboard?tier=ELITE&tier=SOLVENT",
		"/v1/warden/temperaments?temperament=gambler&temperament=shark",
		"/v1/warden/temperaments?t=gambler",
		"/v1/warden/contenders/" + ada.id + "?verbose=1",
	} {
		st, body := r.get(q)
		if st != 400 || body["error"] != "bad_request" {
			t.Errorf("%s: %d %v, want 400 bad_request", q, st, body)
		}
	}
	for _, q := range []string{
		"/v1/warden/ledger?contender=" + ada.id + "&limit=2",
		"/v1/warden/ledger/head",
		"/v1/warden/leaderboard?tier=ELITE&limit=5",
		"/v1/warden/temperaments?temperament=gambler",
		"/v1/warden/contenders/" + ada.id,
	} {
		if st, body := r.get(q); st != 200 {
			t.Errorf("%s: %d %v, want 200", q, st, body)
		}
	}
}
