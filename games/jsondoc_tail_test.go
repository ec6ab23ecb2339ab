package games

import (
	"bytes"
	"compress/flate"
	"io"
	"math/rand/v2"
	"testing"
)

// Docs made from one tail share its segments (the same memory, not copies) and each reads as
// its own head followed by the tail; a head is capped, so an append through it cannot reach
// the buffer it was carved from.
func TestDocTailSharedByHeads(t *testing.T) {
	block := make([]byte, 0, 64)
	block = append(block, `{"me":1,`...)
	h1 := block[:len(block):len(block)]
	block = append(block, `{"me":2,`...)
	h2 := block[len(h1):]
	log := append(make([]byte, 0, 32), `1,2`...)
	tail := JoinTail(nil, 0, []byte(`"log":[`), nil, log, []byte(`]}`))
	if tail.Len() != len(`"log":[1,2]}`) {
		t.Fatalf("tail Len %d", tail.Len())
	}
	d1, d2 := tail.WithHead(h1), tail.WithHead(h2)
	if d1.String() != `{"me":1,"log":[1,2]}` || d2.String() != `{"me":2,"log":[1,2]}` ||
		d1.Len() != 20 || d2.Len() != 20 {
		t.Fatalf("docs %q %q (len %d %d)", d1, d2, d1.Len(), d2.Len())
	}
	s1, s2 := segments(d1), segments(d2)
	if len(s1) != 4 || len(s2) != 4 {
		t.Fatalf("segments %q %q", s1, s2)
	}
	for i := 1; i < 4; i++ {
		if &s1[i][0] != &s2[i][0] {
			t.Fatalf("segment %d (%q) is not shared", i, s1[i])
		}
	}
	if &s1[0][0] != &h1[0] || &s2[0][0] != &h2[0] {
		t.Fatal("a head was copied")
	}
	// the log grows in place and a head's buffer keeps being written: the docs read as they were
	log = append(log, `,3`...)
	_ = append(s1[0], 'X')
	if string(h2) != `{"me":2,` || d1.String() != `{"me":1,"log":[1,2]}` || d2.String() != `{"me":2,"log":[1,2]}` {
		t.Fatalf("docs changed: %q %q (head 2 %q)", d1, d2, h2)
	}
	if !d1.Equal(RawDoc([]byte(`{"me":1,"log":[1,2]}`))) || d1.Equal(d2) {
		t.Fatal("Equal across heads")
	}
	// an empty tail: the head alone, returned as it is by Bytes
	if b := (DocTail{}).WithHead(h1).Bytes(); &b[0] != &h1[0] || len(b) != len(h1) {
		t.Fatalf("head-only doc %q", b)
	}
	if !(DocTail{}).WithHead(nil).IsZero() || !JoinTail(nil, 0, nil, []byte{}).WithHead(nil).IsZero() {
		t.Fatal("empty head and tail is not the zero doc")
	}
	// an empty head: a one-segment tail is returned as it is
	one := []byte(`{}`)
	if b := JoinTail(nil, 0, one).WithHead(nil).Bytes(); &b[0] != &one[0] {
		t.Fatal("a one-segment doc copied its bytes")
	}
}

// Every reader of a Doc with a head and a tail holding a packed run (Bytes, AppendTo,
// WriteTo, Reader, Segments, Equal, MarshalJSON) agrees with the bytes it was made of, wherever
// the run sits among the tail's segments, and with a JoinDoc of the same bytes.
func TestDocTailReadersAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	dict := NewPackDict(testLog(r, 30), flate.DefaultCompression)
	for n := 0; n < 300; n++ {
		head := testLog(r, r.IntN(2))
		var parts [][]byte
		for k := r.IntN(5); k > 0; k-- {
			parts = append(parts, testLog(r, r.IntN(3)))
		}
		var run *Packed
		if r.IntN(3) > 0 {
			run = testPacker.Pack(dict, nil, testLog(r, 1+r.IntN(5)))
		}
		at := r.IntN(len(parts) + 1)
		want := append([]byte(nil), head...)
		for _, p := range parts[:at] {
			want = append(want, p...)
		}
		want = JoinPacked(run, 0).AppendTo(want)
		for _, p := range parts[at:] {
			want = append(want, p...)
		}
		d := JoinTail(run, at, append([][]byte(nil), parts...)...).WithHead(head)
		if d.Len() != len(want) || d.IsZero() != (len(want) == 0) || d.Packed() != (run.Len() > 0) {
			t.Fatalf("case %d: Len %d want %d, Packed %v", n, d.Len(), len(want), d.Packed())
		}
		if !bytes.Equal(d.Bytes(), want) || !bytes.Equal(d.AppendTo([]byte("x")), append([]byte("x"), want...)) {
			t.Fatalf("case %d: Bytes %q want %q", n, d.Bytes(), want)
		}
		var w bytes.Buffer
		if k, err := d.WriteTo(&w); err != nil || k != int64(len(want)) || !bytes.Equal(w.Bytes(), want) {
			t.Fatalf("case %d: WriteTo %q (%d, %v)", n, w.Bytes(), k, err)
		}
		if got, err := io.ReadAll(d.Reader()); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("case %d: Reader %q (%v)", n, got, err)
		}
		var walked []byte
		for p := range d.Segments() {
			walked = append(walked, p...)
		}
		if !bytes.Equal(walked, want) {
			t.Fatalf("case %d: Segments %q", n, walked)
		}
		cut := r.IntN(len(want) + 1)
		if o := JoinDoc(want[:cut:cut], want[cut:]); !d.Equal(o) || !o.Equal(d) {
			t.Fatalf("case %d: not Equal to the same bytes split at %d", n, cut)
		}
		if len(want) > 0 {
			other := bytes.Clone(want)
			other[r.IntN(len(other))] ^= 1
			if d.Equal(RawDoc(other)) {
				t.Fatalf("case %d: Equal to other bytes", n)
			}
			if m, err := d.MarshalJSON(); err != nil || !bytes.Equal(m, want) {
				t.Fatalf("case %d: MarshalJSON %q %v", n, m, err)
			}
		}
	}
}

// A doc with a head yields the head first, on its own, before the tail and its packed run.
func TestDocTailWalkStopsAtHead(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	dict := NewPackDict(testLog(r, 10), flate.DefaultCompression)
	d := JoinTail(testPacker.Pack(dict, nil, testLog(r, 5)), 0).WithHead([]byte(`{"me":{},`))
	n := 0
	for p := range d.Segments() {
		n++
		if string(p) != `{"me":{},` {
			t.Fatalf("first segment %q", p)
		}
		break
	}
	if n != 1 {
		t.Fatalf("walked %d segments", n)
	}
}
