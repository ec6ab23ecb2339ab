package storage

import (
	"errors"
	"fmt"
	"sync"
	"testing"
)

func ledgerRows(t *testing.T, s *Store, from uint64) []string {
	t.Helper()
	var out []string
	err := s.LedgerRows(from, func(seq uint64, row []byte) error {
		out = append(out, fmt.Sprintf("%d=%s", seq, row))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestLedgerAppendOnlyInOrder(t *testing.T) {
	s, path := openTest(t, Options{NoSync: true})
	if last, err := s.LastLedgerSeq(); err != nil || last != 0 {
		t.Fatalf("empty ledger: last %d, %v", last, err)
	}
	// 255 and 256 rows catch a little-endian or decimal key.
	var rows [][]byte
	for i := 1; i <= 300; i++ {
		rows = append(rows, []byte(fmt.Sprintf("r%d", i)))
	}
	if err := s.AppendLedger(1, rows[:255]); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendLedger(256, rows[255:]); err != nil {
		t.Fatal(err)
	}
	got := ledgerRows(t, s, 0)
	if len(got) != 300 || got[0] != "1=r1" || got[255] != "256=r256" || got[299] != "300=r300" {
		t.Fatalf("rows %d: %v … %v", len(got), got[:2], got[len(got)-2:])
	}
	if got := ledgerRows(t, s, 299); fmt.Sprint(got) != "[299=r299 300=r300]" {
		t.Fatalf("from 299: %v", got)
	}

	tests := []struct {
		name  string
		first uint64
		rows  [][]byte
		want  error
	}{
		{"a taken sequence", 300, [][]byte{[]byte("x")}, ErrExists},
		{"an old sequence", 1, [][]byte{[]byte("x")}, ErrExists},
		{"a gap", 302, [][]byte{[]byte("x")}, ErrBadKey},
		{"sequence zero", 0, [][]byte{[]byte("x")}, ErrBadKey},
		{"an empty row", 301, [][]byte{[]byte("x"), nil}, ErrBadKey},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := s.AppendLedger(tt.first, tt.rows); !errors.Is(err, tt.want) {
				t.Fatalf("AppendLedger(%d): %v, want %v", tt.first, err, tt.want)
			}
		})
	}
	if last, _ := s.LastLedgerSeq(); last != 300 {
		t.Fatalf("a refused append wrote: last %d", last)
	}
	if err := s.AppendLedger(301, nil); err != nil {
		t.Fatalf("empty append: %v", err)
	}

	// The rows survive a reopen.
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2, err := Open(path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if last, _ := s2.LastLedgerSeq(); last != 300 {
		t.Fatalf("after reopen: last %d", last)
	}
	if got := ledgerRows(t, s2, 300); fmt.Sprint(got) != "[300=r300]" {
		t.Fatalf("after reopen: %v", got)
	}
}

// Two writers racing for the same sequence numbers: exactly one wins each, and the bucket keeps
// no gap and no overwritten row (the committer may rerun a write after a failed group).
func TestLedgerRacingWritersNeverOverwrite(t *testing.T) {
	s, _ := openTest(t, Options{NoSync: true})
	const n = 50
	var wg sync.WaitGroup
	var mu sync.Mutex
	won := map[string]int{}
	for _, w := range []string{"a", "b"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for seq := uint64(1); seq <= n; seq++ {
				err := s.AppendLedger(seq, [][]byte{[]byte(w)})
				switch {
				case err == nil:
					mu.Lock()
					won[w]++
					mu.Unlock()
				case !errors.Is(err, ErrExists): // each writer reaches seq only once seq-1 is written
					t.Errorf("%s at %d: %v", w, seq, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if won["a"]+won["b"] != n {
		t.Fatalf("wins %v, want %d in all", won, n)
	}
	var seqs []uint64
	_ = s.LedgerRows(1, func(seq uint64, _ []byte) error { seqs = append(seqs, seq); return nil })
	for i, q := range seqs {
		if q != uint64(i+1) {
			t.Fatalf("sequence %v has a gap at %d", seqs, i)
		}
	}
	if len(seqs) != n {
		t.Fatalf("%d rows, want %d", len(seqs), n)
	}
}
