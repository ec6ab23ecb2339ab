package games

// InputKeeper is a Match that keeps its own copy of its inputs (an event-sourced Snapshot, as
// Blitz's). A table logs every input itself and brings the match back by Replay, so after each
// commit it calls DropInputs: the match lets go of the inputs it holds, and its Snapshot is
// refused from then on.
type InputKeeper interface {
	DropInputs()
}
