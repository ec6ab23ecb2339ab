package storage

import (
	"encoding/json"
	"errors"
	"testing"

	"arena/games"
)

// A line of a transcript is written once: the same (round, seq) written again with the same
// bytes is taken (a step written again changes nothing), with other bytes it is refused with
// ErrExists and nothing of its commit is stored, so an engine that numbers two lines alike
// cannot silently replace the first.
func TestEventRewrittenWithOtherBytesIsRefused(t *testing.T) {
	s, _ := openTest(t, Options{NoSync: true})
	if err := s.CommitStep("a", []byte("one"), []games.Event{ev("T-1", 1, "x"), ev("T-1", 2, "y")}); err != nil {
		t.Fatal(err)
	}
	if err := s.CommitStep("a", []byte("one"), []games.Event{ev("T-1", 2, "y")}); err != nil {
		t.Fatalf("the same line written again: %v", err)
	}
	other := ev("T-1", 2, "z")
	err := s.CommitInputs("a", []byte("two"), [][]byte{[]byte(`{"op":"advance"}`)}, []games.Event{ev("T-1", 3, "x"), other})
	if !errors.Is(err, ErrExists) {
		t.Fatalf("line T-1/2 written with other bytes: err %v, want ErrExists", err)
	}
	changed := ev("T-1", 1, "x")
	changed.Payload = json.RawMessage(`{"n":9}`)
	if err := s.CommitStep("a", []byte("two"), []games.Event{changed}); !errors.Is(err, ErrExists) {
		t.Fatalf("line T-1/1 written with another payload: err %v, want ErrExists", err)
	}
	// Two lines of one step with the same number.
	if err := s.CommitStep("a", []byte("two"), []games.Event{ev("T-1", 3, "x"), ev("T-1", 3, "w")}); !errors.Is(err, ErrExists) {
		t.Fatalf("one step's two lines T-1/3: err %v, want ErrExists", err)
	}
	rec, _ := s.LoadTable("a")
	evs, _ := s.Events("T-1")
	in, _ := s.Inputs("a")
	if string(rec) != "one" || len(evs) != 2 || evs[1].Type != "y" || string(evs[0].Payload) != `{"n":1}` || len(in) != 0 {
		t.Fatalf("after the refused commits: record %q, events %+v, %d inputs; want \"one\", the two first lines, none", rec, evs, len(in))
	}
}
