package games

import (
	"bytes"
	"compress/flate"
	"fmt"
	"io"
	"sync"
)

// Packed is a run of bytes held deflated (RFC 1951) against a PackDict's preset dictionary, in
// blocks appended one at a time: the older part of an append-only log that a Doc carries but
// seldom reads (Blitz's §5.4 public log). It is immutable once made: Append returns a new Packed
// sharing the old one's blocks, so Docs holding an earlier Packed keep reading what they held
// while the log goes on. Its bytes are inflated only where a Doc is flattened or walked.
//
// The zero Packed and a nil *Packed are empty.
type Packed struct {
	dict   *PackDict
	blocks [][]byte // each a complete DEFLATE stream (final block set) against dict
	size   int      // inflated length of every block together
}

// Len is the run's inflated length in bytes.
func (p *Packed) Len() int {
	if p == nil {
		return 0
	}
	return p.size
}

// PackedLen is the bytes the run holds deflated (its blocks, less the slice headers): what it
// costs on the heap, for tests and measures.
func (p *Packed) PackedLen() int {
	n := 0
	if p != nil {
		for _, b := range p.blocks {
			n += len(b)
		}
	}
	return n
}

// PackDict deflates runs against one preset dictionary: bytes like those it will pack (for a
// Blitz public log, typical event JSON), which lets a block of a few KiB compress as well as a
// long stream would. One deflater serves every caller in turn (a mutex): it is large (about a
// megabyte, its hash tables), packing is rare (a few KiB of log per step), and a pool would keep
// one per core and drop them at every GC. Inflaters, small, are pooled.
type PackDict struct {
	dict  []byte
	level int

	mu  sync.Mutex
	w   *flate.Writer // made on first use
	buf bytes.Buffer

	readers sync.Pool // flate readers (io.ReadCloser + flate.Resetter)
}

// NewPackDict deflates at the given compress/flate level (flate.BestSpeed ignores a preset
// dictionary, so 2 to 9; anything else is flate.DefaultCompression) against dict, which must not
// change afterwards. dict's last 32 KiB are used (DEFLATE's window).
func NewPackDict(dict []byte, level int) *PackDict {
	if level < 2 || level > flate.BestCompression {
		level = flate.DefaultCompression
	}
	if len(dict) > 32<<10 {
		dict = dict[len(dict)-32<<10:]
	}
	return &PackDict{dict: dict, level: level}
}

// Append returns a new Packed holding p's bytes then those of raw's slices in order (p may be
// nil: the new run holds raw alone), raw deflated together as one more block. p is not changed,
// and raw is not kept.
func (d *PackDict) Append(p *Packed, raw ...[]byte) *Packed {
	n := &Packed{dict: d}
	if p != nil {
		if p.dict != d {
			panic("games: Packed.Append with another PackDict") // a caller's bug, never input
		}
		n.blocks = make([][]byte, len(p.blocks), len(p.blocks)+1)
		copy(n.blocks, p.blocks)
		n.size = p.size
	}
	k := 0
	for _, r := range raw {
		k += len(r)
	}
	if k == 0 {
		return n
	}
	n.blocks = append(n.blocks, d.deflate(raw))
	n.size += k
	return n
}

// deflate is raw's slices as one complete DEFLATE stream against the dictionary, in a slice of
// its own exact length.
func (d *PackDict) deflate(raw [][]byte) []byte {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.buf.Reset()
	if d.w == nil {
		w, err := flate.NewWriterDict(&d.buf, d.level, d.dict)
		if err != nil {
			panic(err) // only for a bad level, which NewPackDict rules out
		}
		d.w = w
	} else {
		d.w.Reset(&d.buf) // keeps the dictionary
	}
	// Writes to a bytes.Buffer do not fail.
	for _, r := range raw {
		_, _ = d.w.Write(r)
	}
	_ = d.w.Close()
	return bytes.Clone(d.buf.Bytes())
}

// appendBlock appends block b inflated to dst.
func (d *PackDict) appendBlock(dst, b []byte) []byte {
	br := bytes.NewReader(b)
	var r io.ReadCloser
	if v := d.readers.Get(); v != nil {
		r = v.(io.ReadCloser)
		if err := r.(flate.Resetter).Reset(br, d.dict); err != nil {
			panic(err) // Reset of a flate reader never fails
		}
	} else {
		r = flate.NewReaderDict(br, d.dict)
	}
	for {
		if len(dst) == cap(dst) {
			dst = append(dst, 0)[:len(dst)]
		}
		k, err := r.Read(dst[len(dst):cap(dst)])
		dst = dst[:len(dst)+k]
		if err == io.EOF {
			break
		}
		if err != nil {
			// Blocks are only ever this PackDict's own output, held in memory: a failure here is
			// memory corruption, not input.
			panic(fmt.Sprintf("games: packed block does not inflate: %v", err))
		}
	}
	d.readers.Put(r)
	return dst
}

// appendTo appends the run's bytes, inflated, to dst.
func (p *Packed) appendTo(dst []byte) []byte {
	if p == nil {
		return dst
	}
	dst = growBy(dst, p.size)
	start := len(dst)
	for _, b := range p.blocks {
		dst = p.dict.appendBlock(dst, b)
	}
	// DEFLATE carries no checksum: a block changed in memory could inflate to other bytes. They
	// would not be as many as were packed but for a rare accident, and then nothing wrong leaves.
	if len(dst)-start != p.size {
		panic(fmt.Sprintf("games: packed run inflates to %d bytes, packed %d", len(dst)-start, p.size))
	}
	return dst
}
