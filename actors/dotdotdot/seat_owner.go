package dotdotdot

import (
	"arena/actors"
	"arena/games/blitz"
)

// setOwners returns spec with the owner (blitz.SeatOptions.Owner, published in seat.taken, §15)
// of every seat whose Badge the house lends (actors.SeatSpec.LentKey: house seats and walk-ins,
// §4.4) set to house, the house identity account as CAIP-10 (Options.HouseOwner): a lent Badge
// is owned by it (§3). A registered agent's seat keeps the owner its join named (AgentJoin.Owner).
// With house empty (no house account configured) lent seats are left unowned (seat.taken says
// null). The seats are copied; a table of another game, or a seat whose options do not decode
// (which OpenTable then refuses), is left as it is.
func setOwners(spec actors.TableSpec, house string) actors.TableSpec {
	if spec.Game != walkinGame || house == "" {
		return spec
	}
	seats := append([]actors.SeatSpec(nil), spec.Seats...)
	for i := range seats {
		if !seats[i].LentKey() {
			continue
		}
		o, err := blitz.SeatOptionsOf(seats[i].Seat)
		if err != nil {
			return spec
		}
		o.Owner = house
		seats[i].Seat.Options = o.JSON()
	}
	spec.Seats = seats
	return spec
}
