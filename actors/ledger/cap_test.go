package ledger

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"arena/storage/storagetest"
)

// TestLedgerCapConcurrent: many Posts under one Cap at once, each receiving 10 into its own hold
// with 95 of room: exactly 9 land, every other is ErrCapped and writes nothing (its hold is
// not opened), and the escrow ends at 90 ≤ 95. The barrier releases every Post together.
func TestLedgerCapConcurrent(t *testing.T) {
	st := openStore(t, storagetest.Path(t))
	defer st.Close()
	l, sys := start(t, st)
	defer sys.Shutdown()
	ctx := context.Background()
	const n = 40
	capped := &Cap{Unit: "sat", Max: 95}
	go0 := make(chan struct{})
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			<-go0
			id := fmt.Sprintf("h%d", i)
			_, errs[i] = l.Post(ctx, &Post{Rows: []Row{OpenHold(id, "sat", nil), Receive(id, "payer", 10, "inv:"+id)}, Cap: capped})
		})
	}
	close(go0)
	wg.Wait()
	ok := 0
	for i, err := range errs {
		switch {
		case err == nil:
			ok++
		case errors.Is(err, ErrCapped):
			if _, found, _ := l.Hold(ctx, fmt.Sprintf("h%d", i)); found {
				t.Fatalf("post %d refused but its hold is open", i)
			}
		default:
			t.Fatalf("post %d: %v", i, err)
		}
	}
	s := audit(t, l)
	if ok != 9 || s.Units["sat"].Held != 90 || len(s.Holds) != 9 || s.Last != 18 {
		t.Fatalf("%d landed, held %d, %d holds, %d rows; want 9, 90, 9, 18", ok, s.Units["sat"].Held, len(s.Holds), s.Last)
	}
	// Reserved counts on top of the ledger's escrow: 90 + 6 > 95.
	if _, err := l.Post(ctx, &Post{Rows: []Row{OpenHold("r", "sat", nil)}, Cap: &Cap{Unit: "sat", Max: 95, Reserved: 6}}); !errors.Is(err, ErrCapped) {
		t.Fatalf("reserved over the cap: %v", err)
	}
	if _, err := l.Post(ctx, &Post{Rows: []Row{OpenHold("r", "sat", nil)}, Cap: &Cap{Unit: "sat", Max: 95, Reserved: 5}}); err != nil {
		t.Fatalf("reserved at the cap: %v", err)
	}
	audit(t, l)
}
