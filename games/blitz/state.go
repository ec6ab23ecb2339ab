package blitz

import (
	"bytes"
	"encoding/json"
	"slices"

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
	// Playbook is an off-the-shelf seat's own playbook and dials as they stand (Options.playbooks,
	// playbookInput): what the house model is run with for it. Absent for every other seat.
	Playbook json.RawMessage `json:"playbook,omitempty"`
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

// phaseTail is the part of a phase's §5.4 states that every seat's shares: the shared members,
// then "public_log":[ and the log, then ]}. The shared members are written once per phase
// (shared); the log is already canonical JSON, in a packed run (games.Packed, what Compact
// deflated between steps) and append-only chunks whose written bytes never change, so the tail
// holds the run and the chunks as they are now and later events, written past them, are not in
// it. One list of segments serves the phase's every state (games.DocTail). It is built before
// the last phase's prompts are let go: their states are what shared compares with.
func (m *Match) phaseTail() games.DocTail {
	var prevBuf [2*stateSeats + 2][]byte
	prev := m.lastShared(prevBuf[:0])
	parts := make([][]byte, 0, 2*len(m.seats)+2+len(m.pubLog.chunks)+2)
	parts = m.shared(parts, prev)
	parts = append(parts, logOpenBytes)
	at := len(parts) // the packed run goes right after "public_log":[
	parts = append(parts, m.pubLog.chunks...)
	parts = append(parts, logCloseBytes)
	return games.JoinTail(m.pubLog.packed, at, parts...)
}

// shared appends to parts the seat-independent members of the phase's states (sharedParts),
// without the enclosing braces: pieces of new bytes, with the agents' terms buffers between
// them. The new bytes are written on the stack and copied out at their size, the agents array's
// pieces (up to its closing bracket) into one block and the rest into another. When the agents
// array's pieces are the bytes the last phase's states carry at the same places (prev: those
// states' shared segments, lastShared), they are those segments, not a copy: the agents array
// changes only when a seat's collateral bar, alive or dark does, while the rest changes with
// every exchange's pattern. Either way the bytes are the ones just written.
func (m *Match) shared(parts, prev [][]byte) [][]byte {
	var buf [sharedScratch]byte
	var cutBuf [2*stateSeats + 2]sharedCut
	b, cuts, agents := m.sharedParts(buf[:0], cutBuf[:0])
	agentsEnd := cuts[agents].end
	// prev lists the pieces and the terms in the order they are appended below; only the
	// pieces are compared (a terms buffer is always the seat's own, as it is now)
	same := true
	k, start := 0, 0
	for _, c := range cuts[:agents+1] {
		if c.end > start {
			same = same && k < len(prev) && bytes.Equal(prev[k], b[start:c.end])
			k++
		}
		if c.seat > 0 {
			k++
		}
		start = c.end
	}
	var block []byte
	if !same {
		block = append([]byte(nil), b[:agentsEnd]...)
	}
	k, start = 0, 0
	for _, c := range cuts[:agents+1] {
		if c.end > start {
			if same {
				parts = append(parts, prev[k])
			} else {
				parts = append(parts, block[start:c.end:c.end])
			}
			k++
		}
		if c.seat > 0 {
			t := m.terms[c.seat-1]
			parts = append(parts, t[:len(t):len(t)])
			k++
		}
		start = c.end
	}
	if rest := b[agentsEnd:]; len(rest) > 0 {
		parts = append(parts, append([]byte(nil), rest...))
	}
	return parts
}

// lastShared appends to dst the shared segments of the last phase's states, as the prompts the
// match still holds carry them: a state stateFor wrote, less its "me" and everything from
// "public_log":[ on (the walk stops there, so a packed log is never inflated). Nothing when the
// match holds no state (Compact let them go once every seat had answered).
func (m *Match) lastShared(dst [][]byte) [][]byte {
	for _, p := range m.current {
		if p.State.IsZero() {
			continue
		}
		me := true
		for seg := range p.State.Segments() {
			if me { // the seat's own "me"
				me = false
				continue
			}
			if string(seg) == logOpen {
				return dst
			}
			dst = append(dst, seg)
		}
		return dst[:0] // not a state stateFor wrote
	}
	return dst
}

// stateSeats is the most seats a format seats (engine.go): the stack arrays of phaseTail and
// shared hold that many; a larger table's spill to the heap.
const stateSeats = 8

// sharedScratch holds a phase's shared members as the engine writes them (some 2 KiB for six
// seats, 2.7 KiB for eight); longer ones spill to the heap.
const sharedScratch = 4096

// stateFor builds seat n's §5.4 state object: {"me": …, then the phase's tail (the shared
// members, "public_log": […]}). Only "me" is new bytes: a state costs its own "me", not a copy
// of all the table has said nor a list of the segments that say it.
//
// "me" is written on the stack and copied into memory of its own size: seats' "me" differ (the
// mole's carries its task, a party's its open terms), so a buffer sized for the largest, as
// before, left the others a third empty, and a state keeps its buffer whole.
func (m *Match) stateFor(n int, tail games.DocTail) games.Doc {
	var buf [meScratch]byte
	w := append(m.appendMe(append(buf[:0], `{"me":`...), n), ',')
	return tail.WithHead(append([]byte(nil), w...)) // off the stack, its own size
}

// maxLegal is the most action kinds a prompt lists: pass, messages or commitments, accusation.
const maxLegal = 3

// The action kinds of a prompt (§5.3): none takes bounds; an answer's body says the rest.
var (
	actPass        = games.Act("pass")
	actMessages    = games.Act("messages")
	actCommitments = games.Act("commitments")
	actAccusation  = games.Act("accusation")
)

// meScratch holds a seat's "me" as the engine writes it (about 200 bytes; a party to four open
// commitments, some 1.2 KiB); a larger one spills to the heap, and is copied all the same.
const meScratch = 2048

// buildPrompts makes the open phase's envelopes for every live seat: calls delivered first,
// then the state object and the inbox of what reached the seat since its last envelope (§5.3).
func (m *Match) buildPrompts() {
	m.deliverCalls()
	cur := m.Phase()
	tail := m.phaseTail()                             // before the last phase's prompts are let go
	m.current = make([]games.Prompt, 0, len(m.seats)) // one per live seat: made once, not grown by doubling
	agents := m.houseAgents()
	// every seat's legal kinds (at most three) carved from one block, each capped at its length
	legals := make([]games.Action, 0, maxLegal*len(m.seats))
	for _, s := range m.seats {
		if !s.alive {
			s.inbox = nil // it receives no further calls (§8.2)
			continue
		}
		at := len(legals)
		legal := append(legals[at:at:at+maxLegal], actPass)
		switch m.stage {
		case stTalk:
			legal = append(legal, actMessages)
		case stCommit:
			legal = append(legal, actCommitments)
		}
		if (m.stage == stTalk || m.stage == stCommit) && s.answerAccuses() && s.Seat.Seat != m.mole && s.accuseUsed < 2 {
			legal = append(legal, actAccusation)
		}
		legal = legal[:len(legal):len(legal)] // an append to one seat's reaches no other's
		if len(legal) <= maxLegal {
			legals = legals[:at+len(legal)] // else append moved it out of the block
		}
		inbox := s.inbox
		if inbox == nil {
			inbox = []json.RawMessage{}
		}
		s.inbox = nil
		m.current = append(m.current, games.Prompt{Seat: s.Seat.Seat, Move: cur, Deadline: m.respBy, Legal: legal,
			State: m.stateFor(s.Seat.Seat, tail), Inbox: inbox, View: m.houseViewOf(s.Seat.Seat, agents)})
	}
	// in seat order already (m.seats is by seat); kept sorted without sort.SliceStable's
	// reflection, which allocated on every phase
	slices.SortStableFunc(m.current, func(a, b games.Prompt) int { return a.Seat - b.Seat })
}
