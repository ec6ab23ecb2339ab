package lobby_test

import (
	"slices"
	"testing"

	"arena/actors/lobby"
)

func TestTiersSplitOnlyAfterDistinctKeys(t *testing.T) {
	r := newRig(t)
	r.open(six("g"), true)
	rook, vets := names("r", 20), names("v", 20)
	for _, v := range vets {
		r.completed[v] = lobby.DefaultRookieMatches
	}
	r.completed["r20"] = lobby.DefaultRookieMatches - 1

	if got := r.join("g", "r20"); got.Tier != lobby.TierRookie {
		t.Fatalf("9 completed: %+v, want rookie", got)
	}
	if got := r.join("g", "v20"); got.Tier != lobby.TierOpen {
		t.Fatalf("10 completed: %+v, want open", got)
	}
	if was, _ := r.l.Leave(t.Context(), "g", "r20"); !was {
		t.Fatal("leave r20")
	}
	if was, _ := r.l.Leave(t.Context(), "g", "v20"); !was {
		t.Fatal("leave v20")
	}
	// A key joining again is not a new key.
	r.join("g", "r20")
	r.l.Leave(t.Context(), "g", "r20")
	if in := r.info("g"); in.Seen != 2 || in.Split || in.Waiting != 0 {
		t.Fatalf("info %+v, want 2 seen, not split", in)
	}

	// One shared line: five rookies and a veteran make a mixed table.
	for _, k := range append(slices.Clone(rook[:5]), vets[0]) {
		r.join("g", k)
	}
	tabs := r.formed("g")
	if len(tabs) != 1 || tabs[0].Tier != lobby.TierOpen {
		t.Fatalf("mixed table: %+v", tabs)
	}
	for _, s := range tabs[0].Seats {
		if want := map[bool]string{true: lobby.TierOpen, false: lobby.TierRookie}[s.Key == vets[0]]; s.Tier != want {
			t.Fatalf("seat %s tier %q, want %q", s.Key, s.Tier, want)
		}
	}
	// Six rookies: a rookie table.
	for _, k := range rook[5:11] {
		r.join("g", k)
	}
	if tabs := r.formed("g"); len(tabs) != 2 || tabs[1].Tier != lobby.TierRookie {
		t.Fatalf("rookie table: %+v", tabs[len(tabs)-1])
	}
	// Veterans up to 23 distinct keys (r20 and v20 counted): one open table, three waiting.
	for _, k := range vets[1:9] {
		r.join("g", k)
	}
	if in := r.info("g"); in.Seen != 22 || in.Split || in.Waiting != 2 {
		t.Fatalf("info %+v, want 22 seen, not split, 2 waiting", in)
	}
	r.join("g", vets[9])
	if in := r.info("g"); in.Seen != 23 || in.Split || in.Waiting != 3 {
		t.Fatalf("info %+v, want 23 seen, not split, 3 waiting", in)
	}
	// The 24th distinct key splits the line: the rookie waits apart from the three veterans.
	got := r.join("g", rook[11])
	if got.Seated || got.Position != 1 || got.Waiting != 1 || got.Tier != lobby.TierRookie {
		t.Fatalf("24th key: %+v, want alone in the rookie line", got)
	}
	if in := r.info("g"); in.Seen != 24 || !in.Split || in.Waiting != 4 ||
		in.ByTier[lobby.TierRookie] != 1 || in.ByTier[lobby.TierOpen] != 3 {
		t.Fatalf("info %+v, want split with 1 rookie and 3 open", in)
	}
	if p, err := r.l.Position(t.Context(), "g", vets[9]); err != nil || p.Position != 3 || p.Waiting != 3 || p.Tier != lobby.TierOpen {
		t.Fatalf("position of the last veteran: %+v %v", p, err)
	}
	// Each tier fills its own table.
	for _, k := range rook[12:16] {
		if got := r.join("g", k); got.Seated {
			t.Fatalf("rookie %s seated with %d rookies", k, got.Waiting)
		}
	}
	r.join("g", vets[10])
	r.join("g", vets[11])
	r.join("g", vets[12]) // six veterans
	tabs = r.formed("g")
	if len(tabs) != 4 || tabs[3].Tier != lobby.TierOpen || !slices.Equal(sortedKeys(tabs[3]), vets[7:13]) {
		t.Fatalf("open table: %d tables, last %+v %v", len(tabs), tabs[len(tabs)-1], keys(tabs[len(tabs)-1]))
	}
	r.join("g", rook[16]) // six rookies
	tabs = r.formed("g")
	if len(tabs) != 5 || tabs[4].Tier != lobby.TierRookie || !slices.Equal(sortedKeys(tabs[4]), rook[11:17]) {
		t.Fatalf("rookie table: %d tables, last %+v %v", len(tabs), tabs[len(tabs)-1], keys(tabs[len(tabs)-1]))
	}
	for _, s := range tabs[4].Seats {
		if s.Tier != lobby.TierRookie {
			t.Fatalf("seat %+v at the rookie table", s)
		}
	}
}

func TestSplitConfiguredFromTheStart(t *testing.T) {
	r := newRig(t)
	c := six("g")
	c.Split = true
	r.open(c, true)
	r.completed["v"] = 50
	r.join("g", "r")
	if got := r.join("g", "v"); got.Position != 1 || got.Tier != lobby.TierOpen {
		t.Fatalf("veteran: %+v, want first in the open line", got)
	}
	if in := r.info("g"); !in.Split || in.Seen != 0 {
		t.Fatalf("info %+v", in)
	}
}

// Without Completed there are no tiers: everyone is open, whatever the split.
func TestNoTiersWithoutCompleted(t *testing.T) {
	r := newRig(t)
	r.open(six("g"), false)
	for _, k := range names("k", 30) {
		if got := r.join("g", k); got.Tier != lobby.TierOpen {
			t.Fatalf("%s: %+v", k, got)
		}
	}
	for _, tf := range r.formed("g") {
		if tf.Tier != lobby.TierOpen {
			t.Fatalf("table %+v", tf)
		}
	}
	if n := len(r.formed("g")); n != 5 {
		t.Fatalf("%d tables of 30, want 5", n)
	}
}
