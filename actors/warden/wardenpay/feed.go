package wardenpay

import (
	"arena/games/warden/feed"
	"arena/storage"
)

// The Gallery events this package writes (warden-games §15.3), each appended in the same
// transaction as the state change it reports (the store wakes the feed's readers once it
// commits): payout_sent or refund_sent with a job's signed transaction, payout_confirmed with
// its receipt, match_settled with the SETTLED write, match_canceled with a cancel or an expiry.

// head is the feed head of match at now: its game from the match record.
func (w *Worker) head(t storage.WardenTx, match string) (feed.Head, error) {
	var m struct {
		Game string `json:"game"`
	}
	if _, err := t.Get(matchKey(match), &m); err != nil {
		return feed.Head{}, err
	}
	return feed.Head{At: w.o.Now(), MatchID: match, Game: m.Game}, nil
}

// publish appends the event ev makes of the match's head.
func (w *Worker) publish(t storage.WardenTx, match string, ev func(feed.Head) feed.Event) error {
	h, err := w.head(t, match)
	if err != nil {
		return err
	}
	_, err = t.AppendFeed(ev(h))
	return err
}

// sentEvent is a signed job's payout_sent or refund_sent.
func sentEvent(j Job) func(feed.Head) feed.Event {
	if j.Kind == KindRefund {
		return feed.RefundSent{Seat: j.Seat, Amount: int64(j.Amount), Tx: j.Tx}.Event
	}
	return feed.Payout{Seat: j.Seat, Amount: int64(j.Amount), Tx: j.Tx}.Sent
}

// standing is a Contender's public standing from its aggregate (§13.4).
func (w *Worker) standing(t storage.WardenTx, id string) (feed.Standing, error) {
	a, err := t.WardenAggregate(id, false)
	if err != nil {
		return feed.Standing{}, err
	}
	pct := w.o.EliteWinRatePct
	if pct == 0 {
		pct = 60
	}
	s := feed.Standing{Tier: a.TierAt(pct, w.o.EliteMinMatches), Matches: a.Matches, NetTotal: a.NetTotal}
	if a.Matches > 0 {
		s.WinRateBps = a.Wins * 10000 / a.Matches
	}
	return s, nil
}

// settledEvent is match_settled for the rows just appended (A then B).
func (w *Worker) settledEvent(t storage.WardenTx, rows []storage.WardenRow) (func(feed.Head) feed.Event, error) {
	var after feed.Pair[feed.Standing]
	var err error
	if after.A, err = w.standing(t, rows[0].ContenderID); err != nil {
		return nil, err
	}
	if after.B, err = w.standing(t, rows[1].ContenderID); err != nil {
		return nil, err
	}
	return feed.MatchSettled{LedgerRows: [2]uint64{rows[0].Seq, rows[1].Seq},
		LedgerHead: feed.LedgerHead{Seq: rows[1].Seq, RowHash: rows[1].RowHash}, StandingAfter: after}.Event, nil
}

// canceledEvent is match_canceled for reason with the refunds of the cleared stakes, queued.
func canceledEvent(t storage.WardenTx, reason string, m doorMatch) (func(feed.Head) feed.Event, error) {
	refunds := []feed.Refund{}
	for _, s := range []string{"A", "B"} {
		if m.Stakes[s] == "" {
			continue
		}
		p, found, err := t.Payment(m.Stakes[s])
		if err != nil {
			return nil, err
		}
		if found {
			refunds = append(refunds, feed.Refund{Seat: s, Amount: int64(p.Amount), Status: JobQueued})
		}
	}
	return feed.MatchCanceled{Reason: reason, Refunds: refunds}.Event, nil
}
