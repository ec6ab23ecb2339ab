package storage

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// contender is one side of a test match.
type contender struct{ id, name, temperament string }

var (
	ada   = contender{"0xAAaa000000000000000000000000000000000001", "Ada", "gambler"}
	quill = contender{"0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A", "Quill", "steadfast"}
)

// settled builds the two Ledger rows of a match as settlement writes them (warden-games §2.2):
// gross returns g out of the bank 2S, rake rakeBps of a positive pre-net only, paid_out = G −
// rake, the house total (the rules' H plus both rakes) split with the odd unit to A.
func settled(match, game string, stake int64, g [2]int64, rakeBps int64, a, b contender) []WardenRow {
	var rows []WardenRow
	var paid [2]int64
	for i, c := range []contender{a, b} {
		rake := max(0, g[i]-stake) * rakeBps / 10000
		paid[i] = g[i] - rake
		seat, opp := "AB"[i:i+1], []contender{b, a}[i]
		r := WardenRow{
			RowID: "wl_" + match + "_" + seat, MatchID: match, Game: game, RulesVersion: game + "/1", Seat: seat,
			ContenderID: c.id, Name: c.name, Temperament: c.temperament, OpponentID: opp.id, OpponentTemperament: opp.temperament,
			Stake: stake, StakeRail: "arc-exact", StakeRef: "0x" + strings.Repeat("1", 64),
			GrossReturn: g[i], Rake: rake, PaidOut: paid[i], Net: paid[i] - stake,
			Stats:      map[string]int64{"timeouts": int64(i)},
			ReadsSpent: 230, StartedAt: "2026-11-30T03:10:00.000Z", FinishedAt: "2026-11-30T03:16:05.000Z", SettledAt: "2026-11-30T03:16:09.120Z",
			SeedHash: "sha256:" + strings.Repeat("6", 64), LogHash: "sha256:" + strings.Repeat("7", 64), Network: "eip155:5042002",
		}
		if paid[i] > 0 {
			ref := "0x" + strings.Repeat(fmt.Sprint(i+2), 64)
			r.PayoutRef = &ref
		}
		rows = append(rows, r)
	}
	house := 2*stake - paid[0] - paid[1]
	rows[0].HouseShare, rows[1].HouseShare = house-house/2, house/2
	rows[0].Result, rows[1].Result = result(rows[0].Net, rows[1].Net), result(rows[1].Net, rows[0].Net)
	return rows
}

// example is warden-games §12.1's example row B and its seat A: S = 1 USDC, Game I, B's gross
// 1 005 000 with 250 rake, A's 725 000; the house 270 000 of the rules plus the rake.
func example() []WardenRow {
	return settled("wm_7f3a9c21e0b4d856", "warden.claims", 1_000_000, [2]int64{725_000, 1_005_000}, 500, ada, quill)
}

// hashByHand is "sha256:" + hex(SHA-256) of the row's stored JSON without row_hash, with the
// members sorted by encoding/json's map order (the JCS order for these ASCII names): the
// definition, computed without canon.
func hashByHand(t *testing.T, stored WardenRow) string {
	t.Helper()
	b, _ := json.Marshal(stored)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "row_hash")
	b, _ = json.Marshal(m)
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// TestWardenExampleMatch: §12.1's example settles into two rows, A then B, hash-chained from
// the genesis, read back by match, by seq and as the head; the figures are the example's; the
// aggregates and tiers are those one match gives (B ELITE, A UNDERWATER); a reopened file
// verifies and passes Check.
func TestWardenExampleMatch(t *testing.T) {
	s, path := openTest(t, Options{NoSync: true})
	rows := example()
	if b := rows[1]; b.Rake != 250 || b.PaidOut != 1_004_750 || b.Net != 4750 || b.HouseShare != 135_125 || b.Result != "win" {
		t.Fatalf("the example's row B: %+v", b)
	}
	got, err := s.AppendWardenMatch(rows)
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Seq != 1 || got[1].Seq != 2 || got[0].PrevHash != WardenGenesis || got[1].PrevHash != got[0].RowHash {
		t.Fatalf("chain: %d %s / %d %s", got[0].Seq, got[0].PrevHash, got[1].Seq, got[1].PrevHash)
	}
	for _, r := range got {
		if want := hashByHand(t, r); r.RowHash != want {
			t.Fatalf("row %d: row_hash %s, by hand %s", r.Seq, r.RowHash, want)
		}
	}
	if h, err := s.WardenHead(); err != nil || h != (WardenHead{Seq: 2, RowHash: got[1].RowHash}) {
		t.Fatalf("head %+v %v", h, err)
	}
	if m, err := s.WardenMatch("wm_7f3a9c21e0b4d856"); err != nil || !reflect.DeepEqual(m, got) {
		t.Fatalf("match rows %+v %v", m, err)
	}
	if _, err := s.WardenMatch("wm_other"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("an unsettled match: %v", err)
	}
	var seqs []uint64
	if err := s.WardenRows(2, func(r WardenRow) error { seqs = append(seqs, r.Seq); return nil }); err != nil || !reflect.DeepEqual(seqs, []uint64{2}) {
		t.Fatalf("rows from 2: %v %v", seqs, err)
	}
	qa, _ := s.WardenAggregate(quill.id, false)
	wantQ := WardenAggregate{ThroughSeq: 2,
		WardenTotals: WardenTotals{Matches: 1, Wins: 1, NetTotal: 4750, StakedTotal: 1_000_000, PaidOutTotal: 1_004_750, RakeTotal: 250, ReadsSpentTotal: 230, Stats: map[string]int64{"timeouts": 1}},
	}
	wantQ.PerGame = map[string]WardenTotals{"warden.claims": wantQ.WardenTotals}
	if !reflect.DeepEqual(qa, wantQ) || qa.Tier(1) != TierElite {
		t.Fatalf("Quill's aggregate %+v (%s), want %+v", qa, qa.Tier(1), wantQ)
	}
	aa, _ := s.WardenAggregate(ada.id, false)
	if aa.Matches != 1 || aa.Losses != 1 || aa.NetTotal != -275_000 || aa.Tier(1) != TierUnderwater {
		t.Fatalf("Ada's aggregate %+v (%s)", aa, aa.Tier(1))
	}
	tg, _ := s.WardenAggregate("gambler", true)
	if tg.Contenders != 1 || tg.Matches != 1 || tg.Losses != 1 || !reflect.DeepEqual(tg.Vs, map[string]WardenRecord{"steadfast": {Matches: 1, Losses: 1}}) {
		t.Fatalf("gambler's aggregate %+v", tg)
	}
	if none, _ := s.WardenAggregate("0xnobody", false); none.Tier(1) != TierUnproven || none.Matches != 0 {
		t.Fatalf("no rows: %+v", none)
	}
	r := reopen(t, s, path)
	if h, err := r.VerifyWarden(); err != nil || h.Seq != 2 || h.RowHash != got[1].RowHash {
		t.Fatalf("verify after reopening: %+v %v", h, err)
	}
}

// TestWardenTier: §13.1's tiers at their boundaries, integer comparisons only.
func TestWardenTier(t *testing.T) {
	tests := []struct {
		matches, wins, net, eliteMin int64
		want                         string
	}{
		{0, 0, 0, 1, TierUnproven},
		{5, 3, 1, 1, TierElite},       // 60 % exactly, net positive
		{5, 3, 0, 1, TierSolvent},     // the win rate without profit
		{7, 4, 9, 1, TierSolvent},     // 57 %: below the bar
		{5, 5, -1, 1, TierUnderwater}, // every match won, net negative
		{1, 1, 1, 0, TierElite},       // eliteMin below 1 counts as 1
		{2, 2, 1, 3, TierSolvent},     // too few matches for ELITE
		{3, 2, 1, 3, TierElite},
	}
	for _, tt := range tests {
		a := WardenAggregate{WardenTotals: WardenTotals{Matches: tt.matches, Wins: tt.wins, NetTotal: tt.net}}
		if got := a.Tier(tt.eliteMin); got != tt.want {
			t.Errorf("%d matches, %d wins, net %d, elite min %d: %s, want %s", tt.matches, tt.wins, tt.net, tt.eliteMin, got, tt.want)
		}
	}
}

// TestWardenRefusals: rows that break the money rules, or a match settled twice, are refused
// with the right error and write nothing: the head, the aggregates and the file stay as they
// were.
func TestWardenRefusals(t *testing.T) {
	s, _ := openTest(t, Options{NoSync: true})
	if _, err := s.AppendWardenMatch(example()); err != nil {
		t.Fatal(err)
	}
	head, _ := s.WardenHead()
	other := func(edit func(r []WardenRow)) []WardenRow {
		r := settled("wm_2", "warden.dilemma", 1_000_000, [2]int64{1_300_000, 300_000}, 0, ada, quill)
		edit(r)
		return r
	}
	tests := []struct {
		name string
		rows []WardenRow
		want error
	}{
		{"settled twice", example(), ErrExists},
		{"one row", other(func(r []WardenRow) {})[:1], ErrInvalid},
		{"seats swapped", func() []WardenRow { r := other(func([]WardenRow) {}); return []WardenRow{r[1], r[0]} }(), ErrInvalid},
		{"paid out more than G − rake", other(func(r []WardenRow) { r[0].PaidOut++; r[0].Net++ }), ErrInvalid},
		{"net not paid out − stake", other(func(r []WardenRow) { r[1].Net-- }), ErrInvalid},
		{"rake on a loss", other(func(r []WardenRow) { r[1].Rake, r[1].PaidOut, r[1].Net = 1, 299_999, -700_001 }), ErrInvalid},
		{"rake above the winnings", other(func(r []WardenRow) { r[0].Rake, r[0].PaidOut, r[0].Net = 300_001, 999_999, -1 }), ErrInvalid},
		{"gross above the bank", other(func(r []WardenRow) { r[0].GrossReturn, r[0].PaidOut, r[0].Net = 2_000_001, 2_000_001, 1_000_001 }), ErrInvalid},
		{"house short: the bank does not balance", other(func(r []WardenRow) { r[0].HouseShare = 399_999 }), ErrInvalid},
		{"odd unit to A", settled("wm_3", "warden.dilemma", 3, [2]int64{1, 2}, 0, ada, quill), nil}, // valid: the house's 3 splits 2/1
		{"house split the wrong way", func() []WardenRow {
			r := settled("wm_4", "warden.dilemma", 3, [2]int64{1, 2}, 0, ada, quill)
			r[0].HouseShare, r[1].HouseShare = r[1].HouseShare, r[0].HouseShare
			return r
		}(), ErrInvalid},
		{"result against the nets", other(func(r []WardenRow) { r[0].Result, r[1].Result = "draw", "draw" }), ErrInvalid},
		{"payout without a reference", other(func(r []WardenRow) { r[0].PayoutRef = nil }), ErrInvalid},
		{"a reference for nothing paid", other(func(r []WardenRow) {
			r2 := settled("x", "warden.dilemma", 1_000_000, [2]int64{2_000_000, 0}, 0, ada, quill)
			copy(r, r2)
			ref := "0x1"
			r[1].PayoutRef = &ref
		}), ErrInvalid},
		{"stakes differ", other(func(r []WardenRow) { r[1].Stake++ }), ErrInvalid},
		{"self-play", settled("wm_5", "warden.dilemma", 10, [2]int64{10, 10}, 0, ada, ada), ErrInvalid},
		{"opponents crossed wrong", other(func(r []WardenRow) { r[1].OpponentID = "0xsomeone" }), ErrInvalid},
		{"temperament with '/'", other(func(r []WardenRow) { r[0].Temperament, r[1].OpponentTemperament = "a/b", "a/b" }), ErrInvalid},
		{"row_id", other(func(r []WardenRow) { r[0].RowID = "wl_x_A" }), ErrInvalid},
		{"times differ", other(func(r []WardenRow) { r[1].SettledAt = "2026-11-30T03:16:09.121Z" }), ErrInvalid},
		{"not a time", other(func(r []WardenRow) { r[0].StartedAt, r[1].StartedAt = "soon", "soon" }), ErrInvalid},
		{"seed hash", other(func(r []WardenRow) { r[0].SeedHash, r[1].SeedHash = "sha256:xyz", "sha256:xyz" }), ErrInvalid},
		{"negative stat", other(func(r []WardenRow) { r[0].Stats["timeouts"] = -1 }), ErrInvalid},
		{"negative reads", other(func(r []WardenRow) { r[1].ReadsSpent = -1 }), ErrInvalid},
		{"stake beyond JCS", settled("wm_6", "warden.dilemma", 1<<52, [2]int64{1 << 52, 1 << 52}, 0, ada, quill), ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := CheckWardenMatch(tt.rows); tt.want == ErrInvalid && !errors.Is(err, ErrInvalid) || tt.want != ErrInvalid && err != nil {
				t.Fatalf("CheckWardenMatch: %v", err)
			}
			if tt.want == nil {
				return
			}
			_, err := s.AppendWardenMatch(tt.rows)
			if !errors.Is(err, tt.want) {
				t.Fatalf("append: %v, want %v", err, tt.want)
			}
			if h, _ := s.WardenHead(); h != head {
				t.Fatalf("head moved to %+v", h)
			}
		})
	}
	if a, _ := s.WardenAggregate(ada.id, false); a.Matches != 1 {
		t.Fatalf("a refused match was counted: %+v", a)
	}
}

// TestWardenRandomLedger: 300 random matches between eight Contenders of four temperaments
// (random stakes, gross returns out of the bank, rake 0..10 %). After all of them the Ledger
// verifies; every aggregate equals a naive fold of the rows read back; and over the whole
// Ledger no money is created or lost: Σ stake = Σ paid_out + Σ house_share.
func TestWardenRandomLedger(t *testing.T) {
	s, _ := openTest(t, Options{NoSync: true})
	rnd := rand.New(rand.NewPCG(22, 12))
	temps := []string{"gambler", "steadfast", "mirror", "cautious"}
	var pool []contender
	for i := range 8 {
		pool = append(pool, contender{fmt.Sprintf("0x%040d", i+1), fmt.Sprint("C", i), temps[i%4]})
	}
	for m := range 300 {
		a := pool[rnd.IntN(8)]
		b := pool[rnd.IntN(8)]
		for b.id == a.id {
			b = pool[rnd.IntN(8)]
		}
		a.temperament = temps[rnd.IntN(4)] // temperaments change between matches
		stake := int64(1+rnd.IntN(10)) * 200_000
		ga := rnd.Int64N(2*stake + 1)
		gb := rnd.Int64N(2*stake - ga + 1)
		game := []string{"warden.claims", "warden.dilemma"}[rnd.IntN(2)]
		if _, err := s.AppendWardenMatch(settled(fmt.Sprint("wm_", m), game, stake, [2]int64{ga, gb}, rnd.Int64N(1001), a, b)); err != nil {
			t.Fatalf("match %d: %v", m, err)
		}
	}
	h, err := s.VerifyWarden()
	if err != nil || h.Seq != 600 {
		t.Fatalf("verify: %+v %v", h, err)
	}
	naive := map[string]*WardenAggregate{}
	members := map[string]bool{}
	var staked, paid, house int64
	if err := s.WardenRows(1, func(r WardenRow) error {
		staked, paid, house = staked+r.Stake, paid+r.PaidOut, house+r.HouseShare
		for _, key := range []string{"c" + r.ContenderID, "t" + r.Temperament} {
			if naive[key] == nil {
				naive[key] = &WardenAggregate{}
			}
			n := naive[key]
			n.ThroughSeq = r.Seq
			n.Matches++
			n.Wins += b2i(r.Result == "win")
			n.Draws += b2i(r.Result == "draw")
			n.Losses += b2i(r.Result == "loss")
			n.NetTotal += r.Net
			n.StakedTotal += r.Stake
			n.PaidOutTotal += r.PaidOut
			n.RakeTotal += r.Rake
			n.ReadsSpentTotal += r.ReadsSpent
			if key[0] == 't' {
				if !members[r.Temperament+r.ContenderID] {
					members[r.Temperament+r.ContenderID] = true
					n.Contenders++
				}
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if staked != paid+house || staked == 0 {
		t.Fatalf("Σ stake %d, Σ paid out %d + Σ house %d", staked, paid, house)
	}
	for key, n := range naive {
		got, err := s.WardenAggregate(key[1:], key[0] == 't')
		if err != nil {
			t.Fatal(err)
		}
		g := got
		if g.ThroughSeq != n.ThroughSeq || g.Matches != n.Matches || g.Wins != n.Wins || g.Draws != n.Draws || g.Losses != n.Losses ||
			g.NetTotal != n.NetTotal || g.StakedTotal != n.StakedTotal || g.PaidOutTotal != n.PaidOutTotal || g.RakeTotal != n.RakeTotal ||
			g.ReadsSpentTotal != n.ReadsSpentTotal || g.Contenders != n.Contenders {
			t.Fatalf("%s: stored %+v, naive %+v", key, g, *n)
		}
		var perGame int64
		for _, pg := range g.PerGame {
			perGame += pg.Matches
		}
		if perGame != g.Matches {
			t.Fatalf("%s: per game %d matches of %d", key, perGame, g.Matches)
		}
	}
}

// reopen closes s and opens its file at path read-only, closed when the test ends.
func reopen(t *testing.T, s *Store, path string) *Store {
	t.Helper()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// TestWardenTamperDetected: a file edited behind the store's back fails VerifyWarden and Check
// with ErrCorrupt: a row's figure changed (its hash no longer its own), a row rewritten with a
// fresh hash (the next row's prev_hash breaks the chain), an aggregate nudged, a stray key, and
// a head that names another row.
func TestWardenTamperDetected(t *testing.T) {
	edits := map[string]func(b *bolt.Bucket) error{
		"a figure changed": func(b *bolt.Bucket) error {
			return b.Put(wardenRowKey(1), []byte(strings.Replace(string(b.Get(wardenRowKey(1))), `"net":-275000`, `"net":-274000`, 1)))
		},
		"a row rehashed": func(b *bolt.Bucket) error {
			var r WardenRow
			if err := json.Unmarshal(b.Get(wardenRowKey(1)), &r); err != nil {
				return err
			}
			r.Name = "Eve"
			r.RowHash, _ = wardenRowHash(r)
			v, _ := json.Marshal(r)
			return b.Put(wardenRowKey(1), v)
		},
		"an aggregate nudged": func(b *bolt.Bucket) error {
			return b.Put(wardenAggKey(ada.id), []byte(strings.Replace(string(b.Get(wardenAggKey(ada.id))), `"matches":1`, `"matches":2`, 1)))
		},
		"a stray key": func(b *bolt.Bucket) error { return b.Put([]byte("agg/0xghost"), []byte(`{}`)) },
		"head rewound": func(b *bolt.Bucket) error {
			return b.Put(wardenHeadKey, []byte(`{"row_hash":"`+WardenGenesis+`","seq":0}`))
		},
		"an index lost":    func(b *bolt.Bucket) error { return b.Delete(wardenMatchKey("wm_7f3a9c21e0b4d856", "B")) },
		"the last row cut": func(b *bolt.Bucket) error { return b.Delete(wardenRowKey(2)) },
	}
	for name, edit := range edits {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "arena.db")
			s, err := Open(path, Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.AppendWardenMatch(example()); err != nil {
				t.Fatal(err)
			}
			s.Close()
			db, err := bolt.Open(path, 0o600, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := db.Update(func(tx *bolt.Tx) error { return edit(tx.Bucket([]byte(BucketWarden))) }); err != nil {
				t.Fatal(err)
			}
			db.Close()
			r, err := Open(path, Options{ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if _, err := r.VerifyWarden(); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("verify: %v", err)
			}
			if err := r.Check(); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "warden") {
				t.Fatalf("check: %v", err)
			}
		})
	}
}

// TestWardenDurableBeforeAnswered: AppendWardenMatch answers only once the rows are committed:
// a store closed straight after the answer (no further write) reopens with both rows, and a
// write refused by the disk answers the error and leaves nothing.
func TestWardenDurableBeforeAnswered(t *testing.T) {
	path := filepath.Join(t.TempDir(), "arena.db")
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.AppendWardenMatch(example())
	if err != nil {
		t.Fatal(err)
	}
	r := reopen(t, s, path)
	if m, err := r.WardenMatch("wm_7f3a9c21e0b4d856"); err != nil || !reflect.DeepEqual(m, got) {
		t.Fatalf("after reopening: %+v %v", m, err)
	}
	if _, err := r.AppendWardenMatch(settled("wm_2", "warden.dilemma", 5, [2]int64{5, 5}, 0, ada, quill)); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("a write the store cannot make: %v", err)
	}
	if h, _ := r.WardenHead(); h.Seq != 2 {
		t.Fatalf("head %+v", h)
	}
}

// FuzzWardenCheck: whatever figures a pair of rows carries, CheckWardenMatch never panics, and
// rows it accepts balance: Σ paid_out + Σ house_share = 2S, each paid_out = G − rake with
// 0 ≤ rake ≤ max(0, G − S), and each net paid_out − S.
func FuzzWardenCheck(f *testing.F) {
	f.Add(int64(1_000_000), int64(725_000), int64(1_005_000), int64(500), int64(0), int64(0), int64(0))
	f.Add(int64(3), int64(1), int64(2), int64(0), int64(1), int64(-1), int64(0))
	f.Fuzz(func(t *testing.T, stake, ga, gb, rakeBps, dPaid, dHouse, dNet int64) {
		rows := settled("wm_f", "warden.claims", stake, [2]int64{ga, gb}, rakeBps%10001, ada, quill)
		rows[0].PaidOut += dPaid
		rows[1].HouseShare += dHouse
		rows[1].Net += dNet
		if CheckWardenMatch(rows) != nil {
			return
		}
		a, b := rows[0], rows[1]
		if a.PaidOut+b.PaidOut+a.HouseShare+b.HouseShare != 2*stake {
			t.Fatalf("accepted rows that do not balance: %+v %+v", a, b)
		}
		for _, r := range rows {
			if r.PaidOut != r.GrossReturn-r.Rake || r.Rake < 0 || r.Rake > max(0, r.GrossReturn-r.Stake) || r.Net != r.PaidOut-r.Stake {
				t.Fatalf("accepted row %+v", r)
			}
		}
	})
}
