package dilemma

import (
	"strconv"

	"arena/games"
	"arena/games/breakroom"
	"arena/games/canon"
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

// public is the members every view shares (§5.6's spectator view): the schedule's position, the
// config's public numbers, who sits out.
func (m *match) public() map[string]any {
	v := map[string]any{
		"game": GameID, "rules_version": RulesVersion, "status": m.status(),
		"round": m.round, "rounds_total": len(m.plan), "iteration": m.iteration,
		"pairs": [][2]int{}, "bye": nil,
		"payoffs": m.cfg.Payoffs, "stop_one_in": m.cfg.StopOneIn, "max_iterations": m.cfg.MaxIterations,
	}
	if m.round >= 1 {
		plan := m.plan[m.round-1]
		pairs := make([][2]int, len(plan.Pairs))
		for i, p := range plan.Pairs {
			pairs[i] = p
		}
		v["pairs"] = pairs
		if plan.Bye >= 0 {
			v["bye"] = plan.Bye
		}
	}
	out := []int{}
	for i, s := range m.seats {
		if s.sittingOut {
			out = append(out, i)
		}
	}
	v["sitting_out"] = out
	return v
}

// state is seat i's visible_state (§5.6): the public members, then its own (opponent, points,
// iterations_played, strikes, current: this round's closed iterations against its opponent,
// past: its earlier rounds, one entry per opponent met with both sides' choices as letters),
// then the public talk, newest entries that fit within breakroom.StateBudget ("truncated": true
// when older ones were cut, J31).
func (m *match) state(i int) []byte {
	v := m.public()
	s := &m.seats[i]
	v["seat"] = i
	v["opponent"] = nil
	v["points"] = s.points
	v["iterations_played"] = s.iterations
	v["strikes"] = s.strikes
	current := []map[string]any{}
	past := []map[string]any{}
	for r, rec := range s.rounds {
		if r == m.round-1 {
			if rec.opp >= 0 {
				v["opponent"] = rec.opp
			}
			for k := range rec.you {
				current = append(current, map[string]any{
					"iteration": k + 1, "you": string(rec.you[k]), "them": string(rec.them[k]),
					"points": m.cfg.Payoffs.Points(rec.you[k], rec.them[k]),
				})
			}
			continue
		}
		if rec.opp < 0 {
			continue // a bye: nobody met
		}
		past = append(past, map[string]any{
			"round": r + 1, "opponent": rec.opp, "you": string(rec.you), "them": string(rec.them), "points": rec.points,
		})
	}
	v["current"] = current
	v["past"] = past
	return m.withTalk(v)
}

// spectator is the spectators' view (§5.6, §1.8): the public members and the talk, derivable
// from the public log lines alone.
func (m *match) spectator() []byte { return m.withTalk(m.public()) }

// withTalk writes v (JCS) with the talk list spliced in at its end: the newest entries that keep
// the whole within breakroom.StateBudget, and "truncated": true when any was left out.
func (m *match) withTalk(v map[string]any) []byte {
	base, err := canon.Marshal(v)
	if err != nil { // unreachable: strings, booleans, small integers
		return []byte(`{}`)
	}
	const talkHead, truncMark = `,"talk":[`, `,"truncated":true`
	budget := breakroom.StateBudget - len(base) - len(talkHead) - 1 - len(truncMark)
	n := breakroom.FitNewest(m.talk, budget+2)
	out := make([]byte, 0, breakroom.StateBudget)
	out = append(out, base[:len(base)-1]...)
	out = append(out, talkHead...)
	for k, t := range m.talk[len(m.talk)-n:] {
		if k > 0 {
			out = append(out, ',')
		}
		out = append(out, t...)
	}
	out = append(out, ']')
	if n < len(m.talk) {
		out = append(out, truncMark...)
	}
	return append(out, '}')
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
	return HouseView{Opponent: rec.opp, Them: append([]byte(nil), rec.them...)}
}
