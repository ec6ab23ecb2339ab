package dotdotdot

import (
	"encoding/json"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"arena/storage"
)

// practised registers a walk-in whose record has its three Practice rounds (the walkin table is
// open to it) and returns its token and record key.
func practised(t *testing.T, e *deskEnv, name string) (token, hash string) {
	t.Helper()
	tok, err := e.a.RegisterWalkin(deskCtx(t), name, "")
	if err != nil {
		t.Fatal(err)
	}
	hash, _ = walkinTokenHash(tok)
	var rec walkinRecord
	b, err := e.db.Walkins().Get(hash)
	if err == nil {
		err = json.Unmarshal(b, &rec)
	}
	if err != nil {
		t.Fatal(err)
	}
	rec.Practice, rec.Rounds = PracticeRoundsForWalkin, PracticeRoundsForWalkin
	b, _ = json.Marshal(&rec)
	if err := e.db.Walkins().Put(hash, b); err != nil {
		t.Fatal(err)
	}
	return tok, hash
}

// A restart keeps the walkin table's queue: the walk-ins in it are still queued (a second join
// is in_a_round, a poll says gathering), and the top-up comes two minutes after the first of them
// came, not two minutes after the restart, seating them in the order they came. It runs in a
// synctest bubble.
func TestWalkinQueueSurvivesRestart(t *testing.T) { inBubble(t, walkinQueueSurvivesRestart) }

func walkinQueueSurvivesRestart(t *testing.T) {
	e := newDeskEnv(t, "", nil)
	ctx := deskCtx(t)
	ann, annHash := practised(t, e, "Ann")
	bo, _ := practised(t, e, "Bo")
	if j, err := e.a.JoinWalkin(ctx, ann, JoinRequest{Table: "walkin", Format: "short"}); err != nil || j.Status != "gathering" {
		t.Fatalf("join %+v %v", j, err)
	}
	// The place is saved before the join is answered.
	qs, err := e.db.WalkinQueues()
	if err != nil || len(qs) != 1 || len(qs[0].Waiting) != 1 || qs[0].Waiting[0].Hash != annHash || !qs[0].Since.Equal(deskT0) {
		t.Fatalf("stored queue once the join is answered: %+v %v", qs, err)
	}
	e.clock.Advance(30 * time.Second)
	if _, err := e.a.JoinWalkin(ctx, bo, JoinRequest{Table: "walkin", Format: "short"}); err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(30 * time.Second)

	e = restartDesk(t, e)
	synctest.Wait()
	_, err = e.a.JoinWalkin(ctx, ann, JoinRequest{Format: "short"})
	deskWantCode(t, err, CodeInARound)
	if n, err := e.a.NextMove(ctx, bo, 0); err != nil || n.Status != NextGathering {
		t.Fatalf("Bo's poll after the restart: %+v %v", n, err)
	}
	e.clock.Advance(time.Minute - time.Second)
	synctest.Wait()
	if n, err := e.a.NextMove(ctx, ann, 0); err != nil || n.Status != NextGathering {
		t.Fatalf("a second before the top-up: %+v %v", n, err)
	}
	e.clock.Advance(time.Second)
	synctest.Wait() // the restored top-up has opened the table
	na := deskMustPoll(t, e.a, ann)
	nb := deskMustPoll(t, e.a, bo)
	if !strings.HasPrefix(na.Table, "w") || na.Table != nb.Table || na.Seat != 1 || nb.Seat != 2 {
		t.Fatalf("seats after the top-up: Ann %+v, Bo %+v", na, nb)
	}
	ti, err := e.a.Table(ctx, na.Table)
	if err != nil || ti.Kind != "walkin" || len(ti.Seats) != 3 || ti.Seats[2].Kind != "house" {
		t.Fatalf("the walkin table %+v %v", ti, err)
	}
	synctest.Wait() // every walk-in has told the desk it took its seat
	if qs, err := e.db.WalkinQueues(); err != nil || len(qs) != 0 {
		t.Fatalf("stored queues once everyone is seated: %+v %v", qs, err)
	}
}

// A table filled from the queue but never opened (the process died between the two) is opened
// at the restart with the id it was saved with; one opened whose walk-ins never heard of it
// seats them at the restart. Both run in synctest bubbles.
func TestWalkinQueueOpeningAfterRestart(t *testing.T) {
	t.Run("never opened", func(t *testing.T) { inBubble(t, func(t *testing.T) { walkinQueueOpening(t, false) }) })
	t.Run("opened, walk-ins not told", func(t *testing.T) { inBubble(t, func(t *testing.T) { walkinQueueOpening(t, true) }) })
}

func walkinQueueOpening(t *testing.T, opened bool) {
	e := newDeskEnv(t, "", nil)
	ctx := deskCtx(t)
	var toks []string
	before := map[string][]byte{}
	var walkins []storage.QueuedWalkin
	for _, name := range []string{"Kai", "Lea", "Mo"} {
		tok, hash := practised(t, e, name)
		toks = append(toks, tok)
		b, _ := e.db.Walkins().Get(hash)
		before[hash] = b
		walkins = append(walkins, storage.QueuedWalkin{Hash: hash, Name: name})
	}
	id := "w00112233445566ff"
	if opened {
		for _, tok := range toks {
			if _, err := e.a.JoinWalkin(ctx, tok, JoinRequest{Table: "walkin", Format: "short"}); err != nil {
				t.Fatal(err)
			}
		}
		n := deskMustPoll(t, e.a, toks[0])
		id = n.Table
	}
	dir, clock := e.dir, e.clock
	e.stop()
	editStore(t, dir, func(db *storage.Store) {
		for hash, b := range before { // the records as they were before their seats
			if err := db.Walkins().Put(hash, b); err != nil {
				t.Fatal(err)
			}
		}
		q := storage.WalkinQueue{Format: "short", Pace: "chat", Opening: []storage.QueuedTable{{Table: id, Walkins: walkins}}}
		if err := db.PutWalkinQueue(q); err != nil {
			t.Fatal(err)
		}
	})

	e = newDeskEnv(t, dir, clock)
	synctest.Wait()
	var round string
	for seat, tok := range toks {
		n := deskMustPoll(t, e.a, tok)
		if n.Table != id || n.Seat != seat+1 || (round != "" && n.Round != round) {
			t.Fatalf("seat %d after the restart: %+v, want table %s", seat+1, n, id)
		}
		round = n.Round
	}
	synctest.Wait()
	if qs, err := e.db.WalkinQueues(); err != nil || len(qs) != 0 {
		t.Fatalf("stored queues once everyone is seated: %+v %v", qs, err)
	}
}
