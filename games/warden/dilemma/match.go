package dilemma

import (
	"encoding/json"
	"time"

	"arena/games"
	"arena/games/canon"
	"arena/games/warden/internal/duel"
)

// Phases of a match.
const (
	phaseNew    = duel.PhaseNew  // made, not yet opened (opens at Setup.Start)
	phaseCommit = "commit"       // the sealed commit step
	phaseReveal = "reveal"       // the reveal pause
	phaseDone   = duel.PhaseDone // finished or abandoned
)

// Error codes beyond games' generic ones (warden-games §7.3).
const (
	CodeAlreadyActed  = "already_acted"  // the seat has committed already
	CodeIllegalAction = "illegal_action" // an action outside the legal list
)

// theMove is the one move of Game II.
var theMove = games.Move{Turn: 1, Phase: phaseCommit}

// state is the whole match: the Warden frame (setup, stake, phase, transcript) and the choices.
type state struct {
	duel.Frame
	Commit  time.Duration `json:"commit"` // commit step length
	Reveal  time.Duration `json:"reveal"` // reveal pause length
	Choice  [2]string     `json:"choice"`
	Done    [2]bool       `json:"done"`      // committed (or defaulted)
	Default [2]bool       `json:"defaulted"` // defaulted at the deadline
}

type match struct{ st state }

var _ games.Match = (*match)(nil)

// Act applies seat's answer {"action": "cooperate"|"defect"} (Break Room form) or
// {"choice": "COOPERATE"|"DEFECT"} (the Warden's commit args). Refusals (*games.Error; the
// match is unchanged): round_over once done; stale for a move that is not the open commit (a
// Move other than {1, "commit"}, before the match opened, in the reveal, or at/after the
// deadline); not_seated; already_acted; bad_request for another Kind or a malformed body;
// illegal_action for an action outside the legal list. The second commit closes the step
// early and reveals at once.
func (m *match) Act(now time.Time, in games.Input) (games.Step, error) {
	st := &m.st
	if err := st.Admit(in, "Game II"); err != nil {
		return games.Step{}, err
	}
	if in.Move != theMove || st.Phase != phaseCommit || !now.Before(st.Due) {
		return games.Step{}, games.Errorf(games.CodeStale, "no open move %+v for seat %d", in.Move, in.Seat)
	}
	i := in.Seat - 1
	if st.Done[i] {
		return games.Step{}, games.Errorf(CodeAlreadyActed, "seat %d has committed", in.Seat)
	}
	choice, err := parseBody(in.Body)
	if err != nil {
		return games.Step{}, err
	}
	var step games.Step
	st.Choice[i], st.Done[i] = choice, true
	m.emit(&step, now, phaseCommit, "commit_sealed", games.Public, map[string]any{
		"round": 1, "seat": duel.SeatName(i), "commitment": m.commitment(i),
	})
	m.emit(&step, now, phaseCommit, "commit_recorded", games.Private(in.Seat), map[string]any{
		"round": 1, "seat": duel.SeatName(i), "choice": choice,
	})
	if st.Done[0] && st.Done[1] {
		m.reveal(&step, now)
	}
	return step, nil
}

// parseBody reads one of the two answer forms strictly.
func parseBody(body json.RawMessage) (string, error) {
	var b struct {
		Action *string `json:"action"`
		Choice *string `json:"choice"`
	}
	if err := canon.Decode(body, &b); err != nil {
		return "", games.Errorf(games.CodeBadRequest, "answer body: %v", err)
	}
	switch {
	case b.Action != nil && b.Choice == nil:
		switch *b.Action {
		case ActionCooperate:
			return Cooperate, nil
		case ActionDefect:
			return Defect, nil
		}
		return "", games.Errorf(CodeIllegalAction, "action %q: legal are cooperate, defect", *b.Action)
	case b.Choice != nil && b.Action == nil:
		if *b.Choice == Cooperate || *b.Choice == Defect {
			return *b.Choice, nil
		}
		return "", games.Errorf(CodeIllegalAction, "choice %q: legal are COOPERATE, DEFECT", *b.Choice)
	}
	return "", games.Errorf(games.CodeBadRequest, "answer body: exactly one of action, choice")
}

// Advance applies every deadline at or before now: opening at Setup.Start, the commit deadline
// (defaults to COOPERATE, then the reveal), the end of the reveal pause. Each phase's events
// are stamped with its own deadline instant, so a late Advance gives the same transcript as a
// punctual one.
func (m *match) Advance(now time.Time) games.Step {
	st := &m.st
	var step games.Step
	for {
		switch st.Phase {
		case phaseNew:
			if now.Before(st.Setup.Start) {
				return step
			}
			m.open(&step, st.Setup.Start)
		case phaseCommit:
			if now.Before(st.Due) {
				return step
			}
			at := st.Due
			for i := range 2 {
				if !st.Done[i] {
					st.Choice[i], st.Done[i], st.Default[i] = Cooperate, true, true
					m.emit(&step, at, phaseCommit, "timeout", games.Public, map[string]any{
						"round": 1, "step": phaseCommit, "seat": duel.SeatName(i), "default_applied": Cooperate,
					})
				}
			}
			m.reveal(&step, at)
		case phaseReveal:
			if now.Before(st.Due) {
				return step
			}
			m.finish(&step, st.Due)
		default:
			return step
		}
	}
}

func (m *match) open(step *games.Step, at time.Time) {
	st := &m.st
	st.Phase, st.Due = phaseCommit, at.Add(st.Commit)
	m.emit(step, at, "", "match_started", games.Public, map[string]any{
		"game": GameID, "rules_version": RulesVersion, "match": st.Setup.Round,
		"seed_hash": duel.SeedHash(st.Setup.Seed), "stake": st.Stake, "pot": 2 * st.Stake,
		"seats": st.Seats(),
		"params": map[string]any{
			"shares_bps": map[string]any{
				Accord:   map[string]int64{"A": 4500, "B": 4500},
				Betrayal: map[string]any{"defector": 6500, "cooperator": 1500},
				Deadlock: map[string]int64{"A": 3000, "B": 3000},
			},
			"default_choice": Cooperate, "commit_ms": st.Commit.Milliseconds(), "reveal_ms": st.Reveal.Milliseconds(),
		},
	})
	m.emit(step, at, phaseCommit, "step_opened", games.Public, map[string]any{
		"round": 1, "step": phaseCommit, "deadline": duel.Stamp(st.Due),
	})
	step.Prompts = append(step.Prompts, m.prompt(0, at), m.prompt(1, at))
}

func (m *match) reveal(step *games.Step, at time.Time) {
	st := &m.st
	f := Outcome(st.Choice[0], st.Choice[1], 2*st.Stake)
	st.Phase, st.Due = phaseReveal, at.Add(st.Reveal)
	m.emit(step, at, phaseReveal, "choices_revealed", games.Public, map[string]any{
		"round":      1,
		"choices":    map[string]string{"A": st.Choice[0], "B": st.Choice[1]},
		"defaulted":  map[string]bool{"A": st.Default[0], "B": st.Default[1]},
		"outcome":    f.Outcome,
		"shares_bps": map[string]int64{"A": f.Shares.A, "B": f.Shares.B},
		"gross":      map[string]int64{"A": f.GrossA, "B": f.GrossB},
		"house":      f.House,
		"salts":      map[string]string{"A": m.salt(0), "B": m.salt(1)},
	})
}

func (m *match) finish(step *games.Step, at time.Time) {
	st := &m.st
	f := Outcome(st.Choice[0], st.Choice[1], 2*st.Stake)
	st.Phase, st.Due = phaseDone, time.Time{}
	m.emit(step, at, "", "match_finished", games.Public, map[string]any{
		"seats": st.Returns([2]int64{f.GrossA, f.GrossB}), "house": f.House, "seed": st.SeedHex(),
	})
}

// salt is seat i's salt of its commit (round 1, action "commit", warden-games §15.4).
func (m *match) salt(i int) string {
	return duel.Salt(m.st.Setup.Seed, m.st.Setup.Round, 1, i, "commit")
}

// commitment is the published hash of seat i's sealed choice (warden-games §15.4).
func (m *match) commitment(i int) string {
	return duel.Commitment(m.st.Setup.Seed, m.st.Setup.Round, 1, i, "commit", map[string]string{"choice": m.st.Choice[i]})
}

// emit appends one event of phase (turn 1) to the transcript and the step.
func (m *match) emit(step *games.Step, at time.Time, phase, typ string, vis games.Visibility, payload any) {
	m.st.Emit(step, at, games.Event{Turn: 1, Phase: phase, Type: typ, Visibility: vis}, payload)
}

// Deadline is the next instant Advance must run: Setup.Start before opening, then the commit
// deadline, then the end of the reveal pause; false once done.
func (m *match) Deadline() (time.Time, bool) { return m.st.Frame.Deadline() }

// Prompts are the open commit prompts of seats that have not committed.
func (m *match) Prompts() []games.Prompt {
	if m.st.Phase != phaseCommit {
		return nil
	}
	var out []games.Prompt
	for i := range 2 {
		if !m.st.Done[i] {
			out = append(out, m.prompt(i, m.st.Due.Add(-m.st.Commit)))
		}
	}
	return out
}

// prompt is seat i's commit prompt. Its visible_state (Break Room) holds only what the seat may
// see: never the opponent's choice, only whether it has committed.
func (m *match) prompt(i int, opened time.Time) games.Prompt {
	st := &m.st
	state, _ := canon.Marshal(map[string]any{
		"game": GameID, "rules_version": RulesVersion, "match": st.Setup.Round,
		"round": 1, "step": phaseCommit, "seat": duel.SeatName(i),
		"stake": st.Stake, "pot": 2 * st.Stake,
		"deadline": duel.Stamp(st.Due), "opened": duel.Stamp(opened), "on_timeout": Cooperate,
		"you_submitted":      map[string]bool{"commit": st.Done[i]},
		"opponent_submitted": map[string]bool{"commit": st.Done[1-i]},
		"shares_bps": map[string]any{
			"both_cooperate": map[string]int64{"you": 4500, "opponent": 4500},
			"you_defect":     map[string]int64{"you": 6500, "opponent": 1500},
			"they_defect":    map[string]int64{"you": 1500, "opponent": 6500},
			"both_defect":    map[string]int64{"you": 3000, "opponent": 3000},
		},
	})
	return games.Prompt{Seat: i + 1, Move: theMove, Deadline: st.Due,
		Legal: games.Actions(ActionCooperate, ActionDefect), State: games.RawDoc(state), Inbox: []json.RawMessage{}}
}

// SeedHash commits to the seed before play.
func (m *match) SeedHash() string { return duel.SeedHash(m.st.Setup.Seed) }

// Result, once done: Standings by net return, G − S (a draw shares rank 1; Reveal also says
// "draw"); Payouts = gross returns G in micro-units (settlement applies rake, warden-games
// §2.2); House = H; the seed revealed; TranscriptHash = "sha256:" +
// hex(SHA-256(JCS(the ordered event list))). An abandoned match returns both stakes: Payouts S
// each, House 0, both ranked 1, Abandoned its reason, no Reveal.
func (m *match) Result() (games.Result, bool) { return m.st.Frame.Result(m.settle) }

// settle is a played-out match's standings, payouts, house and reveal (Result).
func (m *match) settle(res *games.Result) {
	st := &m.st
	f := Outcome(st.Choice[0], st.Choice[1], 2*st.Stake)
	reveal, _ := canon.Marshal(map[string]any{
		"outcome":    f.Outcome,
		"draw":       f.GrossA == f.GrossB,
		"choices":    map[string]string{"A": st.Choice[0], "B": st.Choice[1]},
		"defaulted":  map[string]bool{"A": st.Default[0], "B": st.Default[1]},
		"shares_bps": map[string]int64{"A": f.Shares.A, "B": f.Shares.B},
		"salts":      map[string]string{"A": m.salt(0), "B": m.salt(1)},
		"stats": map[string]any{
			"A": stats(st.Choice[0], st.Default[0]), "B": stats(st.Choice[1], st.Default[1]),
		},
	})
	res.Standings = games.Rank(map[int]float64{1: float64(f.GrossA - st.Stake), 2: float64(f.GrossB - st.Stake)})
	res.Payouts = map[int]int64{1: f.GrossA, 2: f.GrossB}
	res.House = f.House
	res.Reveal = reveal
}

// stats are the manifest's per-seat statistics: cooperated, defected, timeouts (0 or 1 each).
func stats(choice string, defaulted bool) map[string]int {
	s := map[string]int{"cooperated": 0, "defected": 0, "timeouts": 0}
	if choice == Defect {
		s["defected"] = 1
	} else {
		s["cooperated"] = 1
	}
	if defaulted {
		s["timeouts"] = 1
	}
	return s
}

// TranscriptHash is "sha256:" + hex(SHA-256(JCS of the ordered event list)) (§11.5 reading).
func TranscriptHash(events []games.Event) string { return duel.TranscriptHash(events) }

// Unit is the unit of stakes, payouts and the house's take: micro-units of the table's currency
// (USDC atomic units on the Warden).
const Unit = duel.Unit

// Abandon ends an unfinished match at now: match_abandoned {reason, seed} (public), every stake
// returned (Result). No choices_revealed is written and nothing settles on the choices; the
// seats' own commit_recorded lines are private lines like any other, readable once the match
// has ended. A finished match is left as it is.
func (m *match) Abandon(now time.Time, reason string) games.Step {
	return m.st.Frame.Abandon(now, reason, 1)
}

// View is viewer's view: a seat's commit prompt state while the commit is open, and otherwise
// (and for a spectator, viewer 0) the public view: the match, its phase, who has committed, and
// once revealed both choices and the outcome. No sealed choice appears before the reveal.
func (m *match) View(viewer int) games.Doc {
	st := &m.st
	if (viewer == 1 || viewer == 2) && st.Phase == phaseCommit {
		return m.prompt(viewer-1, st.Due.Add(-st.Commit)).State
	}
	v := map[string]any{
		"game": GameID, "rules_version": RulesVersion, "match": st.Setup.Round,
		"phase": st.Phase, "stake": st.Stake, "pot": 2 * st.Stake,
		"submitted": map[string]bool{"A": st.Done[0], "B": st.Done[1]},
	}
	if viewer == 1 || viewer == 2 {
		v["seat"] = duel.SeatName(viewer - 1)
	}
	if st.Abandoned != "" {
		v["abandoned"] = st.Abandoned
	} else if st.Phase == phaseReveal || st.Phase == phaseDone {
		f := Outcome(st.Choice[0], st.Choice[1], 2*st.Stake)
		v["choices"] = map[string]string{"A": st.Choice[0], "B": st.Choice[1]}
		v["outcome"] = f.Outcome
	}
	b, _ := canon.Marshal(v)
	return games.RawDoc(b)
}
