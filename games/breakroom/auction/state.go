package auction

import (
	"strconv"

	"arena/games"
	"arena/games/breakroom"
)

func itoa(n int) string { return strconv.Itoa(n) }

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

// phaseWord is visible_state.phase (§4.6): "bidding" while a lot is open, else the status.
func (m *match) phaseWord() string {
	if m.phase == phasePlaying {
		return "bidding"
	}
	return m.status()
}

// public writes the members every view shares (§4.6's spectator view) into b after its opening
// brace: the lot's position, every seat's public cash, lots won and status, and every closed
// lot's result. Written by hand, every member a number or a fixed word: prompts are the table's
// hottest path.
func (m *match) public(b []byte) []byte {
	b = append(b, `"game":"`+GameID+`","rules_version":"`+RulesVersion+`","status":"`...)
	b = append(b, m.status()...)
	b = append(append(b, `","phase":"`...), m.phaseWord()...)
	b = appendInt(append(b, `","round":`...), m.round)
	b = appendInt(append(b, `,"lots_total":`...), m.cfg.Lots)
	b = append(b, `,"seats":[`...)
	for i, s := range m.seats {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendInt(append(b, `{"seat":`...), i)
		b = strconv.AppendInt(append(b, `,"cash":`...), s.cash, 10)
		b = appendInt(append(b, `,"lots_won":`...), s.lotsWon)
		if s.sittingOut {
			b = append(b, `,"status":"sitting_out"}`...)
		} else {
			b = append(b, `,"status":"active"}`...)
		}
	}
	b = append(b, `],"results":[`...)
	for k, r := range m.results {
		if k > 0 {
			b = append(b, ',')
		}
		b = appendInt(append(b, `{"round":`...), r.round)
		if r.sold {
			b = appendInt(append(b, `,"sold":true,"winner":`...), r.winner)
			b = strconv.AppendInt(append(b, `,"price":`...), r.price, 10)
			b = append(b, '}')
		} else {
			b = append(b, `,"sold":false,"winner":null,"price":null}`...)
		}
	}
	return append(b, ']')
}

func appendInt(b []byte, n int) []byte { return strconv.AppendInt(b, int64(n), 10) }

// state is seat i's visible_state (§4.6): the public members, then its own: seat, value (its
// value for the open lot; null outside a lot), cash, holdings ([{round, value, price}] of the
// lots it won), strikes (its own count: other seats' strikes are sealed, §4.6), then the public
// talk, newest entries that fit within breakroom.StateBudget ("truncated": true when older ones
// were cut, J31).
func (m *match) state(i int) []byte {
	s := &m.seats[i]
	b := make([]byte, 0, 1024)
	b = m.public(append(b, '{'))
	b = appendInt(append(b, `,"seat":`...), i)
	if m.phase == phasePlaying && m.round >= 1 {
		b = strconv.AppendInt(append(b, `,"value":`...), m.values[m.round-1][i], 10)
	} else {
		b = append(b, `,"value":null`...)
	}
	b = strconv.AppendInt(append(b, `,"cash":`...), s.cash, 10)
	b = append(b, `,"holdings":[`...)
	for k, h := range s.holdings {
		if k > 0 {
			b = append(b, ',')
		}
		b = appendInt(append(b, `{"round":`...), h.round)
		b = strconv.AppendInt(append(b, `,"value":`...), h.value, 10)
		b = strconv.AppendInt(append(b, `,"price":`...), h.price, 10)
		b = append(b, '}')
	}
	b = appendInt(append(b, `],"strikes":`...), s.strikes)
	return m.withTalk(b)
}

// spectator is the spectators' view (§4.6, §1.8): the public members and the talk, derivable
// from the public log lines alone.
func (m *match) spectator() []byte {
	return m.withTalk(m.public(append(make([]byte, 0, 512), '{')))
}

// withTalk closes an open state object b with the talk list: the newest entries that keep the
// whole within breakroom.StateBudget, and "truncated": true when any was left out.
func (m *match) withTalk(b []byte) []byte {
	const talkHead, truncMark = `,"talk":[`, `,"truncated":true`
	budget := breakroom.StateBudget - len(b) - len(talkHead) - 1 - len(truncMark) - 1
	n := breakroom.FitNewest(m.talk, budget+2)
	b = append(b, talkHead...)
	for k, t := range m.talk[len(m.talk)-n:] {
		if k > 0 {
			b = append(b, ',')
		}
		b = append(b, t...)
	}
	b = append(b, ']')
	if n < len(m.talk) {
		b = append(b, truncMark...)
	}
	return append(b, '}')
}

// View is viewer's visible_state: a seat's (viewer 1..N) own state, its open prompt's bytes when
// it has one; the spectators' view for 0 or a seat the match does not have. No view holds a
// value or a bid before its seat may know it.
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
// value for the lot, its cash, and the number of seats at the table.
type HouseView struct {
	Value int64
	Cash  int64
	Seats int
}
