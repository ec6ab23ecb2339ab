package anchor

import "fmt"

// CheckNumbering checks the seq rules of §5.5 over the anchors of ONE round, given in
// transcript order (the order of their anchor.<kind> events):
//   - every anchor but a replay takes the next number of the round's one numbering, from 1
//     (1, 2, 3, ... with no gap and no repeat, whatever the kinds);
//   - an opened anchor is seq 1 (it precedes turn 1);
//   - there is at most one turn (mid-round) anchor and at most one transcript anchor, and
//     nothing but replays follows the transcript anchor (it is the round's last word);
//   - a replay's seq is a Unix second (any non-zero value) and is not counted.
//
// All anchors must carry the same Round. The error (ErrSeq, ErrKind or ErrRound) names the
// index of the first offending anchor.
func CheckNumbering(as []Anchor) error {
	var want uint32 = 1
	turns, final := 0, false
	for i, a := range as {
		if err := a.Validate(); err != nil {
			return fmt.Errorf("anchor %d: %w", i, err)
		}
		if a.Round != as[0].Round {
			return fmt.Errorf("%w: anchor %d is round %d, anchor 0 is round %d", ErrRound, i, a.Round, as[0].Round)
		}
		if a.Kind == Replay {
			continue
		}
		if final {
			return fmt.Errorf("%w: anchor %d (%s) follows the transcript anchor", ErrSeq, i, a.Kind)
		}
		if a.Seq != want {
			return fmt.Errorf("%w: anchor %d (%s) has seq %d, want %d", ErrSeq, i, a.Kind, a.Seq, want)
		}
		switch a.Kind {
		case Opened:
			if a.Seq != 1 {
				return fmt.Errorf("%w: anchor %d: opened must be seq 1, got %d", ErrSeq, i, a.Seq)
			}
		case Turn:
			if turns++; turns > 1 {
				return fmt.Errorf("%w: anchor %d: a second turn (mid-round) anchor", ErrSeq, i)
			}
		case Transcript:
			final = true
		}
		want++
	}
	return nil
}
