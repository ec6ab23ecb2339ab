//go:build hostile4

package games

import (
	"bytes"
	"encoding/json"
	"io"
	"math/rand/v2"
	"testing"
)

// TestDocCorruptPackedNoPanic: a packed run whose block was cut short, bit-flipped, emptied or
// replaced by garbage (memory the Doc does not own changed under it: the packed bytes are the
// only copy of the older log) must not panic a reader: Bytes, AppendTo, WriteTo, Equal, Segments,
// Reader, MarshalJSON and json.Marshal of a struct holding the Doc. A reader with an error return
// (Reader, WriteTo, MarshalJSON) should return an error; none should take the process down (an
// envelope signed on a walk-in's goroutine or an HTTP handler flattening a state would).
//
// Today appendBlock panics ("games: packed block does not inflate") on every one of these.
func TestDocCorruptPackedNoPanic(t *testing.T) {
	d := NewPackDict(testLog(rand.New(rand.NewPCG(1, 1)), 30), 6)
	good := d.Append(nil, testLog(rand.New(rand.NewPCG(2, 2)), 40))
	blk := good.blocks[0]
	flipped := bytes.Clone(blk)
	flipped[len(flipped)/2] ^= 0x5a
	cases := map[string][]byte{
		"truncated to half": blk[:len(blk)/2],
		"last byte cut":     blk[:len(blk)-1],
		"empty":             {},
		"garbage":           []byte("not deflate at all"),
		"bit flipped":       flipped,
	}
	for name, b := range cases {
		run := &Packed{dict: d, blocks: [][]byte{b}, size: good.size}
		doc := JoinPacked(run, 1, []byte(`[`), []byte(`]`))
		readers := map[string]func() error{
			"Bytes":    func() error { _ = doc.Bytes(); return nil },
			"AppendTo": func() error { _ = doc.AppendTo(nil); return nil },
			"String":   func() error { _ = doc.String(); return nil },
			"Equal":    func() error { _ = doc.Equal(RawDoc(make([]byte, doc.Len()))); return nil },
			"WriteTo": func() error {
				_, err := doc.WriteTo(io.Discard)
				return err
			},
			"Segments": func() error {
				for range doc.Segments() {
				}
				return nil
			},
			"Reader": func() error {
				_, err := io.ReadAll(doc.Reader())
				return err
			},
			"MarshalJSON": func() error {
				_, err := json.Marshal(struct{ S Doc }{doc})
				return err
			},
		}
		for rn, read := range readers {
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Errorf("%s block, %s: panic: %v", name, rn, p)
					}
				}()
				_ = read()
			}()
		}
	}
}
