package games

import (
	"bytes"
	"io"
)

// Doc is one JSON value held as a sequence of byte segments that are read in order and never
// changed once the Doc is made. A game builds a prompt's state from segments some of which are
// shared between prompts: Blitz's §5.4 state object carries the whole public log, the same
// append-only bytes in every seat's envelope, so a Doc lets six seats' states (and the prompts
// of the next phase, which extend the same log) share one copy of it instead of one each.
//
// A Doc is flattened only where bytes must leave: an envelope signed for an agent or a walk-in's
// mailbox (Bytes, AppendTo, WriteTo). House seats read it without flattening it. Segments are
// shared, so a Doc's users must never write into a segment or append to one (Parts).
//
// The zero Doc is empty and marshals as JSON null, as an empty json.RawMessage would.
type Doc struct {
	parts [][]byte
	size  int
}

// RawDoc is a Doc of one segment, raw itself (not copied). raw must not change afterwards.
func RawDoc(raw []byte) Doc {
	if len(raw) == 0 {
		return Doc{}
	}
	return Doc{parts: [][]byte{raw}, size: len(raw)}
}

// JoinDoc is a Doc of the given segments in order, taking ownership of parts (the slice of
// segments, not copied) and sharing every segment. Each segment is capped at its length, so no
// later append through the Doc can reach bytes beyond it (an append-only log keeps writing
// there). Empty segments are dropped.
func JoinDoc(parts ...[]byte) Doc {
	d := Doc{parts: parts[:0]}
	for _, p := range parts {
		if len(p) == 0 {
			continue
		}
		d.parts = append(d.parts, p[:len(p):len(p)])
		d.size += len(p)
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

// Parts is the document's segments in order. They are shared: read them, never write into or
// append to them.
func (d Doc) Parts() [][]byte { return d.parts }

// Bytes is the document as one slice. A one-segment Doc returns that segment itself (shared:
// do not modify it); any other is copied into a new slice of exactly Len bytes.
func (d Doc) Bytes() []byte {
	switch len(d.parts) {
	case 0:
		return nil
	case 1:
		return d.parts[0]
	}
	return d.AppendTo(make([]byte, 0, d.size))
}

// AppendTo appends the document's bytes to dst and returns the extended slice.
func (d Doc) AppendTo(dst []byte) []byte {
	dst = growBy(dst, d.size)
	for _, p := range d.parts {
		dst = append(dst, p...)
	}
	return dst
}

func growBy(b []byte, n int) []byte {
	if cap(b)-len(b) >= n {
		return b
	}
	return append(b[:len(b):len(b)], make([]byte, n)...)[:len(b)]
}

// WriteTo writes the document's bytes to w, segment by segment (io.WriterTo).
func (d Doc) WriteTo(w io.Writer) (int64, error) {
	var n int64
	for _, p := range d.parts {
		k, err := w.Write(p)
		n += int64(k)
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// Equal reports whether two documents hold the same bytes, however they are segmented.
func (d Doc) Equal(o Doc) bool {
	if d.size != o.size {
		return false
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
