package dotdotdot

import (
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"arena/storage"
)

// restartDesk stops e as a deploy would and starts a new arena on the same file and clock.
func restartDesk(t *testing.T, e *deskEnv) *deskEnv {
	t.Helper()
	dir, clock := e.dir, e.clock
	e.stop()
	return newDeskEnv(t, dir, clock)
}

// editStore opens the stopped arena's file, runs f on it and closes it: what a crash left there.
func editStore(t *testing.T, dir string, f func(db *storage.Store)) {
	t.Helper()
	db, err := storage.Open(filepath.Join(dir, "arena.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	f(db)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

// A restart keeps every hosted table: a gathering one with its players, its ten-minute start
// and its walk-ins still waiting at it (they can take no other table, and a join by its code
// fills it); a started one answers started with its round for the rest of its code's hold (so
// its code cannot be drawn again), and is forgotten after.
func TestHostedTablesSurviveRestart(t *testing.T) {
	e := newDeskEnv(t, "", nil)
	ctx := deskCtx(t)
	reg := func(name string) string {
		tok, err := e.a.RegisterWalkin(ctx, name, "")
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	ann, bo, cy, dee, eve, fay := reg("Ann"), reg("Bo"), reg("Cy"), reg("Dee"), reg("Eve"), reg("Fay")
	a, err := e.a.HostTable(ctx, ann, "short")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.a.JoinHosted(ctx, bo, a.Code); err != nil {
		t.Fatal(err)
	}
	b, err := e.a.HostTable(ctx, cy, "short")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.a.JoinHosted(ctx, dee, b.Code); err != nil {
		t.Fatal(err)
	}
	full, err := e.a.JoinHosted(ctx, eve, b.Code)
	if err != nil || full.Status != HostedStarted {
		t.Fatalf("filling join %+v %v", full, err)
	}
	e.clock.Advance(time.Minute)

	e = restartDesk(t, e)
	got, err := e.a.HostedByCode(ctx, a.Code)
	if err != nil || got.Status != HostedGathering || strings.Join(got.Players, ",") != "Ann,Bo" ||
		!got.StartsBy.Equal(deskT0.Add(10*time.Minute)) || !got.Created.Equal(deskT0) {
		t.Fatalf("the gathering table after the restart: %+v %v", got, err)
	}
	if ls, err := e.a.ListHosted(ctx); err != nil || len(ls) != 1 || ls[0].Code != a.Code {
		t.Fatalf("list after the restart: %+v %v", ls, err)
	}
	got, err = e.a.HostedByCode(ctx, b.Code)
	if err != nil || got.Status != HostedStarted || got.Round != full.Round || got.Table != full.Table || !got.Started.Equal(deskT0) {
		t.Fatalf("the started table after the restart: %+v %v (want %s held)", got, err, full.Round)
	}
	// Ann and Bo still wait at their table.
	_, err = e.a.HostTable(ctx, ann, "short")
	deskWantCode(t, err, CodeAtAHostedTable)
	if n, err := e.a.NextMove(ctx, bo, 0); err != nil || n.Status != NextGathering || !strings.Contains(n.Brief, "hosted table "+a.Code) {
		t.Fatalf("Bo's poll after the restart: %+v %v", n, err)
	}
	j, err := e.a.JoinWalkin(ctx, fay, JoinRequest{Code: a.Code})
	if err != nil || j.Status != "seated" || j.Seat != 3 {
		t.Fatalf("the join that fills the restored table: %+v %v", j, err)
	}
	for seat, tok := range []string{ann, bo, fay} {
		if n := deskMustPoll(t, e.a, tok); n.Round != j.Round || n.Seat != seat+1 {
			t.Fatalf("seat %d's first move: %+v, want round %s", seat+1, n, j.Round)
		}
	}
	// The started table's code is held two hours from its start, restarts or not.
	e.clock.Advance(hostedCodeHold - time.Minute - time.Second)
	e = restartDesk(t, e)
	if got, err := e.a.HostedByCode(ctx, b.Code); err != nil || got.Status != HostedStarted {
		t.Fatalf("a second before the hold ends, after another restart: %+v %v", got, err)
	}
	e.clock.Advance(time.Second)
	_, err = e.a.HostedByCode(ctx, b.Code)
	deskWantCode(t, err, CodeUnknownTable)
	if ts, err := e.db.HostedTables(); err != nil || len(ts) != 1 || ts[0].Code != a.Code {
		t.Fatalf("stored hosted tables once the hold ended: %+v %v (want the second table only)", ts, err)
	}
}

// The ten-minute start outlives a restart: it fires ten minutes after the table was hosted, not
// after the restart, and opens the table with whoever came. It runs in a synctest bubble.
func TestHostedTimerSurvivesRestart(t *testing.T) { inBubble(t, hostedTimerSurvivesRestart) }

func hostedTimerSurvivesRestart(t *testing.T) {
	e := newDeskEnv(t, "", nil)
	ctx := deskCtx(t)
	ann, err := e.a.RegisterWalkin(ctx, "Ann", "")
	if err != nil {
		t.Fatal(err)
	}
	h, err := e.a.HostTable(ctx, ann, "blitz")
	if err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(4 * time.Minute)
	e = restartDesk(t, e)
	e.clock.Advance(6*time.Minute - time.Second)
	synctest.Wait()
	if got, err := e.a.HostedByCode(ctx, h.Code); err != nil || got.Status != HostedGathering {
		t.Fatalf("a second before ten minutes: %+v %v", got, err)
	}
	e.clock.Advance(time.Second)
	synctest.Wait() // the restored timer's message is in, the table open
	got, err := e.a.HostedByCode(ctx, h.Code)
	if err != nil || got.Status != HostedStarted || !got.Started.Equal(deskT0.Add(10*time.Minute)) {
		t.Fatalf("ten minutes after hosting, across a restart: %+v %v", got, err)
	}
	ti, err := e.a.Table(ctx, got.Table)
	if err != nil || len(ti.Seats) != 6 || ti.Seats[0].Name != "Ann" || ti.Seats[1].Kind != "house" {
		t.Fatalf("the table %+v %v", ti, err)
	}
	if n := deskMustPoll(t, e.a, ann); n.Table != got.Table || n.Seat != 1 {
		t.Fatalf("Ann's first move %+v", n)
	}
}

// A table saved as starting whose table was never opened (the process died between the two) is
// opened at the restart, with the id it was saved with, and its walk-ins seated at it. It runs
// in a synctest bubble.
func TestHostedStartingOpensAfterRestart(t *testing.T) { inBubble(t, hostedStartingOpensAfterRestart) }

func hostedStartingOpensAfterRestart(t *testing.T) {
	e := newDeskEnv(t, "", nil)
	ctx := deskCtx(t)
	ann, _ := e.a.RegisterWalkin(ctx, "Ann", "")
	bo, _ := e.a.RegisterWalkin(ctx, "Bo", "")
	h, err := e.a.HostTable(ctx, ann, "short")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.a.JoinHosted(ctx, bo, h.Code); err != nil {
		t.Fatal(err)
	}
	dir, clock := e.dir, e.clock
	e.stop()
	const id = "h00112233445566ff"
	editStore(t, dir, func(db *storage.Store) {
		ts, err := db.HostedTables()
		if err != nil || len(ts) != 1 {
			t.Fatalf("stored %+v %v", ts, err)
		}
		ts[0].Status, ts[0].Table = storage.HostedStarting, id
		if err := db.PutHosted(ts[0]); err != nil {
			t.Fatal(err)
		}
	})

	e = newDeskEnv(t, dir, clock)
	synctest.Wait() // the restored table is open
	got, err := e.a.HostedByCode(ctx, h.Code)
	if err != nil || got.Status != HostedStarted || got.Table != id || !strings.HasPrefix(got.Round, "T-") {
		t.Fatalf("the starting table after the restart: %+v %v", got, err)
	}
	for seat, tok := range []string{ann, bo} {
		if n := deskMustPoll(t, e.a, tok); n.Table != id || n.Seat != seat+1 || n.Round != got.Round {
			t.Fatalf("seat %d's first move: %+v", seat+1, n)
		}
	}
}

// A table opened while its walk-ins never heard of it (the process died after the table's
// record was committed, before the walk-ins' records took the seat) seats them at the restart.
func TestHostedOpenedReseatsAfterRestart(t *testing.T) {
	e := newDeskEnv(t, "", nil)
	ctx := deskCtx(t)
	ann, _ := e.a.RegisterWalkin(ctx, "Ann", "")
	bo, _ := e.a.RegisterWalkin(ctx, "Bo", "")
	cy, _ := e.a.RegisterWalkin(ctx, "Cy", "")
	before := map[string][]byte{} // the walk-ins' records before they were seated
	for _, tok := range []string{ann, bo, cy} {
		hash, _ := walkinTokenHash(tok)
		b, err := e.db.Walkins().Get(hash)
		if err != nil {
			t.Fatal(err)
		}
		before[hash] = b
	}
	h, err := e.a.HostTable(ctx, ann, "short")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.a.JoinHosted(ctx, bo, h.Code); err != nil {
		t.Fatal(err)
	}
	j, err := e.a.JoinWalkin(ctx, cy, JoinRequest{Code: h.Code})
	if err != nil || j.Status != "seated" {
		t.Fatalf("filling join %+v %v", j, err)
	}
	deskMustPoll(t, e.a, ann) // seated (and saved)
	dir, clock := e.dir, e.clock
	e.stop()
	editStore(t, dir, func(db *storage.Store) {
		for hash, b := range before {
			if err := db.Walkins().Put(hash, b); err != nil {
				t.Fatal(err)
			}
		}
		ts, err := db.HostedTables()
		if err != nil || len(ts) != 1 || ts[0].Table != j.Table {
			t.Fatalf("stored %+v %v", ts, err)
		}
		ts[0].Status, ts[0].Round, ts[0].Started = storage.HostedStarting, "", time.Time{}
		if err := db.PutHosted(ts[0]); err != nil {
			t.Fatal(err)
		}
	})

	e = newDeskEnv(t, dir, clock)
	for seat, tok := range []string{ann, bo, cy} {
		if n := deskMustPoll(t, e.a, tok); n.Table != j.Table || n.Seat != seat+1 || n.Round != j.Round {
			t.Fatalf("seat %d's move after the restart: %+v, want table %s", seat+1, n, j.Table)
		}
	}
	if got, err := e.a.HostedByCode(ctx, h.Code); err != nil || got.Status != HostedStarted || got.Round != j.Round {
		t.Fatalf("the table after the restart: %+v %v", got, err)
	}
}
