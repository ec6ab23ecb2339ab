package blitz

import "arena/games"

// anchorBook is the round's anchor requests by seq (§5.5: seqs run from 1 with no gap), kept
// for the whole round: an "anchored" input is checked against its request, and a table that
// restarts sends the unrecorded ones again (PendingAnchors).
//
// A live table holds a request in one byte: its kind, whether its hash is in hashes, and
// whether it is recorded. A commitment's anchor hashes the commitment's id (§5.5: its digest,
// digestOf) and is asked for as the commitment is sealed (doSeal), after it joins the sealed
// list, so the k-th commitment request's hash is the k-th sealed commitment's id and is not
// kept twice; every other hash (the opened round, each exchange, the turn, the transcript:
// what the match cannot name again) is kept in hashes, in seq order. A commitment request
// whose hash is not that id (never: doSeal asks for it) keeps its hash too. This keeps a
// late-round house table's anchors under 1 KB, where a games.AnchorRequest (56 bytes) and a bool
// per request in lists grown by doubling took about 3.5 KB.
type anchorBook struct {
	kinds  []uint8    // by seq-1: the kind's index in anchorKinds (low bits), anchorHashed, anchorRecorded
	hashes [][32]byte // the hashes of the requests marked anchorHashed, in seq order
	extra  []string   // kinds not in anchorKinds (never: the match asks for those only), by code-len(anchorKinds)
}

// anchorKinds are the §5.5 anchor kinds, their index the code anchorBook keeps.
var anchorKinds = [...]string{"opened", "exchange", "commitment", "turn", "transcript", "replay"}

const (
	anchorKindMask = 0x3f
	anchorHashed   = 0x40 // the request's hash is in anchorBook.hashes
	anchorRecorded = 0x80 // an "anchored" input recorded it
	kindCommitment = 2    // anchorKinds[kindCommitment] == "commitment"
)

// anchorHashRoom is how many hashes a round of format f keeps (the opened round, every
// exchange, a turn anchor, the transcript): the list is made at that size once.
func anchorHashRoom(f games.Format) int {
	return min(3+max(f.Turns, 0)*max(f.Exchanges, 0), 256)
}

// add numbers the next anchor request (seq from 1) of kind with hash h and keeps it. sealed is
// the round's sealed commitments in sealed order (Match.sealed), room the hashes to make room
// for at the first request (anchorHashRoom).
func (b *anchorBook) add(kind string, h [32]byte, sealed []*promise, room int) games.AnchorRequest {
	code := b.code(kind)
	hashed := true
	if code == kindCommitment {
		if k := b.commitments(len(b.kinds)); k < len(sealed) && digestOf(sealed[k].id) == h {
			hashed = false
		}
	}
	c := uint8(code)
	if hashed {
		if b.hashes == nil {
			b.hashes = make([][32]byte, 0, max(room, 1))
		}
		b.hashes = append(b.hashes, h)
		c |= anchorHashed
	}
	b.kinds = append(b.kinds, c)
	return games.AnchorRequest{Kind: kind, Seq: uint32(len(b.kinds)), Hash: h}
}

// code is kind's code: its index in anchorKinds, else len(anchorKinds) + its index in extra
// (added there when new). Past the codes the low bits hold (never: six kinds exist) it is the
// last code, so every request still has one (and reads back as that code's kind).
func (b *anchorBook) code(kind string) int {
	for i, k := range anchorKinds {
		if k == kind {
			return i
		}
	}
	for i, k := range b.extra {
		if k == kind {
			return len(anchorKinds) + i
		}
	}
	if len(anchorKinds)+len(b.extra) > anchorKindMask {
		return anchorKindMask
	}
	b.extra = append(b.extra, kind)
	return len(anchorKinds) + len(b.extra) - 1
}

// commitments counts the commitment requests among the first n whose hash is not kept.
func (b *anchorBook) commitments(n int) int {
	k := 0
	for _, c := range b.kinds[:n] {
		if c&(anchorHashed|anchorKindMask) == kindCommitment {
			k++
		}
	}
	return k
}

// at is the request numbered seq, false when there is none. sealed is as for add.
func (b *anchorBook) at(seq uint32, sealed []*promise) (games.AnchorRequest, bool) {
	if seq < 1 || int64(seq) > int64(len(b.kinds)) {
		return games.AnchorRequest{}, false
	}
	i := int(seq - 1)
	c := b.kinds[i]
	r := games.AnchorRequest{Seq: seq}
	switch code := int(c & anchorKindMask); {
	case code < len(anchorKinds):
		r.Kind = anchorKinds[code]
	case code-len(anchorKinds) < len(b.extra):
		r.Kind = b.extra[code-len(anchorKinds)]
	}
	if c&anchorHashed != 0 {
		h := 0
		for _, o := range b.kinds[:i] {
			if o&anchorHashed != 0 {
				h++
			}
		}
		r.Hash = b.hashes[h]
		return r, true
	}
	if k := b.commitments(i); k < len(sealed) {
		r.Hash = digestOf(sealed[k].id)
		return r, true
	}
	return games.AnchorRequest{}, false // a commitment request with no sealed commitment (never)
}

// pending is every request not recorded, in seq order (nil when none).
func (b *anchorBook) pending(sealed []*promise) []games.AnchorRequest {
	var out []games.AnchorRequest
	for i, c := range b.kinds {
		if c&anchorRecorded != 0 {
			continue
		}
		if r, ok := b.at(uint32(i+1), sealed); ok {
			out = append(out, r)
		}
	}
	return out
}

// recorded reports whether the request numbered seq (one at has) is recorded.
func (b *anchorBook) recorded(seq uint32) bool {
	return b.kinds[seq-1]&anchorRecorded != 0
}

// record marks the request numbered seq (one at has) recorded.
func (b *anchorBook) record(seq uint32) {
	b.kinds[seq-1] |= anchorRecorded
}
