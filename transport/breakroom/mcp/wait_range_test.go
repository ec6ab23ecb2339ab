package mcp

import (
	"context"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"arena/games/breakroom/wire"
	"arena/transport/breakroom"
	"arena/transport/breakroom/auth"
	"arena/transport/breakroom/play"
	"arena/transport/httpapi"
)

// waitingBackend is stillBackend whose every connection is queued, recording the waits asked.
type waitingBackend struct {
	stillBackend
	mu    *sync.Mutex
	waits *[]time.Duration
}

func (b waitingBackend) JoinStatus(_ context.Context, _ string, w time.Duration) (wire.Outbound, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	*b.waits = append(*b.waits, w)
	return wire.Queued{Game: "dilemma", Position: 1}, nil
}

// TestWaitForTurnBeyondDurationRange: wait_for_turn's wait_ms as large as a JSON integer may be
// (2^53−1 milliseconds, past a time.Duration's range) is capped at 25,000 ms, never wrapped round
// to a negative wait.
func TestWaitForTurnBeyondDurationRange(t *testing.T) {
	var mu sync.Mutex
	var waits []time.Duration
	pd, err := play.New(play.Options{Backend: waitingBackend{stillBackend{new(int)}, &mu, &waits}, Nonces: auth.New(auth.Options{})})
	if err != nil {
		t.Fatal(err)
	}
	d, err := New(Options{Door: pd, Rules: func(g string) (string, bool) { return "# Rules", g == "dilemma" }})
	if err != nil {
		t.Fatal(err)
	}
	e, err := httpapi.Build(breakroom.Site{Doors: d}, httpapi.Global{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	for _, ms := range []string{"9007199254740991", "10000000000000", "25001"} {
		st, raw := post(t, srv, "/mcp/free", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"wait_for_turn","arguments":{"session":"s","wait_ms":`+ms+`}}}`)
		if st != 200 || !strings.Contains(raw, `queued`) {
			t.Fatalf("wait_ms %s: %d %s", ms, st, raw)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(waits) != 3 || waits[0] != MaxWait || waits[1] != MaxWait || waits[2] != MaxWait {
		t.Fatalf("waits handed to the product: %v", waits)
	}
}
