package verify

import (
	"encoding/hex"

	"arena/games"
)

// revealed is what checkReveal learned: the open-round anchor recomputed from the reveal.
type revealed struct {
	ok   bool
	open [32]byte
}

// checkReveal has the game recompute the commitment its reveal opens (games.Opener: Blitz's
// open-round anchor from round.revealed's salts, seed, mole, task and playbooks, §5.5, §11.4)
// and compares it with the reveal's own statement and with the one announced before play
// (scouting.started). One line, at the reveal.
func checkReveal(t Transcript, game games.Opener, add func(int, bool, string, string, ...any)) revealed {
	const name = "open-round anchor"
	if game == nil {
		add(len(t.Events), false, name, "no game given to recompute the reveal (Options.Game)")
		return revealed{}
	}
	op, err := game.Open(gameEvents(t.Events))
	switch {
	case err != nil:
		add(op.At, false, name, "%v", err)
		return revealed{}
	case !op.Found:
		add(op.At, false, name, "no %s event: the round is not revealed, nothing recomputes", op.RevealType)
		return revealed{}
	}
	id := "sha256:" + hex.EncodeToString(op.Hash[:])
	switch {
	case op.Round != t.Round:
		add(op.At, false, name, "the reveal is of round %q, the transcript of %q", op.Round, t.Round)
	case id != op.Stated:
		add(op.At, false, name, "recomputed from %s %s, the reveal says %s", op.Source, short(id), short(op.Stated))
	case op.Announced != "" && id != op.Announced:
		add(op.At, false, name, "recomputed from %s %s, %s announced %s", op.Source, short(id), op.AnnouncedIn, short(op.Announced))
	default:
		add(op.At, true, name, "recomputed from %s: %s = open_anchor = %s's", op.From, short(id), op.AnnouncedIn)
	}
	return revealed{ok: true, open: op.Hash}
}

// gameEvents is the transcript as the games contract's events.
func gameEvents(evs []Event) []games.Event {
	out := make([]games.Event, len(evs))
	for i, e := range evs {
		out[i] = games.Event{Seq: e.Seq, Round: e.Round, Turn: e.Turn, Phase: e.Phase, At: e.At, Type: e.Type,
			Visibility: games.Visibility(e.Visibility), Payload: e.Payload}
	}
	return out
}
