package play

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"

	"arena/games"
	"arena/games/breakroom/wire"
)

// fake is a product for the doors' tests: one game ("coin", two seats) whose table opens when
// two agents queue; the seats move in turn, two turns a round, `cooperate` or `defect`, and the
// match ends after rounds rounds. It keeps the product's promises the doors rely on (Backend's
// doc): a connection per key (a newer join replaces the older), a socket's messages in its
// mailbox in order until acknowledged, polls that consume nothing, refusals with the protocol's
// codes that change nothing. Every Drop and long-poll wait is noted.
type fake struct {
	rounds int64

	mu       sync.Mutex
	queue    []Agent
	conns    map[string]*fconn
	current  map[Agent]string // the agent's connection
	names    map[Agent]string
	match    *fmatch
	changed  chan struct{} // closed (and replaced) at every change
	events   []string      // "drop <key>", "poll-wait <d>", "state-wait <d>"
	feedback map[Agent]string
	started  int // matches opened
	nconn    int
}

// Agent is one agent at one game.
type Agent struct{ Key, Game string }

// fconn is one connection: a socket's mailbox, or an HTTP token.
type fconn struct {
	agent  Agent
	via    string
	box    []Item
	seq    uint64
	closed error // ErrReplaced, ErrGone once closed
}

// fmatch is the running (or ended) match.
type fmatch struct {
	id      string
	players []Agent
	step    int64 // moves taken: seat step%2 is to move, round step/2+1, turn step%2
	ended   bool
}

func newFake() *fake {
	return &fake{rounds: 2, conns: map[string]*fconn{}, current: map[Agent]string{}, names: map[Agent]string{},
		changed: make(chan struct{}), feedback: map[Agent]string{}}
}

func (f *fake) note(s string) {
	f.events = append(f.events, s)
	f.changeLocked()
}

// log is the notes so far.
func (f *fake) log() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.events)
}

func (f *fake) changeLocked() {
	close(f.changed)
	f.changed = make(chan struct{})
}

func enc(m wire.Outbound) []byte {
	b, err := wire.Encode(m)
	if err != nil {
		panic(err)
	}
	return b
}

func (f *fake) Games(context.Context) ([]GameInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	playing := 0
	if f.match != nil && !f.match.ended {
		playing = 2
	}
	return []GameInfo{
		{ID: "coin", Name: "Coin", Summary: "two seats, two choices", MinPlayers: 2, MaxPlayers: 2,
			RulesVersion: "coin-0", RulesURL: "http://br.test/rules/coin", Waiting: len(f.queue), Playing: playing, Tables: playing / 2},
		{ID: "dilemma", Name: "Dilemma", MinPlayers: 3, MaxPlayers: 6, RulesVersion: "dilemma-0"},
	}, nil
}

func (f *fake) seatOf(a Agent) int {
	if f.match == nil {
		return -1
	}
	return slices.Index(f.match.players, a)
}

func (f *fake) seated(a Agent) wire.Seated {
	players := make([]wire.Player, len(f.match.players))
	for i, p := range f.match.players {
		players[i] = wire.Player{Seat: i, Pubkey: p.Key, Name: f.names[p], DisplayName: fmt.Sprintf("Player %d", i)}
	}
	return wire.Seated{MatchID: f.match.id, Seat: f.seatOf(a), TableSize: 2, RulesVersion: "coin-0",
		RulesURL: "http://br.test/rules/coin", Tier: "rookie", Players: players}
}

func (f *fake) legal() json.RawMessage {
	return json.RawMessage(`[{"action":"cooperate"},{"action":"defect"}]`)
}

func (f *fake) visible(a Agent) json.RawMessage {
	return json.RawMessage(fmt.Sprintf(`{"game":"coin","rules_version":"coin-0","step":%d,"seat":%d}`, f.match.step, f.seatOf(a)))
}

func (f *fake) yourTurn(a Agent) (wire.YourTurn, bool) {
	m := f.match
	if m == nil || m.ended || f.seatOf(a) != int(m.step%2) {
		return wire.YourTurn{}, false
	}
	return wire.YourTurn{MatchID: m.id, Round: m.step/2 + 1, Turn: m.step % 2, DeadlineMs: 10000,
		VisibleState: f.visible(a), LegalActions: f.legal()}, true
}

func (f *fake) end(a Agent) *wire.MatchEnd {
	m := f.match
	ranking := []wire.Rank{{Rank: 1, Seat: 0, Pubkey: m.players[0].Key, Fields: json.RawMessage(`{"score":3}`)},
		{Rank: 2, Seat: 1, Pubkey: m.players[1].Key, Fields: json.RawMessage(`{"score":1}`)}}
	return &wire.MatchEnd{MatchID: m.id, YourRank: f.seatOf(a) + 1, Ranking: ranking,
		ReplayURL: "http://br.test/r/" + m.id, NostrPost: wire.NostrPost{Kind: 1, Content: "a match", Tags: [][]string{{"t", "breakroom"}}},
		Feedback: wire.FeedbackInvite{Prompt: "How did it go?", MaxChars: 2000, OpenUntil: "2026-01-03T00:00:00.000Z", WS: json.RawMessage(`{}`), HTTP: "POST"}}
}

func (f *fake) stateOf(a Agent) wire.State {
	m := f.match
	st := wire.State{MatchID: m.id, Status: wire.StatusWaiting, Round: m.step/2 + 1, Turn: m.step % 2, VisibleState: f.visible(a)}
	switch {
	case m.ended:
		st.Status, st.MatchEnd = wire.StatusEnded, f.end(a)
	case f.seatOf(a) == int(m.step%2):
		st.Status, st.DeadlineMs, st.LegalActions = wire.StatusYourTurn, 9000, f.legal()
	}
	return st
}

// sendLocked puts m in the mailbox of a's socket, if it has one.
func (f *fake) sendLocked(a Agent, m wire.Outbound) {
	c := f.conns[f.current[a]]
	if c == nil || c.via != ViaWebSocket || c.closed != nil {
		return
	}
	c.seq++
	c.box = append(c.box, Item{Seq: c.seq, Msg: m})
	f.changeLocked()
}

// resolve is the live connection conn's agent, or unauthorized.
func (f *fake) resolve(conn string) (Agent, error) {
	c := f.conns[conn]
	if c == nil || c.closed != nil {
		return Agent{}, games.Errorf("unauthorized", "unknown or replaced connection: join again")
	}
	return c.agent, nil
}

func (f *fake) Next(ctx context.Context, conn string, after uint64) ([]Item, error) {
	for {
		f.mu.Lock()
		c := f.conns[conn]
		if c == nil {
			f.mu.Unlock()
			return nil, ErrGone
		}
		i := 0
		for i < len(c.box) && c.box[i].Seq <= after {
			i++
		}
		c.box = c.box[i:]
		if c.closed != nil {
			f.mu.Unlock()
			return nil, c.closed
		}
		if len(c.box) > 0 {
			out := slices.Clone(c.box)
			f.mu.Unlock()
			return out, nil
		}
		wake := f.changed
		f.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

func (f *fake) Drop(conn string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := f.conns[conn]
	if c == nil || c.closed != nil {
		return
	}
	c.closed = ErrGone
	if i := slices.Index(f.queue, c.agent); i >= 0 {
		f.queue = slices.Delete(f.queue, i, i+1)
	}
	f.note("drop " + c.agent.Key[:8])
}

func (f *fake) Join(_ context.Context, j Join) (Joined, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	a := Agent{Key: j.Key, Game: j.Game}
	if old := f.conns[f.current[a]]; old != nil && old.closed == nil {
		old.closed = ErrReplaced
	}
	f.nconn++
	id := fmt.Sprintf("%s-conn-%d", j.Via, f.nconn)
	f.conns[id] = &fconn{agent: a, via: j.Via}
	f.current[a] = id
	f.changeLocked()
	withToken := func(m wire.Outbound) wire.Outbound {
		if j.Via != ViaHTTP {
			return m
		}
		switch v := m.(type) {
		case wire.Queued:
			v.Token = id
			return v
		case wire.Seated:
			v.Token = id
			return v
		}
		return m
	}
	if f.seatOf(a) >= 0 && !f.match.ended {
		s := f.seated(a)
		f.sendLocked(a, s)
		f.sendLocked(a, f.stateOf(a))
		if yt, ok := f.yourTurn(a); ok {
			f.sendLocked(a, yt)
		}
		return Joined{Conn: id, First: withToken(s)}, nil
	}
	if i := slices.Index(f.queue, a); i >= 0 { // a rejoin keeps its place
		q := wire.Queued{Game: a.Game, Position: i + 1}
		f.sendLocked(a, q)
		return Joined{Conn: id, First: withToken(q)}, nil
	}
	f.names[a] = j.Name
	f.queue = append(f.queue, a)
	q := wire.Queued{Game: a.Game, Position: len(f.queue)}
	f.sendLocked(a, q)
	if len(f.queue) == 2 {
		f.started++
		f.match = &fmatch{id: fmt.Sprintf("m_%d", f.started), players: f.queue}
		f.queue = nil
		for _, p := range f.match.players {
			f.sendLocked(p, f.seated(p))
		}
		if yt, ok := f.yourTurn(f.match.players[0]); ok {
			f.sendLocked(f.match.players[0], yt)
		}
	}
	return Joined{Conn: id, First: withToken(q)}, nil
}

func (f *fake) JoinStatus(ctx context.Context, conn string, wait time.Duration) (wire.Outbound, error) {
	f.mu.Lock()
	a, err := f.resolve(conn)
	if err != nil {
		f.mu.Unlock()
		return nil, err
	}
	f.note(fmt.Sprintf("poll-wait %s", wait))
	f.mu.Unlock()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		f.mu.Lock()
		if f.seatOf(a) >= 0 {
			s := f.seated(a)
			s.Token = conn
			f.mu.Unlock()
			return s, nil
		}
		pos := slices.Index(f.queue, a)
		wake := f.changed
		f.mu.Unlock()
		if pos < 0 {
			return wire.Left{Game: a.Game, Reason: "left"}, nil
		}
		select {
		case <-wake:
			continue
		case <-timer.C:
		case <-ctx.Done():
		}
		return wire.Queued{Game: a.Game, Position: pos + 1}, nil
	}
}

func (f *fake) Leave(_ context.Context, conn string) (wire.Left, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	a, err := f.resolve(conn)
	if err != nil {
		return wire.Left{}, err
	}
	if f.seatOf(a) >= 0 {
		return wire.Left{}, games.Errorf("already_playing", "seated at %s", f.match.id)
	}
	i := slices.Index(f.queue, a)
	if i < 0 {
		return wire.Left{}, games.Errorf("not_joined", "not in the queue")
	}
	f.queue = slices.Delete(f.queue, i, i+1)
	f.changeLocked()
	return wire.Left{Game: a.Game, Reason: "left"}, nil
}

// check is the refusals of a message naming match by a.
func (f *fake) check(a Agent, match string) error {
	if f.match == nil || match != f.match.id {
		return games.Errorf("unknown_match", "no match %q", match)
	}
	if f.seatOf(a) < 0 {
		return games.Errorf("not_seated", "not a player of %s", match)
	}
	return nil
}

func (f *fake) Move(_ context.Context, conn string, mv *wire.Move) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	a, err := f.resolve(conn)
	if err != nil {
		return err
	}
	if err := f.check(a, mv.MatchID); err != nil {
		return err
	}
	m := f.match
	switch {
	case m.ended:
		return games.Errorf("match_over", "the match is over")
	case f.seatOf(a) != int(m.step%2):
		return games.Errorf("not_your_turn", "seat %d is to move", m.step%2)
	case mv.Round != m.step/2+1 || mv.Turn != m.step%2:
		return games.Errorf("stale_turn", "the turn is round %d turn %d", m.step/2+1, m.step%2)
	}
	act := mv.Action()
	if act != "cooperate" && act != "defect" {
		return games.Errorf("illegal_move", "action %q is not in legal_actions", act)
	}
	ev := wire.Event{MatchID: m.id, Event: json.RawMessage(fmt.Sprintf(`{"seq":%d,"type":"action","seat":%d,"action":%q}`, m.step, f.seatOf(a), act))}
	m.step++
	for _, p := range m.players {
		f.sendLocked(p, ev)
	}
	if m.step >= 2*f.rounds {
		m.ended = true
		for _, p := range m.players {
			f.sendLocked(p, *f.end(p))
		}
	} else if next := m.players[m.step%2]; true {
		if yt, ok := f.yourTurn(next); ok {
			f.sendLocked(next, yt)
		}
	}
	f.changeLocked()
	return nil
}

func (f *fake) State(ctx context.Context, conn, match string, wait time.Duration) (wire.State, error) {
	f.mu.Lock()
	a, err := f.resolve(conn)
	if err != nil {
		f.mu.Unlock()
		return wire.State{}, err
	}
	if wait > 0 {
		f.note(fmt.Sprintf("state-wait %s", wait))
	}
	f.mu.Unlock()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		f.mu.Lock()
		if err := f.check(a, match); err != nil {
			f.mu.Unlock()
			return wire.State{}, err
		}
		st := f.stateOf(a)
		wake := f.changed
		f.mu.Unlock()
		if st.Status != wire.StatusWaiting || wait <= 0 {
			return st, nil
		}
		select {
		case <-wake:
			continue
		case <-timer.C:
		case <-ctx.Done():
		}
		return st, nil
	}
}

func (f *fake) Feedback(_ context.Context, conn string, fb *wire.Feedback) (wire.FeedbackReceived, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	a, err := f.resolve(conn)
	if err != nil {
		return wire.FeedbackReceived{}, err
	}
	if err := f.check(a, fb.MatchID); err != nil {
		return wire.FeedbackReceived{}, err
	}
	if !f.match.ended {
		return wire.FeedbackReceived{}, games.Errorf("match_running", "the match has not ended yet")
	}
	f.feedback[a] = fb.Text
	return wire.FeedbackReceived{MatchID: fb.MatchID}, nil
}

func (f *fake) Log(_ context.Context, match string) ([][]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.match == nil || match != f.match.id {
		return nil, games.Errorf("unknown_match", "no match %q", match)
	}
	out := [][]byte{[]byte(fmt.Sprintf(`{"seq":0,"type":"match_start","match_id":%q}`, match))}
	for i := int64(0); i < f.match.step; i++ {
		out = append(out, []byte(fmt.Sprintf(`{"seq":%d,"type":"action"}`, i+1)))
	}
	return out, nil
}

// Handle: the ended match's winner holds "winner@br.test".
func (f *fake) Handle(key string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.match != nil && f.match.ended && f.seatOf(Agent{Key: key, Game: "coin"}) == 0 {
		return "winner@br.test"
	}
	return ""
}

func (f *fake) Reputation(key string) (wire.Reputation, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.match != nil && f.match.ended && f.seatOf(Agent{Key: key, Game: "coin"}) == 0 {
		return wire.Reputation{Matches: 1, Wins: 1, AvgRank: 1}, nil
	}
	return wire.Reputation{}, nil
}
