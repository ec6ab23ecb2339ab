package dotdotdot

import (
	"context"
	"fmt"
	"testing"
	"time"

	"arena/storage"
)

// RecentShowings lists the stored showings of every round newest start first (a tie by round),
// at most n, running and shown alike, each as stored (its transaction once answered); n ≤ 0
// lists none.
func TestRecentShowingsNewestFirstCapped(t *testing.T) {
	h := kindsHarness(t)
	st := h.arena.Store()
	put := []storage.Showing{
		{Round: "T-3", Table: "a", Seq: 1788962400, Speed: 1, Hash: "03", Tx: "aa", Ended: true},
		{Round: "T-9", Table: "b", Seq: 1788962600, Speed: 4, Hash: "09"},
		{Round: "T-1", Table: "c", Seq: 1788962600, Speed: 2, Hash: "01", Tx: "bb"},
		{Round: "T-3", Table: "a", Seq: 1788962500, Speed: 10, Hash: "03", Ended: true},
	}
	for _, sh := range put {
		sh.Started = time.Unix(int64(sh.Seq), 0).UTC()
		if err := st.PutShowing(sh); err != nil {
			t.Fatal(err)
		}
	}
	got, err := h.arena.RecentShowings(context.Background(), 3)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, sh := range got {
		keys = append(keys, fmt.Sprintf("%s/%d×%d tx=%s ended=%v", sh.Round, sh.Seq, sh.Speed, sh.Tx, sh.Ended))
	}
	want := []string{"T-1/1788962600×2 tx=bb ended=false", "T-9/1788962600×4 tx= ended=false", "T-3/1788962500×10 tx= ended=true"}
	if fmt.Sprint(keys) != fmt.Sprint(want) {
		t.Fatalf("recent showings %v, want %v", keys, want)
	}
	if none, err := h.arena.RecentShowings(context.Background(), 0); err != nil || none == nil || len(none) != 0 {
		t.Fatalf("RecentShowings(0) = %v, %v; want an empty list", none, err)
	}
}
