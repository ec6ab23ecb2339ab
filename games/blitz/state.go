package blitz

import (
	"encoding/json"
	"sort"

	"arena/games"
)

// The §5.4 state object, one per seat per envelope.

type stateObject struct {
	Agents       []agentView     `json:"agents"`
	Me           meView          `json:"me"`
	TaskCategory string          `json:"task_category"`
	Bounty       int64           `json:"bounty"`
	Pattern      []Pattern       `json:"pattern"`
	PublicLog    json.RawMessage `json:"public_log,omitempty"` // spliced in by stateFor
	Talking      []talkingPair   `json:"talking"`
	Format       formatState     `json:"format"`
}

type formatState struct {
	Name      string `json:"name"`
	Seats     int    `json:"seats"`
	Turns     int    `json:"turns"`
	Exchanges int    `json:"exchanges"`
}

type agentView struct {
	Seat        int           `json:"seat"`
	Agent       string        `json:"agent"`
	Name        string        `json:"name"`
	Rating      int           `json:"rating"`
	Alive       bool          `json:"alive"`
	Dark        bool          `json:"dark"`
	Collateral  int           `json:"collateral"` // public bar: percent of seating collateral, floored to 10
	Commitments []publicTerms `json:"commitments"`
}

// publicTerms is what the table sees of a sealed commitment: parties and due turn.
type publicTerms struct {
	ID    string `json:"id"`
	Payer int    `json:"payer"`
	Payee int    `json:"payee"`
	Due   int    `json:"due"`
}

type meView struct {
	Seat       int              `json:"seat"`
	Role       string           `json:"role"` // "mole" or "player"
	Collateral int64            `json:"collateral"`
	Locks      map[string]int64 `json:"locks"`
	Unlocked   int64            `json:"unlocked"`
	Budget     int64            `json:"budget"`
	Open       []openTerms      `json:"open"`
	Pending    []openTerms      `json:"pending"`
	Levers     leverView        `json:"levers"`
	Accusation int              `json:"accusation,omitempty"`
	Calls      []string         `json:"calls"`
	NextSeq    int64            `json:"next_seq"`
	Task       *moleTaskView    `json:"task,omitempty"`
}

// openTerms is a commitment in full, as its parties see it.
type openTerms struct {
	ID         string          `json:"id"`
	Ref        string          `json:"ref,omitempty"`
	Payer      int             `json:"payer"`
	Payee      int             `json:"payee"`
	Amount     int64           `json:"amount"`
	Condition  json.RawMessage `json:"condition"`
	Due        int             `json:"due"`
	Lock       int64           `json:"lock"`
	SealedTurn int             `json:"sealed_turn,omitempty"`
	Pair       string          `json:"pair,omitempty"`
}

type leverView struct {
	Calls      int `json:"calls"`
	Veto       int `json:"veto"`
	Accusation int `json:"accusation"` // 2 until placed, 1 while it may be moved, 0 after (and for the mole)
}

type moleTaskView struct {
	Kind     string    `json:"kind"`
	Category string    `json:"category"`
	Named    []int     `json:"named"`
	Rungs    [3]string `json:"rungs"`
	Reached  []int     `json:"reached"`
}

type talkingPair struct {
	A int `json:"a"`
	B int `json:"b"`
}

func (m *Match) moleTask() *moleTaskView {
	return &moleTaskView{Kind: m.task.Kind, Category: m.task.Category, Named: append([]int{}, m.task.Named...),
		Rungs: rungText[m.task.Kind], Reached: m.rungsReached()}
}

// logOpen and logClose enclose the public log in a state object; stateFor writes the state as
// segments {"me":…, | shared members | logOpen | log chunks… | logClose.
const (
	logOpen  = `,"public_log":[`
	logClose = `]}`
)

// The segments every state shares; a Doc never writes into its segments.
var logOpenBytes, logCloseBytes = []byte(logOpen), []byte(logClose)

// shared writes the seat-independent members once per phase (sharedParts), without the
// enclosing braces, as segments every seat's state of the phase shares. Its new bytes are sized
// by the last phase's, which they rarely outgrow by much.
func (m *Match) shared() [][]byte {
	parts, n := m.sharedParts(make([]byte, 0, m.sharedHint))
	m.sharedHint = n + n/8
	return parts
}

// phaseTail is the part of a phase's §5.4 states that every seat's shares: the shared members,
// then "public_log":[ and the log, then ]}. The shared members are written once per phase
// (shared); the log is already canonical JSON, in a packed run (games.Packed, what Compact
// deflated between steps) and append-only chunks whose written bytes never change, so the tail
// holds the run and the chunks as they are now and later events, written past them, are not in
// it. One list of segments serves the phase's every state (games.DocTail).
func (m *Match) phaseTail(shared [][]byte) games.DocTail {
	parts := make([][]byte, 0, len(shared)+len(m.pubLog.chunks)+2)
	parts = append(parts, shared...)
	parts = append(parts, logOpenBytes)
	at := len(parts) // the packed run goes right after "public_log":[
	parts = append(parts, m.pubLog.chunks...)
	parts = append(parts, logCloseBytes)
	return games.JoinTail(m.pubLog.packed, at, parts...)
}

// stateFor builds seat n's §5.4 state object: {"me": …, then the phase's tail (the shared
// members, "public_log": […]}). Only "me" is new bytes: a state costs its own "me", not a copy
// of all the table has said nor a list of the segments that say it.
func (m *Match) stateFor(n int, tail games.DocTail) games.Doc {
	me := append(m.appendMe(append(make([]byte, 0, m.meHint), `{"me":`...), n), ',')
	m.meHint = max(m.meHint, len(me)+len(me)/8)
	return tail.WithHead(me)
}

// buildPrompts makes the open phase's envelopes for every live seat: calls delivered first,
// then the state object and the inbox of what reached the seat since its last envelope (§5.3).
func (m *Match) buildPrompts() {
	m.deliverCalls()
	cur := m.Phase()
	m.current = make([]games.Prompt, 0, len(m.seats)) // one per live seat: made once, not grown by doubling
	tail := m.phaseTail(m.shared())
	agents := m.houseAgents()
	for _, s := range m.seats {
		if !s.alive {
			s.inbox = nil // it receives no further calls (§8.2)
			continue
		}
		legal := []string{"pass"}
		switch m.stage {
		case stTalk:
			legal = append(legal, "messages")
		case stCommit:
			legal = append(legal, "commitments")
		}
		if (m.stage == stTalk || m.stage == stCommit) && s.holdsLevers() && s.Seat.Seat != m.mole && s.accuseUsed < 2 {
			legal = append(legal, "accusation")
		}
		inbox := s.inbox
		if inbox == nil {
			inbox = []json.RawMessage{}
		}
		s.inbox = nil
		m.current = append(m.current, games.Prompt{Seat: s.Seat.Seat, Move: cur, Deadline: m.respBy, Legal: legal,
			State: m.stateFor(s.Seat.Seat, tail), Inbox: inbox, View: m.houseViewOf(s.Seat.Seat, agents)})
	}
	sort.SliceStable(m.current, func(i, j int) bool { return m.current[i].Seat < m.current[j].Seat })
}
