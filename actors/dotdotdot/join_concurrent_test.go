package dotdotdot

import (
	"context"
	"sync"
	"testing"
)

// One live seat per Badge (docs/protocol-notes "A2A and joins": `in_a_round`). JoinAgent checks
// liveSeatOf and then opens a table, with nothing held between the two, so joins of one Badge
// that arrive together (the door verifies each with its own fresh nonce) each find no live
// seat and each open a table. Against `arena serve`, ten concurrent signed joins of one Badge
// seated it at six practice tables (T-4 … T-9), four got in_a_round.
func TestConcurrentJoinsOfOneBadgeSeatItOnce(t *testing.T) {
	h, _ := blitzHarness(t)
	ctx := context.Background()
	const n = 8
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		seated []string
		other  []error
	)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := h.arena.JoinAgent(ctx, AgentJoin{Agent: joinAgentID, Name: "Ada", Endpoint: "https://ada.example/a2a",
				Table: "practice", Format: "short", Human: true})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				seated = append(seated, r.Round)
			case !isCode(err, CodeInARound):
				other = append(other, err)
			}
		}()
	}
	wg.Wait()
	if len(other) != 0 {
		t.Fatalf("refusals other than in_a_round: %v", other)
	}
	if len(seated) != 1 {
		t.Fatalf("%d concurrent joins of one Badge seated it in %d rounds %v; want exactly one seat, the rest in_a_round", n, len(seated), seated)
	}
}
