package dilemma

import (
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
	phasePlaying        // one prompt open at a time
	phaseDone           // match_end or match_abandoned written
)

// roundRec is one seat's record of one round: its opponent (-1 on a bye), both sides' choices
// per closed iteration ('C'/'D'), and its points that round.
type roundRec struct {
	opp    int
	you    []byte
	them   []byte
	points int64
}

// seatState is one seat (index = wire seat).
type seatState struct {
	pubkey string
	name   string
	opts   SeatOptions
	// strikes are consecutive timeouts (§1.5); an on-time move resets them, sit_in too.
	strikes int
	// sittingOut: sit_out logged, no sit_in yet; the seat is auto-played, unprompted.
	sittingOut bool
	// returning: the seat's key made a request while it sat out (or had just reached the strike
	// limit): sit_in at the start of the next iteration.
	returning bool
	// away: the seat's connection is gone; its prompts get away_deadline_ms.
	away bool
	// Totals over closed iterations (§5.8).
	points, iterations, cooperated, defected int64
	rounds                                   []roundRec // index round − 1, the current round's included
	// stateLen is the length of the seat's last visible_state: the next is about as long (an
	// iteration adds a few dozen bytes), so its buffer is made from it rather than a fixed size.
	stateLen int
}

// heldMsg is table talk sent with a sealed choice, logged when the iteration closes (§1.4).
type heldMsg struct {
	seat, turn int
	text       string
}

// openPrompt is the one prompt open: seat (wire), turn, when it opened and its deadline.
type openPrompt struct {
	seat, turn int
	opened     time.Time
	deadline   time.Time
	prompt     games.Prompt
}

type match struct {
	setup    games.Setup
	cfg      Config
	seats    []seatState
	plan     []RoundPlan
	horizons []int // H_r, index r − 1

	phase     int
	round     int // current round (1-based), 0 before the first
	iteration int // current iteration within the round
	turn      int // the next turn number within the round (§1.2)
	order     []int
	next      int    // index in order of the next seat to act
	choice    []byte // this iteration's choice per seat, 0 before it is made
	held      []heldMsg
	open      *openPrompt
	legalActs []games.Action // legal(), the same at every prompt: shared by them, never changed

	seq       int64
	talk      [][]byte // visible_state talk entries, oldest first, trimmed to the state budget
	talkBytes int
	abandoned string
	th        hash.Hash // running SHA-256 of the log's lines (Result.TranscriptHash)
	line      []byte    // the last line hashed: one buffer for every line
	thash     string    // its final value, once done
}

var _ games.Match = (*match)(nil)

func newMatch(s games.Setup, cfg Config, opts []SeatOptions) *match {
	m := &match{setup: s, cfg: cfg, plan: Schedule(len(s.Seats)), th: sha256.New()}
	for i, st := range s.Seats {
		m.seats = append(m.seats, seatState{pubkey: st.Agent, name: st.Name, opts: opts[i]})
	}
	for r := range m.plan {
		m.horizons = append(m.horizons, Horizon(s.Seed, r+1, cfg.StopOneIn, cfg.MaxIterations))
	}
	m.choice = make([]byte, len(m.seats))
	m.legalActs = m.legal()
	return m
}

// Act applies one input at now. Kinds:
//
//   - "answer": the open prompt's move, body {"action": "cooperate"|"defect", "message"?}
//     (other members ignored, §1.3). Refusals, in §1.3's order (*games.Error; nothing changes
//     and the turn stays open): match_over once the match has ended; not_seated for a seat the
//     match does not have; not_your_turn when the open prompt is not the seat's (none is open
//     for a seat sitting out or between its turns); stale_turn when in.Move is not
//     breakroom.MoveOf of the open prompt's round and turn, or its deadline has passed;
//     bad_request when the body is not a JSON object or action is not a string; illegal_move
//     for an action that is missing or not cooperate/defect; bad_message for a message that is
//     not a string, too long, or holds a control character (§1.4).
//   - KindPresence: body {"away": bool} (see KindPresence); unchanged when nothing changes,
//     bad_request for another body.
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
	return games.Step{}, games.Errorf(games.CodeBadRequest, "input kind %q: the Dilemma takes answer and presence", in.Kind)
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
	action, text, err := ParseMove(in.Body, m.cfg.MaxMessageChars)
	if err != nil {
		return games.Step{}, err
	}
	var step games.Step
	o := m.open
	s := &m.seats[o.seat]
	m.open = nil
	s.strikes, s.away = 0, false
	m.choice[o.seat] = letter(action)
	m.emitRaw(&step, now, "action_private", games.Private(breakroom.HouseSeat(o.seat)),
		newObj().word("action", action).int("iteration", m.iteration).word("reveal", games.RevealEnd).
			int("round", m.round).int("seat", o.seat).int("turn", o.turn).done())
	if text != "" {
		m.held = append(m.held, heldMsg{seat: o.seat, turn: o.turn, text: text})
	}
	m.next++
	m.proceed(&step, now)
	return step, nil
}

// ParseMove reads a move's body (breakroom.ParseBody) for the Dilemma in §1.3's order: the
// action (illegal_move unless cooperate or defect), then the message (bad_message past limit
// code points or with a control character). text is "" for no message.
func ParseMove(body []byte, limit int) (action, text string, err error) {
	b, err := breakroom.ParseBody(body)
	if err != nil {
		return "", "", err
	}
	switch {
	case !b.HasAction:
		return "", "", games.Errorf(breakroom.CodeIllegalMove, "no action: legal are cooperate, defect")
	case b.Action != ActionCooperate && b.Action != ActionDefect:
		return "", "", games.Errorf(breakroom.CodeIllegalMove, "action %q: legal are cooperate, defect", b.Action)
	}
	text, err = b.Talk(limit)
	if err != nil {
		return "", "", err
	}
	return b.Action, text, nil
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
// prompt's deadline (its default move, logged as timeout_private). Events are stamped with the
// deadline's own instant, so a late Advance writes what a punctual one would.
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

// start writes match_start and opens round 1.
func (m *match) start(step *games.Step, at time.Time) {
	m.phase = phasePlaying
	m.startLine(step, at)
	m.startRound(step, at, 1)
	m.proceed(step, at)
}

// startLine writes match_start: the match id, the game, the players, the seed's commitment and
// the config.
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

func (m *match) startRound(step *games.Step, at time.Time, r int) {
	m.round, m.iteration, m.turn = r, 0, 0
	plan := m.plan[r-1]
	for i := range m.seats {
		m.seats[i].rounds = append(m.seats[i].rounds, roundRec{opp: -1})
	}
	pairs := make([][2]int, len(plan.Pairs))
	for i, p := range plan.Pairs {
		pairs[i] = p
		m.seats[p[0]].rounds[r-1].opp = p[1]
		m.seats[p[1]].rounds[r-1].opp = p[0]
	}
	var bye any
	if plan.Bye >= 0 {
		bye = plan.Bye
	}
	m.emit(step, at, "round_start", games.Public, map[string]any{"round": r, "pairs": pairs, "bye": bye})
	m.startIteration(step, at)
}

// startIteration opens the next iteration of the round: sit_in for every seat coming back,
// then the paired seats in ascending order.
func (m *match) startIteration(step *games.Step, at time.Time) {
	m.iteration++
	for i := range m.seats {
		s := &m.seats[i]
		if s.returning {
			s.returning, s.sittingOut, s.strikes = false, false, 0
			m.emit(step, at, "sit_in", games.Public, map[string]any{"round": m.round, "seat": i})
		}
	}
	m.order = m.order[:0]
	for i := range m.seats {
		if m.seats[i].rounds[m.round-1].opp >= 0 {
			m.order = append(m.order, i)
		}
	}
	m.next = 0
	clear(m.choice)
	m.held = m.held[:0]
}

// proceed plays on from the current point until a prompt is open or the match is done: seats
// sitting out are auto-played, a finished iteration closes and the next one (or round) opens.
func (m *match) proceed(step *games.Step, at time.Time) {
	for m.phase == phasePlaying && m.open == nil {
		if m.next < len(m.order) {
			i := m.order[m.next]
			if m.seats[i].sittingOut {
				m.choice[i] = letter(m.cfg.Default)
				m.emitRaw(step, at, "action_private", games.Private(breakroom.HouseSeat(i)),
					newObj().word("action", m.cfg.Default).raw("auto", "true").int("iteration", m.iteration).
						word("reveal", games.RevealEnd).int("round", m.round).int("seat", i).done())
				m.next++
				continue
			}
			m.prompt(step, at, i)
			return
		}
		m.closeIteration(step, at)
		switch {
		case m.iteration < m.horizons[m.round-1]:
			m.startIteration(step, at)
		case m.round < len(m.plan):
			m.startRound(step, at, m.round+1)
		default:
			m.finish(step, at)
		}
	}
}

// prompt opens seat i's sealed prompt at at.
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
		Legal: m.legalActs, State: games.RawDoc(m.state(i)), Inbox: []json.RawMessage{},
		View: m.houseView(i),
	}
	step.Prompts = append(step.Prompts, o.prompt)
}

// legal is §5.5's legal_actions.
func (m *match) legal() []games.Action {
	b := []byte(`{"max_message_chars":` + itoa(m.cfg.MaxMessageChars) + `}`)
	return []games.Action{{Name: ActionCooperate, Bounds: b}, {Name: ActionDefect, Bounds: b}}
}

// timeout plays the open prompt's default at its deadline (§5.5): timeout_private, strikes + 1.
func (m *match) timeout(step *games.Step, at time.Time) {
	o := m.open
	s := &m.seats[o.seat]
	m.open = nil
	s.strikes++
	m.choice[o.seat] = letter(m.cfg.Default)
	m.emitRaw(step, at, "timeout_private", games.Private(breakroom.HouseSeat(o.seat)),
		newObj().word("auto", m.cfg.Default).int("iteration", m.iteration).word("reveal", games.RevealEnd).
			int("round", m.round).int("seat", o.seat).int("strikes", s.strikes).int("turn", o.turn).done())
	m.next++
	m.proceed(step, at)
}

// closeIteration resolves the iteration (§5.4 step 2): the held talk in seat order, each pair's
// result to its two seats, sit_out for each seat that reached the strike limit (logged here, not
// at its timeout, so it cannot tell a later seat that seat's choice), iteration_end, and
// round_end after the round's last iteration.
func (m *match) closeIteration(step *games.Step, at time.Time) {
	for _, h := range m.held {
		m.emit(step, at, "message", games.Public, map[string]any{
			"round": m.round, "seat": h.seat, "turn": h.turn, "text": h.text,
		})
		m.addTalk(h)
	}
	m.held = m.held[:0]
	for _, p := range m.plan[m.round-1].Pairs {
		a, b := p[0], p[1]
		ca, cb := m.choice[a], m.choice[b]
		pa, pb := m.cfg.Payoffs.Points(ca, cb), m.cfg.Payoffs.Points(cb, ca)
		m.record(a, ca, cb, pa)
		m.record(b, cb, ca, pb)
		m.emitRaw(step, at, "iteration_private", games.Private(breakroom.HouseSeat(a), breakroom.HouseSeat(b)),
			newObj().raw("choices", `["`+string(ca)+`","`+string(cb)+`"]`).int("iteration", m.iteration).
				pair("pair", int64(a), int64(b)).pair("points", pa, pb).word("reveal", games.RevealEnd).
				int("round", m.round).int("seat", a).raw("to", "["+itoa(b)+"]").done())
	}
	for i := range m.seats {
		s := &m.seats[i]
		if !s.sittingOut && s.strikes >= m.cfg.StrikesLimit {
			s.sittingOut = true
			m.emit(step, at, "sit_out", games.Public, map[string]any{"round": m.round, "seat": i})
		}
	}
	m.emitRaw(step, at, "iteration_end", games.Public, newObj().int("iteration", m.iteration).int("round", m.round).done())
	if m.iteration == m.horizons[m.round-1] {
		m.emitRaw(step, at, "round_end", games.Public, newObj().int("iterations", m.iteration).int("round", m.round).done())
	}
}

// record adds one closed iteration to seat i's totals and its round record.
func (m *match) record(i int, mine, theirs byte, pts int64) {
	s := &m.seats[i]
	s.points += pts
	s.iterations++
	if mine == 'D' {
		s.defected++
	} else {
		s.cooperated++
	}
	r := &s.rounds[m.round-1]
	r.you = append(r.you, mine)
	r.them = append(r.them, theirs)
	r.points += pts
}

// addTalk keeps a logged message for visible_state's talk list, dropping the oldest entries that
// could no longer fit in any state (J31).
func (m *match) addTalk(h heldMsg) {
	b, _ := canon.Marshal(map[string]any{"round": m.round, "seat": h.seat, "turn": h.turn, "text": h.text})
	m.talk = append(m.talk, b)
	m.talkBytes += len(b) + 1
	for len(m.talk) > 1 && m.talkBytes > breakroom.StateBudget {
		m.talkBytes -= len(m.talk[0]) + 1
		m.talk = m.talk[1:]
	}
}

// finish writes match_end with the ranking and the revealed seed.
func (m *match) finish(step *games.Step, at time.Time) {
	m.phase, m.open = phaseDone, nil
	m.emit(step, at, "match_end", games.Public, map[string]any{
		"match_id": m.setup.Round, "ranking": m.ranking(), "seed": breakroom.SeedHex(m.setup.Seed),
	})
	m.closeTranscript()
}

// Abandon ends an unfinished match at now (protocol "Match log"): the talk held in the open
// iteration is logged (nothing it could tell is secret once the match is over), or match_start
// when the match had not opened yet (so every log opens with it), then
// match_abandoned {match_id, reason, ranking, seed} with the standings over the iterations
// completed (§5.8). A finished match is left as it is.
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
		m.startLine(&step, now) // a log always opens with the seed's commitment
	}
	if m.phase == phasePlaying {
		for _, h := range m.held {
			m.emit(&step, now, "message", games.Public, map[string]any{
				"round": m.round, "seat": h.seat, "turn": h.turn, "text": h.text,
			})
			m.addTalk(h)
		}
		m.held = m.held[:0]
	}
	m.phase, m.open, m.abandoned = phaseDone, nil, reason
	m.emit(&step, now, "match_abandoned", games.Public, map[string]any{
		"match_id": m.setup.Round, "reason": reason, "ranking": m.ranking(), "seed": breakroom.SeedHex(m.setup.Seed),
	})
	m.closeTranscript()
	return step
}

// emit appends one log line: Event.Type is the line's type, Payload its members (JCS), Turn the
// Break Room round it belongs to (0 for match_start's and the end's lines outside a round).
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

// ms is t cut to the millisecond, the log's precision: the match reckons every instant so (a
// prompt's opening, its deadline, a move's arrival), so a re-simulation from the log's t values
// (Verify) decides every deadline as the live match did.
func ms(t time.Time) time.Time { return t.Truncate(time.Millisecond) }

// stamp is RFC 3339 UTC with milliseconds (the log's t).
func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z07:00") }

// closeTranscript ends the running hash of the log once the last line is out: Result's
// TranscriptHash, "sha256:" + hex(SHA-256(the match log as JSONL)), every line as breakroom.Line
// writes it followed by "\n": the bytes of the whole log file once the match is over.
func (m *match) closeTranscript() {
	m.thash = "sha256:" + hex.EncodeToString(m.th.Sum(nil))
}

// obj writes a JCS object by hand for the lines every iteration writes (the table's hot path):
// the caller adds members in JCS order (ASCII names, sorted), values numbers, fixed ASCII words
// or raw JSON. TestPayloadsAreJCS holds every line to canon's JCS.
type obj struct{ b []byte }

func newObj() *obj { return &obj{b: append(make([]byte, 0, 128), '{')} }

func (o *obj) key(k string) *obj {
	if len(o.b) > 1 {
		o.b = append(o.b, ',')
	}
	o.b = append(append(append(o.b, '"'), k...), `":`...)
	return o
}

func (o *obj) int(k string, v int) *obj {
	o.key(k).b = appendInt(o.b, v)
	return o
}

// word is a fixed ASCII word with nothing to escape ("cooperate", "end").
func (o *obj) word(k, v string) *obj {
	o.key(k).b = append(append(append(o.b, '"'), v...), '"')
	return o
}

func (o *obj) raw(k, v string) *obj {
	o.key(k).b = append(o.b, v...)
	return o
}

func (o *obj) pair(k string, a, b int64) *obj {
	o.key(k).b = append(strconv.AppendInt(append(strconv.AppendInt(append(o.b, '['), a, 10), ','), b, 10), ']')
	return o
}

func (o *obj) done() []byte { return append(o.b, '}') }
