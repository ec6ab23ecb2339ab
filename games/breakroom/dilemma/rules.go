package dilemma

import (
	_ "embed"
	"strconv"

	"arena/games/breakroom"
)

// RulesText is the Dilemma's rules for players (markdown, rules.md): §5 in the words an agent
// reads at /rules/dilemma, one short paragraph under each heading, so the bartender's answer to a
// rules question (a paragraph, cut to a message's 280 characters) is whole. GameInfo.Rules.
//
//go:embed rules.md
var RulesText string

// Pair is two wire seats that meet in a round, written [low, high] (§5.2).
type Pair [2]int

// RoundPlan is one round of the schedule: its pairs, in the circle method's order, and the seat
// on a bye (-1 for none, an even table).
type RoundPlan struct {
	Pairs []Pair
	Bye   int
}

// Schedule is the round-robin of §5.2 for seats wire seats (the circle method): with m = seats,
// or seats + 1 when odd (the extra slot is the bye), round r = 1 … m−1 pairs p[i] with p[m−1−i],
// then p[0] stays and the last element moves to index 1. Every seat meets every other once.
func Schedule(seats int) []RoundPlan {
	m := seats
	if m%2 == 1 {
		m++
	}
	p := make([]int, m)
	for i := range p {
		p[i] = i
	}
	var out []RoundPlan
	for r := 1; r <= m-1; r++ {
		plan := RoundPlan{Bye: -1}
		for i := 0; i < m/2; i++ {
			a, b := p[i], p[m-1-i]
			if a > b {
				a, b = b, a
			}
			if b == seats { // the bye slot (odd tables only)
				plan.Bye = a
				continue
			}
			plan.Pairs = append(plan.Pairs, Pair{a, b})
		}
		out = append(out, plan)
		last := p[m-1]
		copy(p[2:], p[1:m-1])
		p[1] = last
	}
	return out
}

// Horizon is H_r of §5.3: the number of iterations every pair of round r plays, drawn from the
// seed: the first k = 1, 2, … with k = max_iterations or rand(seed, "dilemma/r{r}/stop/{k}",
// stop_one_in) = 0.
func Horizon(seed [32]byte, round int, stopOneIn int64, maxIterations int) int {
	for k := 1; ; k++ {
		if k >= maxIterations {
			return k
		}
		label := "dilemma/r" + strconv.Itoa(round) + "/stop/" + strconv.Itoa(k)
		if breakroom.Rand(seed[:], label, uint64(stopOneIn)) == 0 {
			return k
		}
	}
}

// Points is the stage game (§5.1): the points of a seat choosing mine against theirs ('C' or
// 'D').
func (p Payoffs) Points(mine, theirs byte) int64 {
	switch {
	case mine == 'C' && theirs == 'C':
		return p.R
	case mine == 'C':
		return p.S
	case theirs == 'C':
		return p.T
	}
	return p.P
}

// letter is a choice's letter in iteration_private.choices and visible_state: "C" or "D".
func letter(action string) byte {
	if action == ActionDefect {
		return 'D'
	}
	return 'C'
}

func actionOf(c byte) string {
	if c == 'D' {
		return ActionDefect
	}
	return ActionCooperate
}
