package games

import (
	"bytes"
	"compress/flate"
	"fmt"
	"io"
)

// Packed is a run of bytes held deflated (RFC 1951) against a PackDict's preset dictionary, in
// blocks appended one at a time: the older part of an append-only log that a Doc carries but
// seldom reads (Blitz's §5.4 public log). It is immutable once made: Deflater.Pack returns a new
// Packed sharing the old one's blocks, so Docs holding an earlier Packed keep reading what they
// held while the log goes on. Its bytes are inflated only where a Doc is flattened or walked.
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

// PackDict is one preset dictionary runs are deflated against: bytes like those it will pack
// (for a Blitz public log, typical event JSON), which lets a block of a few KiB compress as well
// as a long stream would. It is immutable once made and shared by every table. Deflating takes a
// Deflater, which the caller owns; inflating makes its own reader for each walk of a run.
type PackDict struct {
	dict  []byte
	level int
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

// Packer deflates runs for a Compactor (Pack as Deflater.Pack). A table actor passes one to
// Compact; what stands behind it (one Deflater shared by every table, behind a lock, or one per
// goroutine) is the actor side's choice, never the game's.
type Packer interface {
	Pack(d *PackDict, p *Packed, raw ...[]byte) *Packed
}

// Deflater is a Packer: one compress/flate writer per PackDict, made on its first use, and the
// buffer they write into. A writer is large (about a megabyte, its hash tables) and packing is
// rare (a few KiB of log per step), so one Deflater serves many tables in turn. It is not safe for
// concurrent use and holds no lock: its owner lends it to one caller at a time. The zero
// Deflater is ready to use.
type Deflater struct {
	ws  map[*PackDict]*flate.Writer
	buf bytes.Buffer
}

// Pack returns a new Packed holding p's bytes then those of raw's slices in order (p may be
// nil: the new run holds raw alone), raw deflated together against d as one more block. p is not
// changed, and raw is not kept. p must be d's (a caller's bug otherwise: it panics).
func (z *Deflater) Pack(d *PackDict, p *Packed, raw ...[]byte) *Packed {
	n := &Packed{dict: d}
	if p != nil {
		if p.dict != d {
			panic("games: Deflater.Pack onto a Packed of another PackDict") // a caller's bug, never input
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
	n.blocks = append(n.blocks, z.deflate(d, raw))
	n.size += k
	return n
}

// deflate is raw's slices as one complete DEFLATE stream against d's dictionary, in a slice of
// its own exact length.
func (z *Deflater) deflate(d *PackDict, raw [][]byte) []byte {
	z.buf.Reset()
	w := z.ws[d]
	if w == nil {
		var err error
		if w, err = flate.NewWriterDict(&z.buf, d.level, d.dict); err != nil {
			panic(err) // only for a bad level, which NewPackDict rules out
		}
		if z.ws == nil {
			z.ws = make(map[*PackDict]*flate.Writer)
		}
		z.ws[d] = w
	} else {
		w.Reset(&z.buf) // keeps the dictionary
	}
	// Writes to a bytes.Buffer do not fail.
	for _, r := range raw {
		_, _ = w.Write(r)
	}
	_ = w.Close()
	return bytes.Clone(z.buf.Bytes())
}

// inflater inflates blocks of one PackDict one after another through one flate reader, made on
// its first block and reset for each next one: a walk of a run (Doc.Segments, Doc.Reader,
// Packed.appendTo) makes one, so nothing is shared between walks or tables.
type inflater struct {
	d *PackDict
	r io.ReadCloser
}

// appendBlock appends block b inflated to dst.
func (f *inflater) appendBlock(dst, b []byte) []byte {
	br := bytes.NewReader(b)
	if f.r == nil {
		f.r = flate.NewReaderDict(br, f.d.dict)
	} else if err := f.r.(flate.Resetter).Reset(br, f.d.dict); err != nil {
		panic(err) // Reset of a flate reader never fails
	}
	for {
		if len(dst) == cap(dst) {
			dst = append(dst, 0)[:len(dst)]
		}
		k, err := f.r.Read(dst[len(dst):cap(dst)])
		dst = dst[:len(dst)+k]
		if err == io.EOF {
			break
		}
		if err != nil {
			// Blocks are only ever a Deflater's output for this PackDict, held in memory: a
			// failure here is memory corruption, not input.
			panic(fmt.Sprintf("games: packed block does not inflate: %v", err))
		}
	}
	return dst
}

// appendTo appends the run's bytes, inflated, to dst.
func (p *Packed) appendTo(dst []byte) []byte {
	if p == nil {
		return dst
	}
	dst = growBy(dst, p.size)
	start := len(dst)
	f := inflater{d: p.dict}
	for _, b := range p.blocks {
		dst = f.appendBlock(dst, b)
	}
	// DEFLATE carries no checksum: a block changed in memory could inflate to other bytes. They
	// would not be as many as were packed but for a rare accident, and then nothing wrong leaves.
	if len(dst)-start != p.size {
		panic(fmt.Sprintf("games: packed run inflates to %d bytes, packed %d", len(dst)-start, p.size))
	}
	return dst
}
