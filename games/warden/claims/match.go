package claims

import (
	"encoding/json"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"arena/games"
	"arena/games/canon"
	"arena/games/warden/internal/duel"
)

// Phases of a match; each round runs message → claim → offer → reveal (§3.3).
const (
	phaseNew     = duel.PhaseNew
	phaseMessage = "message" // NEGOTIATE / message
	phaseClaim   = "claim"   // NEGOTIATE / claim
	phaseOffer   = "offer"   // OFFER
	phaseReveal  = "reveal"  // REVEAL pause
	phaseDone    = duel.PhaseDone
)

// Action names of the prompts and error codes beyond games' generic ones (warden-games §7.3).
const (
	ActionMessage = "message"
	ActionPass    = "pass"
	ActionClaim   = "claim"
	ActionOffer   = "offer"

	CodeAlreadyActed      = "already_acted"
	CodeIllegalAction     = "illegal_action"
	CodeAskAboveValuation = "ask_above_valuation"
)

// roundState is one round's submissions and, once revealed, its resolution.
type roundState struct {
	Val       [2]int64   `json:"valuation"`
	Acted     [2]bool    `json:"acted"` // the open step's submission is in
	Message   [2]string  `json:"message"`
	Sent      [2]bool    `json:"sent"` // a message (not a pass) was sent
	Claim     [2]int64   `json:"claim"`
	Claimed   [2]bool    `json:"claimed"`
	Ask       [2]int64   `json:"ask"`
	Esc       [2]int     `json:"escalate"`
	Timeouts  [2]int     `json:"timeouts"` // steps defaulted (claim, offer)
	Res       Resolution `json:"resolution"`
	Resolved  bool       `json:"resolved"`
	BalAfter  [2]int64   `json:"balance_after"`
	Delivered bool       `json:"delivered"`
}

// state is the whole match: the Warden frame (setup, stake, phase, transcript) and the rounds.
type state struct {
	duel.Frame
	Lengths map[string]time.Duration `json:"lengths"` // step lengths by phase
	Round   int                      `json:"round"`   // 1..5 once open
	Rounds  []roundState             `json:"rounds"`
	Balance [2]int64                 `json:"balance"` // micro-units
	House   int64                    `json:"house"`   // Σ spill
}

type match struct{ st state }

var _ games.Match = (*match)(nil)

func (m *match) cur() *roundState { return &m.st.Rounds[m.st.Round-1] }

func (m *match) move() games.Move { return games.Move{Turn: m.st.Round, Phase: m.st.Phase} }

// body is every answer form, read strictly by canon.Decode.
type body struct {
	Action   *string `json:"action"`
	Text     *string `json:"text"`
	ClaimBps *int64  `json:"claim_bps"`
	AskBps   *int64  `json:"ask_bps"`
	Escalate *int64  `json:"escalate"`
}

// answer is a decoded, range-checked answer for one phase.
type answer struct {
	Action string
	Text   string
	Value  int64 // claim_bps or ask_bps
	Esc    int
}

// ParseAnswer reads body strictly as an answer to phase (message, claim or offer) for a seat
// holding valuation (bps): {"action":"message","text":…} (1..500 characters after control
// characters are removed) or {"action":"pass"}; {"action":"claim","claim_bps":0..10000};
// {"action":"offer","ask_bps":0..valuation,"escalate":0..4}. Errors (*games.Error):
// bad_request for malformed JSON, unknown or missing members; illegal_action for an action not
// legal in the phase or a value out of range; ask_above_valuation for an ask above valuation.
func ParseAnswer(phase string, raw json.RawMessage, valuation int64) (answer, error) {
	var b body
	if err := canon.Decode(raw, &b); err != nil {
		return answer{}, games.Errorf(games.CodeBadRequest, "answer body: %v", err)
	}
	if b.Action == nil {
		return answer{}, games.Errorf(games.CodeBadRequest, "answer body: action is required")
	}
	a := answer{Action: *b.Action}
	only := func(ok bool) error {
		if !ok {
			return games.Errorf(games.CodeBadRequest, "answer body: members do not fit action %q", a.Action)
		}
		return nil
	}
	switch {
	case phase == phaseMessage && a.Action == ActionPass:
		return a, only(b.Text == nil && b.ClaimBps == nil && b.AskBps == nil && b.Escalate == nil)
	case phase == phaseMessage && a.Action == ActionMessage:
		if err := only(b.Text != nil && b.ClaimBps == nil && b.AskBps == nil && b.Escalate == nil); err != nil {
			return a, err
		}
		a.Text = clean(*b.Text)
		if n := utf8.RuneCountInString(a.Text); n < 1 || n > MaxChars {
			return a, games.Errorf(CodeIllegalAction, "message of %d characters: 1..%d", n, MaxChars)
		}
		return a, nil
	case phase == phaseClaim && a.Action == ActionClaim:
		if err := only(b.ClaimBps != nil && b.Text == nil && b.AskBps == nil && b.Escalate == nil); err != nil {
			return a, err
		}
		if *b.ClaimBps < 0 || *b.ClaimBps > 10000 {
			return a, games.Errorf(CodeIllegalAction, "claim_bps %d: 0..10000", *b.ClaimBps)
		}
		a.Value = *b.ClaimBps
		return a, nil
	case phase == phaseOffer && a.Action == ActionOffer:
		if err := only(b.AskBps != nil && b.Escalate != nil && b.Text == nil && b.ClaimBps == nil); err != nil {
			return a, err
		}
		if *b.Escalate < 0 || *b.Escalate > MaxSteps {
			return a, games.Errorf(CodeIllegalAction, "escalate %d: 0..%d", *b.Escalate, MaxSteps)
		}
		if *b.AskBps < 0 || *b.AskBps > 10000 {
			return a, games.Errorf(CodeIllegalAction, "ask_bps %d: 0..10000", *b.AskBps)
		}
		if *b.AskBps > valuation {
			return a, games.Errorf(CodeAskAboveValuation, "ask_bps %d above your valuation %d", *b.AskBps, valuation)
		}
		a.Value, a.Esc = *b.AskBps, int(*b.Escalate)
		return a, nil
	}
	return a, games.Errorf(CodeIllegalAction, "action %q is not legal in the %s step", a.Action, phase)
}

// clean removes control characters (§3.3 step 2).
func clean(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, s)
}

// Act applies seat's answer to the open step (ParseAnswer). Refusals (*games.Error; the match
// is unchanged): round_over once done; not_seated; bad_request for another Kind; stale for a
// move that is not the open step or at/after its deadline; already_acted; the parse errors. The
// second submission of a step closes it early.
func (m *match) Act(now time.Time, in games.Input) (games.Step, error) {
	st := &m.st
	if err := st.Admit(in, "Game I"); err != nil {
		return games.Step{}, err
	}
	if !open(st.Phase) || in.Move != m.move() || !now.Before(st.Due) {
		return games.Step{}, games.Errorf(games.CodeStale, "no open move %+v for seat %d", in.Move, in.Seat)
	}
	i := in.Seat - 1
	r := m.cur()
	if r.Acted[i] {
		return games.Step{}, games.Errorf(CodeAlreadyActed, "seat %d has acted in this step", in.Seat)
	}
	a, err := ParseAnswer(st.Phase, in.Body, r.Val[i])
	if err != nil {
		return games.Step{}, err
	}
	var step games.Step
	r.Acted[i] = true
	seat := duel.SeatName(i)
	switch st.Phase {
	case phaseMessage:
		if a.Action == ActionMessage {
			r.Message[i], r.Sent[i] = a.Text, true
			m.emit(&step, now, "message_recorded", games.Private(in.Seat), map[string]any{"round": st.Round, "seat": seat, "text": a.Text})
		}
		m.emit(&step, now, "message_step_done", games.Public, map[string]any{"round": st.Round, "seat": seat, "sent": r.Sent[i]})
	case phaseClaim:
		r.Claim[i], r.Claimed[i] = a.Value, true
		m.emit(&step, now, "claim_sealed", games.Public, map[string]any{"round": st.Round, "seat": seat,
			"commitment": m.commitment(st.Round, i, ActionClaim, map[string]int64{"claim_bps": a.Value})})
		m.emit(&step, now, "claim_recorded", games.Private(in.Seat), map[string]any{"round": st.Round, "seat": seat, "claim_bps": a.Value})
	case phaseOffer:
		r.Ask[i], r.Esc[i] = a.Value, a.Esc
		m.emit(&step, now, "offer_sealed", games.Public, map[string]any{"round": st.Round, "seat": seat,
			"commitment": m.commitment(st.Round, i, ActionOffer, map[string]int64{"ask_bps": a.Value, "escalate": int64(a.Esc)})})
		m.emit(&step, now, "offer_recorded", games.Private(in.Seat), map[string]any{"round": st.Round, "seat": seat, "ask_bps": a.Value, "escalate": a.Esc})
	}
	if r.Acted[0] && r.Acted[1] {
		m.closeStep(&step, now)
	}
	return step, nil
}

func open(phase string) bool {
	return phase == phaseMessage || phase == phaseClaim || phase == phaseOffer
}

// Advance applies every deadline at or before now: the opening at Setup.Start, each step's
// deadline (defaults: no message, no claim, ask 0 without escalation, [JC-16]), the end of each
// reveal pause. Events are stamped with the deadline instant, so a late Advance gives the same
// transcript as a punctual one.
func (m *match) Advance(now time.Time) games.Step {
	st := &m.st
	var step games.Step
	for {
		switch {
		case st.Phase == phaseNew:
			if now.Before(st.Setup.Start) {
				return step
			}
			m.open(&step, st.Setup.Start)
		case open(st.Phase):
			if now.Before(st.Due) {
				return step
			}
			at := st.Due
			r := m.cur()
			for i := range 2 {
				if r.Acted[i] {
					continue
				}
				r.Acted[i] = true
				def := "none"
				switch st.Phase {
				case phaseClaim:
					def = "no_claim"
					r.Timeouts[i]++
				case phaseOffer:
					def = "ask0"
					r.Timeouts[i]++
				}
				m.emit(&step, at, "timeout", games.Public, map[string]any{
					"round": st.Round, "step": st.Phase, "seat": duel.SeatName(i), "default_applied": def,
				})
			}
			m.closeStep(&step, at)
		case st.Phase == phaseReveal:
			if now.Before(st.Due) {
				return step
			}
			if st.Round == Rounds {
				m.finish(&step, st.Due)
			} else {
				m.startRound(&step, st.Due, st.Round+1)
			}
		default:
			return step
		}
	}
}

func (m *match) open(step *games.Step, at time.Time) {
	st := &m.st
	for r := 1; r <= Rounds; r++ {
		st.Rounds = append(st.Rounds, roundState{Val: [2]int64{Valuation(st.Setup.Seed, r, 0), Valuation(st.Setup.Seed, r, 1)}})
	}
	m.emit(step, at, "match_started", games.Public, map[string]any{
		"game": GameID, "rules_version": RulesVersion, "match": st.Setup.Round,
		"seed_hash": duel.SeedHash(st.Setup.Seed), "stake": st.Stake, "bank": 2 * st.Stake,
		"seats": st.Seats(),
		"params": map[string]any{
			"rounds": Rounds, "valuation": map[string]int64{"min": ValMin, "max": ValMax, "step": ValStep},
			"pot":         map[string]int64{"base_bps": BaseBps, "step_bps": StepBps, "cap_bps": CapBps, "max_steps": MaxSteps},
			"ask_ceiling": "valuation", "message_max_chars": MaxChars, "rake_bps": RakeBps,
			"message_ms": st.Lengths[phaseMessage].Milliseconds(), "claim_ms": st.Lengths[phaseClaim].Milliseconds(),
			"offer_ms": st.Lengths[phaseOffer].Milliseconds(), "reveal_ms": st.Lengths[phaseReveal].Milliseconds(),
		},
	})
	m.startRound(step, at, 1)
}

// startRound deals round n: round_started (public, pot parameters), each seat's valuation
// (private to it), then the message step.
func (m *match) startRound(step *games.Step, at time.Time, n int) {
	st := &m.st
	st.Round = n
	r := m.cur()
	m.emit(step, at, "round_started", games.Public, map[string]any{
		"round": n, "base_pot": bps(st.Stake, BaseBps), "pot_step": bps(st.Stake, StepBps), "pot_cap": bps(st.Stake, CapBps),
		"balances": m.balances(),
	})
	for i := range 2 {
		m.emit(step, at, "valuation_dealt", games.Private(i+1), map[string]any{"round": n, "seat": duel.SeatName(i), "valuation_bps": r.Val[i]})
	}
	m.openStep(step, at, phaseMessage)
}

func (m *match) openStep(step *games.Step, at time.Time, phase string) {
	st := &m.st
	st.Phase, st.Due = phase, at.Add(st.Lengths[phase])
	r := m.cur()
	r.Acted = [2]bool{}
	m.emit(step, at, "step_opened", games.Public, map[string]any{"round": st.Round, "step": phase, "deadline": duel.Stamp(st.Due)})
	step.Prompts = append(step.Prompts, m.prompt(0, at), m.prompt(1, at))
}

// closeStep ends the open step at at: messages are delivered together, claims published
// together, offers revealed and resolved.
func (m *match) closeStep(step *games.Step, at time.Time) {
	st := &m.st
	r := m.cur()
	switch st.Phase {
	case phaseMessage:
		r.Delivered = true
		for i := range 2 {
			if r.Sent[i] {
				m.emit(step, at, "message_delivered", games.Private(2-i), map[string]any{
					"round": st.Round, "from": duel.SeatName(i), "to": duel.SeatName(1 - i), "text": r.Message[i],
				})
			}
		}
		m.openStep(step, at, phaseClaim)
	case phaseClaim:
		m.emit(step, at, "claims_revealed", games.Public, map[string]any{"round": st.Round, "claims": m.claims(r)})
		m.openStep(step, at, phaseOffer)
	case phaseOffer:
		m.reveal(step, at)
	}
}

// claims is {"A": bps or null, "B": …}: null for a missing claim.
func (m *match) claims(r *roundState) map[string]any {
	out := map[string]any{}
	for i := range 2 {
		if r.Claimed[i] {
			out[duel.SeatName(i)] = r.Claim[i]
		} else {
			out[duel.SeatName(i)] = nil
		}
	}
	return out
}

// kind is truthful, bluff (claim above valuation), understated, or no_claim.
func kind(r *roundState, i int) string {
	switch {
	case !r.Claimed[i]:
		return "no_claim"
	case r.Claim[i] > r.Val[i]:
		return "bluff"
	case r.Claim[i] < r.Val[i]:
		return "understated"
	}
	return "truthful"
}

// reveal resolves the round (§3.6), moves the balances and publishes everything sealed so far.
func (m *match) reveal(step *games.Step, at time.Time) {
	st := &m.st
	r := m.cur()
	pot := Pot(st.Stake, r.Esc[0], r.Esc[1])
	dev := [2]int64{Deviation(r.Ask[0], r.Claim[0], r.Claimed[0]), Deviation(r.Ask[1], r.Claim[1], r.Claimed[1])}
	r.Res, r.Resolved = Resolve(pot, r.Ask, dev), true
	for i := range 2 {
		st.Balance[i] += r.Res.Pay[i] - pot/2
	}
	st.House += r.Res.Spill
	r.BalAfter = st.Balance
	st.Phase, st.Due = phaseReveal, at.Add(st.Lengths[phaseReveal])
	pair := func(a, b any) map[string]any { return map[string]any{"A": a, "B": b} }
	m.emit(step, at, "round_revealed", games.Public, map[string]any{
		"round":      st.Round,
		"valuations": pair(r.Val[0], r.Val[1]),
		"claims":     m.claims(r),
		"asks":       pair(r.Ask[0], r.Ask[1]),
		"escalate":   pair(r.Esc[0], r.Esc[1]),
		"pot":        pot, "ask_sum": r.Ask[0] + r.Ask[1], "overshoot": r.Res.Overshoot,
		"deviations": pair(dev[0], dev[1]),
		"pay":        pair(r.Res.Pay[0], r.Res.Pay[1]),
		"spill":      r.Res.Spill,
		"balances":   m.balances(),
		"claim_kind": pair(kind(r, 0), kind(r, 1)),
		"salts":      m.salts(st.Round),
	})
}

func (m *match) balances() map[string]int64 {
	return map[string]int64{"A": m.st.Balance[0], "B": m.st.Balance[1]}
}

func (m *match) finish(step *games.Step, at time.Time) {
	st := &m.st
	msgs := []any{}
	for n, r := range st.Rounds {
		for i := range 2 {
			if r.Sent[i] {
				msgs = append(msgs, map[string]any{"round": n + 1, "from": duel.SeatName(i), "text": r.Message[i]})
			}
		}
	}
	st.Phase, st.Due = phaseDone, time.Time{}
	m.emit(step, at, "match_finished", games.Public, map[string]any{
		"seats": st.Returns(st.Balance), "house": st.House, "seed": st.SeedHex(),
		"messages": msgs, // publish_messages_after_settle (§16.1, [JC-6])
	})
}

// emit appends one event to the transcript and the step, of the open step's phase ("" before
// the opening and once done) and the current round's turn (1 before the first round).
func (m *match) emit(step *games.Step, at time.Time, typ string, vis games.Visibility, payload any) {
	st := &m.st
	phase := st.Phase
	if phase == phaseNew || phase == phaseDone {
		phase = ""
	}
	st.Emit(step, at, games.Event{Turn: m.turn(), Phase: phase, Type: typ, Visibility: vis}, payload)
}

// turn is the current round, 1 before the first.
func (m *match) turn() int { return max(m.st.Round, 1) }

// Deadline is the next instant Advance must run; false once done.
func (m *match) Deadline() (time.Time, bool) { return m.st.Frame.Deadline() }

// Prompts are the open step's prompts of seats that have not acted.
func (m *match) Prompts() []games.Prompt {
	if !open(m.st.Phase) {
		return nil
	}
	var out []games.Prompt
	r := m.cur()
	for i := range 2 {
		if !r.Acted[i] {
			out = append(out, m.prompt(i, m.st.Due.Add(-m.st.Lengths[m.st.Phase])))
		}
	}
	return out
}

// legal is the open step's action list.
func legal(phase string) []games.Action {
	switch phase {
	case phaseMessage:
		return games.Actions(ActionMessage, ActionPass)
	case phaseClaim:
		return games.Actions(ActionClaim)
	}
	return games.Actions(ActionOffer)
}

// prompt is seat i's prompt for the open step. Its state holds only what the seat may see: its
// own valuation, its own submissions, the delivered message, the published claims, the past
// rounds; of the opponent's open step only whether it has acted.
func (m *match) prompt(i int, opened time.Time) games.Prompt {
	st := &m.st
	r := m.cur()
	v := m.publicDoc()
	v["seat"] = duel.SeatName(i)
	v["deadline"], v["opened"] = duel.Stamp(st.Due), duel.Stamp(opened)
	v["valuation_bps"] = r.Val[i]
	v["you_acted"], v["opponent_acted"] = r.Acted[i], r.Acted[1-i]
	mine := map[string]any{}
	if r.Sent[i] {
		mine["message"] = r.Message[i]
	}
	if r.Claimed[i] {
		mine["claim_bps"] = r.Claim[i]
	}
	if st.Phase == phaseOffer || st.Phase == phaseReveal {
		if r.Acted[i] && st.Phase == phaseOffer {
			mine["ask_bps"], mine["escalate"] = r.Ask[i], r.Esc[i]
		}
	}
	v["yours"] = mine
	if r.Delivered && r.Sent[1-i] {
		v["opponent_message"] = r.Message[1-i]
	}
	switch st.Phase {
	case phaseOffer:
		v["ask_max_bps"], v["escalate_max"] = r.Val[i], MaxSteps
		v["on_timeout"] = "ask0"
	case phaseClaim:
		v["on_timeout"] = "no_claim"
	default:
		v["on_timeout"] = "none"
	}
	state, _ := canon.Marshal(v)
	var inbox []json.RawMessage
	if r.Delivered && r.Sent[1-i] {
		b, _ := canon.Marshal(map[string]any{"round": st.Round, "from": duel.SeatName(1 - i), "text": r.Message[1-i]})
		inbox = append(inbox, b)
	}
	if inbox == nil {
		inbox = []json.RawMessage{}
	}
	return games.Prompt{Seat: i + 1, Move: m.move(), Deadline: st.Due,
		Legal: legal(st.Phase), State: games.RawDoc(state), Inbox: inbox}
}

// publicDoc is what anyone may see now: the round, the step, balances, who has acted, the
// current round's claims once published, every revealed round.
func (m *match) publicDoc() map[string]any {
	st := &m.st
	v := map[string]any{
		"game": GameID, "rules_version": RulesVersion, "match": st.Setup.Round,
		"phase": st.Phase, "round": st.Round, "rounds": Rounds, "stake": st.Stake,
		"balances": m.balances(), "house": st.House, "seed_hash": duel.SeedHash(st.Setup.Seed),
	}
	if st.Round == 0 {
		return v
	}
	r := m.cur()
	if open(st.Phase) {
		v["acted"] = map[string]bool{"A": r.Acted[0], "B": r.Acted[1]}
	}
	if st.Phase == phaseOffer || st.Phase == phaseReveal || st.Phase == phaseDone {
		v["claims"] = m.claims(r)
	}
	past := []any{}
	for n := range st.Rounds {
		pr := &st.Rounds[n]
		if !pr.Resolved {
			continue
		}
		past = append(past, map[string]any{
			"round": n + 1, "valuations": []int64{pr.Val[0], pr.Val[1]}, "claims": m.claims(pr),
			"asks": []int64{pr.Ask[0], pr.Ask[1]}, "escalate": []int{pr.Esc[0], pr.Esc[1]},
			"pot": pr.Res.Pot, "pay": []int64{pr.Res.Pay[0], pr.Res.Pay[1]}, "spill": pr.Res.Spill,
			"balances": []int64{pr.BalAfter[0], pr.BalAfter[1]},
		})
	}
	v["revealed"] = past
	return v
}

// SeedHash commits to the seed, and so to every valuation, before play.
func (m *match) SeedHash() string { return duel.SeedHash(m.st.Setup.Seed) }

// View is viewer's view: a seat's prompt state while a step is open, and otherwise (and for a
// spectator, viewer 0) the public view. No valuation, sealed claim or sealed offer appears in
// anyone else's view before its time.
func (m *match) View(viewer int) games.Doc {
	st := &m.st
	if (viewer == 1 || viewer == 2) && open(st.Phase) {
		return m.prompt(viewer-1, st.Due.Add(-st.Lengths[st.Phase])).State
	}
	v := m.publicDoc()
	if viewer == 1 || viewer == 2 {
		v["seat"] = duel.SeatName(viewer - 1)
	}
	if st.Abandoned != "" {
		v["abandoned"] = st.Abandoned
	}
	b, _ := canon.Marshal(v)
	return games.RawDoc(b)
}

// Unit is the unit of stakes, payouts and the house's take.
const Unit = duel.Unit

// Result, once done: Payouts = final balances G (settlement applies rake, §2.2), House = Σ
// spill, Standings by net, the seed, the transcript hash, Reveal = every round and the
// manifest's per-seat stats. An abandoned match returns both stakes.
func (m *match) Result() (games.Result, bool) { return m.st.Frame.Result(m.settle) }

// settle is a played-out match's standings, payouts, house and reveal (Result).
func (m *match) settle(res *games.Result) {
	st := &m.st
	res.Standings = games.Rank(map[int]float64{1: float64(st.Balance[0] - st.Stake), 2: float64(st.Balance[1] - st.Stake)})
	res.Payouts = map[int]int64{1: st.Balance[0], 2: st.Balance[1]}
	res.House = st.House
	res.Reveal, _ = canon.Marshal(map[string]any{
		"draw":     st.Balance[0] == st.Balance[1],
		"balances": m.balances(),
		"house":    st.House,
		"stats":    map[string]any{"A": m.stats(0), "B": m.stats(1)},
	})
}

// stats are the manifest's per-seat counters (§16.1).
func (m *match) stats(i int) map[string]int64 {
	s := map[string]int64{"claims_made": 0, "truthful": 0, "bluffs": 0, "understated": 0, "overshoots": 0,
		"zeroed": 0, "rounds_paid": 0, "escalation_steps": 0, "messages_sent": 0, "timeouts": 0}
	for n := range m.st.Rounds {
		r := &m.st.Rounds[n]
		if r.Claimed[i] {
			s["claims_made"]++
		}
		switch kind(r, i) {
		case "truthful":
			s["truthful"]++
		case "bluff":
			s["bluffs"]++
		case "understated":
			s["understated"]++
		}
		if r.Res.Overshoot {
			s["overshoots"]++
			if r.Res.Pay[i] == 0 {
				s["zeroed"]++
			}
		}
		if r.Res.Pay[i] > 0 {
			s["rounds_paid"]++
		}
		s["escalation_steps"] += int64(r.Esc[i])
		if r.Sent[i] {
			s["messages_sent"]++
		}
		s["timeouts"] += int64(r.Timeouts[i])
	}
	return s
}

// TranscriptHash is "sha256:" + hex(SHA-256(JCS of the ordered event list)).
func TranscriptHash(events []games.Event) string { return duel.TranscriptHash(events) }

// Abandon ends an unfinished match at now: match_abandoned {reason, seed, returned} (public),
// every stake returned ([JC-22]); nothing settles on the rounds played. A finished match is left
// as it is.
func (m *match) Abandon(now time.Time, reason string) games.Step {
	return m.st.Frame.Abandon(now, reason, m.turn())
}
