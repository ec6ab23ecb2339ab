package games

import (
	"bytes"
	"compress/flate"
	"io"
	"math/rand/v2"
	"sync"
	"testing"
)

// Hostile tests of a Doc as a head plus a shared tail (DocTail, JoinTail, WithHead).

// Heads carved side by side from one block (each head's capacity reaching into the next) and
// tail segments carved side by side from one buffer, uncapped: junk appended to every segment a
// walk yields and to every flat form reaches no other Doc, and no Doc changes. (The caller's
// own head slices are the caller's: WithHead keeps them, not copies, as its doc says.)
func TestDocTailAppends(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 60))
	dict := NewPackDict(testLog(r, 20), flate.DefaultCompression)
	junk := []byte(`XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX`)
	for n := 0; n < 200; n++ {
		block := make([]byte, 0, 4096)
		var heads [][]byte
		for k := 0; k < 1+r.IntN(6); k++ {
			at := len(block)
			block = append(block, testLog(r, r.IntN(3))...)
			heads = append(heads, block[at:len(block)]) // capacity to the block's end
		}
		buf := make([]byte, 0, 4096)
		var parts [][]byte
		for k := 0; k < r.IntN(6); k++ {
			at := len(buf)
			buf = append(buf, testLog(r, r.IntN(3))...)
			parts = append(parts, buf[at:len(buf)])
		}
		var run *Packed
		if r.IntN(2) == 0 {
			run = testPacker.Pack(dict, nil, testLog(r, 1+r.IntN(4)))
		}
		tail := JoinTail(run, r.IntN(len(parts)+1), parts...)
		var docs []Doc
		var want [][]byte
		for _, h := range heads {
			d := tail.WithHead(h)
			docs = append(docs, d)
			want = append(want, bytes.Clone(d.Bytes()))
		}
		for _, d := range docs {
			for seg := range d.Segments() {
				_ = append(seg, junk...)
			}
			_ = append(d.Bytes(), junk...)
		}
		for i, d := range docs {
			if !bytes.Equal(d.Bytes(), want[i]) {
				t.Fatalf("case %d doc %d: changed by appends:\n got  %q\n want %q", n, i, d.Bytes(), want[i])
			}
		}
	}
}

// Docs sharing one tail with a packed run, read at once from several goroutines by every reader
// (Bytes, AppendTo, WriteTo, Reader, Segments, Equal, MarshalJSON): each reads its own bytes
// (go test -race reports any shared inflate state written by two readers).
func TestDocTailConcurrentReaders(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 61))
	dict := NewPackDict(testLog(r, 20), flate.DefaultCompression)
	run := testPacker.Pack(dict, nil, testLog(r, 30))
	tail := JoinTail(run, 1, testLog(r, 2), testLog(r, 3))
	var docs []Doc
	var want [][]byte
	for k := 0; k < 6; k++ {
		d := tail.WithHead(testLog(r, 1))
		docs = append(docs, d)
		want = append(want, d.Bytes())
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := 0; g < 6; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 30; k++ {
				i := (g + k) % len(docs)
				d := docs[i]
				var w bytes.Buffer
				_, _ = d.WriteTo(&w)
				rd, _ := io.ReadAll(d.Reader())
				var walked []byte
				for p := range d.Segments() {
					walked = append(walked, p...)
				}
				m, _ := d.MarshalJSON()
				if !bytes.Equal(d.Bytes(), want[i]) || !bytes.Equal(d.AppendTo(nil), want[i]) || !bytes.Equal(w.Bytes(), want[i]) ||
					!bytes.Equal(rd, want[i]) || !bytes.Equal(walked, want[i]) || !bytes.Equal(m, want[i]) ||
					!d.Equal(RawDoc(want[i])) || d.Equal(docs[(i+1)%len(docs)]) != bytes.Equal(want[i], want[(i+1)%len(docs)]) {
					errs <- "a reader differs"
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}
