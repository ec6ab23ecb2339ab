package lobby_test

import (
	"fmt"
	"sync"
	"testing"

	"arena/actors/lobby"
)

// Queues run side by side: joins from many goroutines into eight queues seat every key exactly
// once, in its own queue's tables.
func TestManyQueuesInParallel(t *testing.T) {
	r := newRig(t)
	const queues, perQueue, size = 8, 40, 4
	for i := range queues {
		r.open(lobby.Config{ID: fmt.Sprintf("q%d", i), TableSize: size, Min: 2, Seed: [32]byte{byte(i)}}, false)
	}
	var wg sync.WaitGroup
	errs := make(chan error, queues*perQueue)
	for i := range queues {
		for j := range perQueue {
			wg.Add(1)
			go func() {
				defer wg.Done()
				q := fmt.Sprintf("q%d", i)
				if _, err := r.l.Join(t.Context(), q, lobby.Entrant{Key: fmt.Sprintf("%s-k%d", q, j)}); err != nil {
					errs <- fmt.Errorf("join %s %d: %w", q, j, err)
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for i := range queues {
		q := fmt.Sprintf("q%d", i)
		tabs := r.formed(q)
		if len(tabs) != perQueue/size {
			t.Fatalf("%s: %d tables, want %d", q, len(tabs), perQueue/size)
		}
		seated := map[string]int{}
		for n, tf := range tabs {
			if tf.Queue != q || tf.Number != uint64(n+1) || len(tf.Seats) != size || tf.Reason != lobby.ReasonFull {
				t.Fatalf("%s table %d: %+v", q, n, tf)
			}
			for _, s := range tf.Seats {
				seated[s.Key]++
			}
		}
		for j := range perQueue {
			if k := fmt.Sprintf("%s-k%d", q, j); seated[k] != 1 {
				t.Fatalf("%s seated %d times", k, seated[k])
			}
		}
		if in := r.info(q); in.Waiting != 0 || in.Tables != perQueue/size {
			t.Fatalf("%s info %+v", q, in)
		}
	}
}
