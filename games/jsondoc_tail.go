package games

// DocTail is the part of several Docs that they share: a list of segments (and at most one
// packed run) built once and never changed, which each Doc follows with a head of its own
// (WithHead). A game whose prompts of one move carry mostly the same bytes builds the common
// part once: Blitz's §5.4 states of one phase are each seat's own "me" followed by the same
// shared members and the same public log, so the phase's six states share one tail and each
// costs its "me" and a Doc header instead of a list of thirty-odd segments of its own.
//
// The zero DocTail is empty. A DocTail is a pointer to its list: copying it copies the pointer,
// and a Doc made from it holds its head and that pointer (a Doc is a head and a tail).
type DocTail struct{ t *segs }

// JoinTail is the tail of the given segments, laid out as JoinPacked lays out a Doc: parts taken
// over (the slice, not copied) and shared, empty segments dropped, each segment capped at its
// length (an append-only log keeps writing past it), the packed run run (nil or empty: none)
// inserted before parts[at]. Nothing may write into parts afterwards.
func JoinTail(run *Packed, at int, parts ...[]byte) DocTail {
	return DocTail{joinSegs(run, at, parts)}
}

// Len is the tail's length in bytes.
func (t DocTail) Len() int {
	if t.t == nil {
		return 0
	}
	return t.t.size
}

// WithHead is the Doc of head followed by the tail: head itself (not copied, capped at its
// length; it must not change afterwards) and the tail's segments, shared with every other Doc
// made from the same tail.
func (t DocTail) WithHead(head []byte) Doc {
	return Doc{head: head[:len(head):len(head)], tail: t.t}
}
