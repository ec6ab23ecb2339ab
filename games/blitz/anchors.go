package blitz

import "arena/games"

var _ games.AnchorKeeper = (*Match)(nil)

// PendingAnchors is every anchor request of the round not yet recorded by an "anchored" input,
// in seq order (games.AnchorKeeper).
func (m *Match) PendingAnchors() []games.AnchorRequest {
	return m.anchors.pending(m.sealed)
}
