package blitz

import (
	"encoding/json"
	"fmt"

	"arena/games"
)

var _ games.Opener = (*Engine)(nil)

// Open recomputes the open-round anchor from round.revealed's salts, seed, mole, task and
// playbooks (games.Opener; §5.5, §11.4; OpenAnchor), with the reveal's own open_anchor and the
// anchor announced before turn 1 (in scouting.started, or in round.opened at scouting's close
// for a round with an off-the-shelf seat).
func (e *Engine) Open(events []games.Event) (games.Opening, error) {
	op := games.Opening{At: -1, RevealType: "round.revealed", AnnouncedIn: "scouting.started", Source: "the revealed salts"}
	for i, ev := range events {
		switch ev.Type {
		case "round.revealed":
			op.At = i
		case "scouting.started", "round.opened":
			// round.opened, at scouting's close, announces it for a round with an off-the-shelf
			// seat (its playbooks are committed as they stand then); scouting.started otherwise.
			var p struct {
				Anchor string `json:"anchor"`
			}
			_ = json.Unmarshal(ev.Payload, &p)
			if p.Anchor != "" {
				op.Announced, op.AnnouncedIn = p.Anchor, ev.Type
			}
		}
	}
	if op.At < 0 {
		op.At = len(events)
		return op, nil
	}
	op.Found = true
	var r Reveal
	if err := json.Unmarshal(events[op.At].Payload, &r); err != nil {
		return op, fmt.Errorf("round.revealed payload: %v", err)
	}
	_, h, err := OpenAnchor(r)
	if err != nil {
		return op, fmt.Errorf("cannot recompute from the reveal: %v", err)
	}
	op.Round, op.Hash, op.Stated = r.Round, h, r.OpenAnchor
	op.From = fmt.Sprintf("the revealed salts, seed, mole %d and task %s", r.Mole, r.Task.Kind)
	return op, nil
}
