package blitz

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"arena/games"
	"arena/games/canon"
)

// stage is the round's lifecycle position (§5.1).
type stage int

const (
	stSeating stage = iota
	stScouting
	stTalk
	stCommit
	stSettle
	stSettled // round settlement (§11) in progress; never observed between calls
	stRevealed
)

var stageName = [...]string{"seating", "scouting", "talk", "commit", "settle", "settled", "revealed"}

const (
	visPublic = "public"
	visSealed = "sealed"
)

func visPrivate(seat int) string { return "private:" + strconv.Itoa(seat) }

func itoa(i int) string { return strconv.Itoa(i) }

// seatState is one seat's book: money in microCCD and levers.
type seatState struct {
	games.Seat
	SeatOptions       // Seat.Options, decoded
	collateral  int64 // includes locks
	budget      int64 // action budget remaining
	bounty      int64 // paid into the pot at seating
	initial     int64 // collateral at seating, for the public bar
	alive       bool
	elimTurn    int // turn whose settle eliminated it; 0 while alive
	dark        bool
	minted      bool // its lent Badge's registration is recorded (badge.minted)
	emptyRun    int  // consecutive empty turns
	spoke       bool // answered something non-empty this turn
	lastSeq     int64
	nextSeq     int64 // next seq the arena fills for a walk-in
	callsUsed   int
	callsQueue  []string
	calls       []string // calls delivered
	vetoUsed    bool
	committedAt time.Time  // when its answer to the open commit phase was taken (vetoHold)
	accusation  int        // seat the accusation stands on; 0 none
	accuseUsed  int        // 0 none, 1 placed, 2 moved
	scriptedAt  games.Move // the turn and phase of its last agent.scripted (Exchange 0); zero: none
	inbox       []json.RawMessage
}

// Match is one Blitz round. It is not safe for concurrent use (games.Match).
type Match struct {
	fees   Fees
	setup  games.Setup
	keys   games.Keyring
	format games.Format
	opt    Options
	human  bool
	clk    clock

	seats []*seatState // index seat-1
	mole  int
	task  Task
	salts Salts
	open  json.RawMessage
	openH [32]byte
	// deferOpen: the round has an off-the-shelf seat, whose playbook may change until scouting
	// ends (§5.2), so the open-round anchor is taken and requested at scouting's close (public
	// round.opened) rather than when the round opens (commitOpen).
	deferOpen bool
	pot       int64
	house     int64

	stage      stage
	turn       int
	exchange   int
	deadline   time.Time // the open phase's close instant
	respBy     time.Time // answers accepted until here (the envelope deadline)
	answered   map[int]bool
	needOpen   bool // a phase opened in this call; prompts are built at its end
	current    []games.Prompt
	exchHash   *runningHash // over the open exchange's events from exchange.started (§5.5)
	transcript *runningHash // over every event so far (§11.5)

	pending    []*promise // this commit phase, submission order
	sealed     []*promise // sealed order
	byID       map[string]*promise
	refs       map[string]string // walk-in ref -> commitment id (pending or sealed)
	rejections []Rejection

	whisperFrom map[int]bool
	talking     [][2]int // this turn's talking pairs, first appearance order
	standingAt  map[int]map[int]int
	rungs       [3]*rung
	resolved    []Accusation
	bountyPaid  *BountyPaid
	result      *games.Result
	reveal      *Reveal

	anchors anchorBook // every anchor request by seq, and which are recorded (§5.5)

	// A live match keeps no list of its events: each Step hands them out once and the table
	// persists them. It keeps what it reads back: the public log, the running hashes, and the
	// few events the reveal's moments name (marks).
	nEvents   int64         // events emitted so far: the next event's seq is nEvents+1
	recording bool          // keep every event in events (Events' replay copy only)
	events    []games.Event // every event, when recording
	marks     eventMarks
	pubLog    chunkLog      // JCS of the public events so far, comma-joined, for state.public_log
	head      eventHead     // the members an event shares with the call's other events, written once
	lines     []pendingLine // talk lines not yet in their seats' inboxes (deliverLines)
	talkRoom  talkRoom      // the open exchange's blocks for its talk answers' events and bytes
	terms     [][]byte      // per seat (index seat-1): agents[].commitments' items, append-only (agentTerms)
	termsUpTo int           // m.sealed[:termsUpTo] are in terms
	pattern   *patternCounter

	// the current call's output
	now     time.Time
	at      string      // now as an event's at (RFC 3339 UTC, milliseconds)
	step    *games.Step // &stepBuf during a call, nil between calls
	stepBuf games.Step

	journaled bool     // the inputs were let go to the table's log (DropInputs): Snapshot can no longer be taken
	log       []logOp  // inputs since the last Snapshot (which moves them to logJSON) or DropInputs
	logJSON   chunkLog // every earlier input as its snapshot JSON, comma-joined
}

type clock struct {
	scouting, talk, commit, settle time.Duration
	talkResp, commitResp           time.Duration
	closeEarly                     bool
}

// clockOf is the clock a match runs on: p's steps, and AgentPace's (§5.3) for any step p leaves
// unset. On the agent clock (p named "agent", or unnamed) a BYO agent answers an exchange two
// seconds before it ends and the commit five before (13 s of 15, 20 s of 25).
func clockOf(p games.Pace) clock {
	c := clock{scouting: p.Step("scouting"), talk: p.Step("talk"), commit: p.Step("commit"), settle: p.Step("settle"),
		closeEarly: p.CloseEarly}
	agent := AgentPace()
	def := func(d *time.Duration, step string) {
		if *d <= 0 {
			*d = agent.Step(step)
		}
	}
	def(&c.scouting, "scouting")
	def(&c.talk, "talk")
	def(&c.commit, "commit")
	def(&c.settle, "settle")
	c.talkResp, c.commitResp = c.talk, c.commit
	if p.Name == "" || p.Name == "agent" {
		// §5.3 BYO response deadline: the exchange less two seconds; commit 20 s of 25.
		if c.talk > 4*time.Second {
			c.talkResp = c.talk - 2*time.Second
		}
		if c.commit > 10*time.Second {
			c.commitResp = c.commit - 5*time.Second
		}
	}
	return c
}

func newMatch(fees Fees, s games.Setup, seatOpts []SeatOptions, keys games.Keyring, f games.Format, opt Options, human bool) (*Match, error) {
	m := &Match{fees: fees, setup: s, keys: keys, format: f, opt: opt, human: human, clk: clockOf(s.Pace),
		byID: map[string]*promise{}, refs: map[string]string{}, whisperFrom: map[int]bool{},
		standingAt: map[int]map[int]int{}, answered: map[int]bool{}, deadline: s.Start,
		pattern: newPatternCounter(), transcript: newRunningHash()}
	for i, st := range s.Seats {
		b := st.Entry * 5 / 100 // §14 bounty: 5% of entry, floor
		o := seatOpts[i]
		m.seats = append(m.seats, &seatState{Seat: st, SeatOptions: o, collateral: o.Collateral, initial: o.Collateral,
			budget: st.Entry - b - o.Collateral, bounty: b, alive: true, nextSeq: 1})
		m.pot += b
	}
	m.mole, m.task = draw(s.Seed, len(s.Seats), human, opt.Mole, opt.Task)
	ots := []int{}
	for i, st := range s.Seats {
		if seatOpts[i].Kind == "ots" {
			ots = append(ots, st.Seat)
		}
	}
	m.salts = deriveSalts(s.Seed, ots)
	m.deferOpen = len(ots) > 0
	m.opt.Playbooks = maps.Clone(opt.Playbooks) // a playbook input changes this match's alone
	r := m.baseReveal()
	var err error
	if m.open, m.openH, err = OpenAnchor(r); err != nil {
		return nil, err // a playbook JCS cannot write; Options were strictly decoded, so never seen
	}
	return m, nil
}

func (m *Match) seat(n int) *seatState { return m.seats[n-1] }

// begin starts collecting one call's output at instant now.
// A table's calls come in runs at one instant (every seat's answer at an exchange's close, in
// a replay), so the instant's text is kept and written again only when the instant changes;
// the step is the match's own, handed out by value at end.
func (m *Match) begin(now time.Time) {
	if m.at == "" || !now.Equal(m.now) {
		m.at = now.UTC().Format("2006-01-02T15:04:05.000Z")
	}
	m.now = now
	m.stepBuf = games.Step{}
	m.step = &m.stepBuf
	m.needOpen = false
}

// end closes one call: builds the prompts of a phase opened during it and writes the call's
// events to the running hashes (flush).
func (m *Match) end() games.Step {
	m.transcript.flush()
	m.exchHash.flush()
	if m.needOpen {
		m.deliverLines()
		m.buildPrompts()
		m.step.Prompts = append(m.step.Prompts, m.current...)
	}
	s := *m.step
	m.stepBuf = games.Step{} // the match keeps nothing of what it handed out
	m.step = nil
	return s
}

// emit appends one event (§15) at the current instant. The payload is marshalled to its JCS
// form (payloadJCS), so the event's canonical bytes can be assembled without a second pass.
//
// The pattern counter reads seat.taken's seat and phase.started's phase: from the map they are
// built as, rather than by decoding the payload back (patternCounter.add).
func (m *Match) emit(typ, vis string, payload any) {
	var pf patternFields
	if mp, ok := payload.(map[string]any); ok && vis == visPublic {
		switch typ {
		case "seat.taken":
			if pf.Seat, ok = mp["seat"].(int); ok {
				m.emitRaw(typ, vis, payloadJCS(payload), &pf)
				return
			}
		case "phase.started":
			if pf.Phase, ok = mp["phase"].(string); ok {
				m.emitRaw(typ, vis, payloadJCS(payload), &pf)
				return
			}
		}
	}
	m.emitRaw(typ, vis, payloadJCS(payload), nil)
}

// emitRaw appends one event whose payload is already canonical JSON. pf, when given, is the
// event's pattern fields (so the pattern counter need not parse the payload back). A public
// event's payload is the public log's copy of it (publish), so a caller may pass a public
// payload from scratch memory; any other payload is kept as given and must not change after.
func (m *Match) emitRaw(typ, vis string, payload []byte, pf *patternFields) {
	b, at := m.openEvent()
	m.closeEvent(append(b, payload...), at, typ, vis, pf, payload)
}

// openEvent starts the next event: its JCS bytes are written once, straight into the
// transcript hash's batch. The caller appends the event's payload (canonical JSON) to b, which
// starts at b[at:], and hands b to closeEvent.
func (m *Match) openEvent() (b []byte, at int) {
	m.head.set(m.at, stageName[m.stage], m.setup.Round, m.turn)
	b = m.head.appendHead(m.transcript.open())
	return b, len(b)
}

// closeEvent finishes the event openEvent started, whose payload is b[at:]: the rest of its
// bytes, the transcript and exchange hashes, the public log, the step, the marks and the
// pattern counter (§15). kept is the payload in memory that outlives the call, or nil: a
// public event's payload is the public log's copy (publish), any other's is kept, or copied
// out of the batch when kept is nil.
//
// It returns the event's payload as kept (the public log's copy, kept, or the copy made).
func (m *Match) closeEvent(b []byte, at int, typ, vis string, pf *patternFields, kept []byte) []byte {
	m.nEvents++
	phase := stageName[m.stage]
	n := len(b) - at
	b = m.head.appendTail(b, m.nEvents, typ, vis)
	cb := m.transcript.close(b)
	at -= len(b) - len(cb) // the payload's offset in cb
	payload := kept
	switch {
	case vis == visPublic:
		payload = m.publish(cb, at, n)
	case payload == nil:
		payload = bytes.Clone(cb[at : at+n])
	}
	// The event is written member by member straight into its place in the step's list (zero
	// room past the list's length, made by the step's growth): assembling it apart and copying
	// it in cost a bulk write barrier over its six pointers whenever a collection was marking.
	var ev *games.Event
	var outside games.Event // an event emitted outside a call (no step) is only noted
	if m.step != nil {
		evs := m.step.Events
		if len(evs) == cap(evs) {
			evs = slices.Grow(evs, 1)
		}
		evs = evs[:len(evs)+1]
		m.step.Events = evs
		ev = &evs[len(evs)-1]
	} else {
		ev = &outside
	}
	ev.Seq, ev.Round, ev.Turn, ev.Phase = m.nEvents, m.setup.Round, m.turn, phase
	ev.At, ev.Type, ev.Visibility, ev.Payload = m.at, typ, games.Visibility(vis), payload
	if m.recording {
		m.events = append(m.events, *ev)
	}
	m.marks.note(ev, pf)
	if vis == visPublic {
		if pf != nil {
			m.pattern.note(typ, ev.Turn, *pf)
		} else {
			m.pattern.add(*ev)
		}
	}
	return payload
}

// publish appends a public event's JCS bytes cb to the public log and returns the log's copy
// of its payload, cb[at:at+n]: bytes the log never writes again, in a chunk every state shares
// already, so the payload costs no memory of its own.
func (m *Match) publish(cb []byte, at, n int) []byte {
	c := m.pubLog.add(cb)
	return c[at : at+n : at+n]
}

// Deadline is the next instant Advance must be called at; false once revealed.
func (m *Match) Deadline() (time.Time, bool) {
	if m.stage == stRevealed {
		return time.Time{}, false
	}
	return m.deadline, true
}

// Advance closes every phase due at or before now and opens what follows (§5.3). Phases
// closed in one call start at the previous phase's scheduled close, so deadlines never drift.
func (m *Match) Advance(now time.Time) games.Step {
	if m.stage == stRevealed || now.Before(m.deadline) {
		return games.Step{}
	}
	m.logInput(logOp{Op: "advance", At: now})
	m.begin(now)
	m.cascade(now)
	return m.end()
}

// logInput appends op to the inputs since the last snapshot. The list starts at the size a
// round of the format takes when every seat answers every move (logHint), so a round's inputs
// are kept in one allocation instead of eight doublings (twice their size in all); a round with
// more inputs (levers, anchors recorded) grows it as append does.
func (m *Match) logInput(op logOp) {
	if m.log == nil && !m.journaled { // a table that holds the inputs takes them a step at a time
		m.log = make([]logOp, 0, m.logHint())
	}
	m.log = append(m.log, op)
}

// logHint is how many inputs a round of the match's format takes with every move answered:
// one Advance per phase close (seating, scouting, then per turn each exchange, commit and
// settle) and one answer per seat and move (scouting, then per turn each exchange and commit).
func (m *Match) logHint() int {
	t, x := max(m.format.Turns, 0), max(m.format.Exchanges, 0)
	return min(2+t*(x+2)+len(m.seats)*(1+t*(x+1)), 1024)
}

// cascade closes every phase whose deadline is at or before now.
func (m *Match) cascade(now time.Time) {
	for m.stage != stRevealed && !now.Before(m.deadline) {
		m.closePhase(m.deadline)
	}
}

// closePhase closes the open phase (scheduled at `at`) and opens the next one from `at`.
func (m *Match) closePhase(at time.Time) {
	switch m.stage {
	case stSeating:
		m.openRound()
		m.openPhase(stScouting, at)
	case stScouting:
		if m.deferOpen {
			m.commitOpen()
		}
		m.startTurn(1, at)
	case stTalk:
		m.closeExchange()
		if m.exchange < m.format.Exchanges {
			m.openExchange(m.exchange+1, at)
		} else {
			m.openPhase(stCommit, at)
		}
	case stCommit:
		m.seal()
		m.openPhase(stSettle, at)
		m.settleTurn()
		if m.turn == m.format.Turns {
			m.settleRound()
			return
		}
		if m.clk.closeEarly {
			m.deadline = at
		}
	case stSettle:
		for _, s := range m.seats {
			s.spoke = false
		}
		m.talking = nil
		m.startTurn(m.turn+1, at)
	}
}

// startTurn opens turn t at `at`: public turn.started {turn, of}, then the talk phase. The
// event belongs to the turn it starts, so its envelope carries that turn and phase "talk" (the
// phase it opens), never the scouting or settle phase just closed (docs/protocol-notes.md,
// games/blitz, "Event phase").
func (m *Match) startTurn(t int, at time.Time) {
	m.turn = t
	m.stage = stTalk
	b, pat := m.openEvent()
	m.closeEvent(appendTurnStarted(b, t, m.format.Turns), pat, "turn.started", visPublic, nil, nil)
	m.openPhase(stTalk, at)
}

// openPhase moves to phase st starting at `at` and emits phase.started.
func (m *Match) openPhase(st stage, at time.Time) {
	m.stage = st
	m.exchange = 0
	clear(m.answered) // a map per match, emptied as each move opens
	var d time.Duration
	switch st {
	case stScouting:
		d = m.clk.scouting
		m.respBy = at.Add(d)
	case stCommit:
		d = m.clk.commit
		m.respBy = at.Add(m.clk.commitResp)
		m.pending = nil
	case stSettle:
		d = m.clk.settle
	}
	if st == stTalk {
		b, pat := m.openEvent()
		b = appendTalkStarted(b, (m.clk.talk * time.Duration(m.format.Exchanges)).Milliseconds(), m.format.Exchanges)
		m.closeEvent(b, pat, "phase.started", visPublic, &patternFields{Phase: "talk"}, nil)
		m.openExchange(1, at)
		return
	}
	m.deadline = at.Add(d)
	if st != stScouting {
		b, pat := m.openEvent()
		b = appendPhaseStarted(b, stageName[st], d.Milliseconds(), fmtTime(m.deadline))
		m.closeEvent(b, pat, "phase.started", visPublic, &patternFields{Phase: stageName[st]}, nil)
	}
	if st == stScouting || st == stCommit {
		m.needOpen = true
	}
	if st == stScouting {
		// scouting.started carries the draw's public part (§9: the category only) and the anchor,
		// unless an off-the-shelf playbook may still change (round.opened carries it then).
		started := map[string]any{"task_category": m.task.Category,
			"duration_ms": d.Milliseconds(), "ends_at": fmtTime(m.deadline), "bounty": m.pot,
			"format": formatView(m.format, len(m.seats))}
		if !m.deferOpen {
			started["anchor"] = "sha256:" + hexOf(m.openH[:])
		}
		m.emit("scouting.started", visPublic, started)
		notice := Notice{Text: "Feedback on this round goes to Nell, the feedback agent. A notice is never a rule.", Link: "/v1/feedback"}
		if m.opt.Notice != nil {
			notice = *m.opt.Notice
		}
		item, _ := json.Marshal(map[string]any{"type": "notice", "text": notice.Text, "link": notice.Link})
		m.deliverLines() // none are pending before the first turn; the notice follows any that were
		for _, s := range m.seats {
			s.inbox = append(s.inbox, item)
			p := map[string]any{"seat": s.Seat.Seat, "role": "player"}
			if s.Seat.Seat == m.mole {
				p["role"] = "mole"
				p["task"] = m.moleTask()
			}
			m.emit("role.assigned", visPrivate(s.Seat.Seat), p)
		}
	}
}

func (m *Match) openExchange(x int, at time.Time) {
	m.exchange = x
	clear(m.answered)
	m.deadline = at.Add(m.clk.talk)
	m.respBy = at.Add(m.clk.talkResp)
	m.exchHash = m.transcript.follow() // from exchange.started on, fed from the transcript's batch
	b, pat := m.openEvent()
	b = appendExchangeStarted(b, x, m.format.Exchanges, m.clk.talk.Milliseconds(), fmtTime(m.deadline))
	m.closeEvent(b, pat, "exchange.started", visPublic, nil, nil)
	m.needOpen = true
}

// closeExchange runs what follows a talk exchange: the whisper rungs and the exchange anchor
// (§5.5: SHA-256 over JCS of the events from exchange.started to here).
func (m *Match) closeExchange() {
	m.rungsAfterExchange()
	m.requestAnchor("exchange", m.exchHash.sum())
	m.transcript.unfollow()
	m.exchHash = nil
	m.talkRoom.drop()
}

func fmtTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// openRound emits round.created and seat.taken, and asks for the open-round anchor (§5.5,
// kind opened, seq 1) before turn 1: here, or at scouting's close for a round with an
// off-the-shelf seat (commitOpen).
func (m *Match) openRound() {
	created := map[string]any{"round": m.setup.Round, "game": ID,
		"arena": m.setup.Arena, "format": formatView(m.format, len(m.seats)),
		"seed_hash": m.SeedHash(), "bounty": m.pot}
	if b := m.opt.Collateral; b != nil { // a band the table narrowed (§14); §14's goes unsaid
		created["collateral"] = map[string]int{"min": b.Min, "max": b.Max}
	}
	if m.opt.Anchors != "" { // the anchors the round asks for, when not every one (§5.5)
		created["anchors"] = m.opt.Anchors
	}
	m.emit("round.created", visPublic, created)
	for _, s := range m.seats {
		var owner any // null: the table was not told who owns the Badge
		if s.Owner != "" {
			owner = s.Owner
		}
		p := map[string]any{"seat": s.Seat.Seat, "agent": s.Agent, "name": s.Name, "rating": s.Rating,
			"arena": m.setup.Arena, "owner": owner, "human": s.Human, "kind": s.SeatKind()}
		// The key the seat's commitments are checked against (§7.3), public, so a transcript
		// verifies every commitment signature on its own (anchor-check); for a BYO seat it is
		// its card's signing_key as resolved (§4.1), for a walk-in the lent Badge's.
		if m.keys != nil {
			if k, ok := m.keys.PublicKey(s.Seat.Seat); ok {
				p["signing_key"] = canon.FormatKey(k)
			}
		}
		m.emit("seat.taken", visPublic, p)
	}
	if !m.deferOpen {
		m.requestAnchor("opened", m.openH)
	}
}

// commitOpen takes the open-round anchor at scouting's close, with the playbooks as they stand
// (§5.2: editable until scouting ends; §5.5: committed before turn 1), announces it in public
// round.opened {anchor} and asks for it (kind opened, seq 1: no anchor is asked before turn 1).
func (m *Match) commitOpen() {
	if open, h, err := OpenAnchor(m.baseReveal()); err == nil { // playbooks are strictly decoded: it cannot fail
		m.open, m.openH = open, h
	}
	h := m.openH
	m.emit("round.opened", visPublic, map[string]any{"anchor": "sha256:" + hexOf(h[:])})
	m.requestAnchor("opened", h)
}

func formatView(f games.Format, seats int) map[string]any {
	return map[string]any{"name": f.Name, "seats": seats, "turns": f.Turns, "exchanges": f.Exchanges}
}

// Phase is the open move: turn, phase and exchange. Phase is "seating" before Advance opens
// the round and "revealed" after.
func (m *Match) Phase() games.Move {
	return games.Move{Turn: m.turn, Phase: stageName[m.stage], Exchange: m.exchange}
}

// SeedHash is the open-round anchor's `seed` commitment: "sha256:" + hex SHA-256(salt ‖ seed).
func (m *Match) SeedHash() string {
	var o openObject
	_ = json.Unmarshal(m.open, &o)
	return o.Seed
}

// Prompts are the moves open now for seats that have not answered them.
func (m *Match) Prompts() []games.Prompt {
	if m.stage != stScouting && m.stage != stTalk && m.stage != stCommit {
		return []games.Prompt{}
	}
	out := make([]games.Prompt, 0, len(m.current))
	for _, p := range m.current {
		if !m.answered[p.Seat] && m.seat(p.Seat).alive {
			out = append(out, p)
		}
	}
	return out
}

// Result is the outcome once revealed.
func (m *Match) Result() (games.Result, bool) {
	if m.result == nil {
		return games.Result{}, false
	}
	return *m.result, true
}

// Events is the transcript so far, in order. A live match keeps no copy of its events (each
// Step hands them out once), so Events replays the match's inputs into a copy that records
// them: it costs a replay, changes nothing in the match, and is meant for the round runner and
// tests. Once the match has let its inputs go to the table's log (DropInputs) it no
// longer holds them and Events fails with an error saying so: the transcript is in the store.
func (m *Match) Events() ([]games.Event, error) {
	if m.recording {
		return m.events, nil
	}
	snap, err := m.snapshot(false)
	if err != nil {
		return nil, fmt.Errorf("blitz: events: %w", err)
	}
	r, err := restore(snap, m.keys, true)
	if err != nil {
		return nil, fmt.Errorf("blitz: events: %w", err)
	}
	return r.events, nil
}

// Mole is the drafted seat (sealed until the reveal: for the runner and tests, never a door).
func (m *Match) Mole() int { return m.mole }

// Task is the mole's task (sealed until the reveal, as Mole).
func (m *Match) Task() Task { return m.task }

// Rungs lists the rungs reached so far, ascending.
func (m *Match) Rungs() []int { return m.rungsReached() }

// House is the microCCD the house has taken so far: action fees at seal, table and inference
// fees at round settlement.
func (m *Match) House() int64 { return m.house }

// Round is the round's id, "T-<n>".
func (m *Match) Round() string { return m.setup.Round }
