package dilemma

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"time"

	"arena/games"
	"arena/games/canon"
)

// Phases of a match.
const (
	phaseNew    = "new"    // made, not yet opened (opens at Setup.Start)
	phaseCommit = "commit" // the sealed commit step
	phaseReveal = "reveal" // the reveal pause
	phaseDone   = "done"
)

// Error codes beyond games' generic ones (warden-games §7.3).
const (
	CodeAlreadyActed  = "already_acted"  // the seat has committed already
	CodeIllegalAction = "illegal_action" // an action outside the legal list
)

// theMove is the one move of Game II.
var theMove = games.Move{Turn: 1, Phase: phaseCommit}

// state is the whole match.
type state struct {
	Setup   games.Setup   `json:"setup"`
	Stake   int64         `json:"stake"`  // S, micro-units
	Commit  time.Duration `json:"commit"` // commit step length
	Reveal  time.Duration `json:"reveal"` // reveal pause length
	Phase   string        `json:"phase"`
	Due     time.Time     `json:"due"` // the current phase's deadline
	Choice  [2]string     `json:"choice"`
	Done    [2]bool       `json:"done"`      // committed (or defaulted)
	Default [2]bool       `json:"defaulted"` // defaulted at the deadline
	Seq     int64         `json:"seq"`
	Events  []games.Event `json:"events"`
	// Abandoned is Abandon's reason: the match ended early, every stake is returned.
	Abandoned string `json:"abandoned,omitempty"`
}

type match struct{ st state }

var _ games.Match = (*match)(nil)

func seatName(i int) string { return string(rune('A' + i)) }

// Act applies seat's answer {"action": "cooperate"|"defect"} (Break Room form) or
// {"choice": "COOPERATE"|"DEFECT"} (the Warden's commit args). Refusals (*games.Error; the
// match is unchanged): round_over once done; stale for a move that is not the open commit (a
// Move other than {1, "commit"}, before the match opened, in the reveal, or at/after the
// deadline); not_seated; already_acted; bad_request for another Kind or a malformed body;
// illegal_action for an action outside the legal list. The second commit closes the step
// early and reveals at once.
func (m *match) Act(now time.Time, in games.Input) (games.Step, error) {
	st := &m.st
	switch {
	case st.Phase == phaseDone:
		return games.Step{}, games.Errorf(games.CodeRoundOver, "the match is over")
	case in.Seat != 1 && in.Seat != 2:
		return games.Step{}, games.Errorf(games.CodeNotSeated, "seat %d", in.Seat)
	case in.Kind != "answer":
		return games.Step{}, games.Errorf(games.CodeBadRequest, "input kind %q: Game II takes answers only", in.Kind)
	case in.Move != theMove || st.Phase != phaseCommit || !now.Before(st.Due):
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
		"round": 1, "seat": seatName(i), "commitment": m.commitment(i),
	})
	m.emit(&step, now, phaseCommit, "commit_recorded", games.Private(in.Seat), map[string]any{
		"round": 1, "seat": seatName(i), "choice": choice,
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
						"round": 1, "step": phaseCommit, "seat": seatName(i), "default_applied": Cooperate,
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
		"seed_hash": seedHash(st.Setup.Seed), "stake": st.Stake, "pot": 2 * st.Stake,
		"seats": map[string]any{"A": seatInfo(st.Setup.Seats[0]), "B": seatInfo(st.Setup.Seats[1])},
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
		"round": 1, "step": phaseCommit, "deadline": stamp(st.Due),
	})
	step.Prompts = append(step.Prompts, m.prompt(0, at), m.prompt(1, at))
}

func seatInfo(s games.Seat) map[string]any {
	return map[string]any{"seat": s.Seat, "agent": s.Agent, "name": s.Name}
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
	gross := [2]int64{f.GrossA, f.GrossB}
	seats := map[string]any{}
	for i := range 2 {
		seats[seatName(i)] = map[string]any{
			"gross_return": gross[i], "net": gross[i] - st.Stake, "result": result(gross[i], gross[1-i]),
		}
	}
	st.Phase, st.Due = phaseDone, time.Time{}
	m.emit(step, at, "", "match_finished", games.Public, map[string]any{
		"seats": seats, "house": f.House, "seed": hex.EncodeToString(st.Setup.Seed[:]),
	})
}

// result is win, loss or draw by gross return (equal stakes, so the same order as net, §2.3).
func result(mine, theirs int64) string {
	switch {
	case mine > theirs:
		return "win"
	case mine < theirs:
		return "loss"
	}
	return "draw"
}

// salt is hex(HMAC-SHA256(key = seed, "warden/salt/v1|<match>|1|<seat>|commit")), fixed by
// the seed before play (warden-games §15.4).
func (m *match) salt(i int) string {
	mac := hmac.New(sha256.New, m.st.Setup.Seed[:])
	mac.Write([]byte("warden/salt/v1|" + m.st.Setup.Round + "|1|" + seatName(i) + "|commit"))
	return hex.EncodeToString(mac.Sum(nil))
}

// commitment is the published hash of seat i's sealed choice (warden-games §15.4).
func (m *match) commitment(i int) string {
	b, err := canon.Marshal(map[string]any{
		"m": m.st.Setup.Round, "r": 1, "s": seatName(i), "a": "commit",
		"x": map[string]string{"choice": m.st.Choice[i]}, "salt": m.salt(i),
	})
	if err != nil { // unreachable: every value is a short string or a small integer
		return ""
	}
	return canon.ID(b)
}

// emit appends one event to the transcript and the step.
func (m *match) emit(step *games.Step, at time.Time, phase, typ string, vis games.Visibility, payload any) {
	st := &m.st
	p, err := canon.Marshal(payload)
	if err != nil { // unreachable: payloads hold strings, bools and integers below 2^53
		p = []byte(`{}`)
	}
	st.Seq++
	ev := games.Event{Seq: st.Seq, Round: st.Setup.Round, Turn: 1, Phase: phase, At: stamp(at),
		Type: typ, Visibility: vis, Payload: p}
	st.Events = append(st.Events, ev)
	step.Events = append(step.Events, ev)
}

// stamp is RFC 3339 UTC with milliseconds (§15).
func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z07:00") }

// Deadline is the next instant Advance must run: Setup.Start before opening, then the commit
// deadline, then the end of the reveal pause; false once done.
func (m *match) Deadline() (time.Time, bool) {
	switch m.st.Phase {
	case phaseNew:
		return m.st.Setup.Start, true
	case phaseCommit, phaseReveal:
		return m.st.Due, true
	}
	return time.Time{}, false
}

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
		"round": 1, "step": phaseCommit, "seat": seatName(i),
		"stake": st.Stake, "pot": 2 * st.Stake,
		"deadline": stamp(st.Due), "opened": stamp(opened), "on_timeout": Cooperate,
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
func (m *match) SeedHash() string { return seedHash(m.st.Setup.Seed) }

// Result, once done: Standings by net return, G − S (a draw shares rank 1; Reveal also says
// "draw"); Payouts = gross returns G in micro-units (settlement applies rake, warden-games
// §2.2); House = H; the seed revealed; TranscriptHash = "sha256:" +
// hex(SHA-256(JCS(the ordered event list))). An abandoned match returns both stakes: Payouts S
// each, House 0, both ranked 1, Abandoned its reason, no Reveal.
func (m *match) Result() (games.Result, bool) {
	st := &m.st
	if st.Phase != phaseDone {
		return games.Result{}, false
	}
	if st.Abandoned != "" {
		return games.Result{
			Standings:      games.Rank(map[int]float64{1: 0, 2: 0}),
			Unit:           Unit,
			Payouts:        map[int]int64{1: st.Stake, 2: st.Stake},
			SeedHash:       seedHash(st.Setup.Seed),
			Seed:           hex.EncodeToString(st.Setup.Seed[:]),
			TranscriptHash: TranscriptHash(st.Events),
			Abandoned:      st.Abandoned,
		}, true
	}
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
	return games.Result{
		Standings:      games.Rank(map[int]float64{1: float64(f.GrossA - st.Stake), 2: float64(f.GrossB - st.Stake)}),
		Unit:           Unit,
		Payouts:        map[int]int64{1: f.GrossA, 2: f.GrossB},
		House:          f.House,
		SeedHash:       seedHash(st.Setup.Seed),
		Seed:           hex.EncodeToString(st.Setup.Seed[:]),
		TranscriptHash: TranscriptHash(st.Events),
		Reveal:         reveal,
	}, true
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
func TranscriptHash(events []games.Event) string {
	b, err := canon.Marshal(events)
	if err != nil {
		return ""
	}
	return canon.ID(b)
}

// Unit is the unit of stakes, payouts and the house's take: micro-units of the table's currency
// (USDC atomic units on the Warden).
const Unit = "micro-units"

// Abandon ends an unfinished match at now: match_abandoned {reason, seed} (public), every stake
// returned (Result). No choices_revealed is written and nothing settles on the choices; the
// seats' own commit_recorded lines are private lines like any other, readable once the match
// has ended. A finished match is left as it is.
func (m *match) Abandon(now time.Time, reason string) games.Step {
	st := &m.st
	var step games.Step
	if st.Phase == phaseDone {
		return step
	}
	if reason == "" {
		reason = "abandoned"
	}
	st.Phase, st.Due, st.Abandoned = phaseDone, time.Time{}, reason
	m.emit(&step, now, "", "match_abandoned", games.Public, map[string]any{
		"reason": reason, "seed": hex.EncodeToString(st.Setup.Seed[:]),
		"returned": map[string]int64{"A": st.Stake, "B": st.Stake},
	})
	return step
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
		v["seat"] = seatName(viewer - 1)
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
