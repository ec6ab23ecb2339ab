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
// A segment is raw bytes or a Packed run (deflated: the older part of a log a table holds
// between steps). A Doc is flattened only where bytes must leave: an envelope signed for an
// agent or a walk-in's mailbox (Bytes, AppendTo, WriteTo), which inflates its packed runs.
// House seats read it without flattening it (Segments, which inflates a run only when the walk
// reaches it). Segments are shared, so a Doc's users must never write into a segment or append
// to one.
//
// The zero Doc is empty and marshals as JSON null, as an empty json.RawMessage would.
type Doc struct {
	segs []Segment
	size int
}

// Segment is one piece of a Doc: raw bytes (RawSegment) or a packed run (Packed.Segment).
type Segment struct {
	raw  []byte
	pack *Packed
}

// RawSegment is raw as a Doc segment (shared, not copied).
func RawSegment(raw []byte) Segment { return Segment{raw: raw} }

// Len is the segment's length in bytes (inflated, for a packed run).
func (s Segment) Len() int {
	if s.pack != nil {
		return s.pack.size
	}
	return len(s.raw)
}

// RawDoc is a Doc of one segment, raw itself (not copied). raw must not change afterwards.
func RawDoc(raw []byte) Doc {
	if len(raw) == 0 {
		return Doc{}
	}
	return Doc{segs: []Segment{{raw: raw}}, size: len(raw)}
}

// JoinDoc is a Doc of the given raw segments in order, sharing every segment. Each segment is
// capped at its length, so no later append through the Doc can reach bytes beyond it (an
// append-only log keeps writing there). Empty segments are dropped.
func JoinDoc(parts ...[]byte) Doc {
	segs := make([]Segment, 0, len(parts))
	for _, p := range parts {
		segs = append(segs, Segment{raw: p})
	}
	return JoinSegments(segs...)
}

// JoinSegments is a Doc of the given segments in order, taking ownership of segs (the slice,
// not copied) and sharing every segment: raw ones capped at their length as in JoinDoc, packed
// runs as they are (immutable). Empty segments are dropped.
func JoinSegments(segs ...Segment) Doc {
	d := Doc{segs: segs[:0]}
	for _, s := range segs {
		switch {
		case s.pack != nil && s.pack.size > 0:
			d.segs = append(d.segs, Segment{pack: s.pack})
			d.size += s.pack.size
		case s.pack == nil && len(s.raw) > 0:
			d.segs = append(d.segs, Segment{raw: s.raw[:len(s.raw):len(s.raw)]})
			d.size += len(s.raw)
		}
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

// Packed reports whether any segment of the document is a packed run.
func (d Doc) Packed() bool {
	for _, s := range d.segs {
		if s.pack != nil {
			return true
		}
	}
	return false
}

// Segments walks the document's bytes in order: each raw segment as it is (shared: read it,
// never write into it or append to it), each block of a packed run inflated into a new slice
// as the walk reaches it. A reader that stops early (the house policy stops before the public
// log) inflates nothing past where it stopped.
func (d Doc) Segments() iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		for _, s := range d.segs {
			if s.pack == nil {
				if !yield(s.raw) {
					return
				}
				continue
			}
			for _, b := range s.pack.blocks {
				if !yield(s.pack.dict.appendBlock(nil, b)) {
					return
				}
			}
		}
	}
}

// Reader reads the document's bytes in order, inflating a packed block only when the read
// reaches it (a decoder that stops early inflates nothing past where it stopped).
func (d Doc) Reader() io.Reader { return &docReader{segs: d.segs} }

type docReader struct {
	segs  []Segment
	block int    // next block of segs[0], when it is a packed run
	cur   []byte // unread bytes of the segment or block being read
}

func (r *docReader) Read(p []byte) (int, error) {
	for len(r.cur) == 0 {
		if len(r.segs) == 0 {
			return 0, io.EOF
		}
		s := r.segs[0]
		switch {
		case s.pack == nil:
			r.cur, r.segs = s.raw, r.segs[1:]
		case r.block < len(s.pack.blocks):
			r.cur = s.pack.dict.appendBlock(nil, s.pack.blocks[r.block])
			r.block++
		default:
			r.segs, r.block = r.segs[1:], 0
		}
	}
	n := copy(p, r.cur)
	r.cur = r.cur[n:]
	return n, nil
}

// Bytes is the document as one slice. A one-segment raw Doc returns that segment itself
// (shared: do not modify it); any other is copied (and inflated) into a new slice of exactly
// Len bytes.
func (d Doc) Bytes() []byte {
	switch {
	case len(d.segs) == 0:
		return nil
	case len(d.segs) == 1 && d.segs[0].pack == nil:
		return d.segs[0].raw
	}
	return d.AppendTo(make([]byte, 0, d.size))
}

// AppendTo appends the document's bytes (packed runs inflated) to dst and returns the extended
// slice.
func (d Doc) AppendTo(dst []byte) []byte {
	dst = growBy(dst, d.size)
	for _, s := range d.segs {
		if s.pack != nil {
			dst = s.pack.appendTo(dst)
		} else {
			dst = append(dst, s.raw...)
		}
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
	if d.Packed() || o.Packed() {
		return bytes.Equal(d.Bytes(), o.Bytes())
	}
	a, b := d.segs, o.segs
	var x, y []byte
	for {
		for len(x) == 0 && len(a) > 0 {
			x, a = a[0].raw, a[1:]
		}
		for len(y) == 0 && len(b) > 0 {
			y, b = b[0].raw, b[1:]
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
