package blitz

// publicLog is §5.4's public_log: the JCS bytes of every public event so far, comma-joined,
// held in fixed chunks that are never reallocated. Every envelope's state carries the whole
// log (hundreds of kilobytes late in a round), so the log must cost one copy per envelope and
// nothing more: no regrowth of one big slice (which re-copied it at every 1.25× step), and no
// separate allocation per event.
type publicLog struct {
	chunks [][]byte
	size   int // bytes in all chunks
}

// Chunks start at firstChunk and double up to logChunk, so a table early in its round (most of
// the live tables a server holds) does not carry 64 KiB of log it has not written yet; an event
// larger than a chunk gets a chunk of its own size.
const (
	firstChunk = 4 << 10
	logChunk   = 64 << 10
)

// add appends one event's canonical bytes, preceded by a comma unless it is the first.
func (l *publicLog) add(ev []byte) {
	need := len(ev) + 1
	if n := len(l.chunks); n == 0 || cap(l.chunks[n-1])-len(l.chunks[n-1]) < need {
		size := logChunk
		if n < 4 {
			size = firstChunk << n // 4, 8, 16, 32 KiB, then 64 KiB
		}
		l.chunks = append(l.chunks, make([]byte, 0, max(size, need)))
	}
	c := &l.chunks[len(l.chunks)-1]
	if l.size > 0 {
		*c = append(*c, ',')
		l.size++
	}
	*c = append(*c, ev...)
	l.size += len(ev)
}

// bytes is the whole log as one slice (for tests and callers that want it contiguous).
func (l *publicLog) bytes() []byte {
	out := make([]byte, 0, l.size)
	for _, c := range l.chunks {
		out = append(out, c...)
	}
	return out
}
