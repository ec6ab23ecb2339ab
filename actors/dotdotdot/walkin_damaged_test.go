package dotdotdot

import (
	"errors"
	"path/filepath"
	"testing"

	"arena/actors"
	"arena/storage"
	"arena/storage/storagetest"
)

// TestWalkinFreedFromDamagedTable: a walk-in's live table whose stored record cannot be decoded
// at boot is parked as failed: the walk-in can join again, and an ops stop or restart of the
// table is refused (actors.ErrBadSpec, actors.ErrDamaged), not an internal error.
func TestWalkinFreedFromDamagedTable(t *testing.T) {
	e := newDeskEnv(t, "", nil)
	ctx := deskCtx(t)
	token, err := e.a.RegisterWalkin(ctx, "Dora", "")
	if err != nil {
		t.Fatal(err)
	}
	j, err := e.a.JoinWalkin(ctx, token, JoinRequest{Format: "short"})
	if err != nil {
		t.Fatal(err)
	}
	deskMustPoll(t, e.a, token) // the seat is taken and recorded
	dir, clock := e.dir, e.clock
	e.stop()

	storagetest.Corrupt(t, filepath.Join(dir, "arena.db"), storage.BucketTables, []byte(j.Table), []byte("{not a record\n"))

	e2 := newDeskEnv(t, dir, clock)
	if _, err := e2.a.Stored(j.Table); !errors.Is(err, actors.ErrDamaged) {
		t.Fatalf("stored record of %s after the damage: %v, want ErrDamaged", j.Table, err)
	}
	j2, err := e2.a.JoinWalkin(ctx, token, JoinRequest{Format: "short"})
	if err != nil {
		t.Fatalf("join after the reboot: %v (the walk-in is stuck at a damaged table)", err)
	}
	if j2.Table == j.Table {
		t.Fatalf("the new join went to the damaged table %s", j.Table)
	}
	for name, op := range map[string]func() error{
		"stop":    func() error { return e2.a.StopTable(ctx, j.Table) },
		"restart": func() error { return e2.a.RestartTable(ctx, j.Table) },
	} {
		if err := op(); !errors.Is(err, actors.ErrBadSpec) || !errors.Is(err, actors.ErrDamaged) {
			t.Errorf("ops %s of the damaged table: %v, want ErrBadSpec and ErrDamaged", name, err)
		}
	}
}
