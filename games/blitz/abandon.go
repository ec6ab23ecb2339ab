package blitz

import (
	"strconv"
	"time"

	"arena/games"
	"arena/games/canon"
)

// Unit is the unit of Blitz's entries, payouts and the house's take (§14): microCCD, or
// micro-chips on a chips table.
const Unit = "microCCD"

// Abandon ends an unrevealed round early at now (games.Match): one public round.abandoned event
// {reason, seed} closes the transcript, nothing settles, and the Result returns every seat its
// entry (Payouts = Entry, House 0) with the standings so far (net of collateral and budget held now),
// the seed revealed and Abandoned = reason. No anchor is asked for. A revealed round is left as
// it is (empty Step).
func (m *Match) Abandon(now time.Time, reason string) games.Step {
	if m.stage == stRevealed {
		return games.Step{}
	}
	if reason == "" {
		reason = "abandoned"
	}
	m.logInput(logOp{Op: "abandon", At: now, Reason: reason})
	m.begin(now)
	seed := hexOf(m.setup.Seed[:])
	m.emit("round.abandoned", visPublic, map[string]any{"reason": reason, "seed": seed})
	res := games.Result{Unit: Unit, Payouts: map[int]int64{}, SeedHash: m.SeedHash(), Seed: seed,
		TranscriptHash: canon.IDOf(m.transcript.sum()), Abandoned: reason}
	scores := map[int]float64{}
	for _, s := range m.seats {
		res.Payouts[s.Seat.Seat] = s.Entry
		scores[s.Seat.Seat] = float64(s.collateral + s.budget - s.Entry) // net so far, microCCD
	}
	res.Standings = games.Rank(scores)
	m.result = &res
	m.stage = stRevealed
	m.current = nil
	return m.end()
}

// View is what viewer may see now (games.Match): a seat's §5.4 state object while it has a move
// open (its prompt's State), and otherwise, and for a spectator (0), the public view: the round,
// turn, phase and exchange and the public log, {"round","turn","phase","exchange","public_log"}.
// Neither holds a sealed commitment's terms or another seat's private line.
func (m *Match) View(viewer int) games.Doc {
	if viewer >= 1 && m.stage != stRevealed {
		for _, p := range m.current {
			if p.Seat == viewer && !m.answered[p.Seat] && p.State.Len() > 0 {
				return p.State
			}
		}
	}
	head := make([]byte, 0, 96)
	head = append(head, `{"round":`...)
	head = appendJCSString(head, m.setup.Round)
	head = append(head, `,"turn":`...)
	head = strconv.AppendInt(head, int64(m.turn), 10)
	head = append(head, `,"phase":`...)
	head = appendJCSString(head, stageName[m.stage])
	head = append(head, `,"exchange":`...)
	head = strconv.AppendInt(head, int64(m.exchange), 10)
	parts := make([][]byte, 0, len(m.pubLog.chunks)+2)
	parts = append(parts, logOpenBytes)
	parts = append(parts, m.pubLog.chunks...)
	parts = append(parts, logCloseBytes)
	return games.JoinTail(m.pubLog.packed, 1, parts...).WithHead(head)
}
