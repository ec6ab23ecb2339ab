package door

import (
	"errors"
	"testing"
)

func TestStreamsBoundPerAddressAndInAll(t *testing.T) {
	s := NewStreams(2, 3, "feeds")
	code := func(err error) string {
		var r *Refusal
		if !errors.As(err, &r) {
			t.Fatalf("refusal expected, got %v", err)
		}
		if !r.Retry {
			t.Errorf("%s: retry false", r.Code)
		}
		return r.Code
	}
	a1, err := s.Take("a")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Take("a"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Take("a"); code(err) != CodeRateLimited {
		t.Fatalf("third of a: %v", err)
	}
	if _, err := s.Take("b"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Take("c"); code(err) != CodeBusy {
		t.Fatalf("fourth in all: %v", err)
	}
	if s.Open() != 3 {
		t.Fatalf("open %d, want 3", s.Open())
	}
	a1()
	a1() // a second release gives nothing back twice
	if s.Open() != 2 {
		t.Fatalf("open %d after one release, want 2", s.Open())
	}
	if _, err := s.Take("c"); err != nil {
		t.Fatalf("a freed slot: %v", err)
	}
	if _, err := s.Take("c"); code(err) != CodeBusy {
		t.Fatalf("full again: %v", err)
	}
}

func TestSSEEvent(t *testing.T) {
	for _, tc := range []struct {
		id   int64
		name string
		want string
	}{
		{7, "warden", "id: 7\nevent: warden\ndata: {}\n\n"},
		{-1, "end", "event: end\ndata: {}\n\n"},
		{0, "", "id: 0\ndata: {}\n\n"},
	} {
		if got := string(SSEEvent(tc.id, tc.name, []byte("{}"))); got != tc.want {
			t.Errorf("SSEEvent(%d, %q) = %q, want %q", tc.id, tc.name, got, tc.want)
		}
	}
}
