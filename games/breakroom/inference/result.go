package inference

import (
	"slices"

	"arena/games"
	"arena/games/breakroom"
	"arena/games/canon"
)

// Unit is the unit of Result: credits are the table's own currency (§2.8), a ranking currency
// only; at paid tables money follows the ranking (/payments), not the credits.
const Unit = "credits"

// place is one seat's ranking position before ranks are given.
type place struct {
	seat int // wire seat
	rank int
}

// order is §2.8's ranking: seats that never busted first, by credits descending (equal credits
// share a rank); then busted seats by bustOrder descending (the later to bust ranks higher;
// equal bustOrder share a rank); tied seats in ascending seat order; competition ranks.
func (m *match) order() []place {
	idx := make([]int, len(m.seats))
	for i := range idx {
		idx[i] = i
	}
	key := func(i int) (int, int64) {
		s := &m.seats[i]
		if s.busted {
			return 0, int64(s.bustOrder)
		}
		return 1, s.credits
	}
	cmp := func(a, b int) int {
		ga, ka := key(a)
		gb, kb := key(b)
		switch {
		case ga != gb:
			return gb - ga
		case ka > kb:
			return -1
		case ka < kb:
			return 1
		}
		return 0
	}
	slices.SortStableFunc(idx, cmp)
	out := make([]place, len(idx))
	for k, i := range idx {
		out[k] = place{seat: i, rank: k + 1}
		if k > 0 && cmp(idx[k-1], i) == 0 {
			out[k].rank = out[k-1].rank
		}
	}
	return out
}

// ranking is match_end.ranking (§2.8): {rank, seat, pubkey, name, credits, busted, bustOrder}
// (bustOrder null for a seat that never busted), best first; match_abandoned's standings are
// the same over the credits at the cut.
func (m *match) ranking() []map[string]any {
	var out []map[string]any
	for _, p := range m.order() {
		s := m.seats[p.seat]
		var bo any
		if s.busted {
			bo = s.bustOrder
		}
		out = append(out, map[string]any{
			"rank": p.rank, "seat": p.seat, "pubkey": s.pubkey, "name": s.name,
			"credits": s.credits, "busted": s.busted, "bustOrder": bo,
		})
	}
	return out
}

// standings are the ranking as games.Standings (house seats): Score is the seat's credits.
func (m *match) standings() []games.Standing {
	var out []games.Standing
	for _, p := range m.order() {
		out = append(out, games.Standing{Seat: breakroom.HouseSeat(p.seat), Rank: p.rank, Score: float64(m.seats[p.seat].credits)})
	}
	return out
}

// Result, once done: Standings by §2.8's ranking (Score: credits); Unit "credits"; Payouts
// every seat's Entry back and House 0, for the rules move no money; the seed and its hash; the
// transcript hash; Reveal {"ranking": the end line's ranking}; Abandoned the reason of an
// abandoned match, whose standings are those at the cut.
func (m *match) Result() (games.Result, bool) {
	if m.phase != phaseDone {
		return games.Result{}, false
	}
	payouts := make(map[int]int64, len(m.seats))
	for _, s := range m.setup.Seats {
		payouts[s.Seat] = s.Entry
	}
	reveal, _ := canon.Marshal(map[string]any{"ranking": m.ranking()})
	return games.Result{
		Standings:      m.standings(),
		Unit:           Unit,
		Payouts:        payouts,
		SeedHash:       breakroom.SeedHash(m.setup.Seed),
		Seed:           breakroom.SeedHex(m.setup.Seed),
		TranscriptHash: m.thash,
		Reveal:         reveal,
		Abandoned:      m.abandoned,
	}, true
}
