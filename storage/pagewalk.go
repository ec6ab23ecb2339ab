package storage

import (
	"bytes"
	"encoding/binary"
	"io"
)

// bbolt's on-disk page layout (go.etcd.io/bbolt internal/common): a 16-byte header {id uint64,
// flags uint16, count uint16, overflow uint32}, then count elements of 16 bytes each. A branch
// element is {pos, ksize uint32, pgid uint64}; a leaf element {flags, pos, ksize, vsize uint32};
// pos counts from the element's own first byte. A bucket's value is {root pgid, sequence uint64},
// followed by an inline leaf page when root is 0. A meta page holds, after the header, {magic,
// version, pageSize, flags uint32, root pgid, sequence, freelist pgid, high-water pgid, txid,
// checksum uint64}. Integers are little-endian (every platform bbolt runs on here).
const (
	pageHeaderSize = 16
	pageElemSize   = 16
	bucketHeader   = 16

	pageBranch   = 0x01
	pageLeaf     = 0x02
	pageFreelist = 0x10
	leafBucket   = 0x01

	noFreelist = ^uint64(0)

	// maxTreeDepth bounds the nesting of pages and buckets a walk follows: this build's trees are
	// a few levels deep; a file that nests deeper than this is damaged.
	maxTreeDepth = 64
)

// pageWalk reads the pages of one transaction's trees straight from the file and checks, without
// ever reading outside a page, what bbolt's own check (tx.Check) checks of them: every page
// reached once, below the high-water mark, of the right type, its elements inside it, its keys in
// order and inside the range its parent gives. It exists because bbolt cannot be asked safely: on
// a file without a synced freelist tx.Check first rebuilds the freelist on a goroutine of its
// own, panics at its first problem and leaves that goroutine reading the file's memory map, which
// ends the process once the store is closed. Check runs the walk first and hands only a file it
// found sound to bbolt.
type pageWalk struct {
	r        io.ReaderAt
	pageSize int
	hwm      uint64 // the transaction's high-water mark: pages 0..hwm-1 exist
	reached  map[uint64]bool
	report   func(format string, args ...any)
}

// walkPages checks the trees of the transaction txid in the file r of size bytes (pageSize bytes a
// page), reporting each problem; it reports whether the file was found sound.
func walkPages(r io.ReaderAt, size int64, pageSize int, txid uint64, report func(string, ...any)) bool {
	sound := true
	w := &pageWalk{r: r, pageSize: pageSize, reached: map[uint64]bool{0: true, 1: true},
		report: func(format string, args ...any) { sound = false; report("pages: "+format, args...) }}
	var root, freelist uint64
	found := false
	for id := uint64(0); id < 2 && !found; id++ {
		m := make([]byte, 80)
		if _, err := r.ReadAt(m, int64(id)*int64(pageSize)); err != nil {
			w.report("meta page %d: %v", id, err)
			return false
		}
		if binary.LittleEndian.Uint64(m[64:]) == txid {
			root, freelist, w.hwm = binary.LittleEndian.Uint64(m[32:]), binary.LittleEndian.Uint64(m[48:]), binary.LittleEndian.Uint64(m[56:])
			found = true
		}
	}
	if !found {
		w.report("no meta page names transaction %d", txid)
		return false
	}
	if max := uint64(size) / uint64(pageSize); w.hwm > max {
		w.report("high-water mark %d is past the file's %d pages", w.hwm, max)
		return false
	}
	if freelist != noFreelist {
		w.freelist(freelist)
	}
	w.tree(root, nil, nil, 0)
	return sound
}

// page reads page id whole (with its overflow pages), marking each of them reached; nil when the
// page cannot be read or is reached a second time (reported).
func (w *pageWalk) page(id uint64) []byte {
	if id < 2 || id >= w.hwm {
		w.report("page %d: out of bounds (high-water mark %d)", id, w.hwm)
		return nil
	}
	if w.reached[id] {
		w.report("page %d: multiple references", id)
		return nil
	}
	w.reached[id] = true
	head := make([]byte, pageHeaderSize)
	if _, err := w.r.ReadAt(head, int64(id)*int64(w.pageSize)); err != nil {
		w.report("page %d: %v", id, err)
		return nil
	}
	if got := binary.LittleEndian.Uint64(head); got != id {
		w.report("page %d: its header names page %d", id, got)
		return nil
	}
	overflow := uint64(binary.LittleEndian.Uint32(head[12:]))
	if id+overflow >= w.hwm {
		w.report("page %d: %d overflow pages run past the high-water mark %d", id, overflow, w.hwm)
		return nil
	}
	for i := uint64(1); i <= overflow; i++ {
		if w.reached[id+i] {
			w.report("page %d: multiple references", id+i)
			return nil
		}
		w.reached[id+i] = true
	}
	buf := make([]byte, (overflow+1)*uint64(w.pageSize))
	if _, err := w.r.ReadAt(buf, int64(id)*int64(w.pageSize)); err != nil {
		w.report("page %d: %v", id, err)
		return nil
	}
	return buf
}

// freelist checks a synced freelist page: its type, and its ids inside the page.
func (w *pageWalk) freelist(id uint64) {
	p := w.page(id)
	if p == nil {
		return
	}
	if flags := binary.LittleEndian.Uint16(p[8:]); flags != pageFreelist {
		w.report("page %d: freelist page of type %#x", id, flags)
		return
	}
	idx, count := uint64(0), uint64(binary.LittleEndian.Uint16(p[10:]))
	if count == 0xFFFF { // the count overflowed into the first element
		if len(p) < pageHeaderSize+8 {
			w.report("page %d: freelist too short", id)
			return
		}
		idx, count = 1, binary.LittleEndian.Uint64(p[pageHeaderSize:])
	}
	if count > uint64(len(p)) || pageHeaderSize+(idx+count)*8 > uint64(len(p)) {
		w.report("page %d: freelist of %d ids runs past the page", id, count)
	}
}

// tree checks the page id and the pages under it, their keys in [lo, hi) (nil: unbounded).
func (w *pageWalk) tree(id uint64, lo, hi []byte, depth int) {
	if depth > maxTreeDepth {
		w.report("page %d: nested past %d levels", id, maxTreeDepth)
		return
	}
	p := w.page(id)
	if p == nil {
		return
	}
	flags := binary.LittleEndian.Uint16(p[8:])
	if flags != pageBranch && flags != pageLeaf {
		w.report("page %d: invalid type %#x", id, flags)
		return
	}
	w.elements(id, p, flags == pageBranch, lo, hi, depth)
}

// elements checks the elements of the page p (id, for messages: 0 for an inline page), following
// branches to their children and bucket entries to their trees.
func (w *pageWalk) elements(id uint64, p []byte, branch bool, lo, hi []byte, depth int) {
	count := int(binary.LittleEndian.Uint16(p[10:]))
	if pageHeaderSize+count*pageElemSize > len(p) {
		w.report("page %d: %d elements run past the page", id, count)
		return
	}
	if count == 0 && branch {
		w.report("page %d: empty branch", id)
		return
	}
	keys := make([][]byte, count)
	for i := range keys {
		at := pageHeaderSize + i*pageElemSize
		pos, ksize := int(binary.LittleEndian.Uint32(p[at+4:])), int(binary.LittleEndian.Uint32(p[at+8:]))
		if branch {
			pos, ksize = int(binary.LittleEndian.Uint32(p[at:])), int(binary.LittleEndian.Uint32(p[at+4:]))
		}
		if at+pos+ksize > len(p) {
			w.report("page %d: key %d runs past the page", id, i)
			return
		}
		k := p[at+pos : at+pos+ksize]
		switch {
		case i == 0 && lo != nil && bytes.Compare(k, lo) < 0:
			w.report("page %d: key %d sorts before its parent's %x", id, i, lo)
			return
		case i > 0 && bytes.Compare(keys[i-1], k) >= 0:
			w.report("page %d: key %d is not after key %d", id, i, i-1)
			return
		case hi != nil && bytes.Compare(k, hi) >= 0:
			w.report("page %d: key %d is not before its parent's next key %x", id, i, hi)
			return
		}
		keys[i] = k
	}
	for i := range keys {
		at := pageHeaderSize + i*pageElemSize
		if branch {
			next := hi
			if i+1 < count {
				next = keys[i+1]
			}
			w.tree(binary.LittleEndian.Uint64(p[at+8:]), keys[i], next, depth+1)
			continue
		}
		if binary.LittleEndian.Uint32(p[at:])&leafBucket == 0 {
			vstart := at + int(binary.LittleEndian.Uint32(p[at+4:])) + len(keys[i])
			if vsize := int(binary.LittleEndian.Uint32(p[at+12:])); vstart+vsize > len(p) {
				w.report("page %d: value %d runs past the page", id, i)
				return
			}
			continue
		}
		vstart := at + int(binary.LittleEndian.Uint32(p[at+4:])) + len(keys[i])
		vsize := int(binary.LittleEndian.Uint32(p[at+12:]))
		if vsize < bucketHeader || vstart+vsize > len(p) {
			w.report("page %d: bucket %q's header runs past the page", id, keys[i])
			return
		}
		v := p[vstart : vstart+vsize]
		root := binary.LittleEndian.Uint64(v)
		if root != 0 {
			w.tree(root, nil, nil, depth+1)
			continue
		}
		if id == 0 {
			w.report("a bucket inside the inline bucket %q", keys[i])
			return
		}
		inline := v[bucketHeader:]
		if len(inline) < pageHeaderSize || binary.LittleEndian.Uint16(inline[8:]) != pageLeaf {
			w.report("page %d: inline bucket %q is not a leaf", id, keys[i])
			return
		}
		w.elements(0, inline, false, nil, nil, depth+1)
	}
}
