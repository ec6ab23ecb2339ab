package diplomacy

import (
	"errors"
	"fmt"
	"sort"

	"arena/games/breakroom/diplomacy/adjudicate"
	"arena/games/breakroom/diplomacy/board"
)

// Report is what resolving one phase produced: the public `orders` and `adjudication` lines of
// §6.13, and the centre update and endings when the phase closed a year's fall.
type Report struct {
	Phase string // the phase resolved, e.g. "F1901M"
	// Orders are every power's orders as resolved, normalized: defaults included (a hold, a
	// disband, a civil-disorder removal), GER/ITA's holds too.
	Orders map[board.Power][]string
	// Results, Dislodged and Standoffs are the adjudication (movement and retreats; an
	// adjustment phase has Results only).
	Results   []adjudicate.Result
	Dislodged []adjudicate.Dislodgement
	Standoffs []string
	// Centres is set when a centre update followed this phase (after the fall, §6.4).
	Centres bool
	// Eliminated are the played powers that went out after this phase (§6.10).
	Eliminated []board.Power
}

// ErrOver is returned by Resolve once the game has ended.
var ErrOver = errors.New("diplomacy: the game is over")

// Resolve closes the current phase with the order sets given (a missing power's default applies:
// all hold, all disband, builds waived and removals by the civil-disorder rule) and returns the
// next state and the phase's report. Powers in civil disorder have no say: GER/ITA always hold,
// disband when dislodged and never build (§6.2). Each set must pass CheckOrders; a set that does
// not, or one for a power that gives no orders, is an error and nothing is resolved.
func (s State) Resolve(orders map[board.Power][]string) (State, Report, error) {
	if s.Over {
		return s, Report{}, ErrOver
	}
	var all []adjudicate.Order
	powers := make([]board.Power, 0, len(orders))
	for p := range orders {
		powers = append(powers, p)
	}
	sort.Slice(powers, func(a, b int) bool { return powers[a] < powers[b] })
	for _, p := range powers {
		os, err := s.CheckOrders(p, orders[p])
		if err != nil {
			return s, Report{}, fmt.Errorf("diplomacy: %s: %w", p, err)
		}
		all = append(all, os...)
	}
	next := s.clone()
	rep := Report{Phase: s.Phase(), Orders: map[board.Power][]string{}}
	switch s.Kind {
	case board.Movement:
		out, err := adjudicate.Movement(s.Units, all)
		if err != nil {
			return s, Report{}, err
		}
		rep.Results, rep.Dislodged, rep.Standoffs = out.Results, out.Dislodged, out.Standoffs
		next.Units, next.Dislodged = out.Units, out.Dislodged
		if len(out.Dislodged) > 0 {
			next.Kind = board.Retreats
		} else {
			next.endSeason(&rep)
		}
	case board.Retreats:
		out := adjudicate.Retreats(s.Dislodged, all)
		rep.Results = out.Results
		next.Units = append(next.Units, out.Retreated...)
		sortUnits(next.Units)
		next.Dislodged = nil
		next.endSeason(&rep)
	case board.Adjustments:
		out, err := adjudicate.Adjust(s.Units, s.Owners, all)
		if err != nil {
			return s, Report{}, err
		}
		rep.Results = out.Results
		for _, u := range out.Disorder {
			rep.Results = append(rep.Results, adjudicate.Result{Power: u.Power, Succeeds: true,
				Order: board.Order{Kind: board.Remove, Unit: u.Type, Loc: u.Loc}})
		}
		next.Units = out.Units
		next.eliminate(&rep)
		next.Year, next.Season, next.Kind = s.Year+1, Spring, board.Movement
	}
	for _, r := range rep.Results {
		rep.Orders[r.Power] = append(rep.Orders[r.Power], r.Order.String())
	}
	return next, rep, nil
}

// endSeason follows a spring's or a fall's last phase: the fall movement, or the centre update
// with its endings and then the winter, or the next spring when nobody adjusts (§6.4).
func (s *State) endSeason(rep *Report) {
	if s.Season == Spring {
		s.Season, s.Kind = Fall, board.Movement
		return
	}
	rep.Centres = true
	for _, u := range s.Units {
		if r, _ := board.Lookup(u.Loc.Province()); r.Centre {
			s.Owners[r.Abbr] = u.Power
		}
	}
	for p, n := range s.Centres() {
		if p != "neutral" && n >= s.Cfg.VictoryCentres {
			s.Over, s.Solo = true, board.Power(p)
		}
	}
	s.eliminate(rep)
	if s.Year >= s.Cfg.LastYear {
		s.Over = true
	}
	if s.Over {
		return
	}
	for _, p := range board.Powers() {
		if s.Adjustment(p) != 0 {
			s.Season, s.Kind = Winter, board.Adjustments
			return
		}
	}
	s.Year, s.Season, s.Kind = s.Year+1, Spring, board.Movement
}

// eliminate puts out each played power left with no units and no centres (§6.10).
func (s *State) eliminate(rep *Report) {
	for _, p := range s.Cfg.Powers {
		if _, out := s.Eliminated[p]; out {
			continue
		}
		if len(s.UnitsOf(p)) == 0 && s.Centres()[string(p)] == 0 {
			s.Eliminated[p] = s.Year
			rep.Eliminated = append(rep.Eliminated, p)
		}
	}
}

// WithDisorder returns s with p in civil disorder or back from it (§6.10); GER/ITA stay in it.
func (s State) WithDisorder(p board.Power, on bool) State {
	c := s.clone()
	for _, q := range s.Cfg.Removed {
		if q == p {
			return c
		}
	}
	if on {
		c.Disorder[p] = true
	} else {
		delete(c.Disorder, p)
	}
	return c
}
