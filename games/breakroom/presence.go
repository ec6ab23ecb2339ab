package breakroom

import (
	"encoding/json"
	"time"

	"arena/games"
	"arena/games/canon"
)

// CodeUnchanged refuses a presence input that changes nothing (§1.5): the seat was already
// away (or back) and its open prompt's deadline stays where it is.
const CodeUnchanged = "unchanged"

// ReadPresence reads a presence input (breakroom-games §1.5, the out-of-turn input that tells a
// match a seat's connection state), the same way in every game: match_over once the match is
// over, not_seated for a seat outside 1..seats, bad_request unless the body is exactly
// {"away": true|false} (canon.Decode, the one strict parser). seat is the input's wire seat
// (0-based).
func ReadPresence(over bool, seats int, in games.Input) (seat int, away bool, err error) {
	if over {
		return 0, false, games.Errorf(CodeMatchOver, "the match is over")
	}
	if in.Seat < 1 || in.Seat > seats {
		return 0, false, games.Errorf(CodeNotSeated, "seat %d is not at this table", WireSeat(in.Seat))
	}
	var b struct {
		Away *bool `json:"away"`
	}
	if err := canon.Decode(in.Body, &b); err != nil || b.Away == nil {
		return 0, false, games.Errorf(games.CodeBadRequest, `presence: want {"away": true|false}`)
	}
	return WireSeat(in.Seat), *b.Away, nil
}

// PresenceSeat is the part of a seat a presence input reads and writes, pointing into the game's
// own state.
type PresenceSeat struct {
	// Away is the seat's connection state: true while its socket is gone or its HTTP agent
	// silent; its prompts then get the away deadline.
	Away *bool
	// Returning is set when a seat that sits out comes back (it is restored at the next point
	// the game names); nil in a game whose repeated-miss cost is final (werewolf: "left").
	Returning *bool
	// Out: the seat sits out, or has reached the strikes limit and will at the next point.
	Out bool
}

// PresenceTurn is the seat's open prompt whose deadline is still ahead (nil when it has none):
// Deadline is moved in place, and Prompt (its Deadline set) is delivered again.
type PresenceTurn struct {
	Prompt   *games.Prompt
	Deadline *time.Time
	Opened   time.Time // when the prompt opened: a seat back has its full turn from then
}

// Presence applies a presence input read by ReadPresence to seat s (wire seat) at now (§1.5):
// away, the seat is away and its open prompt's deadline comes down to now + awayDeadline if
// that is sooner; back, it is not away, a seat that sits out is returning, and its open prompt's
// deadline goes back up to Opened + turnDeadline if that is later. A moved deadline redelivers
// the prompt and answers PresenceReply with it. Nothing to change is CodeUnchanged, and then
// nothing is written.
func Presence(now time.Time, seat int, away bool, s PresenceSeat, t *PresenceTurn, awayDeadline, turnDeadline time.Duration) (games.Step, error) {
	changed := false
	if away {
		if !*s.Away {
			*s.Away, changed = true, true
		}
		if t != nil {
			if dl := now.Add(awayDeadline); dl.Before(*t.Deadline) {
				*t.Deadline, changed = dl, true
			}
		}
	} else {
		if *s.Away {
			*s.Away, changed = false, true
		}
		if s.Returning != nil && s.Out && !*s.Returning {
			*s.Returning, changed = true, true
		}
		if t != nil {
			if dl := t.Opened.Add(turnDeadline); dl.After(*t.Deadline) {
				*t.Deadline, changed = dl, true
			}
		}
	}
	if !changed {
		return games.Step{}, games.Errorf(CodeUnchanged, "seat %d: nothing to change", seat)
	}
	var step games.Step
	if t != nil {
		t.Prompt.Deadline = *t.Deadline
		step.Prompts = append(step.Prompts, *t.Prompt)
		// The sender learns the open prompt's new deadline with the answer, whichever of the two
		// reaches it first (a reconnect writes your_turn once, with it).
		step.Reply, _ = json.Marshal(PresenceReply{Deadline: *t.Deadline})
	}
	return step, nil
}
