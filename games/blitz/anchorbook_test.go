package blitz

import (
	"testing"

	"arena/games"
)

// The book keeps a commitment request as its kind alone when its hash is its sealed
// commitment's id, and keeps the hash of every other request (a commitment whose hash is not
// that id, a kind it has no name for, every other kind): each reads back whole by seq; seq 0
// and seqs past the last read as none; recording marks one request only.
func TestAnchorBookUnit(t *testing.T) {
	var b anchorBook
	sealed := []*promise{{id: "sha256:" + strings64("ab")}, {id: "sha256:" + strings64("cd")}}
	var h1, h2, h3, h4 [32]byte
	h1[0], h2[0], h3[0], h4[0] = 1, 2, 3, 4
	room := anchorHashRoom(games.Format{Turns: 5, Exchanges: 3})
	if room != 18 {
		t.Fatalf("a blitz round keeps room for %d hashes, want 18 (opened, 15 exchanges, turn, transcript)", room)
	}
	want := []games.AnchorRequest{
		b.add("opened", h1, sealed[:0], room),
		b.add("commitment", digestOf(sealed[0].id), sealed[:1], room), // its sealed commitment's id
		b.add("commitment", h2, sealed[:1], room),                     // no second commitment sealed yet
		b.add("audit", h3, sealed[:1], room),                          // no such kind
		b.add("exchange", h4, sealed[:1], room),
		b.add("commitment", digestOf(sealed[1].id), sealed, room),
	}
	if len(b.hashes) != 4 || cap(b.hashes) != room {
		t.Errorf("the book keeps %d hashes (room %d), want 4 (room %d)", len(b.hashes), cap(b.hashes), room)
	}
	for i, r := range want {
		if r.Seq != uint32(i+1) {
			t.Fatalf("request %d has seq %d", i, r.Seq)
		}
		if got, ok := b.at(r.Seq, sealed); !ok || got != r {
			t.Fatalf("at(%d) = %+v %v, want %+v", r.Seq, got, ok, r)
		}
	}
	for _, seq := range []uint32{0, 7, 1 << 31} {
		if r, ok := b.at(seq, sealed); ok {
			t.Errorf("at(%d) = %+v", seq, r)
		}
	}
	b.record(2)
	b.record(4)
	if !b.recorded(2) || !b.recorded(4) || b.recorded(1) || b.recorded(3) {
		t.Fatal("record marked another request")
	}
	got := b.pending(sealed)
	if len(got) != 4 || got[0] != want[0] || got[1] != want[2] || got[2] != want[4] || got[3] != want[5] {
		t.Fatalf("pending %+v", got)
	}
	// A recorded request still reads back whole (its hash checks a second recording).
	if r, ok := b.at(2, sealed); !ok || r != want[1] {
		t.Fatalf("at(2) once recorded = %+v %v", r, ok)
	}
}

func strings64(pair string) string {
	s := ""
	for len(s) < 64 {
		s += pair
	}
	return s
}
