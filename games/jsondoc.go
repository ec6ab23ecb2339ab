package games

import (
	"bytes"
	"io"
	"iter"
)

// Doc is one JSON value held as a sequence of segments that are read in order and never
// changed once the Doc is made. A game builds a prompt's state from segments some of which are
// shared between prompts: Blitz's §5.4 state object carries the whole public log, the same
// append-only bytes in every seat's envelope, so a Doc lets six seats' states (and the prompts
// of the next phase, which extend the same log) share one copy of it instead of one each.
//
// Besides raw segments a Doc may hold one Packed run (deflated: the older part of a log a table
// holds between steps). A Doc is flattened only where bytes must leave: an envelope signed for an
// agent or a walk-in's mailbox (Bytes, AppendTo, WriteTo), which inflates its packed runs.
// House seats read it without flattening it (Segments, which inflates a run only when the walk
// reaches it). Segments are shared, so a Doc's users must never write into a segment or append
// to one.
//
// A Doc is its own head segment (RawDoc's bytes, or the seat's own part of a state built with
// DocTail.WithHead) followed by a tail of segments that may be shared by many Docs (DocTail):
// six seats' states of one phase share one tail, so each costs its head and a header, not its
// own list of the tail's segments.
//
// The zero Doc is empty and marshals as JSON null, as an empty json.RawMessage would.
type Doc struct {
	head []byte // the Doc's first segment, capped at its length; may be empty
	tail *segs  // the rest, read only (shared with other Docs); nil for none
}

// segs is a list of raw segments with at most one packed run among them: a Doc's tail.
type segs struct {
	parts [][]byte // raw segments, each capped at its length, none empty
	size  int      // bytes of parts and pack together
	// A tail holds at most one packed run, between parts[:packAt] and parts[packAt:]: one log's
	// older part (JoinPacked). A raw-only tail is laid out as before there were runs, so a game
	// that packs nothing pays nothing for them.
	pack   *Packed
	packAt int
}

// RawDoc is a Doc of one segment, raw itself (not copied, capped at its length). raw must not
// change afterwards.
func RawDoc(raw []byte) Doc {
	if len(raw) == 0 {
		return Doc{}
	}
	return Doc{head: raw[:len(raw):len(raw)]}
}

// JoinDoc is a Doc of the given raw segments in order, taking ownership of parts (the slice of
// segments, not copied) and sharing every segment. Each segment is capped at its length, so no
// later append through the Doc can reach bytes beyond it (an append-only log keeps writing
// there). Empty segments are dropped.
func JoinDoc(parts ...[]byte) Doc { return JoinPacked(nil, 0, parts...) }

// JoinPacked is JoinDoc with the packed run inserted before parts[at] (at len(parts): after the
// last): a log whose older part is packed and whose newer part is still raw chunks. run is
// shared (immutable); nil or empty, it is left out.
func JoinPacked(run *Packed, at int, parts ...[]byte) Doc {
	return Doc{tail: joinSegs(run, at, parts)}
}

// noSegs is the tail of a Doc that has none.
var noSegs segs

// rest is the Doc's tail, empty when it has none.
func (d Doc) rest() *segs {
	if d.tail == nil {
		return &noSegs
	}
	return d.tail
}

// joinSegs is JoinPacked's list: parts reused in place, empty segments dropped, each capped;
// nil when it holds no byte.
func joinSegs(run *Packed, at int, parts [][]byte) *segs {
	at = min(max(at, 0), len(parts))
	t := segs{parts: parts[:0]}
	for i, p := range parts {
		if i == at {
			t.packAt = len(t.parts)
		}
		if len(p) == 0 {
			continue
		}
		t.parts = append(t.parts, p[:len(p):len(p)])
		t.size += len(p)
	}
	if at == len(parts) {
		t.packAt = len(t.parts)
	}
	if run.Len() > 0 {
		t.pack = run
		t.size += run.size
	} else {
		t.packAt = 0
	}
	if t.size == 0 {
		return nil
	}
	return &t
}

// Len is the document's length in bytes.
func (d Doc) Len() int { return len(d.head) + d.rest().size }

// IsZero reports whether the document is empty.
func (d Doc) IsZero() bool { return d.Len() == 0 }

// Packed reports whether the document holds a packed run.
func (d Doc) Packed() bool { return d.rest().pack != nil }

// Segments walks the document's bytes in order: its head and each raw segment as they are
// (shared: read them, never write into them or append to them), each block of a packed run
// inflated into a new slice as the walk reaches it. A reader that stops early (the house policy
// stops before the public log) inflates nothing past where it stopped.
func (d Doc) Segments() iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		if len(d.head) > 0 && !yield(d.head) {
			return
		}
		t := d.rest()
		for i, p := range t.parts {
			if i == t.packAt && !t.yieldPacked(yield) {
				return
			}
			if !yield(p) {
				return
			}
		}
		if t.packAt == len(t.parts) {
			t.yieldPacked(yield)
		}
	}
}

// yieldPacked yields the packed run's blocks, inflated; false if the walk stopped.
func (t *segs) yieldPacked(yield func([]byte) bool) bool {
	if t.pack == nil {
		return true
	}
	f := inflater{d: t.pack.dict}
	for _, b := range t.pack.blocks {
		if !yield(f.appendBlock(nil, b)) {
			return false
		}
	}
	return true
}

// Reader reads the document's bytes in order, inflating a packed block only when the read
// reaches it (a decoder that stops early inflates nothing past where it stopped).
func (d Doc) Reader() io.Reader { return &docReader{t: d.rest(), cur: d.head} }

type docReader struct {
	t     *segs
	inf   inflater // for the packed run's blocks, its reader made on the first block
	part  int      // next raw segment of the tail
	block int      // next block of the packed run
	cur   []byte   // unread bytes of the segment or block being read (first: the head)
}

func (r *docReader) Read(p []byte) (int, error) {
	for len(r.cur) == 0 {
		switch {
		case r.t.pack != nil && r.part == r.t.packAt && r.block < len(r.t.pack.blocks):
			r.inf.d = r.t.pack.dict
			r.cur = r.inf.appendBlock(nil, r.t.pack.blocks[r.block])
			r.block++
		case r.part < len(r.t.parts):
			r.cur = r.t.parts[r.part]
			r.part++
		default:
			return 0, io.EOF
		}
	}
	n := copy(p, r.cur)
	r.cur = r.cur[n:]
	return n, nil
}

// Bytes is the document as one slice. A document of one raw segment returns that segment
// itself (shared: do not modify it); any other is copied (its packed run inflated) into a new
// slice of exactly Len bytes.
func (d Doc) Bytes() []byte {
	t := d.rest()
	switch {
	case d.Len() == 0:
		return nil
	case t.size == 0:
		return d.head
	case len(d.head) == 0 && len(t.parts) == 1 && t.pack == nil:
		return t.parts[0]
	}
	return d.AppendTo(make([]byte, 0, d.Len()))
}

// AppendTo appends the document's bytes (its packed run inflated) to dst and returns the
// extended slice.
func (d Doc) AppendTo(dst []byte) []byte {
	dst = growBy(dst, d.Len())
	dst = append(dst, d.head...)
	t := d.rest()
	for i, p := range t.parts {
		if i == t.packAt {
			dst = t.pack.appendTo(dst)
		}
		dst = append(dst, p...)
	}
	if t.packAt == len(t.parts) {
		dst = t.pack.appendTo(dst)
	}
	return dst
}

func growBy(b []byte, n int) []byte {
	if cap(b)-len(b) >= n {
		return b
	}
	return append(b[:len(b):len(b)], make([]byte, n)...)[:len(b)]
}

// WriteTo writes the document's bytes to w, segment by segment, packed blocks inflated one at
// a time (io.WriterTo).
func (d Doc) WriteTo(w io.Writer) (int64, error) {
	var n int64
	for p := range d.Segments() {
		k, err := w.Write(p)
		n += int64(k)
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// Equal reports whether two documents hold the same bytes, however they are segmented or
// packed.
func (d Doc) Equal(o Doc) bool {
	if d.Len() != o.Len() {
		return false
	}
	if d.Packed() || o.Packed() {
		return bytes.Equal(d.Bytes(), o.Bytes())
	}
	a, b := d.rest().parts, o.rest().parts
	x, y := d.head, o.head
	for {
		for len(x) == 0 && len(a) > 0 {
			x, a = a[0], a[1:]
		}
		for len(y) == 0 && len(b) > 0 {
			y, b = b[0], b[1:]
		}
		if len(x) == 0 || len(y) == 0 {
			return len(x) == len(y)
		}
		k := min(len(x), len(y))
		if !bytes.Equal(x[:k], y[:k]) {
			return false
		}
		x, y = x[k:], y[k:]
	}
}

// String is the document as text (for logs and tests).
func (d Doc) String() string { return string(d.Bytes()) }

// MarshalJSON writes the document as it is (json.Marshaler), null when empty, as a
// json.RawMessage member would be written.
func (d Doc) MarshalJSON() ([]byte, error) {
	if d.Len() == 0 {
		return []byte("null"), nil
	}
	return d.Bytes(), nil
}

// UnmarshalJSON keeps a copy of the value's bytes as a one-segment Doc (json.Unmarshaler).
func (d *Doc) UnmarshalJSON(b []byte) error {
	*d = RawDoc(bytes.Clone(b))
	return nil
}
