package blitz

import "arena/games"

// chunkLog is an append-only list of JSON values, comma-joined, held in chunks that are never
// reallocated: §5.4's public_log (the JCS bytes of every public event so far) and the
// snapshot's input log. Every envelope's state shares the public log's chunks (games.Doc), so
// bytes once written never move or change; a new value goes after them or into a new chunk.
//
// A live table's public log is packed between steps (pack, publog_pack.go): the chunks written
// so far are deflated into packed, a games.Packed run that states share as they share chunks,
// and chunks holds only what came after. Once packing, every value gets a chunk of its own
// exact size: the raw tail between packs is a few events, none with room to spare.
type chunkLog struct {
	packed  *games.Packed // the log's first packed.Len() bytes, deflated (pack)
	chunks  [][]byte      // the bytes after them
	size    int           // bytes in the whole log: packed and chunks
	packing bool          // pack has been called: new values get exact-size chunks
}

// A new chunk is an eighth of the log so far, from 4 KiB to 64 KiB: a log early in its round
// (most of the tables a server holds) carries little unwritten room, and the room a log carries
// is never more than about an eighth of it. A value larger than that gets a chunk of its size.
const (
	firstChunk = 4 << 10
	logChunk   = 64 << 10
)

// add appends one value, preceded by a comma unless it is the first, and returns the log's copy
// of it: bytes the log never writes again (a full slice: an append to it copies).
func (l *chunkLog) add(v []byte) []byte {
	need := len(v) + 1
	if n := len(l.chunks); n == 0 || cap(l.chunks[n-1])-len(l.chunks[n-1]) < need {
		size := min(max(l.size/8, firstChunk), logChunk)
		if l.packing {
			size = need
		}
		l.chunks = append(l.chunks, make([]byte, 0, max(size, need)))
	}
	c := &l.chunks[len(l.chunks)-1]
	if l.size > 0 {
		*c = append(*c, ',')
		l.size++
	}
	at := len(*c)
	*c = append(*c, v...)
	l.size += len(v)
	return (*c)[at:len(*c):len(*c)]
}

// appendTo appends the whole log to b (its packed part inflated).
func (l *chunkLog) appendTo(b []byte) []byte {
	b = games.JoinPacked(l.packed, 0).AppendTo(b)
	for _, c := range l.chunks {
		b = append(b, c...)
	}
	return b
}

// bytes is the whole log as one slice (for tests and callers that want it contiguous).
func (l *chunkLog) bytes() []byte { return l.appendTo(make([]byte, 0, l.size)) }
