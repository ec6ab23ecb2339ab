package storage

import (
	"errors"
	"fmt"
	"testing"
)

// The market's Deltas are appended in order, from 1, one or a group per transaction, never over
// a taken number or past a gap (a refused group writes none of its Deltas), and read back in
// order; a reopened file keeps them and passes Check.
func TestMarketDeltasAppendOnlyInOrder(t *testing.T) {
	s, path := openTest(t, Options{NoSync: true})
	read := func(s *Store) []string {
		var out []string
		if err := s.MarketDeltas(func(seq uint64, d []byte) error {
			out = append(out, fmt.Sprintf("%d=%s", seq, d))
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return out
	}
	if got := read(s); len(got) != 0 {
		t.Fatalf("empty: %v", got)
	}
	for i := 1; i <= 290; i++ { // past 255 and 256: a little-endian or decimal key shows
		if err := s.AppendMarket(uint64(i), [][]byte{[]byte(fmt.Sprintf(`{"n":%d}`, i))}); err != nil {
			t.Fatal(err)
		}
	}
	var group [][]byte // ten in one transaction, numbered on from the last
	for i := 291; i <= 300; i++ {
		group = append(group, []byte(fmt.Sprintf(`{"n":%d}`, i)))
	}
	if err := s.AppendMarket(291, group); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendMarket(301, nil); err != nil {
		t.Fatalf("an empty list: %v", err)
	}
	for _, c := range []struct {
		seq  uint64
		d    string
		want error
	}{
		{300, `{}`, ErrExists}, {1, `{}`, ErrExists}, {302, `{}`, ErrBadKey}, {0, `{}`, ErrBadKey}, {301, ``, ErrBadKey}, // 301 with an empty second: neither lands
	} {
		if err := s.AppendMarket(c.seq, [][]byte{[]byte(`{"ok":1}`), []byte(c.d)}); !errors.Is(err, c.want) {
			t.Errorf("append %d %q: %v, want %v", c.seq, c.d, err, c.want)
		}
	}
	got := read(s)
	if len(got) != 300 || got[0] != `1={"n":1}` || got[255] != `256={"n":256}` || got[299] != `300={"n":300}` {
		t.Fatalf("read back %d: %v … %v", len(got), got[0], got[len(got)-1])
	}
	stop := errors.New("stop")
	n := 0
	if err := s.MarketDeltas(func(uint64, []byte) error { n++; return stop }); !errors.Is(err, stop) || n != 1 {
		t.Fatalf("stopping: %v after %d", err, n)
	}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2, err := Open(path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if got := read(s2); len(got) != 300 {
		t.Fatalf("reopened: %d deltas", len(got))
	}
}
