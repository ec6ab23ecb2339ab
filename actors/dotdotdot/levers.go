package dotdotdot

import (
	"context"

	"arena/actors"
	"arena/games"
	"arena/games/blitz"
)

// KindShowcase is the table kind of a Showcase: in-house agents playing for an audience, whose
// in-house seats carry their accusation in their answers (§12). The house opens one
// (Arena.OpenShowcase, kinds.go).
const KindShowcase = "showcase"

// OpenTable is actors.Arena's OpenTable with §12's lever rule written into every Blitz seat
// (setLevers) first: every DOTDOTDOT table opens through here (the desk's Practice, walkin and
// hosted tables, an agent's Practice, the paid tables), so who holds a seat's levers is decided
// by the product in one place, from the table's kind, and enforced by the game. The table's fees
// are written in too (setFees): the configured ones, with no inference fee when no house model
// is configured (every off-the-shelf seat then plays the fallback policy). Errors are
// actors.Arena.OpenTable's.
//
// The table's kind (kinds.go) is enforced here too: its seats must be seats the kind lets sit
// (admit: bad_table otherwise), its scouting is the kind's on the agent clock (setScouting,
// §5.2), Free play registers its opening alone (setAnchors, §5.5), and every Badge seat shows
// its Badge's rating (setRatings, §5.4, §15).
func (a *Arena) OpenTable(ctx context.Context, spec actors.TableSpec) (string, error) {
	fees := a.fees()
	if a.opts.Model == nil {
		fees.Inference = 0 // §14: no seat thinks on a house model this arena does not have
	}
	spec = setFees(setOwners(setLevers(spec), a.opts.HouseOwner), fees)
	spec = a.setRatings(setScouting(setAnchors(spec)))
	if err := admit(spec, a.ratedRounds); err != nil {
		return "", err
	}
	return a.Arena.OpenTable(ctx, spec)
}

// setLevers returns spec with each Blitz seat's blitz.SeatOptions.Levers set by seatLevers (the
// seats are copied; a table of another game, or a seat whose options do not decode, which
// OpenTable then refuses, is left as it is).
func setLevers(spec actors.TableSpec) actors.TableSpec {
	if spec.Game != walkinGame {
		return spec
	}
	seats := append([]actors.SeatSpec(nil), spec.Seats...)
	opts := make([]blitz.SeatOptions, len(seats))
	humans := 0
	for i := range seats {
		o, err := blitz.SeatOptionsOf(seats[i].Seat)
		if err != nil {
			return spec
		}
		opts[i] = o
		if o.Human {
			humans++
		}
	}
	for i := range seats {
		opts[i].Levers = seatLevers(spec.Kind, spec.Pace, opts[i], humans)
		seats[i].Seat.Options = opts[i].JSON()
	}
	spec.Seats = seats
	return spec
}

// seatLevers is who holds the levers of seat o at a table of kind tableKind on pace with humans
// human seats (§12: "an agent MAY carry accusation in a talk or commit response where the
// table lets it hold its human's lever: a one-human table at AI speed, every in-house seat at
// a Showcase, and every walk-in ... Anywhere else the field is ignored"):
//
//   - a walk-in is its own human (blitz.LeversOwn), at every table;
//   - an in-house seat (kind house or arena) at a Showcase: its agent holds them (LeversAgent);
//   - the one human seat of a table on the agent clock (AI speed): its agent holds the
//     accusation and its human's own accuse is refused ai_speed (LeversAgent);
//   - any other human seat: the human holds them over its session (LeversHuman);
//   - any other seat (a house seat at Practice, walkin, hosted or paid tables, an agent with no
//     human): none (LeversNone).
func seatLevers(tableKind string, pace games.Pace, o blitz.SeatOptions, humans int) string {
	switch {
	case o.Kind == "walkin":
		return blitz.LeversOwn
	case tableKind == KindShowcase && (o.Kind == "house" || o.Kind == "arena"):
		return blitz.LeversAgent
	case o.Human && humans == 1 && aiSpeed(pace):
		return blitz.LeversAgent
	case o.Human:
		return blitz.LeversHuman
	}
	return blitz.LeversNone
}

// aiSpeed reports whether pace is the agent clock (§5.3, blitz.AgentPace; a zero pace runs on
// it), the pace at which a human cannot keep up with its agent. The chat clock (§4.5) is the
// human's.
func aiSpeed(p games.Pace) bool { return p.Name == "" || p.Name == "agent" }
