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
// The zero Doc is empty and marshals as JSON null, as an empty json.RawMessage would.
type Doc struct {
	parts [][]byte // raw segments
	size  int
	// A Doc holds at most one packed run, between parts[:packAt] and parts[packAt:]: one log's
	// older part (JoinPacked). A raw-only Doc is laid out as before there were runs, so a game
	// that packs nothing pays nothing for them.
	pack   *Packed
	packAt int
}

// RawDoc is a Doc of one segment, raw itself (not copied). raw must not change afterwards.
func RawDoc(raw []byte) Doc {
	if len(raw) == 0 {
		return Doc{}
	}
	return Doc{parts: [][]byte{raw}, size: len(raw)}
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
	at = min(max(at, 0), len(parts))
	d := Doc{parts: parts[:0]}
	for i, p := range parts {
		if i == at {
			d.packAt = len(d.parts)
		}
		if len(p) == 0 {
			continue
		}
		d.parts = append(d.parts, p[:len(p):len(p)])
		d.size += len(p)
	}
	if at == len(parts) {
		d.packAt = len(d.parts)
	}
	if run.Len() > 0 {
		d.pack = run
		d.size += run.size
	} else {
		d.packAt = 0
	}
	if d.size == 0 {
		return Doc{}
	}
	return d
}

// Len is the document's length in bytes.
func (d Doc) Len() int { return d.size }

// IsZero reports whether the document is empty.
func (d Doc) IsZero() bool { return d.size == 0 }

// Packed reports whether the document holds a packed run.
func (d Doc) Packed() bool { return d.pack != nil }

// Segments walks the document's bytes in order: each raw segment as it is (shared: read it,
// never write into it or append to it), each block of a packed run inflated into a new slice
// as the walk reaches it. A reader that stops early (the house policy stops before the public
// log) inflates nothing past where it stopped.
func (d Doc) Segments() iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		for i, p := range d.parts {
			if i == d.packAt && !d.yieldPacked(yield) {
				return
			}
			if !yield(p) {
				return
			}
		}
		if d.packAt == len(d.parts) {
			d.yieldPacked(yield)
		}
	}
}

// yieldPacked yields the packed run's blocks, inflated; false if the walk stopped.
func (d Doc) yieldPacked(yield func([]byte) bool) bool {
	if d.pack == nil {
		return true
	}
	for _, b := range d.pack.blocks {
		if !yield(d.pack.dict.appendBlock(nil, b)) {
			return false
		}
	}
	return true
}

// Reader reads the document's bytes in order, inflating a packed block only when the read
// reaches it (a decoder that stops early inflates nothing past where it stopped).
func (d Doc) Reader() io.Reader { return &docReader{d: d} }

type docReader struct {
	d     Doc
	part  int    // next raw segment
	block int    // next block of the packed run
	cur   []byte // unread bytes of the segment or block being read
}

func (r *docReader) Read(p []byte) (int, error) {
	for len(r.cur) == 0 {
		switch {
		case r.d.pack != nil && r.part == r.d.packAt && r.block < len(r.d.pack.blocks):
			r.cur = r.d.pack.dict.appendBlock(nil, r.d.pack.blocks[r.block])
			r.block++
		case r.part < len(r.d.parts):
			r.cur = r.d.parts[r.part]
			r.part++
		default:
			return 0, io.EOF
		}
	}
	n := copy(p, r.cur)
	r.cur = r.cur[n:]
	return n, nil
}

// Bytes is the document as one slice. A one-segment raw Doc returns that segment itself
// (shared: do not modify it); any other is copied (its packed run inflated) into a new slice of
// exactly Len bytes.
func (d Doc) Bytes() []byte {
	switch {
	case d.size == 0:
		return nil
	case len(d.parts) == 1 && d.pack == nil:
		return d.parts[0]
	}
	return d.AppendTo(make([]byte, 0, d.size))
}

// AppendTo appends the document's bytes (its packed run inflated) to dst and returns the
// extended slice.
func (d Doc) AppendTo(dst []byte) []byte {
	dst = growBy(dst, d.size)
	for i, p := range d.parts {
		if i == d.packAt {
			dst = d.pack.appendTo(dst)
		}
		dst = append(dst, p...)
	}
	if d.packAt == len(d.parts) {
		dst = d.pack.appendTo(dst)
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
	if d.size != o.size {
		return false
	}
	if d.pack != nil || o.pack != nil {
		return bytes.Equal(d.Bytes(), o.Bytes())
	}
	a, b := d.parts, o.parts
	var x, y []byte
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
	if d.size == 0 {
		return []byte("null"), nil
	}
	return d.Bytes(), nil
}

// UnmarshalJSON keeps a copy of the value's bytes as a one-segment Doc (json.Unmarshaler).
func (d *Doc) UnmarshalJSON(b []byte) error {
	*d = RawDoc(bytes.Clone(b))
	return nil
}
