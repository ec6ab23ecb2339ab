package werewolf

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"hash"
	"slices"
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

// seatState is one seat (index = wire seat).
type seatState struct {
	pubkey string
	name   string
	opts   SeatOptions
	role   string
	// alive is false once the seat's elimination is logged (eliminated).
	alive bool
	// leaving: the seat reached the strike limit in a sealed phase (night or vote); it is
	// removed at once and announced when the phase closes (§3.6), so that no later seat of the
	// phase learns of its timeouts from its prompts.
	leaving bool
	how     string // "night", "exiled" or "left" once eliminated
	elimRnd int    // the round of its elimination
	// strikes are consecutive timeouts (§1.5); an on-time move resets them.
	strikes int
	// away: the seat's connection is gone; its prompts get away_deadline_ms.
	away bool
}

// inspection is one seer's result (visible_state.inspections).
type inspection struct {
	Round  int  `json:"round"`
	Target int  `json:"target"`
	IsWolf bool `json:"is_wolf"`
}

// vote is one seat's vote (vote_result.votes): target -1 for an abstention.
type vote struct {
	seat, target int
}

// packMove is one wolf's night move: its action, target (-1 for none), and whether it was the
// default of a missed deadline.
type packMove struct {
	seat   int
	action string
	target int
	auto   bool
}

// voteRecord is one day's vote_result (visible_state.vote_history).
type voteRecord struct {
	round  int
	votes  []vote
	exiled int // -1 for nobody
}

// entry is one legal action of the open prompt as the match checks it: its name, the seats its
// target may name (nil: the action takes no target), whether it may carry a message and whether
// it must (say).
type entry struct {
	name    string
	targets []int
	talk    bool
	needs   bool
}

// openPrompt is the one prompt open: seat (wire), turn, when it opened, its deadline and legal
// actions.
type openPrompt struct {
	seat, turn int
	opened     time.Time
	deadline   time.Time
	legal      []entry
	prompt     games.Prompt
}

type match struct {
	setup games.Setup
	cfg   Config
	seats []seatState

	phase int
	round int    // current round (1-based), 0 before the first
	stage string // PhaseNight, PhaseDiscussion or PhaseVote
	pass  int    // the discussion pass (1-based) while stage is PhaseDiscussion
	turn  int    // the next turn number within the round (§1.2)
	order []int  // the seats of the current phase or pass, in prompt order
	next  int    // index in order of the next seat to prompt
	open  *openPrompt

	picks []int // tonight's kill pick per seat (-1 none)
	// packNight is tonight's (after dawn, last night's) moves of the pack, in prompt order:
	// visible_state.pack_night, so a wolf that reads no event stream (HTTP, MCP) still sees the
	// earlier wolves' picks (§3.3).
	packNight     []packMove
	protect       int // tonight's protected seat (-1 none)
	lastProtected int // last night's protected seat (-1 none), for doctor_repeat
	votes         []vote
	inspections   []inspection
	history       []voteRecord
	winner        string

	seq       int64
	talk      [][]byte // talk_today entries, oldest first, trimmed to the state budget
	talkBytes int
	abandoned string
	// lastAt is the instant of the last line written: an input at an earlier instant (a clock
	// that went back, a forged log) takes effect at lastAt, so the log's instants never go back.
	lastAt time.Time
	th     hash.Hash // running SHA-256 of the log's lines (Result.TranscriptHash)
	thash  string
}

var _ games.Match = (*match)(nil)

func newMatch(s games.Setup, cfg Config, opts []SeatOptions) *match {
	m := &match{setup: s, cfg: cfg, th: sha256.New(), protect: -1, lastProtected: -1}
	roles := Deal(s.Seed, cfg.Roles)
	for i, st := range s.Seats {
		m.seats = append(m.seats, seatState{pubkey: st.Agent, name: st.Name, opts: opts[i], role: roles[i], alive: true})
	}
	m.picks = make([]int, len(m.seats))
	return m
}

// Act applies one input at now (never earlier than the last line written: notBefore). Kinds:
//
//   - "answer": the open prompt's move, body {"action": …, "target"?: seat, "message"?: text}
//     (other members ignored, §1.3). Refusals, in §1.3's order (*games.Error; nothing changes
//     and the turn stays open): match_over once the match has ended; not_seated for a seat the
//     match does not have; not_your_turn when the open prompt is not the seat's (a dead seat
//     never has one); stale_turn when in.Move is not breakroom.MoveOf of the open prompt's
//     round and turn, or its deadline has passed; then ParseMove's (bad_request, illegal_move,
//     bad_message).
//   - KindPresence: body {"away": bool}; unchanged when nothing changes, bad_request for
//     another body.
//
// Anything else is bad_request.
func (m *match) Act(now time.Time, in games.Input) (games.Step, error) {
	now = m.notBefore(now)
	switch in.Kind {
	case "answer":
		return m.answer(now, in)
	case KindPresence:
		return m.presence(now, in)
	}
	return games.Step{}, games.Errorf(games.CodeBadRequest, "input kind %q: Werewolf takes answer and presence", in.Kind)
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
	mv, err := parseMove(in.Body, m.open.legal, m.cfg.MaxMessageChars)
	if err != nil {
		return games.Step{}, err
	}
	var step games.Step
	o := m.open
	s := &m.seats[o.seat]
	m.open = nil
	s.strikes, s.away = 0, false
	m.play(&step, now, o, mv)
	m.next++
	m.proceed(&step, now)
	return step, nil
}

// Move is a move's game part as ParseMove reads it: the action, its target seat (-1 for none)
// and its message ("" for none).
type Move struct {
	Action  string
	Target  int
	Message string
}

// ParseMove reads a move's body against legal (a prompt's legal_actions) in §1.3's order:
// bad_request when the body is not a JSON object or action is not a string; illegal_move for an
// action that is missing or not offered, or a target that is missing, not an integer or not in
// the action's targets; bad_message for a message on an action without max_message_chars, a
// say without one, or one too long (limit code points, or the entry's max_message_chars when
// smaller) or holding a control character (§1.4). Unknown members are ignored.
func ParseMove(body []byte, legal []games.Action, limit int) (Move, error) {
	es := make([]entry, 0, len(legal))
	for _, a := range legal {
		var b struct {
			Targets         *[]int `json:"targets"`
			MaxMessageChars *int   `json:"max_message_chars"`
		}
		_ = json.Unmarshal(a.Bounds, &b)
		e := entry{name: a.Name, talk: b.MaxMessageChars != nil, needs: a.Name == ActionSay}
		if b.Targets != nil {
			e.targets = append([]int{}, *b.Targets...)
		}
		if b.MaxMessageChars != nil && *b.MaxMessageChars < limit {
			limit = *b.MaxMessageChars
		}
		es = append(es, e)
	}
	return parseMove(body, es, limit)
}

func parseMove(body []byte, legal []entry, limit int) (Move, error) {
	b, err := breakroom.ParseBody(body)
	if err != nil {
		return Move{}, err
	}
	names := func() string {
		s := ""
		for i, e := range legal {
			if i > 0 {
				s += ", "
			}
			s += e.name
		}
		return s
	}
	if !b.HasAction {
		return Move{}, games.Errorf(breakroom.CodeIllegalMove, "no action: legal are %s", names())
	}
	var e *entry
	for k := range legal {
		if legal[k].name == b.Action {
			e = &legal[k]
			break
		}
	}
	if e == nil {
		return Move{}, games.Errorf(breakroom.CodeIllegalMove, "action %q: legal are %s", b.Action, names())
	}
	mv := Move{Action: b.Action, Target: -1}
	if e.targets != nil {
		raw, ok := b.Member("target")
		if !ok || isNull(raw) {
			return Move{}, games.Errorf(breakroom.CodeIllegalMove, "%s needs a target: one of %v", e.name, e.targets)
		}
		var t int
		if err := json.Unmarshal(raw, &t); err != nil || !slices.Contains(e.targets, t) {
			return Move{}, games.Errorf(breakroom.CodeIllegalMove, "target %s: %s may name %v", raw, e.name, e.targets)
		}
		mv.Target = t
	}
	text, err := b.Talk(limit)
	if err != nil {
		return Move{}, err
	}
	switch {
	case text != "" && !e.talk:
		return Move{}, games.Errorf(breakroom.CodeBadMessage, "%s carries no message", e.name)
	case text == "" && e.needs:
		return Move{}, games.Errorf(breakroom.CodeBadMessage, "%s needs a non-empty message", e.name)
	}
	mv.Message = text
	return mv, nil
}

func isNull(raw json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(raw), []byte("null")) }

func (m *match) presence(now time.Time, in games.Input) (games.Step, error) {
	i, away, err := breakroom.ReadPresence(m.phase == phaseDone, len(m.seats), in)
	if err != nil {
		return games.Step{}, err
	}
	var t *breakroom.PresenceTurn
	if o := m.open; o != nil && o.seat == i && now.Before(o.deadline) {
		t = &breakroom.PresenceTurn{Prompt: &o.prompt, Deadline: &o.deadline, Opened: o.opened}
	}
	// "left" is final here (§3.6): a seat back is only not away.
	return breakroom.Presence(now, i, away, breakroom.PresenceSeat{Away: &m.seats[i].away}, t, m.cfg.awayDeadline(), m.cfg.turnDeadline())
}

// Advance applies every deadline at or before now: the opening at Setup.Start, then each open
// prompt's deadline (its default move). Events are stamped with the deadline's own instant, so
// a late Advance writes what a punctual one would.
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

// start writes match_start, each seat's role_private (§3.2) and opens round 1.
func (m *match) start(step *games.Step, at time.Time) {
	m.phase = phasePlaying
	m.startLine(step, at)
	pack := m.pack()
	for i, s := range m.seats {
		p := map[string]any{"reveal": games.RevealEnd, "role": s.role, "seat": i}
		vis := games.Private(breakroom.HouseSeat(i))
		if s.role == RoleWolf {
			p["pack"] = pack
			p["to"] = others(pack, i)
			vis = houseVis(pack)
		}
		m.emit(step, at, "role_private", vis, p)
	}
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

// pack is every wolf's wire seat, ascending (dead ones included): role_private.pack.
func (m *match) pack() []int {
	var out []int
	for i, s := range m.seats {
		if s.role == RoleWolf {
			out = append(out, i)
		}
	}
	return out
}

// livingPack is the wolves alive now (not yet announced dead), ascending.
func (m *match) livingPack() []int {
	var out []int
	for i, s := range m.seats {
		if s.role == RoleWolf && s.alive {
			out = append(out, i)
		}
	}
	return out
}

// others is seats without i (a line's "to": every recipient but its seat), never nil.
func others(seats []int, i int) []int {
	out := []int{}
	for _, s := range seats {
		if s != i {
			out = append(out, s)
		}
	}
	return out
}

// houseVis is the visibility of a line for the given wire seats (ascending).
func houseVis(wire []int) games.Visibility {
	hs := make([]int, len(wire))
	for k, w := range wire {
		hs[k] = breakroom.HouseSeat(w)
	}
	return games.Private(hs...)
}

func (m *match) startRound(step *games.Step, at time.Time, r int) {
	m.round, m.turn = r, 0
	m.talk, m.talkBytes = m.talk[:0], 0
	m.emitRaw(step, at, "round_start", games.Public, newObj().int("round", r).done())
	m.startStage(step, at, PhaseNight)
}

// startStage writes the phase line of stage and lines up its prompts: every living seat in
// ascending order at night and in the vote; the first discussion pass in the day.
func (m *match) startStage(step *games.Step, at time.Time, stage string) {
	m.stage = stage
	m.emitRaw(step, at, "phase", games.Public, newObj().word("phase", stage).int("round", m.round).done())
	m.order, m.next = m.order[:0], 0
	switch stage {
	case PhaseNight:
		for i := range m.picks {
			m.picks[i] = -1
		}
		m.packNight = m.packNight[:0]
		m.protect = -1
		m.order = m.living(m.order)
	case PhaseVote:
		m.votes = m.votes[:0]
		m.order = m.living(m.order)
	case PhaseDiscussion:
		m.pass = 0
		if m.cfg.DiscussionRounds > 0 {
			m.startPass()
		}
	}
}

// living appends the living seats, ascending, to dst.
func (m *match) living(dst []int) []int {
	for i, s := range m.seats {
		if s.alive {
			dst = append(dst, i)
		}
	}
	return dst
}

// startPass lines up the next discussion pass (§3.3): the living seats from the first at or
// after index (round − 1) mod seats, wrapping, in seat order.
func (m *match) startPass() {
	m.pass++
	m.order, m.next = m.order[:0], 0
	n := len(m.seats)
	for k := range n {
		if i := (m.round - 1 + k) % n; m.seats[i].alive {
			m.order = append(m.order, i)
		}
	}
}

// proceed plays on from the current point until a prompt is open or the match is done: a phase
// whose last seat has acted closes, and what follows opens.
func (m *match) proceed(step *games.Step, at time.Time) {
	for m.phase == phasePlaying && m.open == nil {
		if m.next < len(m.order) {
			i := m.order[m.next]
			if !m.seats[i].alive {
				m.next++ // left during this discussion pass
				continue
			}
			m.prompt(step, at, i)
			return
		}
		switch m.stage {
		case PhaseNight:
			if m.dawn(step, at) {
				m.startStage(step, at, PhaseDiscussion)
			}
		case PhaseDiscussion:
			if m.pass < m.cfg.DiscussionRounds {
				m.startPass()
			} else {
				m.startStage(step, at, PhaseVote)
			}
		case PhaseVote:
			if m.closeVote(step, at) {
				if m.round < m.cfg.MaxRounds {
					m.startRound(step, at, m.round+1)
				} else {
					m.winner = WinnerDraw
					m.finish(step, at)
				}
			}
		}
	}
}

// prompt opens seat i's prompt at at.
func (m *match) prompt(step *games.Step, at time.Time, i int) {
	d := m.cfg.turnDeadline()
	if m.seats[i].away {
		d = m.cfg.awayDeadline()
	}
	o := &openPrompt{seat: i, turn: m.turn, opened: at, deadline: at.Add(d), legal: m.legal(i)}
	m.turn++
	m.open = o
	o.prompt = games.Prompt{
		Seat: breakroom.HouseSeat(i), Move: breakroom.MoveOf(m.round, o.turn), Deadline: o.deadline,
		Legal: m.actions(o.legal), State: games.RawDoc(m.state(i)), Inbox: []json.RawMessage{},
		View: m.houseView(i),
	}
	step.Prompts = append(step.Prompts, o.prompt)
}

// legal is §3.4's legal actions of seat i now.
func (m *match) legal(i int) []entry {
	s := &m.seats[i]
	var out []entry
	add := func(name string, targets []int, talk bool) {
		if targets != nil && len(targets) == 0 {
			return // no seat to name: the action is not offered
		}
		out = append(out, entry{name: name, targets: targets, talk: talk, needs: name == ActionSay})
	}
	targets := func(keep func(j int) bool) []int {
		t := []int{}
		for j, o := range m.seats {
			if o.alive && keep(j) {
				t = append(t, j)
			}
		}
		return t
	}
	switch m.stage {
	case PhaseNight:
		switch s.role {
		case RoleSeer:
			add(ActionInspect, targets(func(j int) bool { return j != i }), false)
			add(ActionSleep, nil, false)
		case RoleDoctor:
			add(ActionProtect, targets(func(j int) bool {
				return (m.cfg.DoctorSelfProtect || j != i) && (m.cfg.DoctorRepeat || j != m.lastProtected)
			}), false)
			add(ActionSleep, nil, false)
		case RoleWolf:
			add(ActionKill, targets(func(j int) bool { return m.seats[j].role != RoleWolf }), true)
			add(ActionSleep, nil, true)
		default:
			add(ActionSleep, nil, false)
		}
	case PhaseDiscussion:
		add(ActionSay, nil, true)
		add(ActionPass, nil, false)
	case PhaseVote:
		add(ActionVote, targets(func(j int) bool { return j != i }), false)
		add(ActionAbstain, nil, false)
	}
	return out
}

// actions is legal as legal_actions: targets and max_message_chars as bounds.
func (m *match) actions(legal []entry) []games.Action {
	out := make([]games.Action, len(legal))
	for k, e := range legal {
		a := games.Action{Name: e.name}
		if e.targets != nil || e.talk {
			b := []byte{'{'}
			if e.targets != nil {
				b = appendSeats(append(b, `"targets":`...), e.targets)
			}
			if e.talk {
				if e.targets != nil {
					b = append(b, ',')
				}
				b = appendInt(append(b, `"max_message_chars":`...), m.cfg.MaxMessageChars)
			}
			a.Bounds = append(b, '}')
		}
		out[k] = a
	}
	return out
}

// play applies seat o.seat's on-time move mv and writes its lines (§3.3).
func (m *match) play(step *games.Step, at time.Time, o *openPrompt, mv Move) {
	i := o.seat
	s := &m.seats[i]
	// line is the move's action or action_private line: members in JCS order, "reveal" and
	// "to" where the phase says.
	line := func(reveal bool, to []int) []byte {
		l := newObj().word("action", mv.Action)
		if reveal {
			l.word("reveal", games.RevealEnd)
		}
		l.int("round", m.round).int("seat", i)
		if mv.Target >= 0 {
			l.int("target", mv.Target)
		}
		if to != nil {
			l.seats("to", to)
		}
		return l.int("turn", o.turn).done()
	}
	switch m.stage {
	case PhaseNight:
		vis := games.Private(breakroom.HouseSeat(i))
		var to []int
		if s.role == RoleWolf {
			pack := m.livingPack()
			vis, to = houseVis(pack), others(pack, i)
			if mv.Message != "" {
				m.emitRaw(step, at, "message_private", vis, newObj().word("reveal", games.RevealEnd).int("round", m.round).
					int("seat", i).text("text", mv.Message).seats("to", to).int("turn", o.turn).done())
			}
			if mv.Action == ActionKill {
				m.picks[i] = mv.Target
			}
			m.packNight = append(m.packNight, packMove{seat: i, action: mv.Action, target: mv.Target})
		}
		m.emitRaw(step, at, "action_private", vis, line(true, to))
		switch mv.Action {
		case ActionInspect:
			inspected := inspection{Round: m.round, Target: mv.Target, IsWolf: m.seats[mv.Target].role == RoleWolf}
			m.inspections = append(m.inspections, inspected)
			m.emitRaw(step, at, "inspect_result_private", vis, newObj().bool("is_wolf", inspected.IsWolf).
				word("reveal", games.RevealEnd).int("round", m.round).int("seat", i).int("target", mv.Target).done())
		case ActionProtect:
			m.protect = mv.Target
		}
	case PhaseDiscussion:
		if mv.Action == ActionSay {
			m.emitRaw(step, at, "message", games.Public, newObj().int("round", m.round).int("seat", i).
				text("text", mv.Message).int("turn", o.turn).done())
			m.addTalk(i, o.turn, mv.Message)
		}
		m.emitRaw(step, at, "action", games.Public, line(false, nil))
	case PhaseVote:
		m.emitRaw(step, at, "action_private", games.Private(breakroom.HouseSeat(i)), line(true, nil))
		m.votes = append(m.votes, vote{seat: i, target: mv.Target})
	}
}

// timeout plays the open prompt's default at its deadline (§3.4): sleep at night, pass in the
// discussion, abstain in the vote; strikes + 1. Night and vote timeouts are timeout_private (a
// wolf's to the pack, as its move would be), discussion timeouts public. At the strike limit the
// seat is eliminated as "left" (§3.6): at once in the discussion, when the phase closes at night
// and in the vote.
func (m *match) timeout(step *games.Step, at time.Time) {
	o := m.open
	i := o.seat
	s := &m.seats[i]
	m.open = nil
	s.strikes++
	// line is the timeout line: members in JCS order.
	line := func(auto string, reveal bool, to []int) []byte {
		l := newObj().word("auto", auto)
		if reveal {
			l.word("reveal", games.RevealEnd)
		}
		l.int("round", m.round).int("seat", i).int("strikes", s.strikes)
		if to != nil {
			l.seats("to", to)
		}
		return l.int("turn", o.turn).done()
	}
	switch m.stage {
	case PhaseNight:
		vis := games.Private(breakroom.HouseSeat(i))
		var to []int
		if s.role == RoleWolf {
			pack := m.livingPack()
			vis, to = houseVis(pack), others(pack, i)
			m.packNight = append(m.packNight, packMove{seat: i, action: ActionSleep, target: -1, auto: true})
		}
		m.emitRaw(step, at, "timeout_private", vis, line(ActionSleep, true, to))
	case PhaseVote:
		m.emitRaw(step, at, "timeout_private", games.Private(breakroom.HouseSeat(i)), line(ActionAbstain, true, nil))
		m.votes = append(m.votes, vote{seat: i, target: -1})
	case PhaseDiscussion:
		m.emitRaw(step, at, "timeout", games.Public, line(ActionPass, false, nil))
	}
	m.next++
	if s.strikes >= m.cfg.StrikesLimit {
		if m.stage == PhaseDiscussion {
			m.eliminate(step, at, i, HowLeft)
			if m.winCheck(step, at) {
				return
			}
		} else {
			s.leaving = true
		}
	}
	m.proceed(step, at)
}

// eliminate writes seat i's eliminated line with its role (§3.3: roles are revealed at death).
func (m *match) eliminate(step *games.Step, at time.Time, i int, how string) {
	s := &m.seats[i]
	s.alive, s.leaving, s.how, s.elimRnd = false, false, how, m.round
	m.emitRaw(step, at, "eliminated", games.Public, newObj().word("how", how).word("role", s.role).int("round", m.round).int("seat", i).done())
}

// removeLeaving eliminates, as "left", every seat that reached the strike limit in the phase
// that just closed, ascending.
func (m *match) removeLeaving(step *games.Step, at time.Time) {
	for i := range m.seats {
		if m.seats[i].leaving {
			m.eliminate(step, at, i, HowLeft)
		}
	}
}

// dawn resolves the night (§3.3): the pack's victim by plurality of the living wolves' picks
// (a tie broken by KillTie), kill_private to the pack, dawn with the deaths (none when the
// victim was protected or had left), eliminated for each, then "left" for each seat that reached
// the strike limit tonight, then the win check. It reports whether play goes on.
func (m *match) dawn(step *games.Step, at time.Time) bool {
	counts := map[int]int{}
	best := 0
	for i, s := range m.seats {
		if s.role == RoleWolf && s.alive && m.picks[i] >= 0 {
			counts[m.picks[i]]++
			best = max(best, counts[m.picks[i]])
		}
	}
	victim := -1
	if best > 0 {
		var tied []int
		for t, c := range counts {
			if c == best {
				tied = append(tied, t)
			}
		}
		slices.Sort(tied)
		victim = tied[0]
		if len(tied) > 1 {
			victim = tied[KillTie(m.setup.Seed, m.round, len(tied))]
		}
		pack := m.livingPack()
		m.emitRaw(step, at, "kill_private", houseVis(pack), newObj().word("reveal", games.RevealEnd).int("round", m.round).
			int("seat", pack[0]).int("target", victim).seats("to", others(pack, pack[0])).done())
	}
	deaths := []int{}
	if victim >= 0 && victim != m.protect && !m.seats[victim].leaving {
		deaths = append(deaths, victim)
	}
	m.lastProtected = m.protect
	m.emitRaw(step, at, "dawn", games.Public, newObj().seats("deaths", deaths).int("round", m.round).done())
	for _, d := range deaths {
		m.eliminate(step, at, d, HowNight)
	}
	m.removeLeaving(step, at)
	return !m.winCheck(step, at)
}

// closeVote resolves the day vote (§3.3): vote_result with every vote in seat order and the
// exiled seat, the one with a strict plurality of the votes cast (none on a tie or no votes, or
// when that seat left during the vote), eliminated for it, "left" for each seat that reached
// the strike limit in the vote, then the win check. It reports whether play goes on.
func (m *match) closeVote(step *games.Step, at time.Time) bool {
	counts := map[int]int{}
	for _, v := range m.votes {
		if v.target >= 0 {
			counts[v.target]++
		}
	}
	exiled, best, ties := -1, 0, 0
	for t, c := range counts {
		switch {
		case c > best:
			exiled, best, ties = t, c, 1
		case c == best:
			ties++
		}
	}
	if ties != 1 || (exiled >= 0 && m.seats[exiled].leaving) {
		exiled = -1
	}
	rec := voteRecord{round: m.round, votes: slices.Clone(m.votes), exiled: exiled}
	m.history = append(m.history, rec)
	m.emitRaw(step, at, "vote_result", games.Public, rec.json())
	if exiled >= 0 {
		m.eliminate(step, at, exiled, HowExiled)
	}
	m.removeLeaving(step, at)
	return !m.winCheck(step, at)
}

// json is r as vote_result and visible_state.vote_history write it: {exiled, round, votes}
// (JCS order), a null target for an abstention and a null exiled for nobody.
func (r voteRecord) json() []byte {
	b := append(make([]byte, 0, 64+24*len(r.votes)), `{"exiled":`...)
	b = appendSeat(b, r.exiled)
	b = appendInt(append(b, `,"round":`...), r.round)
	b = append(b, `,"votes":[`...)
	for k, v := range r.votes {
		if k > 0 {
			b = append(b, ',')
		}
		b = appendInt(append(b, `{"seat":`...), v.seat)
		b = append(appendSeat(append(b, `,"target":`...), v.target), '}')
	}
	return append(b, "]}"...)
}

// winCheck is §3.5's check: the village wins when no wolf is alive, the wolves when they are at
// least as many as the other living seats. On a win it writes game_over and match_end and
// reports true.
func (m *match) winCheck(step *games.Step, at time.Time) bool {
	wolves, rest := 0, 0
	for _, s := range m.seats {
		switch {
		case !s.alive:
		case s.role == RoleWolf:
			wolves++
		default:
			rest++
		}
	}
	switch {
	case wolves == 0:
		m.winner = WinnerVillage
	case wolves >= rest:
		m.winner = WinnerWolves
	default:
		return false
	}
	m.finish(step, at)
	return true
}

// addTalk keeps a logged message for visible_state's talk_today, dropping the oldest entries
// that could no longer fit in any state (J31).
func (m *match) addTalk(seat, turn int, text string) {
	b := newObj().int("seat", seat).text("text", text).int("turn", turn).done()
	m.talk = append(m.talk, b)
	m.talkBytes += len(b) + 1
	for len(m.talk) > 1 && m.talkBytes > breakroom.StateBudget {
		m.talkBytes -= len(m.talk[0]) + 1
		m.talk = m.talk[1:]
	}
}

// finish writes game_over {round, winner} and match_end with the ranking and the revealed seed.
func (m *match) finish(step *games.Step, at time.Time) {
	m.phase, m.open = phaseDone, nil
	m.emit(step, at, "game_over", games.Public, map[string]any{"round": m.round, "winner": m.winner})
	m.emit(step, at, "match_end", games.Public, map[string]any{
		"match_id": m.setup.Round, "ranking": m.ranking(), "seed": breakroom.SeedHex(m.setup.Seed),
	})
	m.closeTranscript()
}

// Abandon ends an unfinished match at now (protocol "Match log"): match_start first when the
// match had not opened yet (so every log opens with it), then
// match_abandoned {match_id, reason, ranking, seed}, ranked as a draw (§3.5: 0.5 each, "left"
// 0). A finished match is left as it is.
func (m *match) Abandon(now time.Time, reason string) games.Step {
	now = m.notBefore(now)
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

// emit appends one log line: Event.Type is the line's type, Payload its members (JCS), Turn the
// Break Room round it belongs to (0 for match_start's and the end's lines).
func (m *match) emit(step *games.Step, at time.Time, typ string, vis games.Visibility, payload map[string]any) {
	p, err := canon.Marshal(payload)
	if err != nil { // unreachable: strings, booleans and small integers
		p = []byte(`{}`)
	}
	m.emitRaw(step, at, typ, vis, p)
}

// emitRaw is emit of a payload already written as JCS.
func (m *match) emitRaw(step *games.Step, at time.Time, typ string, vis games.Visibility, p []byte) {
	m.seq++
	m.lastAt = at
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

// notBefore is now cut to the millisecond, or the last line's instant when now is earlier: the
// instant an input takes effect at. A log's instants never go back (verify-log holds a line
// moved before its turn opened to this).
func (m *match) notBefore(now time.Time) time.Time {
	now = ms(now)
	if now.Before(m.lastAt) {
		return m.lastAt
	}
	return now
}

// ms is t cut to the millisecond, the log's precision, so a re-simulation from the log's t
// values (Verify) decides every deadline as the live match did.
func ms(t time.Time) time.Time { return t.Truncate(time.Millisecond) }

// stamp is RFC 3339 UTC with milliseconds (the log's t).
func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z07:00") }

// closeTranscript ends the running hash of the log: Result's TranscriptHash,
// "sha256:" + hex(SHA-256(the match log as JSONL)).
func (m *match) closeTranscript() {
	m.thash = "sha256:" + hex.EncodeToString(m.th.Sum(nil))
}
