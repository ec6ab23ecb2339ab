package breakroom

import (
	"context"
	"sync"
	"testing"

	"arena/games"
)

// TestFollowerNeverSlowsTheTable: three socket agents play a whole match while two spectators
// follow it: one reads every line, one (a buffer of one line) never reads. The match is played
// out; the stalled follower was dropped (its channel closed, Dropped) while the reading one got
// every public line of the stored log after its backlog, in order, ending with match_end; no
// line it got is private; no follower is left subscribed; a finished match is not_live and
// another id unknown_match.
func TestFollowerNeverSlowsTheTable(t *testing.T) {
	h := newHarness(t, shortDilemma(3, 3))
	<-h.room.Ready()
	as := []*agent{newAgent(h, "Ada"), newAgent(h, "Bea"), newAgent(h, "Cy")}
	rds := make([]*reader, len(as))
	for i, a := range as {
		rds[i] = &reader{h: h, conn: a.join(ViaWebSocket).Conn}
	}
	s, err := seatedOn(rds[0])
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	reading, err := h.room.Follow(ctx, s.MatchID, 0)
	if err != nil {
		t.Fatal(err)
	}
	stalled, err := h.room.Follow(ctx, s.MatchID, 1)
	if err != nil {
		t.Fatal(err)
	}
	var got []games.Event
	got = append(got, reading.Backlog...)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ev := range reading.C {
			got = append(got, ev)
		}
	}()
	var wg sync.WaitGroup
	for _, rd := range rds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := playOn(h, rd); err != nil {
				t.Errorf("play: %v", err)
			}
		}()
	}
	wg.Wait()
	<-done
	if !stalled.Dropped() || reading.Dropped() {
		t.Fatalf("dropped: the stalled follower %v, the reading one %v", stalled.Dropped(), reading.Dropped())
	}
	n := 0
	for range stalled.C { // closed: what it held is there, then the end of the channel
		n++
	}
	if n > 1 {
		t.Fatalf("the stalled follower held %d lines past its buffer of 1", n)
	}
	evs, err := h.store.Events(s.MatchID)
	if err != nil {
		t.Fatal(err)
	}
	var want []games.Event
	for _, ev := range evs {
		if ev.Visibility == games.Public {
			want = append(want, ev)
		}
	}
	if len(got) != len(want) || len(want) < 5 || got[len(got)-1].Type != "match_end" {
		t.Fatalf("the reading follower got %d lines, the log has %d public ones", len(got), len(want))
	}
	for i := range want {
		if got[i].Seq != want[i].Seq || got[i].Type != want[i].Type || string(got[i].Payload) != string(want[i].Payload) {
			t.Fatalf("line %d: got %d %s, the log %d %s", i, got[i].Seq, got[i].Type, want[i].Seq, want[i].Type)
		}
	}
	if c := h.room.follow.count(); c != 0 {
		t.Fatalf("%d followers still subscribed", c)
	}
	if _, err := h.room.Follow(ctx, s.MatchID, 0); codeOf(err) != "not_live" {
		t.Fatalf("following a finished match: %v", err)
	}
	if _, err := h.room.Follow(ctx, "m_nosuch", 0); codeOf(err) != "unknown_match" {
		t.Fatalf("following an unknown match: %v", err)
	}
}

// TestFollowerHearsTheAbandon: an operator stops a match followed from its seating; the follower
// hears match_start first and match_abandoned last (public lines, the stored log's last), then its
// channel closes, and it was not dropped.
func TestFollowerHearsTheAbandon(t *testing.T) {
	h := newHarness(t, shortDilemma(3, 3))
	<-h.room.Ready()
	var rds []*reader
	for _, n := range []string{"Ada", "Bea", "Cy"} {
		rds = append(rds, &reader{h: h, conn: newAgent(h, n).join(ViaWebSocket).Conn})
	}
	s, err := seatedOn(rds[0])
	if err != nil {
		t.Fatal(err)
	}
	f, err := h.room.Follow(context.Background(), s.MatchID, 0)
	if err != nil {
		t.Fatal(err)
	}
	heard := append([]games.Event(nil), f.Backlog...)
	if len(heard) == 0 { // the table is stopped once it has opened the match
		heard = append(heard, <-f.C)
	}
	table, err := h.store.RoundTable(s.MatchID)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.arena.StopTable(context.Background(), table); err != nil {
		t.Fatal(err)
	}
	for ev := range f.C {
		heard = append(heard, ev)
	}
	for _, ev := range heard {
		if ev.Visibility != games.Public {
			t.Fatalf("a private line: %s", ev.Type)
		}
	}
	last := heard[len(heard)-1]
	if heard[0].Type != "match_start" || last.Type != "match_abandoned" || f.Dropped() {
		t.Fatalf("the follower heard %s … %s, dropped %v", heard[0].Type, last.Type, f.Dropped())
	}
	evs, err := h.store.Events(s.MatchID)
	if err != nil || evs[len(evs)-1].Seq != last.Seq {
		t.Fatalf("the stored log does not end with the line heard: %v", err)
	}
}
