package werewolf

import (
	"strconv"

	"arena/games"
	"arena/games/breakroom"
)

func appendInt(b []byte, n int) []byte { return strconv.AppendInt(b, int64(n), 10) }

// appendSeat writes a wire seat, or null for -1.
func appendSeat(b []byte, seat int) []byte {
	if seat < 0 {
		return append(b, "null"...)
	}
	return appendInt(b, seat)
}

// appendSeats writes a JSON array of wire seats.
func appendSeats(b []byte, seats []int) []byte {
	b = append(b, '[')
	for k, s := range seats {
		if k > 0 {
			b = append(b, ',')
		}
		b = appendInt(b, s)
	}
	return append(b, ']')
}

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

// head writes the members every view shares (§3.7's spectator view) into b after its opening
// brace: game, rules_version, status, round, phase (null before the opening), max_rounds.
func (m *match) head(b []byte) []byte {
	b = append(b, `"game":"`+GameID+`","rules_version":"`+RulesVersion+`","status":"`...)
	b = append(b, m.status()...)
	b = appendInt(append(b, `","round":`...), m.round)
	if m.stage == "" {
		b = append(b, `,"phase":null`...)
	} else {
		b = append(append(append(b, `,"phase":"`...), m.stage...), '"')
	}
	return appendInt(append(b, `,"max_rounds":`...), m.cfg.MaxRounds)
}

// tail writes the shared members after the seat's own: players (viewer -1 for the spectators),
// discussion_round, vote_history, then talk_today cut to the state budget, and closes the object.
func (m *match) tail(b []byte, viewer int) []byte {
	wolfView := viewer >= 0 && m.seats[viewer].role == RoleWolf
	b = append(b, `,"players":[`...)
	for i, s := range m.seats {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendInt(append(b, `{"seat":`...), i)
		b = strconv.AppendBool(append(b, `,"alive":`...), s.alive)
		if !s.alive || i == viewer || wolfView && s.role == RoleWolf || m.phase == phaseDone {
			b = append(append(append(b, `,"role":"`...), s.role...), '"')
		}
		if !s.alive {
			b = append(append(append(b, `,"eliminated":"`...), s.how...), '"')
			b = appendInt(append(b, `,"eliminated_round":`...), s.elimRnd)
		}
		b = append(b, '}')
	}
	b = append(b, `],"discussion_round":`...)
	if m.stage == PhaseDiscussion && m.phase == phasePlaying {
		b = appendInt(b, m.pass)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"vote_history":[`...)
	for k, r := range m.history {
		if k > 0 {
			b = append(b, ',')
		}
		b = append(b, r.json()...)
	}
	b = append(b, ']')
	return m.withTalk(b)
}

// state is seat i's visible_state (§3.7): the shared head, its own members (seat, role, team,
// pack for a wolf, inspections for the seer, last_protected for the doctor, pack_night for a
// living wolf: tonight's pack moves so far, {seat, action, target?, auto?} in prompt order, the
// picks its action_private lines carry, kept through the day; null where the role has none;
// strikes), then the players with the roles it may know (the dead, itself, its
// packmates), the discussion pass, the vote history and today's talk.
func (m *match) state(i int) []byte {
	s := &m.seats[i]
	b := make([]byte, 0, 1024)
	b = m.head(append(b, '{'))
	b = appendInt(append(b, `,"seat":`...), i)
	b = append(append(append(b, `,"role":"`...), s.role...), '"')
	b = append(append(append(b, `,"team":"`...), TeamOf(s.role)...), '"')
	b = append(b, `,"pack":`...)
	if s.role == RoleWolf {
		b = appendSeats(b, m.pack())
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"inspections":`...)
	if s.role == RoleSeer {
		b = append(b, '[')
		for k, in := range m.inspections {
			if k > 0 {
				b = append(b, ',')
			}
			b = appendInt(append(b, `{"round":`...), in.Round)
			b = appendInt(append(b, `,"target":`...), in.Target)
			b = append(strconv.AppendBool(append(b, `,"is_wolf":`...), in.IsWolf), '}')
		}
		b = append(b, ']')
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"last_protected":`...)
	if s.role == RoleDoctor {
		b = appendSeat(b, m.lastProtected)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"pack_night":`...)
	if s.role == RoleWolf && s.alive {
		b = append(b, '[')
		for k, pm := range m.packNight {
			if k > 0 {
				b = append(b, ',')
			}
			b = appendInt(append(b, `{"seat":`...), pm.seat)
			b = append(append(append(b, `,"action":"`...), pm.action...), '"')
			if pm.target >= 0 {
				b = appendInt(append(b, `,"target":`...), pm.target)
			}
			if pm.auto {
				b = append(b, `,"auto":true`...)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	} else {
		b = append(b, "null"...)
	}
	b = appendInt(append(b, `,"strikes":`...), s.strikes)
	return m.tail(b, i)
}

// spectator is the spectators' view (§3.7, §1.8): the shared members only, derivable from the
// public log lines alone.
func (m *match) spectator() []byte {
	return m.tail(m.head(append(make([]byte, 0, 512), '{')), -1)
}

// withTalk closes an open state object b with talk_today: the newest entries that keep the
// whole within breakroom.StateBudget, and "truncated": true when any was left out (J31).
func (m *match) withTalk(b []byte) []byte {
	const talkHead, truncMark = `,"talk_today":[`, `,"truncated":true`
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
// living seat's role, a night action or a sealed vote before the viewer may know it.
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
// role, the phase, its pack (a wolf), the seats it inspected and the living ones among them it
// found to be wolves (the seer), all wire seats.
type HouseView struct {
	Role      string
	Phase     string
	Pack      []int
	Inspected []int
	Wolves    []int
}

func (m *match) houseView(i int) HouseView {
	v := HouseView{Role: m.seats[i].role, Phase: m.stage}
	switch v.Role {
	case RoleWolf:
		v.Pack = m.pack()
	case RoleSeer:
		for _, in := range m.inspections {
			v.Inspected = append(v.Inspected, in.Target)
			if in.IsWolf && m.seats[in.Target].alive {
				v.Wolves = append(v.Wolves, in.Target)
			}
		}
	}
	return v
}
