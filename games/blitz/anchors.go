package blitz

import (
	"slices"

	"arena/games"
)

var _ games.AnchorKeeper = (*Match)(nil)

// PendingAnchors is every anchor request of the round not yet recorded by an "anchored" input,
// in seq order (games.AnchorKeeper).
func (m *Match) PendingAnchors() []games.AnchorRequest {
	var out []games.AnchorRequest
	for seq, r := range m.anchors {
		if !m.anchored[seq] {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b games.AnchorRequest) int { return int(a.Seq) - int(b.Seq) })
	return out
}
