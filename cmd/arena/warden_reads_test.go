package main

import (
	"log/slog"
	"path/filepath"
	"reflect"
	"testing"

	"arena/config"
	"arena/storage"
	"arena/transport/warden"
)

// wardenReads: the Bracket's two Warden games with their rates' denominators (Game I 5 rounds,
// claim and offer each: 10 inputs; Game II one commit), the Standing bar from config, and the
// stake list on the doors.
func TestWardenReadsConfig(t *testing.T) {
	st, err := storage.Open(filepath.Join(t.TempDir(), "arena.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	br, err := newBracket()
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.Warden.Standing = config.WardenStanding{EliteWinRatePct: 70, EliteMinMatches: 3}
	r := wardenReads(cfg, st, br)
	want := map[string]warden.GameShape{"warden.claims": {Rounds: 5, Inputs: 10}, "warden.dilemma": {Rounds: 1, Inputs: 1}}
	if !reflect.DeepEqual(r.Games, want) || r.Rule != (warden.StandingRule{EliteWinRatePct: 70, EliteMinMatches: 3}) || r.Store != st {
		t.Fatalf("reads: %+v", r)
	}
	d, err := wardenDoors(t.Context(), config.Default(), st, br, "", slog.New(slog.DiscardHandler))
	if err != nil || !reflect.DeepEqual(d.Stakes, []uint64{1_000_000, 5_000_000, 10_000_000}) {
		t.Fatalf("doors' stakes %v, %v", d.Stakes, err)
	}
}
