package games

// Compactor is a Match that can make what it holds between steps smaller without changing any
// byte it hands out: Blitz packs the older part of its §5.4 public log (Packed, through p) and
// lets go of the states of prompts already answered. A table actor calls Compact after a step (an
// Act or Advance that changed the match), on the match's own goroutine, never inside Act or
// Advance: a game's own benchmarks and replays, which never call it, do not pay for it. p is the
// actor side's: the game holds no deflater of its own (one is about a megabyte) and no lock.
type Compactor interface {
	Compact(p Packer)
}
