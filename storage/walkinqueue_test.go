package storage

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// A queue is kept through a reopen, waiting walk-ins and opening tables alike; an empty one is
// deleted rather than stored.
func TestWalkinQueuesSurviveReopen(t *testing.T) {
	s, path := openTest(t, Options{NoSync: true})
	t0 := time.Date(2026, 9, 9, 14, 0, 0, 0, time.UTC)
	ann, bo, cy := QueuedWalkin{Hash: strings.Repeat("a1", 32), Name: "Ann"}, QueuedWalkin{Hash: strings.Repeat("b2", 32), Name: "Bo"},
		QueuedWalkin{Hash: strings.Repeat("c3", 32), Name: "Cy"}
	short := WalkinQueue{Format: "short", Pace: "chat", Since: t0, Waiting: []QueuedWalkin{ann, bo},
		Opening: []QueuedTable{{Table: "w00112233", Walkins: []QueuedWalkin{cy}}}}
	blitz := WalkinQueue{Format: "blitz", Pace: "agent", Since: t0, Waiting: []QueuedWalkin{cy}}
	for _, q := range []WalkinQueue{short, blitz} {
		if err := s.PutWalkinQueue(q); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.PutWalkinQueue(WalkinQueue{Format: "blitz", Pace: "agent"}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutWalkinQueue(WalkinQueue{Format: "a/b", Pace: "chat", Waiting: []QueuedWalkin{ann}}); !errors.Is(err, ErrBadKey) {
		t.Fatalf("format with '/': %v", err)
	}
	_ = s.Close()
	s2, err := Open(path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	got, err := s2.WalkinQueues()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 {
		t.Fatalf("queues after reopen: %+v, want short/chat only (blitz/agent emptied)", got)
	}
	q := got[0]
	if q.Key() != "short/chat" || !q.Since.Equal(t0) || len(q.Waiting) != 2 || q.Waiting[0] != ann || q.Waiting[1] != bo ||
		len(q.Opening) != 1 || q.Opening[0].Table != "w00112233" || len(q.Opening[0].Walkins) != 1 || q.Opening[0].Walkins[0] != cy {
		t.Fatalf("queue after reopen: %+v", q)
	}
}

func TestWalkinQueueCheckFindsDamage(t *testing.T) {
	h := strings.Repeat("a1", 32)
	checkDamage(t, BucketWalkinQueue, []damaged{
		{"short/chat", []byte("["), "walkin queue does not decode"},
		{"short/agent", mustJSON(WalkinQueue{Format: "short", Pace: "chat", Waiting: []QueuedWalkin{{Hash: h}}}), "under another key"},
		{"blitz/chat", mustJSON(WalkinQueue{Format: "blitz", Pace: "chat"}), "an empty queue"},
		{"blitz/agent", mustJSON(WalkinQueue{Format: "blitz", Pace: "agent", Waiting: []QueuedWalkin{{Hash: "Ann"}}}), "not a record key"},
		{"x/y", mustJSON(WalkinQueue{Format: "x", Pace: "y", Opening: []QueuedTable{{Table: "", Walkins: []QueuedWalkin{{Hash: h}}}}}), `opening table ""`},
	})
}
