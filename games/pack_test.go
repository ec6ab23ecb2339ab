package games

import (
	"bytes"
	"compress/flate"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// testPacker packs for the tests as a table actor's side does: one Deflater lent to one caller
// at a time, behind a lock.
var testPacker = &lockedPacker{}

type lockedPacker struct {
	mu sync.Mutex
	z  Deflater
}

func (p *lockedPacker) Pack(d *PackDict, run *Packed, raw ...[]byte) *Packed {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.z.Pack(d, run, raw...)
}

// testLog is a comma-joined list of n JSON events, varied enough not to be all one string.
func testLog(r *rand.Rand, n int) []byte {
	var b []byte
	for i := 0; i < n; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"seq":`+strconv.Itoa(i)+`,"type":"message.public","payload":{"from":`+
			strconv.Itoa(1+r.IntN(6))+`,"text":"`+strings.Repeat(string(rune('a'+r.IntN(26))), r.IntN(40))+`"}}`...)
	}
	return b
}

// A packed run reads back as exactly the bytes appended to it, block by block, and a Pack
// leaves the run it started from as it was (Docs holding it keep reading what they held).
func TestPackedAppendReadsBack(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	d := NewPackDict(testLog(r, 50), flate.DefaultCompression)
	var p *Packed
	var want []byte
	var older []*Packed
	var olderWant [][]byte
	for i := 0; i < 20; i++ {
		a, b := testLog(r, 1+r.IntN(20)), testLog(r, r.IntN(3))
		p = testPacker.Pack(d, p, a, b)
		want = append(append(want, a...), b...)
		older, olderWant = append(older, p), append(olderWant, bytes.Clone(want))
	}
	if p.Len() != len(want) || p.PackedLen() >= len(want)/2 {
		t.Fatalf("Len %d (want %d), packed %d: not packed", p.Len(), len(want), p.PackedLen())
	}
	for i, o := range older {
		if got := JoinPacked(o, 0).Bytes(); !bytes.Equal(got, olderWant[i]) {
			t.Fatalf("run %d reads %d bytes, want %d", i, len(got), len(olderWant[i]))
		}
	}
	if (*Packed)(nil).Len() != 0 || testPacker.Pack(d, nil).Len() != 0 || !JoinPacked(nil, 0).IsZero() {
		t.Fatal("an empty run is not empty")
	}
	// another dictionary's run cannot be appended to (it would inflate against the wrong one)
	defer func() {
		if recover() == nil {
			t.Fatal("Pack across dictionaries did not panic")
		}
	}()
	testPacker.Pack(NewPackDict(nil, 6), p, []byte("x"))
}

// Every reader of a Doc (Bytes, AppendTo, WriteTo, Equal, Segments, Reader, MarshalJSON) gives
// the same bytes whether it holds a packed run or not, wherever the run sits among the raw
// segments (empty ones included).
func TestDocPackedReadersAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 11))
	d := NewPackDict(testLog(r, 30), 2)
	for n := 0; n < 400; n++ {
		var parts [][]byte
		for k := r.IntN(5); k > 0; k-- {
			parts = append(parts, testLog(r, r.IntN(3)))
		}
		var run *Packed
		var runBytes []byte
		for k := r.IntN(3); k > 0; k-- {
			b := testLog(r, r.IntN(4))
			run, runBytes = testPacker.Pack(d, run, b), append(runBytes, b...)
		}
		at := r.IntN(len(parts) + 1)
		var whole []byte
		for _, p := range parts[:at] {
			whole = append(whole, p...)
		}
		whole = append(whole, runBytes...)
		for _, p := range parts[at:] {
			whole = append(whole, p...)
		}
		raw := RawDoc(bytes.Clone(whole))
		doc := JoinPacked(run, at, parts...)
		if doc.Len() != len(whole) || !bytes.Equal(doc.Bytes(), whole) || !doc.Equal(raw) || !raw.Equal(doc) ||
			doc.Packed() != (len(runBytes) > 0) {
			t.Fatalf("case %d: Len %d Bytes %q want %q", n, doc.Len(), doc.Bytes(), whole)
		}
		if got := doc.AppendTo([]byte("x")); !bytes.Equal(got, append([]byte("x"), whole...)) {
			t.Fatalf("case %d: AppendTo %q", n, got)
		}
		var w bytes.Buffer
		if k, err := doc.WriteTo(&w); err != nil || k != int64(len(whole)) || !bytes.Equal(w.Bytes(), whole) {
			t.Fatalf("case %d: WriteTo %q %d %v", n, w.Bytes(), k, err)
		}
		var walked []byte
		for p := range doc.Segments() {
			walked = append(walked, p...)
		}
		if !bytes.Equal(walked, whole) {
			t.Fatalf("case %d: Segments %q", n, walked)
		}
		if got, err := io.ReadAll(doc.Reader()); err != nil || !bytes.Equal(got, whole) {
			t.Fatalf("case %d: Reader %q %v", n, got, err)
		}
		if len(whole) > 0 {
			if b, err := doc.MarshalJSON(); err != nil || !bytes.Equal(b, whole) {
				t.Fatalf("case %d: MarshalJSON %q %v", n, b, err)
			}
			other := bytes.Clone(whole)
			other[r.IntN(len(other))] ^= 1
			if doc.Equal(RawDoc(other)) {
				t.Fatalf("case %d: Equal to other bytes", n)
			}
		}
	}
}

// A walk that stops before a packed run never inflates it: the house policy reads the state up
// to the public log and stops there.
func TestDocSegmentsStopBeforePacked(t *testing.T) {
	d := NewPackDict(nil, 6)
	run := testPacker.Pack(d, nil, []byte(`1,2,3`))
	run.blocks[0] = []byte{0xff, 0xff} // not DEFLATE: inflating it would panic
	doc := JoinPacked(run, 1, []byte(`{"a":[`), []byte(`]}`))
	for p := range doc.Segments() {
		if string(p) != `{"a":[` {
			t.Fatalf("walked to %q", p)
		}
		break
	}
	buf := make([]byte, 3)
	if k, err := doc.Reader().Read(buf); err != nil || string(buf[:k]) != `{"a` {
		t.Fatalf("Reader read %q %v", buf[:k], err)
	}
}

// Docs sharing one packed run and its dictionary are flattened by many goroutines at once while
// the run goes on growing (go test -race): a run is immutable, Pack makes a new one, and the
// dictionary's deflater and inflaters are safe for concurrent use.
func TestDocPackedConcurrentReaders(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	d := NewPackDict(testLog(r, 20), flate.DefaultCompression)
	var run *Packed
	var whole []byte
	type held struct {
		doc  Doc
		want []byte
	}
	var docs []held
	for i := 0; i < 8; i++ {
		b := testLog(r, 10)
		run = testPacker.Pack(d, run, b)
		whole = append(whole, b...)
		docs = append(docs, held{JoinPacked(run, 1, []byte("["), []byte("]")),
			append(append([]byte("["), whole...), ']')})
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for k := 0; k < 20; k++ {
				h := docs[(g+k)%len(docs)]
				if !bytes.Equal(h.doc.Bytes(), h.want) {
					errs <- "Bytes differ"
				}
				if got, _ := io.ReadAll(h.doc.Reader()); !bytes.Equal(got, h.want) {
					errs <- "Reader differs"
				}
			}
		}(g)
	}
	wg.Add(1)
	go func() { // the log goes on: more packs on the same dictionary meanwhile
		defer wg.Done()
		p := run
		for k := 0; k < 20; k++ {
			p = testPacker.Pack(d, p, testLog(rand.New(rand.NewPCG(uint64(k), 1)), 5))
		}
	}()
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}
