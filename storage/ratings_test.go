package storage

import (
	"errors"
	"fmt"
	"testing"
)

// A table is rated once: its round is kept under the next seq and each agent's rating updated in
// the same write; a second rating of the table writes nothing; the rounds come back in seq order.
func TestRateRoundOnce(t *testing.T) {
	s, _ := openTest(t, Options{NoSync: true})
	agents := []string{"ccd:c/cis-2:A1", "ccd:c/cis-2:B2"}
	bump := func(n int) func([][]byte) ([][]byte, error) {
		return func(old [][]byte) ([][]byte, error) {
			out := make([][]byte, len(old))
			for i, o := range old {
				out[i] = fmt.Appendf(nil, `{"n":%d,"old":%q}`, n, o)
			}
			return out, nil
		}
	}
	for i, table := range []string{"r1", "r2"} {
		rated, err := s.RateRound(table, fmt.Appendf(nil, `{"table":%q}`, table), agents, bump(i+1))
		if err != nil || !rated {
			t.Fatalf("%s: rated %v %v", table, rated, err)
		}
	}
	rated, err := s.RateRound("r1", []byte(`{"table":"r1","again":true}`), agents, bump(9))
	if err != nil || rated {
		t.Fatalf("r1 again: rated %v %v", rated, err)
	}
	got, err := s.Rating(agents[1])
	if err != nil || string(got) != `{"n":2,"old":"{\"n\":1,\"old\":\"\"}"}` {
		t.Fatalf("rating %s %v", got, err)
	}
	var rounds []string
	if err := s.RatedRounds(func(seq uint64, r []byte) error {
		rounds = append(rounds, fmt.Sprintf("%d %s", seq, r))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(rounds) != `[1 {"table":"r1"} 2 {"table":"r2"}]` {
		t.Fatalf("rounds %v", rounds)
	}
	n := 0
	if err := s.Ratings(func(a string, _ []byte) error {
		if a != agents[n] {
			t.Errorf("rating %d for %q", n, a)
		}
		n++
		return nil
	}); err != nil || n != 2 {
		t.Fatalf("ratings %d %v", n, err)
	}
	if _, err := s.Rating("ccd:c/cis-2:Nobody"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unrated: %v", err)
	}
	// An update that fails writes nothing, the round included.
	boom := errors.New("boom")
	if _, err := s.RateRound("r3", []byte(`{}`), agents, func([][]byte) ([][]byte, error) { return nil, boom }); !errors.Is(err, boom) {
		t.Fatalf("failed update: %v", err)
	}
	if _, err := s.RateRound("r3", []byte(`{}`), agents, func(old [][]byte) ([][]byte, error) { return old[:1], nil }); err == nil {
		t.Fatal("one rating for two agents: no error")
	}
	if rated, err := s.RateRound("r3", []byte(`{}`), nil, func([][]byte) ([][]byte, error) { return nil, nil }); err != nil || !rated {
		t.Fatalf("r3 after a failed write: %v %v", rated, err)
	}
	for _, bad := range [][]string{{""}, nil} {
		if _, err := s.RateRound("", []byte(`{}`), bad, nil); !errors.Is(err, ErrBadKey) {
			t.Errorf("empty table: %v", err)
		}
	}
}
