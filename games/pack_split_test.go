package games

import (
	"bytes"
	"compress/flate"
	"fmt"
	"io"
	"math/rand/v2"
	"sync"
	"testing"
	"testing/iotest"
)

// TestDocPackedEverySplit: a short log cut every way into raw segments before a packed run, the
// run itself (in one to three blocks) and raw segments after it reads, through every reader,
// exactly as the flat bytes; Doc.Reader passes iotest.TestReader (reads of every size, a byte at
// a time included) and Equal holds between any two of the cuts.
func TestDocPackedEverySplit(t *testing.T) {
	d := NewPackDict([]byte(`{"seq":1,"type":"message.public"}`), 6)
	whole := []byte(`{"a":[1,2,"x\"y",{"b":null}],"c":"é😀"}`)
	n := len(whole)
	var docs []Doc
	for i := 0; i <= n; i += 3 { // raw before [0,i)
		for j := i; j <= n; j += 2 { // packed [i,j)
			for blocks := 1; blocks <= 3; blocks++ {
				var run *Packed
				step := max(1, (j-i+blocks-1)/blocks)
				for k := i; k < j; k += step {
					run = testPacker.Pack(d, run, whole[k:min(j, k+step)])
				}
				var parts [][]byte
				for k := 0; k < i; k += 5 {
					parts = append(parts, whole[k:min(i, k+5)])
				}
				at := len(parts)
				parts = append(parts, []byte{}) // an empty segment where the run goes
				for k := j; k < n; k += 4 {
					parts = append(parts, whole[k:min(n, k+4)])
				}
				doc := JoinPacked(run, at, parts...)
				what := fmt.Sprintf("raw [0,%d) packed [%d,%d) in %d blocks", i, i, j, blocks)
				if doc.Len() != n || !bytes.Equal(doc.Bytes(), whole) || doc.String() != string(whole) {
					t.Fatalf("%s: Len %d Bytes %q", what, doc.Len(), doc.Bytes())
				}
				if got := doc.AppendTo([]byte("pre")); string(got) != "pre"+string(whole) {
					t.Fatalf("%s: AppendTo %q", what, got)
				}
				var w bytes.Buffer
				if k, err := doc.WriteTo(&w); err != nil || k != int64(n) || !bytes.Equal(w.Bytes(), whole) {
					t.Fatalf("%s: WriteTo %q %d %v", what, w.Bytes(), k, err)
				}
				if err := iotest.TestReader(doc.Reader(), whole); err != nil {
					t.Fatalf("%s: Reader: %v", what, err)
				}
				if got, err := io.ReadAll(iotest.OneByteReader(doc.Reader())); err != nil || !bytes.Equal(got, whole) {
					t.Fatalf("%s: one byte at a time %q %v", what, got, err)
				}
				docs = append(docs, doc)
			}
		}
	}
	r := rand.New(rand.NewPCG(4, 4))
	for k := 0; k < 2000; k++ {
		a, b := docs[r.IntN(len(docs))], docs[r.IntN(len(docs))]
		if !a.Equal(b) {
			t.Fatalf("two cuts of one log are not Equal: %q %q", a.Bytes(), b.Bytes())
		}
	}
	other := bytes.Clone(whole)
	other[n-2] = 'X'
	for _, doc := range docs {
		if doc.Equal(RawDoc(other)) || RawDoc(other).Equal(doc) {
			t.Fatalf("a cut is Equal to other bytes of its length")
		}
	}
}

// TestPackDictSharedByTables (go test -race): one PackDict serves every table, as Blitz's
// pubLogDict does: tables pack their own runs on their own goroutines while each reads its own
// and the others' runs back; every run reads exactly what was appended to it.
func TestPackDictSharedByTables(t *testing.T) {
	d := NewPackDict(testLog(rand.New(rand.NewPCG(1, 1)), 40), flate.DefaultCompression)
	const tables = 6
	runs := make([]chanRun, tables)
	for i := range runs {
		runs[i] = chanRun{ch: make(chan snapshotRun, 64)}
	}
	var wg sync.WaitGroup
	errs := make(chan error, 1000)
	for i := 0; i < tables; i++ {
		wg.Add(2)
		go func() { // the table: packs its log between steps
			defer wg.Done()
			defer close(runs[i].ch)
			r := rand.New(rand.NewPCG(uint64(i), 9))
			var run *Packed
			var want []byte
			for s := 0; s < 40; s++ {
				b := testLog(r, 1+r.IntN(8))
				run, want = testPacker.Pack(d, run, b), append(want, b...)
				runs[i].ch <- snapshotRun{run, bytes.Clone(want)}
				if got := JoinPacked(run, 0).Bytes(); !bytes.Equal(got, want) {
					errs <- fmt.Errorf("table %d step %d: its own run reads %d bytes, want %d", i, s, len(got), len(want))
					return
				}
			}
		}()
		go func() { // another goroutine: flattens the table's runs (envelopes signed elsewhere)
			defer wg.Done()
			for sr := range runs[(i+1)%tables].ch {
				doc := JoinPacked(sr.run, 1, []byte(`[`), []byte(`]`))
				var w bytes.Buffer
				if _, err := doc.WriteTo(&w); err != nil || w.Len() != len(sr.want)+2 ||
					!bytes.Equal(w.Bytes()[1:w.Len()-1], sr.want) {
					errs <- fmt.Errorf("a run read on another goroutine differs (%d bytes, want %d)", w.Len(), len(sr.want)+2)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

type snapshotRun struct {
	run  *Packed
	want []byte
}

type chanRun struct{ ch chan snapshotRun }

// FuzzDocPackedSplit: any bytes, cut anywhere into raw segments, a packed run of up to four
// blocks and more raw segments, read the same through every reader of the Doc as flat.
func FuzzDocPackedSplit(f *testing.F) {
	d := NewPackDict([]byte(`{"seq":1,"type":"message.public","payload":{}}`), 6)
	f.Add([]byte(`{"a":[1,2,3],"public_log":[{"seq":1}]}`), uint8(3), uint8(20), uint8(2), uint8(5))
	f.Add([]byte(``), uint8(0), uint8(0), uint8(1), uint8(1))
	f.Add([]byte("\x00\xff"), uint8(1), uint8(2), uint8(4), uint8(7))
	f.Fuzz(func(t *testing.T, whole []byte, i, j, blocks, seg uint8) {
		n := len(whole)
		a, b := min(int(i), n), min(int(j), n)
		if a > b {
			a, b = b, a
		}
		s := 1 + int(seg)%7
		k := 1 + int(blocks)%4
		var run *Packed
		step := max(1, (b-a+k-1)/k)
		for x := a; x < b; x += step {
			run = testPacker.Pack(d, run, whole[x:min(b, x+step)])
		}
		var parts [][]byte
		for x := 0; x < a; x += s {
			parts = append(parts, whole[x:min(a, x+s)])
		}
		at := len(parts)
		for x := b; x < n; x += s {
			parts = append(parts, whole[x:min(n, x+s)])
		}
		doc := JoinPacked(run, at, parts...)
		if doc.Len() != n || !bytes.Equal(doc.Bytes(), whole) || !bytes.Equal(doc.AppendTo(nil), whole) {
			t.Fatalf("Len %d Bytes %q, want %q", doc.Len(), doc.Bytes(), whole)
		}
		var w bytes.Buffer
		if m, err := doc.WriteTo(&w); err != nil || m != int64(n) || !bytes.Equal(w.Bytes(), whole) {
			t.Fatalf("WriteTo %q %v", w.Bytes(), err)
		}
		var walked []byte
		for p := range doc.Segments() {
			walked = append(walked, p...)
		}
		if !bytes.Equal(walked, whole) {
			t.Fatalf("Segments %q", walked)
		}
		if err := iotest.TestReader(doc.Reader(), whole); err != nil {
			t.Fatal(err)
		}
		if !doc.Equal(RawDoc(bytes.Clone(whole))) || !RawDoc(bytes.Clone(whole)).Equal(doc) || doc.IsZero() != (n == 0) {
			t.Fatal("not Equal to its flat copy")
		}
	})
}
