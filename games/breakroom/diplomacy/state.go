// Package diplomacy is Break Room's Diplomacy rules (breakroom-games §6) as a pure state machine:
// the phase cycle of §6.4, the door's order checks of §6.7, retreats (§6.8), the centre update and
// adjustments (§6.9), civil disorder, victory, the year limit and elimination (§6.10). The board
// is package board's standard map and every phase is resolved by package adjudicate.
//
// Pure: no I/O, clock or randomness. A State is a value; Resolve returns a new one and never
// changes its argument.
package diplomacy

import (
	"fmt"
	"sort"

	"arena/games/breakroom/diplomacy/adjudicate"
	"arena/games/breakroom/diplomacy/board"
)

// Season is the part of a game year a phase belongs to (§6.4).
type Season uint8

// The seasons, in the order of a year.
const (
	Spring Season = iota + 1
	Fall
	Winter
)

// RulesConfig is the part of §6.1's config the rules use.
type RulesConfig struct {
	Powers         []board.Power // played powers (§6.2: AUS ENG FRA RUS TUR)
	Removed        []board.Power // powers in permanent civil disorder (GER ITA)
	FirstYear      int           // 1901
	LastYear       int           // the year whose centre update ends the game (1906)
	VictoryCentres int           // a solo at this many centres (18)
}

// DefaultRules is §6.1's.
func DefaultRules() RulesConfig {
	return RulesConfig{
		Powers:    []board.Power{board.AUS, board.ENG, board.FRA, board.RUS, board.TUR},
		Removed:   []board.Power{board.GER, board.ITA},
		FirstYear: 1901, LastYear: 1906, VictoryCentres: 18,
	}
}

// State is a game between phases: the phase to be played next and the board it is played on.
type State struct {
	Cfg    RulesConfig
	Year   int
	Season Season
	Kind   board.Phase // Movement, Retreats or Adjustments
	// Units are the units on the board, sorted by province; during a retreat phase the dislodged
	// units are in Dislodged instead.
	Units     []board.Unit
	Dislodged []adjudicate.Dislodgement
	// Owners maps each owned centre to its owner; a centre not in it is neutral.
	Owners map[string]board.Power
	// Disorder marks the powers in civil disorder: the removed ones always, a played one after
	// three missed order sets (§6.10) until it comes back.
	Disorder map[board.Power]bool
	// Eliminated maps each eliminated played power to the year it went out.
	Eliminated map[board.Power]int
	// Over is set by the centre update that ends the game; Solo names the winner of a solo.
	Over bool
	Solo board.Power
}

// New is the spring of the first year: the 1901 units, each home centre owned by its power, the
// removed powers in civil disorder (§6.2).
func New(cfg RulesConfig) State {
	s := State{Cfg: cfg, Year: cfg.FirstYear, Season: Spring, Kind: board.Movement,
		Units: board.StartingUnits(), Owners: map[string]board.Power{},
		Disorder: map[board.Power]bool{}, Eliminated: map[board.Power]int{}}
	sortUnits(s.Units)
	for _, p := range board.Provinces() {
		if p.Centre && p.Home != "" {
			s.Owners[p.Abbr] = p.Home
		}
	}
	for _, p := range cfg.Removed {
		s.Disorder[p] = true
	}
	return s
}

// Phase is the phase's name (§6.4): S1901M, S1901R, F1901M, F1901R, W1901A.
func (s State) Phase() string {
	season := map[Season]string{Spring: "S", Fall: "F", Winter: "W"}[s.Season]
	kind := map[board.Phase]string{board.Movement: "M", board.Retreats: "R", board.Adjustments: "A"}[s.Kind]
	return fmt.Sprintf("%s%d%s", season, s.Year, kind)
}

// Centres counts the centres each power owns; "neutral" counts the rest, so the counts always
// sum to 34 (§6.14).
func (s State) Centres() map[string]int {
	n := map[string]int{}
	for _, c := range board.Centres() {
		if p, ok := s.Owners[c]; ok {
			n[string(p)]++
		} else {
			n["neutral"]++
		}
	}
	return n
}

// Adjustment is p's owned centres minus its units (§6.9); meaningful in a winter.
func (s State) Adjustment(p board.Power) int { return adjudicate.Adjustment(s.Units, s.Owners, p) }

// Active reports whether p is a played power that gives orders: not in civil disorder, not
// eliminated.
func (s State) Active(p board.Power) bool {
	if s.Disorder[p] {
		return false
	}
	if _, out := s.Eliminated[p]; out {
		return false
	}
	for _, q := range s.Cfg.Powers {
		if q == p {
			return true
		}
	}
	return false
}

// UnitsOf returns p's units, sorted by province.
func (s State) UnitsOf(p board.Power) []board.Unit {
	var out []board.Unit
	for _, u := range s.Units {
		if u.Power == p {
			out = append(out, u)
		}
	}
	return out
}

// clone copies s deeply enough that changing the copy leaves s alone.
func (s State) clone() State {
	c := s
	c.Units = append([]board.Unit(nil), s.Units...)
	c.Dislodged = append([]adjudicate.Dislodgement(nil), s.Dislodged...)
	c.Owners = map[string]board.Power{}
	for k, v := range s.Owners {
		c.Owners[k] = v
	}
	c.Disorder = map[board.Power]bool{}
	for k, v := range s.Disorder {
		c.Disorder[k] = v
	}
	c.Eliminated = map[board.Power]int{}
	for k, v := range s.Eliminated {
		c.Eliminated[k] = v
	}
	return c
}

func sortUnits(us []board.Unit) {
	sort.Slice(us, func(a, b int) bool { return us[a].Loc < us[b].Loc })
}
