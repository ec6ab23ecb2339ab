package auction

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

// holding is one lot a seat won: visible_state.holdings (own).
type holding struct {
	round        int
	value, price int64
}

// seatState is one seat (index = wire seat).
type seatState struct {
	pubkey string
	name   string
	opts   SeatOptions
	// strikes are consecutive timeouts (§1.5); an on-time move resets them, sit_in too.
	strikes int
	// sittingOut: sit_out logged, no sit_in yet; the seat passes automatically, unprompted.
	sittingOut bool
	// returning: the seat's key made a request while it sat out (or had just reached the strike
	// limit): sit_in at the next lot's round_start.
	returning bool
	// away: the seat's connection is gone; its prompts get away_deadline_ms.
	away bool
	// cash is public (it follows from lot_result); valueWon is sealed to the end (§4.3).
	cash     int64
	lotsWon  int
	valueWon int64
	holdings []holding
}

// lotResult is one lot's public result (lot_result, visible_state.results).
type lotResult struct {
	round  int
	sold   bool
	winner int
	price  int64
}

// heldMsg is table talk sent with a sealed bid, logged when the lot closes (§1.4).
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
	setup  games.Setup
	cfg    Config
	seats  []seatState
	values [][]int64 // values[r−1][seat], drawn for every lot and seat at New (§4.2)

	phase   int
	round   int     // current lot (1-based), 0 before the first
	turn    int     // the next turn number within the lot (§1.2)
	next    int     // the next wire seat to act in the lot
	bids    []int64 // this lot's bid per seat, 0 for a pass or no choice yet
	held    []heldMsg
	open    *openPrompt
	results []lotResult
	ties    []bool // ties[r−1]: lot r's winner came from the tie draw (sealed; Reveal only)

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
	m := &match{setup: s, cfg: cfg, th: sha256.New()}
	for i, st := range s.Seats {
		m.seats = append(m.seats, seatState{pubkey: st.Agent, name: st.Name, opts: opts[i], cash: cfg.StartingCash})
	}
	m.values = make([][]int64, cfg.Lots)
	for r := range m.values {
		m.values[r] = make([]int64, len(m.seats))
		for i := range m.seats {
			m.values[r][i] = Value(s.Seed, r+1, i, cfg.ValueMax)
		}
	}
	m.bids = make([]int64, len(m.seats))
	return m
}

// Act applies one input at now. Kinds:
//
//   - "answer": the open prompt's move, body {"action": "bid", "amount": N, "message"?} or
//     {"action": "pass", "message"?} (other members ignored, §1.3). Refusals, in §1.3's order
//     (*games.Error; nothing changes and the turn stays open): match_over once the match has
//     ended; not_seated for a seat the match does not have; not_your_turn when the open prompt
//     is not the seat's (none is open for a seat sitting out or between its turns); stale_turn
//     when in.Move is not breakroom.MoveOf of the open prompt's round and turn, or its deadline
//     has passed; bad_request when the body is not a JSON object or action is not a string;
//     illegal_move for an action that is missing, not bid or pass, or bid with no cash;
//     bad_amount for a bid whose amount is missing, not an integer or outside 1..cash;
//     bad_message for a message that is not a string, too long, or holds a control character
//     (§1.4).
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
	return games.Step{}, games.Errorf(games.CodeBadRequest, "input kind %q: the Auction takes answer and presence", in.Kind)
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
	s := &m.seats[o.seat]
	mv, err := ParseMove(in.Body, s.cash, m.cfg.MaxMessageChars)
	if err != nil {
		return games.Step{}, err
	}
	var step games.Step
	m.open = nil
	s.strikes, s.away = 0, false
	line := map[string]any{"action": mv.Action, "reveal": games.RevealEnd, "round": m.round, "seat": o.seat, "turn": o.turn}
	if mv.Action == ActionBid {
		m.bids[o.seat] = mv.Amount
		line["amount"] = mv.Amount
	}
	m.emit(&step, now, "action_private", games.Private(breakroom.HouseSeat(o.seat)), line)
	if mv.Message != "" {
		m.held = append(m.held, heldMsg{seat: o.seat, turn: o.turn, text: mv.Message})
	}
	m.next++
	m.proceed(&step, now)
	return step, nil
}

// Move is a decoded answer (ParseMove): its action, the bid's amount (0 for a pass) and its
// table talk ("" for none).
type Move struct {
	Action  string
	Amount  int64
	Message string
}

// ParseMove reads a move's body (breakroom.ParseBody) for a seat holding cash, in §1.3's order:
// the action (illegal_move unless bid or pass; bid is not offered with no cash), then a bid's
// amount (bad_amount when missing, not an integer literal, or outside 1..cash; a pass's amount
// is an unknown parameter and ignored), then the message (bad_message past limit code points or
// with a control character).
func ParseMove(body []byte, cash int64, limit int) (Move, error) {
	b, err := breakroom.ParseBody(body)
	if err != nil {
		return Move{}, err
	}
	var mv Move
	switch {
	case !b.HasAction:
		return Move{}, games.Errorf(breakroom.CodeIllegalMove, "no action: legal are %s", legalWords(cash))
	case b.Action == ActionPass:
		mv.Action = ActionPass
	case b.Action == ActionBid && cash >= 1:
		mv.Action = ActionBid
		raw, ok := b.Member("amount")
		if !ok || isNull(raw) {
			return Move{}, games.Errorf(breakroom.CodeBadAmount, "bid: no amount (1 to %d)", cash)
		}
		n, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil {
			return Move{}, games.Errorf(breakroom.CodeBadAmount, "bid: amount %.40s is not an integer (1 to %d)", raw, cash)
		}
		if n < 1 || n > cash {
			return Move{}, games.Errorf(breakroom.CodeBadAmount, "bid: amount %d outside 1 to %d", n, cash)
		}
		mv.Amount = n
	default:
		return Move{}, games.Errorf(breakroom.CodeIllegalMove, "action %q: legal are %s", b.Action, legalWords(cash))
	}
	if mv.Message, err = b.Talk(limit); err != nil {
		return Move{}, err
	}
	return mv, nil
}

func legalWords(cash int64) string {
	if cash < 1 {
		return "pass (no cash left to bid)"
	}
	return "bid, pass"
}

func isNull(raw json.RawMessage) bool { return string(raw) == "null" }

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
// prompt's deadline (its default move, pass, logged as timeout_private). Events are stamped with
// the deadline's own instant, so a late Advance writes what a punctual one would.
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

// start writes match_start and opens lot 1.
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

// startRound opens lot r (§4.3 step 1): round_start, sit_in for every seat coming back, then
// each seat's deal_private with its value.
func (m *match) startRound(step *games.Step, at time.Time, r int) {
	m.round, m.turn, m.next = r, 0, 0
	clear(m.bids)
	m.held = m.held[:0]
	m.emit(step, at, "round_start", games.Public, map[string]any{"round": r})
	for i := range m.seats {
		s := &m.seats[i]
		if s.returning {
			s.returning, s.sittingOut, s.strikes = false, false, 0
			m.emit(step, at, "sit_in", games.Public, map[string]any{"round": r, "seat": i})
		}
	}
	for i := range m.seats {
		m.emit(step, at, "deal_private", games.Private(breakroom.HouseSeat(i)), map[string]any{
			"reveal": games.RevealEnd, "round": r, "seat": i, "value": m.values[r-1][i],
		})
	}
}

// proceed plays on from the current point until a prompt is open or the match is done: seats
// sitting out pass automatically, a finished lot closes and the next one opens.
func (m *match) proceed(step *games.Step, at time.Time) {
	for m.phase == phasePlaying && m.open == nil {
		if m.next < len(m.seats) {
			i := m.next
			if m.seats[i].sittingOut {
				m.emit(step, at, "action_private", games.Private(breakroom.HouseSeat(i)), map[string]any{
					"action": ActionPass, "auto": true, "reveal": games.RevealEnd, "round": m.round, "seat": i,
				})
				m.next++
				continue
			}
			m.prompt(step, at, i)
			return
		}
		m.closeLot(step, at)
		if m.round < m.cfg.Lots {
			m.startRound(step, at, m.round+1)
		} else {
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
		Legal: m.legal(m.seats[i].cash), State: games.RawDoc(m.state(i)), Inbox: []json.RawMessage{},
		View: HouseView{Value: m.values[m.round-1][i], Cash: m.seats[i].cash, Seats: len(m.seats)},
	}
	step.Prompts = append(step.Prompts, o.prompt)
}

// legal is §4.4's legal_actions for a seat holding cash: bid 1..cash (omitted with no cash),
// pass, each with max_message_chars.
func (m *match) legal(cash int64) []games.Action {
	talk := `"max_message_chars":` + itoa(m.cfg.MaxMessageChars)
	pass := games.Action{Name: ActionPass, Bounds: []byte(`{` + talk + `}`)}
	if cash < 1 {
		return []games.Action{pass}
	}
	bid := games.Action{Name: ActionBid, Bounds: []byte(`{"min":1,"max":` + strconv.FormatInt(cash, 10) + `,` + talk + `}`)}
	return []games.Action{bid, pass}
}

// timeout plays the open prompt's default at its deadline (§4.5): pass, timeout_private,
// strikes + 1.
func (m *match) timeout(step *games.Step, at time.Time) {
	o := m.open
	s := &m.seats[o.seat]
	m.open = nil
	s.strikes++
	m.emit(step, at, "timeout_private", games.Private(breakroom.HouseSeat(o.seat)), map[string]any{
		"auto": ActionPass, "reveal": games.RevealEnd, "round": m.round, "seat": o.seat, "strikes": s.strikes, "turn": o.turn,
	})
	m.next++
	m.proceed(step, at)
}

// closeLot resolves the lot (§4.3 step 3): the held talk in seat order, the first-price result
// (lot_result, public: winner and price only), then sit_out for each seat that reached the
// strike limit (logged here, after the result, not at its timeout, so it cannot tell a later
// seat that the seat passed).
func (m *match) closeLot(step *games.Step, at time.Time) {
	for _, h := range m.held {
		m.logTalk(step, at, h)
	}
	m.held = m.held[:0]
	seed := m.setup.Seed
	r := m.round
	winner, price, sold, tied := Settle(m.bids, func(k int) int { return TieIndex(seed, r, k) })
	m.ties = append(m.ties, tied)
	res := lotResult{round: r, sold: sold, winner: winner, price: price}
	m.results = append(m.results, res)
	if sold {
		s := &m.seats[winner]
		v := m.values[r-1][winner]
		s.cash -= price
		s.lotsWon++
		s.valueWon += v
		s.holdings = append(s.holdings, holding{round: r, value: v, price: price})
		m.emit(step, at, "lot_result", games.Public, map[string]any{"price": price, "round": r, "sold": true, "winner": winner})
	} else {
		m.emit(step, at, "lot_result", games.Public, map[string]any{"price": nil, "round": r, "sold": false, "winner": nil})
	}
	for i := range m.seats {
		s := &m.seats[i]
		if !s.sittingOut && s.strikes >= m.cfg.StrikesLimit {
			s.sittingOut = true
			m.emit(step, at, "sit_out", games.Public, map[string]any{"round": r, "seat": i})
		}
	}
}

// logTalk writes one held message as its public line and keeps it for visible_state's talk.
func (m *match) logTalk(step *games.Step, at time.Time, h heldMsg) {
	m.emit(step, at, "message", games.Public, map[string]any{
		"round": m.round, "seat": h.seat, "turn": h.turn, "text": h.text,
	})
	m.addTalk(h)
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

// Abandon ends an unfinished match at now (protocol "Match log"): the talk held in the open lot
// is logged (nothing it could tell is secret once the match is over), or match_start when the
// match had not opened yet (so every log opens with it), then match_abandoned {match_id,
// reason, ranking, seed} with the standings over the lots completed (§4.8): the open lot is not
// sold. A finished match is left as it is.
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
			m.logTalk(&step, now, h)
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
// Break Room round (lot) it belongs to (0 for match_start's and the end's lines).
func (m *match) emit(step *games.Step, at time.Time, typ string, vis games.Visibility, payload map[string]any) {
	p, err := canon.Marshal(payload)
	if err != nil { // unreachable: strings, booleans and small integers
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

// ms is t cut to the millisecond, the log's precision: the match reckons every instant so (a
// prompt's opening, its deadline, a move's arrival), so a re-simulation from the log's t values
// (Verify) decides every deadline as the live match did.
func ms(t time.Time) time.Time { return t.Truncate(time.Millisecond) }

// stamp is RFC 3339 UTC with milliseconds (the log's t).
func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z07:00") }

// closeTranscript ends the running hash of the log once the last line is out: Result's
// TranscriptHash, "sha256:" + hex(SHA-256(the match log as JSONL)).
func (m *match) closeTranscript() {
	m.thash = "sha256:" + hex.EncodeToString(m.th.Sum(nil))
}
