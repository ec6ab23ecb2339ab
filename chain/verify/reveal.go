package verify

import (
	"encoding/hex"
	"encoding/json"

	"arena/games/blitz"
)

// revealed is what checkReveal learned: the open-round anchor recomputed from the reveal.
type revealed struct {
	ok   bool
	open [32]byte
}

// checkReveal recomputes the open-round anchor from round.revealed's salts, seed, mole, task and
// playbooks (§5.5, §11.4; blitz.OpenAnchor) and compares it with the reveal's open_anchor and
// with the anchor announced in scouting.started before turn 1. One line, at round.revealed.
func checkReveal(t Transcript, add func(int, bool, string, string, ...any)) revealed {
	const name = "open-round anchor"
	at, scout := -1, ""
	for i, e := range t.Events {
		switch e.Type {
		case "round.revealed":
			at = i
		case "scouting.started":
			var p struct {
				Anchor string `json:"anchor"`
			}
			_ = json.Unmarshal(e.Payload, &p)
			scout = p.Anchor
		}
	}
	if at < 0 {
		add(len(t.Events), false, name, "no round.revealed event: the round is not revealed, nothing recomputes")
		return revealed{}
	}
	var r blitz.Reveal
	if err := json.Unmarshal(t.Events[at].Payload, &r); err != nil {
		add(at, false, name, "round.revealed payload: %v", err)
		return revealed{}
	}
	_, h, err := blitz.OpenAnchor(r)
	if err != nil {
		add(at, false, name, "cannot recompute from the reveal: %v", err)
		return revealed{}
	}
	id := "sha256:" + hex.EncodeToString(h[:])
	switch {
	case r.Round != t.Round:
		add(at, false, name, "the reveal is of round %q, the transcript of %q", r.Round, t.Round)
	case id != r.OpenAnchor:
		add(at, false, name, "recomputed from the revealed salts %s, the reveal says %s", short(id), short(r.OpenAnchor))
	case scout != "" && id != scout:
		add(at, false, name, "recomputed from the revealed salts %s, scouting.started announced %s", short(id), short(scout))
	default:
		add(at, true, name, "recomputed from the revealed salts, seed, mole %d and task %s: %s = open_anchor = scouting.started's", r.Mole, r.Task.Kind, short(id))
	}
	return revealed{ok: true, open: h}
}
