package dilemma

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

// public writes the members every view shares (§5.6's spectator view) into b after its opening
// brace: the schedule's position, the config's public numbers, who sits out. The state is
// written by hand, every member a number or a fixed word: prompts are the table's hottest path.
func (m *match) public(b []byte) []byte {
	b = append(b, `"game":"`+GameID+`","rules_version":"`+RulesVersion+`","status":"`...)
	b = append(b, m.status()...)
	b = appendInt(append(b, `","round":`...), m.round)
	b = appendInt(append(b, `,"rounds_total":`...), len(m.plan))
	b = appendInt(append(b, `,"iteration":`...), m.iteration)
	b = append(b, `,"pairs":[`...)
	bye := -1
	if m.round >= 1 {
		plan := m.plan[m.round-1]
		for i, p := range plan.Pairs {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendInt(append(b, '['), p[0])
			b = append(appendInt(append(b, ','), p[1]), ']')
		}
		bye = plan.Bye
	}
	b = appendSeat(append(b, `],"bye":`...), bye)
	p := m.cfg.Payoffs
	b = strconv.AppendInt(append(b, `,"payoffs":{"P":`...), p.P, 10)
	b = strconv.AppendInt(append(b, `,"R":`...), p.R, 10)
	b = strconv.AppendInt(append(b, `,"S":`...), p.S, 10)
	b = strconv.AppendInt(append(b, `,"T":`...), p.T, 10)
	b = strconv.AppendInt(append(b, `},"stop_one_in":`...), m.cfg.StopOneIn, 10)
	b = appendInt(append(b, `,"max_iterations":`...), m.cfg.MaxIterations)
	b = append(b, `,"sitting_out":[`...)
	first := true
	for i, s := range m.seats {
		if s.sittingOut {
			if !first {
				b = append(b, ',')
			}
			b, first = appendInt(b, i), false
		}
	}
	return append(b, ']')
}

func appendInt(b []byte, n int) []byte { return strconv.AppendInt(b, int64(n), 10) }

// appendSeat writes a wire seat, or null for -1.
func appendSeat(b []byte, seat int) []byte {
	if seat < 0 {
		return append(b, "null"...)
	}
	return appendInt(b, seat)
}

// state is seat i's visible_state (§5.6): the public members, then its own (opponent, points,
// iterations_played, strikes, current: this round's closed iterations against its opponent,
// past: its earlier rounds, one entry per opponent met with both sides' choices as letters),
// then the public talk, newest entries that fit within breakroom.StateBudget ("truncated": true
// when older ones were cut, J31).
func (m *match) state(i int) []byte {
	s := &m.seats[i]
	b := make([]byte, 0, max(512, s.stateLen+s.stateLen/8))
	b = m.public(append(b, '{'))
	b = appendInt(append(b, `,"seat":`...), i)
	opp := -1
	if m.round >= 1 {
		opp = s.rounds[m.round-1].opp
	}
	b = appendSeat(append(b, `,"opponent":`...), opp)
	b = strconv.AppendInt(append(b, `,"points":`...), s.points, 10)
	b = strconv.AppendInt(append(b, `,"iterations_played":`...), s.iterations, 10)
	b = appendInt(append(b, `,"strikes":`...), s.strikes)
	b = append(b, `,"current":[`...)
	if m.round >= 1 {
		rec := s.rounds[m.round-1]
		for k := range rec.you {
			if k > 0 {
				b = append(b, ',')
			}
			b = appendInt(append(b, `{"iteration":`...), k+1)
			b = append(append(append(b, `,"you":"`...), rec.you[k]), `","them":"`...)
			b = append(append(b, rec.them[k]), `","points":`...)
			b = append(strconv.AppendInt(b, m.cfg.Payoffs.Points(rec.you[k], rec.them[k]), 10), '}')
		}
	}
	b = append(b, `],"past":[`...)
	first := true
	for r, rec := range s.rounds {
		if r == m.round-1 || rec.opp < 0 {
			continue // the current round, or a bye: nobody met
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = appendInt(append(b, `{"round":`...), r+1)
		b = appendInt(append(b, `,"opponent":`...), rec.opp)
		b = append(append(append(b, `,"you":"`...), rec.you...), `","them":"`...)
		b = append(append(b, rec.them...), `","points":`...)
		b = append(strconv.AppendInt(b, rec.points, 10), '}')
	}
	b = m.withTalk(append(b, ']'))
	s.stateLen = len(b)
	return b
}

// spectator is the spectators' view (§5.6, §1.8): the public members and the talk, derivable
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
// sealed choice or a pair's result before its seat may know it.
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
// opponent (wire seat) and the opponent's choices this round so far ('C'/'D', oldest first).
type HouseView struct {
	Opponent int
	Them     []byte
}

func (m *match) houseView(i int) HouseView {
	rec := m.seats[i].rounds[m.round-1]
	return HouseView{Opponent: rec.opp, Them: rec.them[:len(rec.them):len(rec.them)]} // capped: later choices never show in it
}
