// Package sha256pair is SHA-256 (FIPS 180-4) for two streams hashed side by side.
//
// A Blitz round hashes most of its events twice: once into the transcript hash (§11.5) and
// once into the open exchange's hash (§5.5), two streams over the same bytes from different
// starts. With the CPU's SHA extensions one stream's rounds wait on each other and leave the
// unit idle half the time; WritePair hashes a block of each stream together, so the second
// stream rides in those gaps. Where the CPU has no SHA extensions (or GODEBUG turns them off,
// or the purego tag is set) a Digest is crypto/sha256's.
//
// Every sum equals crypto/sha256's over the same bytes; the tests check it byte for byte.
package sha256pair

import (
	"crypto/sha256"
	"encoding"
	"encoding/binary"
	"hash"
)

// Size is a SHA-256 sum's length in bytes.
const Size = 32

const chunk = 64

var init0 = [8]uint32{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19}

// Digest is one running SHA-256. The zero value is a Digest over no bytes, as New's is. A
// Digest is not safe for concurrent use, Sum256 included (the fallback sums through its
// buffer). Copy one with Clone: a copied value shares crypto/sha256's state where that is the
// fallback.
type Digest struct {
	h   [8]uint32
	x   [chunk]byte // a block's bytes not yet hashed
	nx  int
	len uint64
	on  bool      // h holds the state: set by the first use (the zero Digest starts at init0)
	std *fallback // crypto/sha256's, where paired blocks are not available; else nil
}

// fallback is crypto/sha256's digest and a buffer the bytes are copied through on their way to
// it: the caller's slice never reaches the interface call, so writing a slice on the stack
// (a one-byte literal) does not move it to the heap, as it does not with the paired blocks.
type fallback struct {
	h   hash.Hash
	buf [512]byte
}

// New returns a Digest over no bytes.
func New() *Digest {
	d := new(Digest)
	d.start()
	return d
}

// start readies a Digest on its first use: paired blocks where the CPU has them, else
// crypto/sha256's.
func (d *Digest) start() {
	if d.on {
		return
	}
	d.on, d.h = true, init0
	if !paired {
		d.std = &fallback{h: sha256.New()}
	}
}

// write hands p to crypto/sha256 through the buffer.
func (f *fallback) write(p []byte) {
	for len(p) > 0 {
		n := copy(f.buf[:], p)
		f.h.Write(f.buf[:n])
		p = p[n:]
	}
}

// sum is crypto/sha256's sum so far, taken into the buffer (a slice of a local array would move
// to the heap through the interface call).
func (f *fallback) sum() [Size]byte {
	return [Size]byte(f.h.Sum(f.buf[:0]))
}

// Write adds p to the stream. It never fails.
func (d *Digest) Write(p []byte) (int, error) {
	WritePair(d, p, nil, nil)
	return len(p), nil
}

// WritePair adds p to a and q to b (b may be nil, or a itself), hashing a block of each together
// while both have one. It is a.Write(p) then b.Write(q), in less time.
func WritePair(a *Digest, p []byte, b *Digest, q []byte) {
	a.start()
	if b == a { // one stream: its lanes would be one state, and its pending bytes one buffer
		a.writeLone(p)
		a.writeLone(q)
		return
	}
	if b == nil {
		a.writeLone(p)
		return
	}
	b.start()
	if a.std != nil || b.std != nil {
		a.writeLone(p)
		b.writeLone(q)
		return
	}
	p, q = a.fill(p), b.fill(q)
	if n := min(len(p), len(q)) &^ (chunk - 1); n > 0 {
		block2(&a.h, p[:n], &b.h, q[:n])
		p, q = p[n:], q[n:]
	}
	a.blocks(&p)
	b.blocks(&q)
	a.keep(p)
	b.keep(q)
}

// writeLone adds p to a started Digest alone.
func (d *Digest) writeLone(p []byte) {
	if d.std != nil {
		d.std.write(p)
		return
	}
	p = d.fill(p)
	d.blocks(&p)
	d.keep(p)
}

// fill counts p into the stream and completes a pending block from its head (hashing it), and
// returns the rest.
func (d *Digest) fill(p []byte) []byte {
	d.len += uint64(len(p))
	if d.nx == 0 {
		return p
	}
	n := copy(d.x[d.nx:], p)
	d.nx += n
	if d.nx == chunk {
		lone(&d.h, d.x[:])
		d.nx = 0
	}
	return p[n:]
}

// blocks hashes the whole blocks at the head of *p alone and leaves the rest.
func (d *Digest) blocks(p *[]byte) {
	if n := len(*p) &^ (chunk - 1); n > 0 {
		lone(&d.h, (*p)[:n])
		*p = (*p)[n:]
	}
}

// lone hashes the whole blocks of p into h, a stream alone: its second lane hashes the same
// blocks into a state on the stack that nothing reads (on a CPU whose SHA unit waits on each
// round, the second lane costs next to nothing).
func lone(h *[8]uint32, p []byte) {
	var unused [8]uint32
	block2(h, p, &unused, p)
}

// keep holds p, less than a block, for the next write.
func (d *Digest) keep(p []byte) {
	if len(p) > 0 {
		d.nx = copy(d.x[:], p)
	}
}

// Sum appends the sum of the bytes written so far to b; the stream goes on unchanged.
func (d *Digest) Sum(b []byte) []byte {
	s := d.Sum256()
	return append(b, s[:]...)
}

// Sum256 is the sum of the bytes written so far; the stream goes on unchanged.
func (d *Digest) Sum256() [Size]byte {
	d.start()
	if d.std != nil {
		return d.std.sum()
	}
	var s [Size]byte
	c := *d
	var pad [chunk + 8]byte
	pad[0] = 0x80
	t := chunk + 56 - c.len%chunk
	if c.len%chunk < 56 {
		t = 56 - c.len%chunk
	}
	binary.BigEndian.PutUint64(pad[t:], c.len<<3)
	c.writeLone(pad[:t+8])
	for i, v := range c.h {
		binary.BigEndian.PutUint32(s[4*i:], v)
	}
	return s
}

// Clone returns an independent copy of the stream so far.
func (d *Digest) Clone() *Digest {
	d.start()
	c := *d
	if d.std != nil {
		state, err := d.std.h.(encoding.BinaryMarshaler).MarshalBinary()
		c.std = &fallback{h: sha256.New()}
		if err == nil {
			err = c.std.h.(encoding.BinaryUnmarshaler).UnmarshalBinary(state)
		}
		if err != nil { // never: crypto/sha256 digests marshal
			panic("sha256pair: " + err.Error())
		}
	}
	return &c
}

// Reset empties the stream.
func (d *Digest) Reset() { *d = Digest{} }

// Size is 32.
func (d *Digest) Size() int { return Size }

// BlockSize is 64.
func (d *Digest) BlockSize() int { return chunk }

var _ hash.Hash = (*Digest)(nil)
