package storage

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"arena/games/warden/feed"
)

var feedT0 = time.Date(2026, 11, 30, 3, 10, 4, 512_000_000, time.UTC)

func feedHead(match string, sec int) feed.Head {
	return feed.Head{At: feedT0.Add(time.Duration(sec) * time.Second), MatchID: match, Game: "warden.claims"}
}

func roundStarted(match string, round int) feed.Event {
	return feed.RoundStarted{Round: round, Pot: feed.Pot{Base: 200000, Step: 50000, Cap: 400000},
		Balances: feed.Pair[int64]{A: 1000000, B: 1000000}}.Event(feedHead(match, round))
}

// Feed events are appended in the transaction of the state change they report: the global seq
// runs from 1 with no gap across matches, each match's from 0; the global and match reads page
// by seq; a reopened file keeps them all and passes Check.
func TestWardenFeedAppendsInTheStateWrite(t *testing.T) {
	s, path := openTest(t, Options{NoSync: true})
	var seqs []uint64
	for i := range 6 {
		match := []string{"wm_00000000000000aa", "wm_00000000000000bb"}[i%2]
		err := s.WardenUpdate(func(tx WardenTx) error {
			if err := tx.Put("match/"+match, map[string]int{"step": i}); err != nil {
				return err
			}
			seq, err := tx.AppendFeed(roundStarted(match, i/2+1))
			seqs = append(seqs, seq)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if fmt.Sprint(seqs) != "[1 2 3 4 5 6]" {
		t.Fatalf("global seqs %v, want 1..6", seqs)
	}
	all, err := s.WardenFeed(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 6 || all[0].Seq != 1 || all[5].Seq != 6 || all[1].MatchID != "wm_00000000000000bb" {
		t.Fatalf("global feed %+v", all)
	}
	want := `{"v":1,"seq":1,"t":"2026-11-30T03:10:05.512Z","match_id":"wm_00000000000000aa","game":"warden.claims","type":"round_started","round":1,"data":{"balances":{"A":1000000,"B":1000000},"pot":{"base":200000,"cap":400000,"step":50000},"round":1}}`
	if got := string(mustJSON(all[0])); got != want {
		t.Fatalf("envelope\n got %s\nwant %s", got, want)
	}
	page, err := s.WardenFeed(2, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(page) != 3 || page[0].Seq != 3 || page[2].Seq != 5 {
		t.Fatalf("page after 2 of 3: %+v", page)
	}
	b, err := s.WardenMatchFeed("wm_00000000000000bb", 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) != 2 || b[0].Seq != 1 || b[0].Round != 2 || b[1].Seq != 2 || b[1].Round != 3 {
		t.Fatalf("match bb from 1: %+v", b)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	checkFile(t, path)
	s2, err := Open(path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	again, err := s2.WardenFeed(0, 0)
	if err != nil || len(again) != 6 || string(mustJSON(again[0])) != want {
		t.Fatalf("after reopen: %v %+v", err, again)
	}
	if seq := appendOne(t, s2, roundStarted("wm_00000000000000aa", 4)); seq != 7 {
		t.Fatalf("seq after reopen %d, want 7", seq)
	}
	aa, err := s2.WardenMatchFeed("wm_00000000000000aa", 0, 0)
	if err != nil || len(aa) != 4 || aa[3].Seq != 3 {
		t.Fatalf("match aa: %v %+v", err, aa)
	}
}

func appendOne(t *testing.T, s *Store, ev feed.Event) uint64 {
	t.Helper()
	var seq uint64
	if err := s.WardenUpdate(func(tx WardenTx) (err error) {
		seq, err = tx.AppendFeed(ev)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return seq
}

// An aborted transaction leaves no event and wakes nobody; a committed one wakes the readers only
// after it committed (the channel is still open inside the transaction).
func TestWardenFeedWakesAfterCommitOnly(t *testing.T) {
	s, _ := openTest(t, Options{NoSync: true})
	wake := s.WardenFeedWake()
	boom := errors.New("boom")
	err := s.WardenUpdate(func(tx WardenTx) error {
		if _, err := tx.AppendFeed(roundStarted("wm_00000000000000aa", 1)); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("aborted update: %v", err)
	}
	if evs, _ := s.WardenFeed(0, 0); len(evs) != 0 {
		t.Fatalf("aborted transaction left %+v", evs)
	}
	select {
	case <-wake:
		t.Fatal("woken by an aborted transaction")
	default:
	}
	err = s.WardenUpdate(func(tx WardenTx) error {
		_, err := tx.AppendFeed(roundStarted("wm_00000000000000aa", 1))
		select {
		case <-wake:
			return errors.New("woken before the commit")
		default:
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-wake:
	default:
		t.Fatal("not woken by the commit")
	}
	if s.WardenFeedWake() == wake {
		t.Fatal("the next wake channel is the closed one")
	}
	// A state write without a feed event wakes nobody.
	wake = s.WardenFeedWake()
	if err := s.WardenUpdate(func(tx WardenTx) error { return tx.Put("match/wm_00000000000000aa", 1) }); err != nil {
		t.Fatal(err)
	}
	select {
	case <-wake:
		t.Fatal("woken by a write without a feed event")
	default:
	}
}

// Refusals write nothing: an event a constructor refused, the zero Event, an event with no match,
// and messages_published before its match's match_settled (accepted after it).
func TestWardenFeedRefusals(t *testing.T) {
	s, _ := openTest(t, Options{NoSync: true})
	m := "wm_00000000000000cc"
	msgs := feed.MessagesPublished{Messages: []feed.Message{{Round: 1, From: "A", To: "B", Text: "hi"}}}.Event(feedHead(m, 9))
	cases := []struct {
		name string
		ev   feed.Event
		want error
	}{
		{"zero event", feed.Event{}, feed.ErrEmpty},
		{"bad seat", feed.Sealed{Round: 1, Seat: "C", Commitment: "sha256:" + hex64}.Claim(feedHead(m, 1)), nil},
		{"no match", roundStarted("", 1), ErrBadKey},
		{"match id with a slash", roundStarted("wm_a/b", 1), ErrBadKey},
		{"lobby", feed.Lobby{LiveMatches: 1}.Event(feedT0), ErrBadKey},
		{"messages before settled", msgs, ErrBadKey},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			err := s.WardenUpdate(func(tx WardenTx) error { _, err := tx.AppendFeed(tt.ev); return err })
			if err == nil || (tt.want != nil && !errors.Is(err, tt.want)) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
		})
	}
	if evs, _ := s.WardenFeed(0, 0); len(evs) != 0 {
		t.Fatalf("refusals left %+v", evs)
	}
	settled := feed.MatchSettled{LedgerRows: [2]uint64{1, 2}, LedgerHead: feed.LedgerHead{Seq: 2, RowHash: "sha256:" + hex64},
		StandingAfter: feed.Pair[feed.Standing]{A: feed.Standing{Tier: "SOLVENT", Matches: 1}, B: feed.Standing{Tier: "UNDERWATER", Matches: 1}}}
	if seq := appendOne(t, s, settled.Event(feedHead(m, 8))); seq != 1 {
		t.Fatalf("settled at %d", seq)
	}
	if seq := appendOne(t, s, msgs); seq != 2 {
		t.Fatalf("messages at %d", seq)
	}
}

const hex64 = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"

// Writers racing through the group commit still get distinct, gapless seqs, and each match's own
// count is gapless in its append order.
func TestWardenFeedConcurrentAppendsGapless(t *testing.T) {
	s, _ := openTest(t, Options{NoSync: true})
	const writers, each = 8, 25
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			match := fmt.Sprintf("wm_%016x", w%3)
			for i := range each {
				if err := s.WardenUpdate(func(tx WardenTx) error {
					_, err := tx.AppendFeed(roundStarted(match, i+1))
					return err
				}); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	all, err := s.WardenFeed(0, writers*each+10)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != writers*each {
		t.Fatalf("%d events, want %d", len(all), writers*each)
	}
	for i, e := range all {
		if e.Seq != uint64(i+1) {
			t.Fatalf("event %d has seq %d", i, e.Seq)
		}
	}
	for w := range 3 {
		m, err := s.WardenMatchFeed(fmt.Sprintf("wm_%016x", w), 0, -1)
		if err != nil {
			t.Fatal(err)
		}
		for i, e := range m {
			if e.Seq != uint64(i) {
				t.Fatalf("match %d event %d has seq %d", w, i, e.Seq)
			}
		}
	}
}
