package dotdotdot

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"arena/storage"
)

// House funding (§5.7 with §11.5: the house seats' entries travel with open_round from the
// arena's account). A table the house cannot fund must not take players' money, and must not
// play with a pool the escrow never received: the hold is refused while the account could not
// fund a table's house seats (PaidTables.Hold), and a table whose house seats it cannot fund
// once its paid seats are known fails instead of opening (paidActor.open), its paid seats'
// entries refunded as a failed table's are (noteClosed, then the sweep). What the account
// already owes counts against it: the house seats of every table decided or open whose round
// the escrow has not been seen to hold (owed). An open_round that is refused all the same (the
// money left the account in between) is the reconciliation's (paid_reconcile.go).

// errUnfunded is why a table the house could not fund did not open.
var errUnfunded = errors.New("the house could not fund its seats: the arena's account holds less than their entries")

// owed is what the arena's account owes the escrow for tables other than except: the house
// seats' entries of every table decided, or open (or settled) whose round the escrow has not been
// seen to hold.
func (a *paidActor) owed(except *paidTable) int64 {
	var sum int64
	for _, t := range a.byID {
		if t == except {
			continue
		}
		switch {
		case t.status == storage.PaidDecided:
			sum += int64(a.seats-len(paidHolds(t))) * a.p.o.Entry
		case (t.status == storage.PaidOpen || t.status == storage.PaidSettled) && !t.onEscrow:
			sum += int64(len(t.house)) * a.p.o.Entry
		}
	}
	return sum
}

// funded reads the arena's account (off the actor): whether it holds need; false with an error
// when it could not be read. Without Funds, or an escrow that is not called, it is always funded.
func (p *PaidTables) funded(need int64) (bool, error) {
	if p.o.Funds == nil || p.o.Chain == nil || p.o.House == "" {
		return true, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	avail, err := p.o.Funds.Available(ctx)
	if err != nil {
		return false, err
	}
	if avail < need {
		p.metrics.unfunded.Inc()
		p.log.Error("paid table not opened: the house cannot fund its seats; fund the arena's account", "account", p.o.House,
			"available", avail, "needed", need)
		return false, nil
	}
	return true, nil
}

// unfunded records a hold refused for want of the house's funds.
func (a *paidActor) unfunded(need, avail int64, what string) {
	a.p.metrics.unfunded.Inc()
	a.p.log.Error("paid "+what+" refused: the house cannot fund its seats; fund the arena's account", "account", a.p.o.House,
		"available", avail, "needed", need)
}

// ccdText writes microCCD as CCD: "100", "0.5", "12.000001".
func ccdText(micro int64) string {
	neg := micro < 0
	if neg {
		micro = -micro
	}
	s := strconv.FormatInt(micro/1_000_000, 10)
	if f := micro % 1_000_000; f != 0 {
		s += "." + strings.TrimRight(strconv.FormatInt(1_000_000+f, 10)[1:], "0")
	}
	if neg {
		s = "-" + s
	}
	return s
}
