package diplomacy

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"hash"
	"time"

	"arena/games"
	"arena/games/breakroom"
	"arena/games/breakroom/diplomacy/adjudicate"
	"arena/games/breakroom/diplomacy/board"
	"arena/games/canon"
)

// Match phases.
const (
	phaseNew     = iota // made, not yet opened (opens at Setup.Start)
	phasePlaying        // one prompt open at a time, or the next one about to open
	phaseDone           // match_end or match_abandoned written
)

// Steps of a round (visible_state.step).
const (
	stepPress  = "press"
	stepOrders = "orders"
)

type seat struct {
	pubkey    string
	name      string
	opts      SeatOptions
	power     board.Power
	strikes   int  // order sets missed in a row (§1.5, §6.10); an order set on time resets them, press counts neither way
	away      bool // connection gone: prompts get away_deadline_ms
	returning bool // in civil disorder and back: restored at the next phase (§6.10)
}

// pressItem is one message of the current phase (visible_state.press).
type pressItem struct {
	pressRound int
	from       int
	to         []int // nil: a broadcast
	text       string
}

type openPrompt struct {
	seat     int // wire seat
	turn     int
	opened   time.Time
	deadline time.Time
	prompt   games.Prompt
}

type match struct {
	setup games.Setup
	cfg   Config
	seats []seat
	st    State

	phase      int
	round      int // the phase's round (§6.4: every phase played is one round)
	turn       int // the next turn number in the round
	step       string
	pressRound int   // the press round under way, 0 before the first
	queue      []int // wire seats still to prompt in this step, in seat order
	pressLeft  int   // prompts left in the head seat's press turn
	open       *openPrompt
	orders     map[board.Power][]string // accepted order sets of this phase
	press      []pressItem
	lastPhase  map[string]any // the previous phase's orders and adjudication lines
	pendingCD  []int          // seats put in civil disorder by an orders timeout, logged at the close
	over       string         // game_over reason once written

	seq       int64
	abandoned string
	th        hash.Hash
	line      []byte
	thash     string
}

var _ games.Match = (*match)(nil)

func newMatch(s games.Setup, cfg Config, opts []SeatOptions) *match {
	m := &match{setup: s, cfg: cfg, th: sha256.New(), st: New(cfg.rules())}
	for i, p := range Assignment(s.Seed) {
		m.seats = append(m.seats, seat{pubkey: s.Seats[i].Agent, name: s.Seats[i].Name, opts: opts[i], power: p})
	}
	return m
}

func (m *match) seatOf(p board.Power) (int, bool) {
	for i, s := range m.seats {
		if s.power == p {
			return i, true
		}
	}
	return 0, false
}

// Act applies one input at now. Kinds:
//
//   - "answer": the open prompt's move. Refusals (*games.Error, nothing changes, the turn stays
//     open), in §1.3's order: match_over, not_seated, not_your_turn, stale_turn (another round
//     and turn, or the deadline passed), bad_request (not a JSON object), illegal_move (an
//     action not legal now, a recipient not listed, orders that are not a list of strings or that
//     the door refuses, §6.7, with the reason), bad_message (send and broadcast need a message
//     of 1..max_message_chars code points without control characters).
//   - KindPresence: body {"away": bool}.
//
// Anything else is bad_request.
func (m *match) Act(now time.Time, in games.Input) (games.Step, error) {
	now = ms(now)
	switch in.Kind {
	case "answer":
		return m.answer(now, in)
	case KindPresence:
		return m.presence(now, in)
	}
	return games.Step{}, games.Errorf(games.CodeBadRequest, "input kind %q: Diplomacy takes answer and presence", in.Kind)
}

func (m *match) answer(now time.Time, in games.Input) (games.Step, error) {
	switch {
	case m.phase == phaseDone:
		return games.Step{}, games.Errorf(breakroom.CodeMatchOver, "the match is over")
	case in.Seat < 1 || in.Seat > len(m.seats):
		return games.Step{}, games.Errorf(breakroom.CodeNotSeated, "seat %d is not at this table", breakroom.WireSeat(in.Seat))
	case m.open == nil || m.open.seat != breakroom.WireSeat(in.Seat):
		return games.Step{}, games.Errorf(breakroom.CodeNotYourTurn, "it is not seat %d's turn", breakroom.WireSeat(in.Seat))
	case in.Move != breakroom.MoveOf(m.round, m.open.turn):
		r, t, _ := breakroom.RoundTurn(in.Move)
		return games.Step{}, games.Errorf(breakroom.CodeStaleTurn, "round %d turn %d is not the open turn (round %d turn %d)", r, t, m.round, m.open.turn)
	case !now.Before(m.open.deadline):
		return games.Step{}, games.Errorf(breakroom.CodeStaleTurn, "round %d turn %d: its deadline has passed", m.round, m.open.turn)
	}
	o := m.open
	b, err := breakroom.ParseBody(in.Body)
	if err != nil {
		return games.Step{}, err
	}
	var step games.Step
	if m.step == stepPress {
		if err := m.pressMove(&step, now, o, b); err != nil {
			return games.Step{}, err
		}
	} else {
		if err := m.ordersMove(&step, now, o, b); err != nil {
			return games.Step{}, err
		}
	}
	m.open = nil
	m.seats[o.seat].away = false
	if m.step == stepOrders {
		m.seats[o.seat].strikes = 0 // strikes count order sets missed in a row
	}
	m.proceed(&step, now)
	return step, nil
}

// pressMove applies a press answer: send (to one recipient), broadcast, or done (§6.5). It
// writes nothing when it refuses.
func (m *match) pressMove(step *games.Step, now time.Time, o *openPrompt, b breakroom.Body) error {
	legal := "send, broadcast, done"
	if !b.HasAction {
		return games.Errorf(breakroom.CodeIllegalMove, "no action: legal are %s", legal)
	}
	switch b.Action {
	case ActionDone:
		m.emit(step, now, "action_private", games.Private(breakroom.HouseSeat(o.seat)), map[string]any{
			"action": ActionDone, "phase": m.st.Phase(), "press_round": m.pressRound, "reveal": games.RevealEnd,
			"round": m.round, "seat": o.seat, "turn": o.turn,
		})
		m.queue, m.pressLeft = m.queue[1:], m.cfg.MaxMessages
		return nil
	case ActionSend, ActionBroadcast:
	default:
		return games.Errorf(breakroom.CodeIllegalMove, "action %q: legal are %s", b.Action, legal)
	}
	to := -1
	if b.Action == ActionSend {
		raw, ok := b.Member("recipient")
		var r int
		if !ok || canon.Decode(raw, &r) != nil || !containsInt(m.recipients(o.seat), r) {
			return games.Errorf(breakroom.CodeIllegalMove, "send: recipient must be one of %v", m.recipients(o.seat))
		}
		to = r
	}
	text, err := b.Talk(m.cfg.MaxMessageChars)
	if err != nil {
		return err
	}
	if text == "" {
		return games.Errorf(breakroom.CodeBadMessage, "%s: a message of 1 to %d characters is required", b.Action, m.cfg.MaxMessageChars)
	}
	if to >= 0 {
		m.emit(step, now, "message_private", games.Private(breakroom.HouseSeat(o.seat), breakroom.HouseSeat(to)), map[string]any{
			"phase": m.st.Phase(), "press_round": m.pressRound, "reveal": games.RevealEnd, "round": m.round,
			"seat": o.seat, "text": text, "to": []int{to}, "turn": o.turn,
		})
		m.press = append(m.press, pressItem{pressRound: m.pressRound, from: o.seat, to: []int{to}, text: text})
	} else {
		m.emit(step, now, "message", games.Public, map[string]any{"round": m.round, "seat": o.seat, "text": text, "turn": o.turn})
		m.press = append(m.press, pressItem{pressRound: m.pressRound, from: o.seat, text: text})
	}
	m.pressLeft--
	if m.pressLeft <= 0 {
		m.queue, m.pressLeft = m.queue[1:], m.cfg.MaxMessages
	}
	return nil
}

// ordersMove applies an orders answer: the set is checked at the door (State.CheckOrders) and
// kept, sealed, until the phase closes.
func (m *match) ordersMove(step *games.Step, now time.Time, o *openPrompt, b breakroom.Body) error {
	if !b.HasAction || b.Action != ActionOrders {
		return games.Errorf(breakroom.CodeIllegalMove, "action %q: legal is orders", b.Action)
	}
	raw, ok := b.Member("orders")
	var texts []string
	if !ok || canon.Decode(raw, &texts) != nil {
		return games.Errorf(breakroom.CodeIllegalMove, "orders: want a list of order strings")
	}
	p := m.seats[o.seat].power
	os, err := m.st.CheckOrders(p, texts)
	if err != nil {
		return games.Errorf(breakroom.CodeIllegalMove, "%s", err.Error())
	}
	norm := []string{}
	for _, x := range os {
		norm = append(norm, x.Order.String())
	}
	m.orders[p] = norm
	m.emit(step, now, "action_private", games.Private(breakroom.HouseSeat(o.seat)), map[string]any{
		"action": ActionOrders, "orders": norm, "phase": m.st.Phase(), "reveal": games.RevealEnd,
		"round": m.round, "seat": o.seat, "turn": o.turn,
	})
	m.queue = m.queue[1:]
	return nil
}

func containsInt(s []int, x int) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

// recipients are the other seats whose powers are not eliminated (§6.11).
func (m *match) recipients(from int) []int {
	out := []int{}
	for i, s := range m.seats {
		if _, gone := m.st.Eliminated[s.power]; i != from && !gone {
			out = append(out, i)
		}
	}
	return out
}

func (m *match) presence(now time.Time, in games.Input) (games.Step, error) {
	i, away, err := breakroom.ReadPresence(m.phase == phaseDone, len(m.seats), in)
	if err != nil {
		return games.Step{}, err
	}
	s := &m.seats[i]
	var t *breakroom.PresenceTurn
	if o := m.open; o != nil && o.seat == i && now.Before(o.deadline) {
		t = &breakroom.PresenceTurn{Prompt: &o.prompt, Deadline: &o.deadline, Opened: o.opened}
	}
	full := m.cfg.deadline(m.step == stepOrders, false)
	return breakroom.Presence(now, i, away, breakroom.PresenceSeat{Away: &s.away, Returning: &s.returning,
		Out: m.st.Disorder[s.power]}, t, m.cfg.deadline(false, true), full)
}

// Advance applies every deadline at or before now: the opening at Setup.Start, then the open
// prompt's deadline (its default, logged as timeout_private). Events carry the deadline's own
// instant, so a late Advance writes what a punctual one would.
func (m *match) Advance(now time.Time) games.Step {
	now = ms(now)
	var step games.Step
	for {
		switch m.phase {
		case phaseNew:
			if now.Before(ms(m.setup.Start)) {
				return step
			}
			m.start(&step, ms(m.setup.Start))
		case phasePlaying:
			if m.open == nil || now.Before(m.open.deadline) {
				return step
			}
			m.timeout(&step, m.open.deadline)
		default:
			return step
		}
	}
}

// Deadline is Setup.Start before the opening, then the open prompt's deadline; false once done.
func (m *match) Deadline() (time.Time, bool) {
	switch {
	case m.phase == phaseNew:
		return m.setup.Start, true
	case m.phase == phasePlaying && m.open != nil:
		return m.open.deadline, true
	}
	return time.Time{}, false
}

// Prompts is the one open prompt (none before the opening and once done).
func (m *match) Prompts() []games.Prompt {
	if m.open == nil {
		return nil
	}
	return []games.Prompt{m.open.prompt}
}

// SeedHash commits to the seed before play (match_start.seed_hash).
func (m *match) SeedHash() string { return breakroom.SeedHash(m.setup.Seed) }

// start writes match_start and the powers line, and opens S1901M.
func (m *match) start(step *games.Step, at time.Time) {
	m.phase = phasePlaying
	m.startLine(step, at)
	assign := []map[string]any{}
	for i, s := range m.seats {
		assign = append(assign, map[string]any{"seat": i, "power": string(s.power)})
	}
	m.emit(step, at, "powers", games.Public, map[string]any{"assignment": assign})
	m.startPhase(step, at)
	m.proceed(step, at)
}

func (m *match) startLine(step *games.Step, at time.Time) {
	players := make([]map[string]any, len(m.seats))
	for i, s := range m.seats {
		p := map[string]any{"seat": i, "pubkey": s.pubkey, "name": s.name}
		if s.opts.House {
			p["house"] = true
		}
		if s.opts.Staff {
			p["staff"] = true
		}
		players[i] = p
	}
	m.emit(step, at, "match_start", games.Public, map[string]any{
		"match_id": m.setup.Round, "game": GameID, "rules_version": RulesVersion,
		"seed_hash": m.SeedHash(), "players": players, "config": m.cfg.configJSON(),
	})
}

// startPhase opens the state's phase as the next round: seats back from civil disorder return
// (§6.10), phase_start, then press for a movement phase, else the orders.
func (m *match) startPhase(step *games.Step, at time.Time) {
	m.round++
	m.turn = 0
	m.orders = map[board.Power][]string{}
	for i := range m.seats {
		s := &m.seats[i]
		if s.returning {
			s.returning, s.strikes = false, 0
			if m.st.Disorder[s.power] {
				m.st = m.st.WithDisorder(s.power, false)
				m.emit(step, at, "civil_disorder", games.Public, map[string]any{"on": false, "power": string(s.power), "round": m.round, "seat": i})
			}
		}
	}
	m.emit(step, at, "phase_start", games.Public, map[string]any{"phase": m.st.Phase(), "round": m.round})
	m.queue, m.press, m.pressRound = nil, nil, 0
	if m.st.Kind == board.Movement {
		m.step = stepPress
	} else {
		m.startOrders()
	}
}

// startOrders queues every active power that has something to order (§6.11), in seat order.
func (m *match) startOrders() {
	m.step, m.queue = stepOrders, nil
	for i, s := range m.seats {
		if !m.st.Active(s.power) {
			continue
		}
		var need bool
		switch m.st.Kind {
		case board.Movement:
			need = len(m.st.UnitsOf(s.power)) > 0
		case board.Retreats:
			for _, d := range m.st.Dislodged {
				need = need || d.Unit.Power == s.power
			}
		case board.Adjustments:
			need = m.st.Builds(s.power) > 0 || m.st.Adjustment(s.power) < 0
		}
		if need {
			m.queue = append(m.queue, i)
		}
	}
}

// proceed plays on until a prompt is open or the match is done: the next seat of the step (a
// seat no longer active is skipped), else the next press round, the orders, or the phase's close.
func (m *match) proceed(step *games.Step, at time.Time) {
	for m.phase == phasePlaying && m.open == nil {
		if len(m.queue) > 0 {
			i := m.queue[0]
			if !m.st.Active(m.seats[i].power) {
				m.queue, m.pressLeft = m.queue[1:], m.cfg.MaxMessages
				continue
			}
			m.prompt(step, at, i)
			return
		}
		if m.step == stepPress && m.pressRound < m.cfg.PressRounds {
			m.pressRound++
			m.emit(step, at, "press_round", games.Public, map[string]any{"phase": m.st.Phase(), "press_round": m.pressRound, "round": m.round})
			m.pressLeft = m.cfg.MaxMessages
			for i, s := range m.seats {
				if m.st.Active(s.power) {
					m.queue = append(m.queue, i)
				}
			}
			continue
		}
		if m.step == stepPress {
			m.startOrders()
			continue
		}
		m.closePhase(step, at)
	}
}

// prompt opens seat i's prompt at at.
func (m *match) prompt(step *games.Step, at time.Time, i int) {
	d := m.cfg.deadline(m.step == stepOrders, m.seats[i].away)
	o := &openPrompt{seat: i, turn: m.turn, opened: at, deadline: at.Add(d)}
	m.turn++
	m.open = o
	o.prompt = games.Prompt{
		Seat: breakroom.HouseSeat(i), Move: breakroom.MoveOf(m.round, o.turn), Deadline: o.deadline,
		Legal: m.legal(i), State: games.RawDoc(m.state(i)), Inbox: []json.RawMessage{},
		View: HouseView{State: m.st, Power: m.seats[i].power, Step: m.step},
	}
	step.Prompts = append(step.Prompts, o.prompt)
}

// timeout plays the open prompt's default at its deadline (§6.11): done in press, and for orders
// all hold, all disband, builds waived or removals by the civil-disorder rule. A missed order set
// is a strike, and civil disorder comes at the limit (§6.10: three missed order sets in a row); a
// press timeout is no strike, so an agent that orders every phase and never writes is never put
// in civil disorder, however many press rounds the table runs.
func (m *match) timeout(step *games.Step, at time.Time) {
	o := m.open
	s := &m.seats[o.seat]
	m.open = nil
	if m.step == stepOrders {
		s.strikes++
	}
	auto := ActionDone
	if m.step == stepOrders {
		auto = map[board.Phase]string{board.Movement: "hold", board.Retreats: "disband", board.Adjustments: "waive"}[m.st.Kind]
		if m.st.Kind == board.Adjustments && m.st.Adjustment(s.power) < 0 {
			auto = "disband"
		}
	}
	m.emit(step, at, "timeout_private", games.Private(breakroom.HouseSeat(o.seat)), map[string]any{
		"auto": auto, "reveal": games.RevealEnd, "round": m.round, "seat": o.seat, "strikes": s.strikes, "turn": o.turn,
	})
	m.queue, m.pressLeft = m.queue[1:], m.cfg.MaxMessages
	if s.strikes >= m.cfg.StrikesLimit && !m.st.Disorder[s.power] {
		// Logged after the phase's adjudication (closePhase), so the later seats of this phase
		// do not learn the power missed its orders.
		m.st = m.st.WithDisorder(s.power, true)
		m.pendingCD = append(m.pendingCD, o.seat)
	}
	m.proceed(step, at)
}

// closePhase resolves the phase (State.Resolve) and logs orders, adjudication, the civil
// disorder an orders timeout caused, the centre update, eliminations and the end, then opens the
// next phase.
func (m *match) closePhase(step *games.Step, at time.Time) {
	phase, year := m.st.Phase(), m.st.Year
	orders := map[board.Power][]string{}
	for p, os := range m.orders {
		if m.st.Active(p) {
			orders[p] = os
		}
	}
	next, rep, err := m.st.Resolve(orders)
	if err != nil { // unreachable: every set passed CheckOrders in this phase
		next, rep, _ = m.st.Resolve(nil)
	}
	ordersLine := map[string]any{"orders": ordersByPower(rep.Orders), "phase": phase, "round": m.round}
	adjLine := map[string]any{"dislodged": dislodgedJSON(rep.Dislodged), "phase": phase,
		"results": resultsJSON(rep.Results), "round": m.round, "standoffs": strs(rep.Standoffs)}
	m.emit(step, at, "orders", games.Public, ordersLine)
	m.emit(step, at, "adjudication", games.Public, adjLine)
	m.lastPhase = map[string]any{"orders": ordersLine, "adjudication": adjLine}
	for _, i := range m.pendingCD {
		m.emit(step, at, "civil_disorder", games.Public, map[string]any{"on": true, "power": string(m.seats[i].power), "round": m.round, "seat": i})
	}
	m.pendingCD = nil
	m.st = next
	if rep.Centres {
		owners, counts := m.centresJSON()
		m.emit(step, at, "centres", games.Public, map[string]any{"counts": counts, "owners": owners, "round": m.round, "year": year})
	}
	for _, p := range rep.Eliminated {
		if i, ok := m.seatOf(p); ok {
			m.emit(step, at, "eliminated", games.Public, map[string]any{"power": string(p), "round": m.round, "seat": i, "year": m.st.Eliminated[p]})
		}
	}
	if m.st.Over {
		reason, solo := "year_limit", any(nil)
		if m.st.Solo != "" {
			reason = "solo"
			if i, ok := m.seatOf(m.st.Solo); ok {
				solo = i
			}
		}
		m.over = reason
		m.emit(step, at, "game_over", games.Public, map[string]any{"reason": reason, "round": m.round, "solo": solo})
		m.finish(step, at)
		return
	}
	m.startPhase(step, at)
}

// finish writes match_end with the ranking and the revealed seed.
func (m *match) finish(step *games.Step, at time.Time) {
	m.phase, m.open = phaseDone, nil
	m.emit(step, at, "match_end", games.Public, map[string]any{
		"match_id": m.setup.Round, "ranking": m.ranking(), "seed": breakroom.SeedHex(m.setup.Seed),
	})
	m.closeTranscript()
}

// Abandon ends an unfinished match at now: match_start first when it had not opened, then
// match_abandoned {match_id, reason, ranking, seed} with the centres at the last update (§6.10).
func (m *match) Abandon(now time.Time, reason string) games.Step {
	now = ms(now)
	var step games.Step
	if m.phase == phaseDone {
		return step
	}
	if reason == "" {
		reason = "abandoned"
	}
	if m.phase == phaseNew {
		m.startLine(&step, now)
	}
	m.phase, m.open, m.abandoned = phaseDone, nil, reason
	m.emit(&step, now, "match_abandoned", games.Public, map[string]any{
		"match_id": m.setup.Round, "reason": reason, "ranking": m.ranking(), "seed": breakroom.SeedHex(m.setup.Seed),
	})
	m.closeTranscript()
	return step
}

// emit appends one log line (Event.Turn is the round; 0 for the match's first and last lines).
func (m *match) emit(step *games.Step, at time.Time, typ string, vis games.Visibility, payload map[string]any) {
	p, err := canon.Marshal(payload)
	if err != nil { // unreachable: strings, booleans, small integers and lists of them
		p = []byte(`{}`)
	}
	m.seq++
	ev := games.Event{Seq: m.seq, Round: m.setup.Round, Turn: m.round, At: stamp(at), Type: typ, Visibility: vis, Payload: p}
	if typ == "match_start" || typ == "match_end" || typ == "match_abandoned" {
		ev.Turn = 0
	}
	if b, err := breakroom.AppendLine(m.line[:0], ev); err == nil {
		m.line = append(b, '\n')
		m.th.Write(m.line)
	}
	step.Events = append(step.Events, ev)
}

func ms(t time.Time) time.Time { return t.Truncate(time.Millisecond) }

func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z07:00") }

func (m *match) closeTranscript() {
	m.thash = "sha256:" + hex.EncodeToString(m.th.Sum(nil))
}

func strs(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func ordersByPower(os map[board.Power][]string) map[string]any {
	out := map[string]any{}
	for p, l := range os {
		out[string(p)] = strs(l)
	}
	return out
}

func resultsJSON(rs []adjudicate.Result) []map[string]any {
	out := []map[string]any{}
	for _, r := range rs {
		e := map[string]any{"power": string(r.Power), "order": r.Order.String(), "result": "succeeds"}
		if !r.Succeeds {
			e["result"] = "fails"
			if r.Reason != "" {
				e["reason"] = string(r.Reason)
			}
		}
		out = append(out, e)
	}
	return out
}

func dislodgedJSON(ds []adjudicate.Dislodgement) []map[string]any {
	out := []map[string]any{}
	for _, d := range ds {
		to := []string{}
		for _, l := range d.To {
			to = append(to, string(l))
		}
		out = append(out, map[string]any{"attacker_from": d.AttackerFrom, "power": string(d.Unit.Power),
			"to": to, "unit": letter(d.Unit.Type) + " " + string(d.Unit.Loc)})
	}
	return out
}

// centresJSON is the centre line's owners (every power's centres, and "neutral") and counts.
func (m *match) centresJSON() (map[string]any, map[string]any) {
	owners := map[string][]string{"neutral": {}}
	for _, p := range board.Powers() {
		owners[string(p)] = []string{}
	}
	for _, c := range board.Centres() {
		if p, ok := m.st.Owners[c]; ok {
			owners[string(p)] = append(owners[string(p)], c)
		} else {
			owners["neutral"] = append(owners["neutral"], c)
		}
	}
	o, n := map[string]any{}, map[string]any{}
	for k, v := range owners {
		o[k] = v
		if k != "neutral" {
			n[k] = len(v)
		}
	}
	return o, n
}
