package storage

import (
	"reflect"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"arena/games/canon"
)

// A read catches an aggregate up with the rows it has not folded (§13.3): with Quill's stored
// fold rolled back to before its second match, WardenStanding and WardenAggregates still serve
// the fold of all its rows, its rows by Contender read back in seq order, and VerifyWarden
// names the stale key.
func TestWardenStandingCatchesUp(t *testing.T) {
	s, _ := openTest(t, Options{NoSync: true})
	first, err := s.AppendWardenMatch(example())
	if err != nil {
		t.Fatal(err)
	}
	second, err := s.AppendWardenMatch(settled("wm_0000000000000002", "warden.dilemma", 1_000_000, [2]int64{1_300_000, 300_000}, 0, quill, ada))
	if err != nil {
		t.Fatal(err)
	}
	all := append(append([]WardenRow{}, first...), second...)
	full, _ := FoldWardenRows(all)
	stale, _ := FoldWardenRows(first)
	if err := s.db.Update(func(tx *bolt.Tx) error {
		v, _ := canon.Marshal(stale[quill.id])
		return tx.Bucket([]byte(BucketWarden)).Put(wardenAggKey(quill.id), v)
	}); err != nil {
		t.Fatal(err)
	}
	got, h, err := s.WardenStanding(quill.id)
	if err != nil || !reflect.DeepEqual(got, full[quill.id]) || h.Seq != 4 {
		t.Fatalf("standing %+v at %+v (%v), want %+v", got, h, err, full[quill.id])
	}
	if got.Matches != 2 || got.Wins != 2 || got.NetTotal != 4750+300_000 || got.ThroughSeq != 3 {
		t.Fatalf("Quill after two wins: %+v", got)
	}
	n := 0
	if _, err := s.WardenAggregates(false, func(id string, a WardenAggregate) error {
		n++
		if !reflect.DeepEqual(a, full[id]) {
			t.Errorf("%s: %+v, want %+v", id, a, full[id])
		}
		return nil
	}); err != nil || n != 2 {
		t.Fatalf("%d aggregates: %v", n, err)
	}
	var seqs []uint64
	if err := s.WardenContenderRows(quill.id, 0, func(r WardenRow) error { seqs = append(seqs, r.Seq); return nil }); err != nil || !reflect.DeepEqual(seqs, []uint64{2, 3}) {
		t.Fatalf("Quill's rows %v %v", seqs, err)
	}
	seqs = nil
	if err := s.WardenContenderRows(quill.id, 2, func(r WardenRow) error { seqs = append(seqs, r.Seq); return nil }); err != nil || !reflect.DeepEqual(seqs, []uint64{3}) {
		t.Fatalf("Quill's rows after 2: %v %v", seqs, err)
	}
	if _, err := s.VerifyWarden(); err == nil {
		t.Fatal("VerifyWarden passed a stale aggregate")
	}
	if err := s.db.Update(func(tx *bolt.Tx) error { // the store's check at cleanup wants the true fold
		v, _ := canon.Marshal(full[quill.id])
		return tx.Bucket([]byte(BucketWarden)).Put(wardenAggKey(quill.id), v)
	}); err != nil {
		t.Fatal(err)
	}
}

// TierAt: the configured bar at its boundary, integer comparisons only.
func TestWardenTierAt(t *testing.T) {
	for _, c := range []struct {
		a        WardenAggregate
		pct, min int64
		want     string
	}{
		{WardenAggregate{WardenTotals: WardenTotals{Matches: 4, Wins: 3, NetTotal: 1}}, 75, 1, TierElite},
		{WardenAggregate{WardenTotals: WardenTotals{Matches: 4, Wins: 2, NetTotal: 1}}, 75, 1, TierSolvent},
		{WardenAggregate{WardenTotals: WardenTotals{Matches: 4, Wins: 3, NetTotal: 1}}, 75, 5, TierSolvent},
		{WardenAggregate{WardenTotals: WardenTotals{Matches: 3, Wins: 1, NetTotal: 1}}, 33, 1, TierElite}, // 100 ≥ 99
		{WardenAggregate{WardenTotals: WardenTotals{Matches: 3, Wins: 1, NetTotal: 1}}, 34, 1, TierSolvent},
		{WardenAggregate{WardenTotals: WardenTotals{Matches: 3, Wins: 3, NetTotal: -1}}, 1, 1, TierUnderwater},
	} {
		if got := c.a.TierAt(c.pct, c.min); got != c.want {
			t.Errorf("%+v at %d%%/%d: %s, want %s", c.a.WardenTotals, c.pct, c.min, got, c.want)
		}
	}
}

// WardenReadsSpent sums a match's settled read payments per seat: not its stakes, not a failed
// or a still-settling read, not another match's reads.
func TestWardenReadsSpent(t *testing.T) {
	s, _ := openTest(t, Options{NoSync: true})
	const match = "wm_0000000000000001"
	n := byte(0)
	add := func(resource, m, seat, status string, amount uint64) {
		t.Helper()
		n++
		p := wardenPay("wp_00000000000000"+string("0123456789abcdef"[n/16])+string("0123456789abcdef"[n%16]), n)
		p.Resource, p.Match, p.Seat, p.Amount = resource, m, seat, amount
		if _, claimed, err := s.ClaimWardenPayment(replayKey(1337, n), p); err != nil || !claimed {
			t.Fatalf("claim %d: %v", n, err)
		}
		switch status {
		case WardenPaySettled:
			p.Status, p.Tx = status, "0x"+strings.Repeat("ab", 32)
		case WardenPayFailed:
			p.Status, p.Reason = status, "insufficient_funds"
		default:
			return
		}
		if err := s.PutWardenPayment(p); err != nil {
			t.Fatal(err)
		}
	}
	read := WardenReadPrefix + "warden_state?match=" + match
	add("/v1/warden/matches/"+match+"/stake", match, "A", WardenPaySettled, 1_000_000)
	add(read, match, "A", WardenPaySettled, 10)
	add(read, match, "A", WardenPaySettled, 10)
	add(WardenReadPrefix+"warden_wait?match="+match, match, "B", WardenPaySettled, 10)
	add(read, match, "A", WardenPayFailed, 10)
	add(read, match, "B", WardenPaySettling, 10)
	add(WardenReadPrefix+"warden_state?match=wm_0000000000000002", "wm_0000000000000002", "A", WardenPaySettled, 10)
	add(WardenReadPrefix+"warden_leaderboard", "", "", WardenPaySettled, 1)
	got, err := s.WardenReadsSpent(match)
	if err != nil || !reflect.DeepEqual(got, map[string]int64{"A": 20, "B": 10}) {
		t.Fatalf("reads spent %v %v, want A 20 and B 10", got, err)
	}
}
