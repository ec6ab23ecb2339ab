package inference

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"hash"
	"strconv"
	"time"

	"arena/games"
	"arena/games/breakroom"
	"arena/games/canon"
)

// Phases of a match.
const (
	phaseNew     = iota // made, not yet opened (opens at Setup.Start)
	phasePlaying        // a hand is being played
	phaseDone           // match_end or match_abandoned written
)

// seatState is one seat (index = wire seat).
type seatState struct {
	pubkey string
	name   string
	opts   SeatOptions
	// credits exclude the chips this seat has in the pot (§2.6).
	credits int64
	// strikes are consecutive timeouts (§1.5); an on-time move resets them, sit_in too.
	strikes int
	// sittingOut: sit_out logged, no sit_in yet: auto-played this hand, not dealt in after.
	sittingOut bool
	// returning: the seat's key made a request while it sat out (or had just reached the
	// strike limit): sit_in at the next hand's start.
	returning bool
	// away: the seat's connection is gone; its prompts get away_deadline_ms.
	away      bool
	busted    bool
	bustOrder int

	// The current hand.
	dealt  bool
	folded bool
	card   dealt
	inPot  int64
	start  int64 // credits at the hand's start, before the ante (cap, §2.3)
	acted  bool  // acted since the last raise (or the hand's start)
}

// openPrompt is the one prompt open: seat (wire), turn, when it opened and its deadline.
type openPrompt struct {
	seat, turn int
	opened     time.Time
	deadline   time.Time
	prompt     games.Prompt
}

// handAction is one entry of visible_state.actions: this hand's actions so far.
type handAction struct {
	Seat   int    `json:"seat"`
	Turn   *int   `json:"turn,omitempty"`
	Action string `json:"action"`
	Amount *int64 `json:"amount,omitempty"`
	Auto   bool   `json:"auto,omitempty"`
}

type match struct {
	setup games.Setup
	cfg   Config
	deal  dealer
	seats []seatState

	phase      int
	round      int // current hand (1-based), 0 before the first
	dealer     int // the hand's dealer (wire seat), -1 before the first
	turn       int // the next turn number within the round (§1.2)
	pot        int64
	bet        int64
	raisesMade int
	lastRaiser int // -1 when nobody raised this hand
	toAct      int // the seat whose decision is next
	bustRounds int // rounds in which someone busted so far (bustOrder)
	bustRound  int // the round of the latest bust, 0 before any: its busts share bustRounds
	actions    []handAction
	lastShow   *showdown // the previous hand's showdown line, nil (null) before the first
	open       *openPrompt

	seq int64
	// last is the instant of the last line written: an input handed an earlier one (the
	// server's clock stepped back) is taken at it, so the log never runs backwards.
	last      time.Time
	abandoned string
	th        hash.Hash // running SHA-256 of the log's lines (Result.TranscriptHash)
	thash     string
}

var _ games.Match = (*match)(nil)

func newMatch(s games.Setup, cfg Config, opts []SeatOptions, d dealer) *match {
	m := &match{setup: s, cfg: cfg, deal: d, dealer: -1, lastRaiser: -1, th: sha256.New()}
	for i, st := range s.Seats {
		m.seats = append(m.seats, seatState{pubkey: st.Agent, name: st.Name, opts: opts[i], credits: cfg.StartingCredits})
	}
	return m
}

// Act applies one input at now. Kinds:
//
//   - "answer": the open prompt's move, body {"action": "check"|"call"|"fold"|"raise",
//     "amount"?, "message"?} (other members ignored, §1.3). Refusals, in §1.3's order
//     (*games.Error; nothing changes and the turn stays open): match_over once the match has
//     ended; not_seated for a seat the match does not have; not_your_turn when the open prompt
//     is not the seat's; stale_turn when in.Move is not breakroom.MoveOf of the open prompt's
//     round and turn, or its deadline has passed; bad_request when the body is not a JSON
//     object or action is not a string; illegal_move for an action missing or not among the
//     prompt's legal_actions; bad_amount for a raise amount that is missing, not an integer or
//     outside min..max, or a call amount other than the one to call; bad_message for a message
//     that is not a string, too long, or holds a control character (§1.4).
//   - KindPresence: body {"away": bool}; unchanged when nothing changes, bad_request for
//     another body.
//
// Anything else is bad_request. now earlier than the last line's instant is taken as that
// instant, so the log never runs backwards.
func (m *match) Act(now time.Time, in games.Input) (games.Step, error) {
	now = m.notBefore(ms(now))
	switch in.Kind {
	case "answer":
		return m.answer(now, in)
	case KindPresence:
		return m.presence(now, in)
	}
	return games.Step{}, games.Errorf(games.CodeBadRequest, "input kind %q: Inference takes answer and presence", in.Kind)
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
	mv, err := ParseMove(in.Body, m.legal(o.seat), m.cfg.MaxMessageChars)
	if err != nil {
		return games.Step{}, err
	}
	var step games.Step
	s := &m.seats[o.seat]
	m.open = nil
	s.strikes, s.away = 0, false
	if mv.Text != "" {
		m.emit(&step, now, "message", games.Public, map[string]any{
			"round": m.round, "seat": o.seat, "turn": o.turn, "text": mv.Text,
		})
	}
	turn := o.turn
	m.apply(&step, now, o.seat, mv.Action, mv.Amount, &turn, false)
	m.toAct = m.nextOf(o.seat, m.active)
	m.proceed(&step, now)
	return step, nil
}

// Move is a parsed answer: its action, the raise amount (0 for other actions), its table talk.
type Move struct {
	Action string
	Amount int64
	Text   string
}

// ParseMove reads a move's body (breakroom.ParseBody) against the prompt's legal actions in
// §1.3's order: the action (illegal_move unless among legal), then its amount (bad_amount: a
// raise's missing, non-integer or out of min..max; a call's other than the amount to call;
// ignored on check and fold), then the message (bad_message). A refusal is *games.Error.
func ParseMove(body []byte, legal []games.Action, limit int) (Move, error) {
	b, err := breakroom.ParseBody(body)
	if err != nil {
		return Move{}, err
	}
	names := ""
	var entry *games.Action
	for i := range legal {
		if names != "" {
			names += ", "
		}
		names += legal[i].Name
		if b.HasAction && legal[i].Name == b.Action {
			entry = &legal[i]
		}
	}
	switch {
	case !b.HasAction:
		return Move{}, games.Errorf(breakroom.CodeIllegalMove, "no action: legal are %s", names)
	case entry == nil:
		return Move{}, games.Errorf(breakroom.CodeIllegalMove, "action %q: legal are %s", b.Action, names)
	}
	mv := Move{Action: b.Action}
	var bounds struct {
		Amount *int64 `json:"amount"`
		Min    int64  `json:"min"`
		Max    int64  `json:"max"`
	}
	_ = json.Unmarshal(entry.Bounds, &bounds)
	raw, has := b.Member("amount")
	switch b.Action {
	case ActionRaise:
		if !has {
			return Move{}, games.Errorf(breakroom.CodeBadAmount, "raise: amount is required (%d to %d)", bounds.Min, bounds.Max)
		}
		n, ok := integer(raw)
		if !ok || n < bounds.Min || n > bounds.Max {
			return Move{}, games.Errorf(breakroom.CodeBadAmount, "raise: amount %s: an integer from %d to %d", raw, bounds.Min, bounds.Max)
		}
		mv.Amount = n
	case ActionCall:
		if has && string(raw) != "null" {
			n, ok := integer(raw)
			if !ok || bounds.Amount == nil || n != *bounds.Amount {
				return Move{}, games.Errorf(breakroom.CodeBadAmount, "call: amount %s: the amount to call is %d", raw, deref(bounds.Amount))
			}
		}
	}
	mv.Text, err = b.Talk(limit)
	if err != nil {
		return Move{}, err
	}
	return mv, nil
}

// integer reads a JSON number that is an integer written without fraction or exponent ("4",
// "-1"); a string, a fraction, an exponent or null is not one.
func integer(raw json.RawMessage) (int64, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || !(raw[0] == '-' || '0' <= raw[0] && raw[0] <= '9') {
		return 0, false
	}
	var f json.Number
	if err := json.Unmarshal(raw, &f); err != nil {
		return 0, false
	}
	n, err := strconv.ParseInt(f.String(), 10, 64)
	return n, err == nil
}

func deref(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
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
	return breakroom.Presence(now, i, away, breakroom.PresenceSeat{Away: &s.away, Returning: &s.returning,
		Out: s.sittingOut || s.strikes >= m.cfg.StrikesLimit}, t, m.cfg.awayDeadline(), m.cfg.turnDeadline())
}

// Advance applies every deadline at or before now: the opening at Setup.Start, then each open
// prompt's deadline (its default move, logged as a public timeout line). Events are stamped
// with the deadline's own instant, so a late Advance writes what a punctual one would.
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

// SeedHash commits to the seed before play (match_start.seed_hash). The seed drives nothing in
// Inference (§2.2); it is committed and revealed as the platform requires.
func (m *match) SeedHash() string { return breakroom.SeedHash(m.setup.Seed) }

// start writes match_start and deals hand 1.
func (m *match) start(step *games.Step, at time.Time) {
	m.phase = phasePlaying
	m.startLine(step, at)
	m.startRound(step, at, 1)
	m.proceed(step, at)
}

// startLine writes match_start: the match id, the game, the players, the seed's commitment and
// the config (never the deal key).
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

// eligible says seat i is dealt into the next hand (§2.2): not busted, not sitting out.
func (m *match) eligible(i int) bool { return !m.seats[i].busted && !m.seats[i].sittingOut }

// startRound opens hand r (§2.3 steps 1–3): sit_in for every seat coming back, a seat back with
// fewer credits than the ante busts, then — when at least two seats are eligible and r is within
// rounds — round_start, the deal (deal_private to each seat, never revealed; the public deal
// line with the commitments), the antes and the first seat to act. Otherwise the match ends.
func (m *match) startRound(step *games.Step, at time.Time, r int) {
	if r > m.cfg.Rounds {
		m.finish(step, at)
		return
	}
	for i := range m.seats {
		s := &m.seats[i]
		if s.returning {
			s.returning, s.sittingOut, s.strikes = false, false, 0
			m.emit(step, at, "sit_in", games.Public, map[string]any{"round": r, "seat": i})
		}
	}
	m.bustBelowAnte(step, at, r, func(i int) bool { return !m.seats[i].busted && !m.seats[i].sittingOut })
	var in []int
	for i := range m.seats {
		if m.eligible(i) {
			in = append(in, i)
		}
	}
	if len(in) < 2 {
		m.finish(step, at)
		return
	}
	m.round, m.turn = r, 0
	if m.dealer < 0 {
		m.dealer = in[0]
	} else {
		m.dealer = m.nextOf(m.dealer, func(i int) bool { return m.eligible(i) })
	}
	m.pot, m.bet, m.raisesMade, m.lastRaiser = 0, m.cfg.Ante, 0, -1
	m.actions = m.actions[:0]
	for i := range m.seats {
		s := &m.seats[i]
		s.dealt, s.folded, s.acted, s.inPot, s.card = false, false, false, 0, dealt{}
	}
	m.emitRaw(step, at, "round_start", games.Public,
		newObj().int("dealer", m.dealer).int("round", r).raw("seats", ints(in)).done())
	cards := m.deal.deal(r, in)
	for k, i := range in {
		s := &m.seats[i]
		s.dealt, s.card, s.start = true, cards[k], s.credits
		m.emitRaw(step, at, "deal_private", games.Private(breakroom.HouseSeat(i)).Never(),
			newObj().int("round", r).int("seat", i).int("value", s.card.value).done())
	}
	commits := newList()
	for _, i := range in {
		commits.item(newObj().str("commit", m.seats[i].card.commit).int("seat", i).done())
	}
	m.emitRaw(step, at, "deal", games.Public, newObj().raw("commits", string(commits.done())).int("round", r).done())
	for _, i := range in {
		s := &m.seats[i]
		s.credits -= m.cfg.Ante
		s.inPot = m.cfg.Ante
		m.pot += m.cfg.Ante
		m.emitRaw(step, at, "ante", games.Public, newObj().i64("amount", m.cfg.Ante).int("round", r).int("seat", i).done())
	}
	m.toAct = m.nextOf(m.dealer, m.active)
}

// bustBelowAnte busts every seat that which admits whose credits are below the ante (§2.3 step
// 6): bust {round, seat, credits, bustOrder}, one bustOrder for all who bust in round r, at its
// start (a seat back from sitting out) or at its end alike.
func (m *match) bustBelowAnte(step *games.Step, at time.Time, r int, which func(int) bool) {
	for i := range m.seats {
		s := &m.seats[i]
		if !which(i) || s.credits >= m.cfg.Ante {
			continue
		}
		if m.bustRound != r {
			m.bustRounds++
			m.bustRound = r
		}
		order := m.bustRounds
		s.busted, s.bustOrder = true, order
		m.emitRaw(step, at, "bust", games.Public,
			newObj().int("bustOrder", order).i64("credits", s.credits).int("round", r).int("seat", i).done())
	}
}

// active says seat i is still in the hand: dealt and not folded.
func (m *match) active(i int) bool { return m.seats[i].dealt && !m.seats[i].folded }

// nextOf is the first seat clockwise after from (ascending, wrapping) that ok admits; from
// itself when no other does.
func (m *match) nextOf(from int, ok func(int) bool) int {
	n := len(m.seats)
	for k := 1; k <= n; k++ {
		if i := (from + k) % n; ok(i) {
			return i
		}
	}
	return from
}

// capOf is §2.3's cap: the smallest start-of-hand credits (before the ante) among active seats.
func (m *match) capOf() int64 {
	c := int64(-1)
	for i := range m.seats {
		if m.active(i) && (c < 0 || m.seats[i].start < c) {
			c = m.seats[i].start
		}
	}
	return c
}

// raiseMax is §2.4's R = min(max_raise, cap − bet); below 1, or with max_raises made, no raise.
func (m *match) raiseMax() int64 {
	if m.raisesMade >= m.cfg.MaxRaises {
		return 0
	}
	return min(m.cfg.MaxRaise, m.capOf()-m.bet)
}

// legal is seat i's legal_actions (§2.4).
func (m *match) legal(i int) []games.Action {
	talk := `"max_message_chars":` + strconv.Itoa(m.cfg.MaxMessageChars)
	toCall := m.bet - m.seats[i].inPot
	var out []games.Action
	if toCall == 0 {
		out = append(out, games.Action{Name: ActionCheck, Bounds: []byte("{" + talk + "}")})
	} else {
		out = append(out,
			games.Action{Name: ActionFold, Bounds: []byte("{" + talk + "}")},
			games.Action{Name: ActionCall, Bounds: []byte(`{"amount":` + strconv.FormatInt(toCall, 10) + "," + talk + "}")})
	}
	if r := m.raiseMax(); r >= 1 {
		out = append(out, games.Action{Name: ActionRaise,
			Bounds: []byte(`{"max":` + strconv.FormatInt(r, 10) + `,` + talk + `,"min":1}`)})
	}
	return out
}

// defaultAction is §2.5's default: check when checking is free, else fold.
func (m *match) defaultAction(i int) string {
	if m.bet == m.seats[i].inPot {
		return ActionCheck
	}
	return ActionFold
}

// apply plays seat i's action (raise by amount) and logs its action line: turn nil for a seat
// played automatically (sitting out), auto marks it.
func (m *match) apply(step *games.Step, at time.Time, i int, action string, amount int64, turn *int, auto bool) {
	s := &m.seats[i]
	o := newObj().word("action", action)
	entry := handAction{Seat: i, Turn: turn, Action: action, Auto: auto}
	switch action {
	case ActionCall:
		pay := m.bet - s.inPot
		m.pay(i, pay)
		o.i64("amount", pay)
		entry.Amount = &pay
	case ActionRaise:
		pay := m.bet - s.inPot + amount
		m.pay(i, pay)
		m.bet += amount
		m.raisesMade++
		m.lastRaiser = i
		for k := range m.seats {
			m.seats[k].acted = false
		}
		o.i64("amount", amount)
		a := amount
		entry.Amount = &a
	case ActionFold:
		s.folded = true
	}
	s.acted = true
	if auto {
		o.raw("auto", "true")
	}
	o.int("round", m.round).int("seat", i)
	if turn != nil {
		o.int("turn", *turn)
	}
	m.emitRaw(step, at, "action", games.Public, o.done())
	m.actions = append(m.actions, entry)
}

func (m *match) pay(i int, n int64) {
	m.seats[i].credits -= n
	m.seats[i].inPot += n
	m.pot += n
}

// closed says betting is over (§2.3 step 4): one active seat left, or every active seat has
// acted since the last raise and has in_pot == bet.
func (m *match) closed() bool {
	n := 0
	all := true
	for i := range m.seats {
		if !m.active(i) {
			continue
		}
		n++
		if !m.seats[i].acted || m.seats[i].inPot != m.bet {
			all = false
		}
	}
	return n <= 1 || all
}

// proceed plays on until a prompt is open or the match is done: a seat sitting out is played
// as the default, a closed betting round is resolved and the next hand dealt.
func (m *match) proceed(step *games.Step, at time.Time) {
	for m.phase == phasePlaying && m.open == nil {
		if m.closed() {
			m.resolve(step, at)
			m.startRound(step, at, m.round+1)
			continue
		}
		i := m.toAct
		if m.seats[i].sittingOut {
			m.apply(step, at, i, m.defaultAction(i), 0, nil, true)
			m.toAct = m.nextOf(i, m.active)
			continue
		}
		m.prompt(step, at, i)
		return
	}
}

// prompt opens seat i's turn at at.
func (m *match) prompt(step *games.Step, at time.Time, i int) {
	d := m.cfg.turnDeadline()
	if m.seats[i].away {
		d = m.cfg.awayDeadline()
	}
	o := &openPrompt{seat: i, turn: m.turn, opened: at, deadline: at.Add(d)}
	m.turn++
	m.open = o
	o.prompt = games.Prompt{
		Seat: breakroom.HouseSeat(i), Move: breakroom.MoveOf(m.round, o.turn), Deadline: o.deadline,
		Legal: m.legal(i), Inbox: []json.RawMessage{},
		View: HouseView{Value: m.seats[i].card.value, DeckSize: m.cfg.DeckSize},
	}
	o.prompt.State = games.RawDoc(m.state(i))
	step.Prompts = append(step.Prompts, o.prompt)
}

// timeout plays the open prompt's default at its deadline (§2.5): a public timeout line with
// strikes + 1, sit_out at the strike limit.
func (m *match) timeout(step *games.Step, at time.Time) {
	o := m.open
	s := &m.seats[o.seat]
	m.open = nil
	s.strikes++
	action := m.defaultAction(o.seat)
	m.emitRaw(step, at, "timeout", games.Public,
		newObj().i64("amount", 0).word("auto", action).int("round", m.round).int("seat", o.seat).
			int("strikes", s.strikes).int("turn", o.turn).done())
	if action == ActionFold {
		s.folded = true
	}
	s.acted = true
	turn := o.turn
	m.actions = append(m.actions, handAction{Seat: o.seat, Turn: &turn, Action: action, Auto: true})
	if !s.sittingOut && s.strikes >= m.cfg.StrikesLimit {
		s.sittingOut = true
		m.emit(step, at, "sit_out", games.Public, map[string]any{"round": m.round, "seat": o.seat})
	}
	m.toAct = m.nextOf(o.seat, m.active)
	m.proceed(step, at)
}

// resolve ends the hand (§2.3 steps 5–6): the showdown line (uncontested, or reveals from the
// last raiser, else from the first active seat after the dealer, a later seat showing only a
// value above the best shown and mucking otherwise), the payout, and bust for every seat
// dealt in, not sitting out, left with credits below the ante.
func (m *match) resolve(step *games.Step, at time.Time) {
	var in []int
	for i := range m.seats {
		if m.active(i) {
			in = append(in, i)
		}
	}
	sd := &showdown{Mucked: []int{}, Reveals: []reveal{}, Round: m.round, Uncontested: len(in) == 1}
	winner := -1
	if len(in) == 1 {
		winner = in[0]
	} else {
		first := m.lastRaiser
		if first < 0 || !m.active(first) {
			first = m.nextOf(m.dealer, m.active)
		}
		best := 0
		for k, i := 0, first; k < len(in); k, i = k+1, m.nextOf(i, m.active) {
			c := m.seats[i].card
			if k == 0 || c.value > best {
				best, winner = c.value, i
				sd.Reveals = append(sd.Reveals, reveal{Salt: c.salt, Seat: i, Value: c.value})
			} else {
				sd.Mucked = append(sd.Mucked, i)
			}
		}
	}
	pot := m.pot
	m.seats[winner].credits += pot
	m.pot = 0
	for i := range m.seats {
		m.seats[i].inPot = 0
	}
	sd.Payouts, sd.Pot, sd.Winners = []payout{{Amount: pot, Seat: winner}}, pot, []int{winner}
	p, err := canon.Marshal(sd)
	if err != nil {
		panic("inference: showdown line: " + err.Error())
	}
	m.emitRaw(step, at, "showdown", games.Public, p)
	m.lastShow = sd
	m.bustBelowAnte(step, at, m.round, func(i int) bool {
		s := &m.seats[i]
		return s.dealt && !s.busted && !s.sittingOut
	})
}

// showdown is a showdown line's payload (§2.3 step 5), its members in JCS order, so that
// encoding/json writes visible_state.last_showdown as the same bytes canon.Marshal writes the
// line: the hand's reveals in showdown order, the seats that mucked, the payout and the winner.
type showdown struct {
	Mucked      []int    `json:"mucked"`
	Payouts     []payout `json:"payouts"`
	Pot         int64    `json:"pot"`
	Reveals     []reveal `json:"reveals"`
	Round       int      `json:"round"`
	Uncontested bool     `json:"uncontested"`
	Winners     []int    `json:"winners"`
}

// reveal is one card shown at the showdown: its salt, seat and value, members in JCS order.
type reveal struct {
	Salt  string `json:"salt"`
	Seat  int    `json:"seat"`
	Value int    `json:"value"`
}

// payout is chips paid from the pot to a seat, members in JCS order.
type payout struct {
	Amount int64 `json:"amount"`
	Seat   int   `json:"seat"`
}

// finish writes match_end with the ranking and the revealed seed.
func (m *match) finish(step *games.Step, at time.Time) {
	m.phase, m.open = phaseDone, nil
	m.emit(step, at, "match_end", games.Public, map[string]any{
		"match_id": m.setup.Round, "ranking": m.ranking(), "seed": breakroom.SeedHex(m.setup.Seed),
	})
	m.closeTranscript()
}

// Abandon ends an unfinished match at now (protocol "Match log"): match_start first when the
// match had not opened yet (so every log opens with it), then match_abandoned {match_id,
// reason, ranking, seed}, ranking the current credits with the chips of an unfinished pot back
// with the seats that put them in (§2.8). A finished match is left as it is.
func (m *match) Abandon(now time.Time, reason string) games.Step {
	now = m.notBefore(ms(now))
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
	for i := range m.seats {
		m.seats[i].credits += m.seats[i].inPot
		m.seats[i].inPot = 0
	}
	m.pot = 0
	m.phase, m.open, m.abandoned = phaseDone, nil, reason
	m.emit(&step, now, "match_abandoned", games.Public, map[string]any{
		"match_id": m.setup.Round, "reason": reason, "ranking": m.ranking(), "seed": breakroom.SeedHex(m.setup.Seed),
	})
	m.closeTranscript()
	return step
}

// emit appends one log line: Event.Type is the line's type, Payload its members (JCS), Turn the
// hand it belongs to (0 for match_start and the end's lines).
func (m *match) emit(step *games.Step, at time.Time, typ string, vis games.Visibility, payload map[string]any) {
	p, err := canon.Marshal(payload)
	if err != nil { // unreachable: strings, booleans and small integers
		p = []byte(`{}`)
	}
	m.emitRaw(step, at, typ, vis, p)
}

// emitRaw is emit of a payload already written as JCS (obj).
func (m *match) emitRaw(step *games.Step, at time.Time, typ string, vis games.Visibility, p []byte) {
	m.seq++
	m.last = at
	ev := games.Event{Seq: m.seq, Round: m.setup.Round, Turn: m.round, At: stamp(at), Type: typ, Visibility: vis, Payload: p}
	if typ == "match_start" || typ == "match_end" || typ == "match_abandoned" {
		ev.Turn = 0
	}
	if b, err := breakroom.Line(ev); err == nil {
		m.th.Write(b)
		m.th.Write([]byte("\n"))
	}
	step.Events = append(step.Events, ev)
}

// notBefore is now, or the last line's instant when now is earlier (§1.7: the log's t values
// never run backwards; a deadline is never before the line that opened its turn).
func (m *match) notBefore(now time.Time) time.Time {
	if now.Before(m.last) {
		return m.last
	}
	return now
}

// ms is t cut to the millisecond, the log's precision, so a re-simulation from the log's t
// values decides every deadline as the live match did.
func ms(t time.Time) time.Time { return t.Truncate(time.Millisecond) }

// stamp is RFC 3339 UTC with milliseconds (the log's t).
func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z07:00") }

// closeTranscript ends the running hash of the log: Result's TranscriptHash, "sha256:" +
// hex(SHA-256(every line as breakroom.Line writes it, each followed by "\n")).
func (m *match) closeTranscript() {
	m.thash = "sha256:" + hex.EncodeToString(m.th.Sum(nil))
}
