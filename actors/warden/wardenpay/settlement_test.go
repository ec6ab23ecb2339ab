package wardenpay

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"arena/storage"
	"arena/storage/storagetest"
)

// side is one Contender of a test match.
type side struct{ id, name, temperament string }

var (
	ada   = side{"0xAAaA000000000000000000000000000000000001", "Ada", "gambler"}
	quill = side{"0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A", "Quill", "steadfast"}
)

// finished is the settlement of a match as the match actor hands it over (warden-games §2.2):
// gross returns g out of the bank 2S, rake rakeBps of a positive pre-net, paid_out = G − rake,
// the house total split with the odd unit to A; Seq, PayoutRef, SettledAt and the hashes empty.
func finished(match string, stake int64, g [2]int64, rakeBps int64, a, b side) Settlement {
	s := Settlement{Match: match, Network: testNetwork}
	for i, c := range []side{a, b} {
		rake := max(0, g[i]-stake) * rakeBps / 10000
		seat, opp := "AB"[i:i+1], []side{b, a}[i]
		s.Rows[i] = storage.WardenRow{
			RowID: "wl_" + match + "_" + seat, MatchID: match, Game: "warden.claims", RulesVersion: "warden.claims/1", Seat: seat,
			ContenderID: c.id, Name: c.name, Temperament: c.temperament, OpponentID: opp.id, OpponentTemperament: opp.temperament,
			Stake: stake, StakeRail: "eip155:1337-exact", StakeRef: "0x" + strings.Repeat("1", 64),
			GrossReturn: g[i], Rake: rake, PaidOut: g[i] - rake, Net: g[i] - rake - stake,
			Stats: map[string]int64{"timeouts": int64(i)}, StartedAt: "2026-11-30T03:10:00.000Z", FinishedAt: "2026-11-30T03:16:05.000Z",
			SeedHash: "sha256:" + strings.Repeat("6", 64), LogHash: "sha256:" + strings.Repeat("7", 64), Network: "eip155:1337",
		}
	}
	house := 2*stake - s.Rows[0].PaidOut - s.Rows[1].PaidOut
	s.Rows[0].HouseShare, s.Rows[1].HouseShare = house-house/2, house/2
	res := func(x, y int64) string { return map[bool]string{true: "win", false: "loss"}[x > y] }
	if s.Rows[0].Net == s.Rows[1].Net {
		s.Rows[0].Result, s.Rows[1].Result = "draw", "draw"
	} else {
		s.Rows[0].Result, s.Rows[1].Result = res(s.Rows[0].Net, s.Rows[1].Net), res(s.Rows[1].Net, s.Rows[0].Net)
	}
	return s
}

// example is §12.1's example: S = 1 USDC, A's gross 725 000, B's 1 005 000 with 250 rake.
func example(match string) Settlement {
	return finished(match, 1_000_000, [2]int64{725_000, 1_005_000}, 500, ada, quill)
}

// putMatch stores a match record with status st (and a member this package must keep) whose
// seats' stakes cleared: a settled payment record of the stake for each seat, from its wallet.
func putMatch(t *testing.T, st *storage.Store, match, status string) {
	t.Helper()
	putMatchStakes(t, st, match, status, map[string]string{
		"A": stakePaid(t, st, match, "A", ada.id, 1_000_000, testNetwork),
		"B": stakePaid(t, st, match, "B", quill.id, 1_000_000, testNetwork),
	})
}

// putMatchStakes stores a match record between ada and quill with status st, stake 1 USDC and
// stakes as its cleared payment ids (none when empty).
func putMatchStakes(t *testing.T, st *storage.Store, match, status string, stakes map[string]string) {
	t.Helper()
	rec := map[string]any{"id": match, "status": status, "a": ada.id, "b": quill.id, "stake": 1_000_000}
	if len(stakes) > 0 {
		rec["stakes"] = stakes
	}
	if err := st.WardenUpdate(func(tx storage.WardenTx) error { return tx.Put("match/"+match, rec) }); err != nil {
		t.Fatal(err)
	}
}

func jobs(t *testing.T, st *storage.Store, match string) map[string]Job {
	t.Helper()
	out := map[string]Job{}
	if err := st.WardenView(func(tx storage.WardenTx) error {
		return tx.Scan(jobPrefix(match), func(k string, _ []byte) error {
			var j Job
			if _, err := tx.Get(k, &j); err != nil {
				return err
			}
			out[k] = j
			return nil
		})
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// queue runs QueueSettlement in a transaction that moves the match to SETTLING, as the match
// actor does.
func queue(st *storage.Store, s Settlement) error {
	return st.WardenUpdate(func(tx storage.WardenTx) error {
		if err := setMatchStatus(tx, s.Match, StatusSettling); err != nil {
			return err
		}
		return QueueSettlement(tx, s)
	})
}

// TestQueueSettlementQueuesOneJobPerPayout: §12.1's example queues a payout of 725 000 to A
// and of 1 004 750 to B, the rows kept for the SETTLED write, the match SETTLING with its
// other members kept; the Ledger has no row yet; queuing the same settlement again is a no-op.
func TestQueueSettlementQueuesOneJobPerPayout(t *testing.T) {
	st := storagetest.Open(t, storage.Options{})
	const m = "wm_7f3a9c21e0b4d856"
	putMatch(t, st, m, StatusFinished)
	s := example(m)
	if err := queue(st, s); err != nil {
		t.Fatal(err)
	}
	want := map[string]Job{
		"payoutq/" + m + "/A": {Match: m, Seat: "A", Kind: KindPayout, To: ada.id, Amount: 725_000, Status: JobQueued},
		"payoutq/" + m + "/B": {Match: m, Seat: "B", Kind: KindPayout, To: quill.id, Amount: 1_004_750, Status: JobQueued},
	}
	got := jobs(t, st, m)
	if len(got) != 2 || !sameJSON(got, want) {
		t.Fatalf("jobs %+v, want %+v", got, want)
	}
	var p pending
	var rec map[string]any
	if err := st.WardenView(func(tx storage.WardenTx) error {
		if _, err := tx.Get(settleKey(m), &p); err != nil {
			return err
		}
		_, err := tx.Get(matchKey(m), &rec)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if !sameJSON(p.Rows, s.Rows) || strings.Join(p.Jobs, ",") != "A,B" {
		t.Fatalf("kept %+v", p)
	}
	if rec["status"] != StatusSettling || rec["a"] != ada.id || rec["stake"] != 1e6 {
		t.Fatalf("match record %v", rec)
	}
	if h, err := st.WardenHead(); err != nil || h.Seq != 0 {
		t.Fatalf("ledger head %+v, %v: a queued settlement writes no row", h, err)
	}
	if err := queue(st, s); err != nil {
		t.Fatalf("the same settlement again: %v", err)
	}
	if len(jobs(t, st, m)) != 2 {
		t.Fatal("queued twice")
	}
	other := finished(m, 1_000_000, [2]int64{1_000_000, 1_000_000}, 0, ada, quill)
	if err := queue(st, other); !errors.Is(err, ErrQueued) {
		t.Fatalf("another settlement of the match: %v, want ErrQueued", err)
	}
}

// TestQueueSettlementZeroPayout: a seat paid nothing gets no job (Game I's zeroed loser); a
// match paying nobody queues only its rows.
func TestQueueSettlementZeroPayout(t *testing.T) {
	st := storagetest.Open(t, storage.Options{})
	putMatch(t, st, "wm_0000000000000001", StatusFinished)
	if err := queue(st, finished("wm_0000000000000001", 1_000_000, [2]int64{0, 1_200_000}, 500, ada, quill)); err != nil {
		t.Fatal(err)
	}
	got := jobs(t, st, "wm_0000000000000001")
	if len(got) != 1 || got["payoutq/wm_0000000000000001/B"].Amount != 1_190_000 {
		t.Fatalf("jobs %+v, want B's 1 190 000 only", got)
	}
	putMatch(t, st, "wm_0000000000000002", StatusFinished)
	if err := queue(st, finished("wm_0000000000000002", 1_000_000, [2]int64{0, 0}, 500, ada, quill)); err != nil {
		t.Fatal(err)
	}
	if got := jobs(t, st, "wm_0000000000000002"); len(got) != 0 {
		t.Fatalf("jobs %+v for a match that pays nobody", got)
	}
}

// TestQueueSettlementRefusesBadSettlements: every broken settlement is refused with nothing
// written: money not conserved, rake on a loss, a wrong net or result, fields the SETTLED
// write owns already set, rows of another match, a contender that is no address, a match that
// is not FINISHED or has no record or settled already.
func TestQueueSettlementRefusesBadSettlements(t *testing.T) {
	const m = "wm_00000000000000aa"
	tests := []struct {
		name   string
		status string // the match record's; "" for none
		edit   func(*Settlement)
	}{
		{"paid out more than the bank", StatusFinished, func(s *Settlement) {
			s.Rows[1].GrossReturn, s.Rows[1].Rake, s.Rows[1].PaidOut, s.Rows[1].Net = 1_300_000, 0, 1_300_000, 300_000
		}},
		{"house share does not balance", StatusFinished, func(s *Settlement) { s.Rows[0].HouseShare++ }},
		{"rake on a loss", StatusFinished, func(s *Settlement) { s.Rows[0].Rake, s.Rows[0].PaidOut, s.Rows[0].Net = 10, 724_990, -275_010 }},
		{"net is not paid out minus stake", StatusFinished, func(s *Settlement) { s.Rows[1].Net++ }},
		{"result against net", StatusFinished, func(s *Settlement) { s.Rows[0].Result, s.Rows[1].Result = "win", "loss" }},
		{"seq set", StatusFinished, func(s *Settlement) { s.Rows[0].Seq = 7 }},
		{"payout ref set", StatusFinished, func(s *Settlement) { ref := "0x01"; s.Rows[1].PayoutRef = &ref }},
		{"settled at set", StatusFinished, func(s *Settlement) { s.Rows[0].SettledAt = s.Rows[0].FinishedAt }},
		{"row hash set", StatusFinished, func(s *Settlement) { s.Rows[1].RowHash = "sha256:" + strings.Repeat("0", 64) }},
		{"rows of another match", StatusFinished, func(s *Settlement) { s.Match = "wm_00000000000000bb" }},
		{"seats swapped", StatusFinished, func(s *Settlement) { s.Rows[0], s.Rows[1] = s.Rows[1], s.Rows[0] }},
		{"contender not an address", StatusFinished, func(s *Settlement) {
			s.Rows[0].ContenderID, s.Rows[1].OpponentID = "ada", "ada"
		}},
		{"stakes differ", StatusFinished, func(s *Settlement) { s.Rows[1].Stake = 2_000_000 }},
		{"match still live", "LIVE", func(*Settlement) {}},
		{"match has no record", "", func(*Settlement) {}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := storagetest.Open(t, storage.Options{})
			if tt.status != "" {
				putMatch(t, st, m, tt.status)
				putMatch(t, st, "wm_00000000000000bb", tt.status)
			}
			s := example(m)
			tt.edit(&s)
			err := st.WardenUpdate(func(tx storage.WardenTx) error { return QueueSettlement(tx, s) })
			if err == nil {
				t.Fatal("queued")
			}
			t.Log(err)
			if got := jobs(t, st, s.Match); len(got) != 0 {
				t.Fatalf("jobs %+v written by a refused settlement", got)
			}
		})
	}
	t.Run("settled already", func(t *testing.T) {
		st := storagetest.Open(t, storage.Options{})
		putMatch(t, st, m, StatusFinished)
		s := example(m)
		rows := s.Rows
		for i := range rows {
			rows[i].SettledAt = rows[i].FinishedAt
			if rows[i].PaidOut > 0 {
				ref := "0x" + strings.Repeat("2", 64)
				rows[i].PayoutRef = &ref
			}
		}
		if _, err := st.AppendWardenMatch(rows[:]); err != nil {
			t.Fatal(err)
		}
		err := st.WardenUpdate(func(tx storage.WardenTx) error { return QueueSettlement(tx, s) })
		if !errors.Is(err, storage.ErrExists) {
			t.Fatalf("%v, want ErrExists", err)
		}
	})
}

// TestWorkerWithoutWallet: with no wallet key the jobs wait, untouched, while a match that
// pays nobody still settles and the sweep still expires an unjoined match; the books balance:
// four stakes in, nothing paid, the house keeping the whole bank of the match that paid nobody.
func TestWorkerWithoutWallet(t *testing.T) {
	st := storagetest.Open(t, storage.Options{})
	now := time.Date(2026, 12, 4, 3, 0, 0, 0, time.UTC)
	w := New(Options{Store: st, Now: func() time.Time { return now }})
	putMatch(t, st, "wm_00000000000000c1", StatusFinished)
	putMatch(t, st, "wm_00000000000000c2", StatusFinished)
	if err := queue(st, example("wm_00000000000000c1")); err != nil {
		t.Fatal(err)
	}
	if err := queue(st, finished("wm_00000000000000c2", 1_000_000, [2]int64{0, 0}, 0, ada, quill)); err != nil {
		t.Fatal(err)
	}
	if err := st.WardenUpdate(func(tx storage.WardenTx) error {
		return tx.Put("match/wm_00000000000000c3", map[string]any{"id": "wm_00000000000000c3", "status": StatusOpen,
			"a": ada.id, "open_until_ms": now.Add(-time.Millisecond).UnixMilli()})
	}); err != nil {
		t.Fatal(err)
	}
	if err := w.Pass(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := jobs(t, st, "wm_00000000000000c1")
	if len(got) != 2 || got["payoutq/wm_00000000000000c1/A"].Status != JobQueued || got["payoutq/wm_00000000000000c1/B"].Status != JobQueued {
		t.Fatalf("jobs %+v, want both queued", got)
	}
	var s1, s2, s3 string
	if err := st.WardenView(func(tx storage.WardenTx) (err error) {
		if s1, err = matchStatus(tx, "wm_00000000000000c1"); err != nil {
			return err
		}
		if s2, err = matchStatus(tx, "wm_00000000000000c2"); err != nil {
			return err
		}
		s3, err = matchStatus(tx, "wm_00000000000000c3")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if s1 != StatusSettling || s2 != StatusSettled || s3 != StatusExpired {
		t.Fatalf("statuses %s %s %s, want SETTLING SETTLED EXPIRED", s1, s2, s3)
	}
	b, err := Audit(st)
	if err != nil {
		t.Fatal(err)
	}
	if want := (Books{StakesIn: 4_000_000, House: 2_000_000}); b != want {
		t.Fatalf("books %+v, want %+v", b, want)
	}
}

// TestQueueSettlementRefusesRowsThatAreNotTheMatchsSeats: a settlement whose rows balance but
// pay wallets other than the match record's seats (a stranger, the seats swapped), or a stake
// other than the match's, or the zero address, is refused with nothing written (§2.1, §11:
// the payout goes to the Contender's registered wallet, out of the bank 2S of the match).
func TestQueueSettlementRefusesRowsThatAreNotTheMatchsSeats(t *testing.T) {
	const m = "wm_00000000000000cc"
	mallory := side{"0x000000000000000000000000000000000000beef", "Mallory", "gambler"}
	zero := side{"0x0000000000000000000000000000000000000000", "Zero", "gambler"}
	tests := []struct {
		name string
		s    Settlement
	}{
		{"a stranger paid in seat B", finished(m, 1_000_000, [2]int64{725_000, 1_005_000}, 500, ada, mallory)},
		{"seats swapped", finished(m, 1_000_000, [2]int64{725_000, 1_005_000}, 500, quill, ada)},
		{"another stake", finished(m, 5_000_000, [2]int64{3_625_000, 5_025_000}, 500, ada, quill)},
		{"the zero address paid", finished(m, 1_000_000, [2]int64{725_000, 1_005_000}, 500, ada, zero)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := storagetest.Open(t, storage.Options{})
			putMatch(t, st, m, StatusFinished)
			err := queue(st, tt.s)
			if err == nil {
				t.Fatal("queued")
			}
			t.Log(err)
			if got := jobs(t, st, m); len(got) != 0 {
				t.Fatalf("jobs %+v written by a refused settlement", got)
			}
			var p pending
			if err := st.WardenView(func(tx storage.WardenTx) error {
				found, err := tx.Get(settleKey(m), &p)
				if found {
					t.Errorf("settlement kept: %+v", p)
				}
				return err
			}); err != nil {
				t.Fatal(err)
			}
			if got := matchStatusOf(t, st, m); got != StatusFinished {
				t.Fatalf("match is %s after a refused settlement, want FINISHED", got)
			}
		})
	}
	t.Run("the zero address, with no match record", func(t *testing.T) {
		s := finished(m, 1_000_000, [2]int64{725_000, 1_005_000}, 500, zero, quill)
		if err := s.Check(); !errors.Is(err, storage.ErrInvalid) {
			t.Fatalf("Check: %v, want ErrInvalid", err)
		}
	})
}

func matchStatusOf(t *testing.T, st *storage.Store, m string) string {
	t.Helper()
	var s string
	if err := st.WardenView(func(tx storage.WardenTx) error {
		var err error
		s, err = matchStatus(tx, m)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return s
}
