package inference

import (
	"encoding/json"
	"strconv"

	"arena/games"
	"arena/games/breakroom"
	"arena/games/canon"
)

// status is visible_state.status: "waiting" before the opening, "playing", "ended" after
// match_end, "abandoned" after match_abandoned.
func (m *match) status() string {
	switch {
	case m.phase == phaseNew:
		return "waiting"
	case m.phase == phasePlaying:
		return "playing"
	case m.abandoned != "":
		return "abandoned"
	}
	return "ended"
}

// phaseName is visible_state.phase: "betting" while a hand is played, else the status.
func (m *match) phaseName() string {
	if m.phase == phasePlaying {
		return "betting"
	}
	return m.status()
}

// seatStatus is a seats[] entry's status (§2.6): active | folded | sitting_out | busted.
func (m *match) seatStatus(i int) string {
	s := &m.seats[i]
	switch {
	case s.busted:
		return "busted"
	case s.sittingOut:
		return "sitting_out"
	case s.dealt && s.folded:
		return "folded"
	case s.dealt || m.phase != phasePlaying:
		return "active"
	}
	return "sitting_out"
}

type seatView struct {
	Seat    int    `json:"seat"`
	Credits int64  `json:"credits"`
	InPot   int64  `json:"in_pot"`
	Status  string `json:"status"`
	Strikes int    `json:"strikes"`
}

// view is visible_state (§2.6) in its members' order: the recipient's own fields are pointers,
// nil (left out) in the spectator view.
type view struct {
	Game         string       `json:"game"`
	RulesVersion string       `json:"rules_version"`
	Status       string       `json:"status"`
	Round        int          `json:"round"`
	RoundsTotal  int          `json:"rounds_total"`
	Phase        string       `json:"phase"`
	Seat         *int         `json:"seat,omitempty"`
	Value        *int         `json:"value,omitempty"`
	Credits      *int64       `json:"credits,omitempty"`
	InPot        *int64       `json:"in_pot,omitempty"`
	ToCall       *int64       `json:"to_call,omitempty"`
	Dealer       *int         `json:"dealer"`
	Pot          int64        `json:"pot"`
	Bet          int64        `json:"bet"`
	Cap          int64        `json:"cap"`
	RaisesMade   int          `json:"raises_made"`
	MaxRaises    int          `json:"max_raises"`
	Ante         int64        `json:"ante"`
	Seats        []seatView   `json:"seats"`
	Actions      []handAction `json:"actions"`
	LastShowdown *showdown    `json:"last_showdown"`
}

// public is the members every view shares: the spectator view (§2.6, §1.8), derivable from the
// public lines alone.
func (m *match) public() view {
	v := view{Game: GameID, RulesVersion: RulesVersion, Status: m.status(), Round: m.round,
		RoundsTotal: m.cfg.Rounds, Phase: m.phaseName(), Pot: m.pot, Bet: m.bet, RaisesMade: m.raisesMade,
		MaxRaises: m.cfg.MaxRaises, Ante: m.cfg.Ante, Actions: m.actions, LastShowdown: m.lastShow}
	if m.dealer >= 0 {
		d := m.dealer
		v.Dealer = &d
	}
	if m.phase == phasePlaying {
		v.Cap = m.capOf()
	}
	if v.Actions == nil {
		v.Actions = []handAction{}
	}
	v.Seats = make([]seatView, len(m.seats))
	for i, s := range m.seats {
		v.Seats[i] = seatView{Seat: i, Credits: s.credits, InPot: s.inPot, Status: m.seatStatus(i), Strikes: s.strikes}
	}
	return v
}

// state is seat i's visible_state: the public members and its own seat, value (while it holds
// a card this hand; a value never reaches another seat's view), credits, in_pot and to_call.
func (m *match) state(i int) []byte {
	v := m.public()
	s := &m.seats[i]
	seat, credits, inPot := i, s.credits, s.inPot
	v.Seat, v.Credits, v.InPot = &seat, &credits, &inPot
	if s.dealt && m.phase == phasePlaying {
		value, toCall := s.card.value, m.bet-s.inPot
		v.Value, v.ToCall = &value, &toCall
	}
	b, _ := json.Marshal(v)
	return b
}

// spectator is the spectators' view: the public members only.
func (m *match) spectator() []byte {
	b, _ := json.Marshal(m.public())
	return b
}

// View is viewer's visible_state: a seat's (viewer 1..N) own state, its open prompt's bytes when
// it has one; the spectators' view for 0 or a seat the match does not have.
func (m *match) View(viewer int) games.Doc {
	i := breakroom.WireSeat(viewer)
	if viewer < 1 || i >= len(m.seats) {
		return games.RawDoc(m.spectator())
	}
	if m.open != nil && m.open.seat == i {
		return m.open.prompt.State
	}
	return games.RawDoc(m.state(i))
}

// HouseView is a prompt's View (games.Prompt.View) for the house policy: the prompted seat's
// value and the deck's size.
type HouseView struct {
	Value    int
	DeckSize int
}

func appendInt(b []byte, n int) []byte { return strconv.AppendInt(b, int64(n), 10) }

// ints is a JSON array of integers.
func ints(xs []int) string {
	b := []byte{'['}
	for k, x := range xs {
		if k > 0 {
			b = append(b, ',')
		}
		b = appendInt(b, x)
	}
	return string(append(b, ']'))
}

// obj gathers a log line's members for canon.Marshal, the house's one JCS encoder: the lines
// every hand writes name their members in a chain (newObj().int("round", r).done()), in any
// order, and done writes them as JCS.
type obj struct{ m map[string]any }

func newObj() *obj { return &obj{m: make(map[string]any, 6)} }

func (o *obj) int(k string, v int) *obj { o.m[k] = v; return o }

func (o *obj) i64(k string, v int64) *obj { o.m[k] = v; return o }

// word is a fixed word ("check", "fold").
func (o *obj) word(k, v string) *obj { o.m[k] = v; return o }

// str is a string the engine wrote (a salt, a commit).
func (o *obj) str(k, v string) *obj { o.m[k] = v; return o }

// raw is a member whose value is JSON already written (a list of objects).
func (o *obj) raw(k, v string) *obj { o.m[k] = json.RawMessage(v); return o }

// done is the line's payload as JCS. canon.Marshal refuses only what these members cannot hold
// (invalid UTF-8, an unsafe integer, raw bytes that are not JSON): such a payload is a bug in the
// engine, so it panics, which restarts the table from its store like any other panic.
func (o *obj) done() []byte {
	b, err := canon.Marshal(o.m)
	if err != nil {
		panic("inference: log line: " + err.Error())
	}
	return b
}

// list writes a JSON array of raw items.
type list struct{ b []byte }

func newList() *list { return &list{b: []byte{'['}} }

func (l *list) item(v []byte) {
	if len(l.b) > 1 {
		l.b = append(l.b, ',')
	}
	l.b = append(l.b, v...)
}

func (l *list) done() []byte { return append(l.b, ']') }
