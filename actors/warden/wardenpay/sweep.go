package wardenpay

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"arena/games/warden/feed"
	"arena/storage"
)

// doorMatch is the part of a match record (the door's, match/<id>) the sweep reads (§5.1):
// its seats, deadlines in Unix milliseconds, and cleared stakes (seat → payment id).
type doorMatch struct {
	ID            string            `json:"id"`
	A             string            `json:"a"`
	B             string            `json:"b"`
	Status        string            `json:"status"`
	OpenUntil     int64             `json:"open_until_ms"`
	StakeDeadline int64             `json:"stake_deadline_ms"`
	Stakes        map[string]string `json:"stakes"`
}

func (m doorMatch) seat(s string) string {
	if s == "A" {
		return m.A
	}
	return m.B
}

// sweep is the deadlines' pass (§5.1, §5.4): an OPEN match past open_until is EXPIRED
// (nothing was paid); a STAKING match past its stake deadline is CANCELED, and each seat that
// did not stake has its Contender's stake_timeouts raised by one in the same write; a
// canceled match (CANCELED, REFUNDING or even CLOSED) with a cleared stake that has no refund
// job gets one, the whole stake back to its payer, and is REFUNDING. So a stake that cleared
// while its match was being canceled (the race of §5.4) is refunded the same way, whenever it
// clears. Expired and canceled matches write no Ledger row.
func (w *Worker) sweep() error {
	now := w.o.Now().UnixMilli()
	hasJob := map[string]bool{}
	if err := w.o.Store.WardenKeys("payoutq/", func(k string, _ []byte) error {
		hasJob[k] = true
		return nil
	}); err != nil {
		return err
	}
	var todo []doorMatch
	if err := w.o.Store.WardenKeys("match/", func(_ string, v []byte) error {
		var m doorMatch
		if err := json.Unmarshal(v, &m); err != nil {
			return err
		}
		switch m.Status {
		case StatusOpen:
			if m.OpenUntil > 0 && now > m.OpenUntil {
				todo = append(todo, m)
			}
		case StatusStaking:
			if m.StakeDeadline > 0 && now > m.StakeDeadline {
				todo = append(todo, m)
			}
		case StatusCanceled:
			todo = append(todo, m)
		case StatusRefunding, StatusClosed:
			for seat, pay := range m.Stakes {
				if pay != "" && !hasJob[jobKey(m.ID, seat)] {
					todo = append(todo, m)
					break
				}
			}
		}
		return nil
	}); err != nil {
		return err
	}
	var errs []error
	for _, m := range todo {
		if err := w.sweepMatch(m.ID, now); err != nil {
			errs = append(errs, fmt.Errorf("sweep %s: %w", m.ID, err))
		}
	}
	return errors.Join(errs...)
}

// sweepMatch moves one match by its deadlines and queues its refunds, each step a write that
// reads the match again.
func (w *Worker) sweepMatch(id string, now int64) error {
	var queued []Job
	err := w.o.Store.WardenUpdate(func(t storage.WardenTx) error {
		queued = nil
		var m doorMatch
		if found, err := t.Get(matchKey(id), &m); err != nil || !found {
			return err
		}
		switch m.Status {
		case StatusOpen:
			if now <= m.OpenUntil {
				return nil
			}
			if err := setMatchStatus(t, id, StatusExpired); err != nil {
				return err
			}
			return w.publish(t, id, feed.MatchCanceled{Reason: "expired", Refunds: []feed.Refund{}}.Event)
		case StatusStaking:
			if now <= m.StakeDeadline {
				return nil
			}
			for _, s := range []string{"A", "B"} {
				if m.Stakes[s] == "" && m.seat(s) != "" {
					if err := addStakeTimeout(t, m.seat(s)); err != nil {
						return err
					}
				}
			}
			if err := setMatchStatus(t, id, StatusCanceled); err != nil {
				return err
			}
			ev, err := canceledEvent(t, "stake_timeout", m)
			if err != nil {
				return err
			}
			if err := w.publish(t, id, ev); err != nil {
				return err
			}
			m.Status = StatusCanceled
		case StatusCanceled, StatusRefunding, StatusClosed:
		default:
			return nil
		}
		var err error
		if queued, err = queueRefunds(t, m); err != nil {
			return err
		}
		if m.Status == StatusCanceled || len(queued) > 0 {
			return setMatchStatus(t, id, StatusRefunding)
		}
		return nil
	})
	for _, j := range queued {
		w.o.Log.Info("wardenpay: refund queued", "match", id, "seat", j.Seat, "to", j.To, "amount", j.Amount, "payment", j.Payment)
	}
	return err
}

// queueRefunds queues a refund job for each cleared stake of m that has none: the whole stake
// back to its payer (§5.1 CANCELED / REFUNDING, §5.6 void). A seat holding any other job, or
// cleared by a payment that is not a settled stake of it, is an error and nothing is queued.
func queueRefunds(t storage.WardenTx, m doorMatch) ([]Job, error) {
	var queued []Job
	for _, s := range []string{"A", "B"} {
		pay := m.Stakes[s]
		if pay == "" {
			continue
		}
		var j Job
		if found, err := t.Get(jobKey(m.ID, s), &j); err != nil || found {
			if err == nil && (j.Kind != KindRefund || j.Payment != pay) {
				err = fmt.Errorf("seat %s holds %s job %s for payment %q, the stake is %s", s, j.Kind, j.Status, j.Payment, pay)
			}
			if err != nil {
				return nil, err
			}
			continue
		}
		p, found, err := t.Payment(pay)
		if err != nil {
			return nil, err
		}
		if !found || p.Status != storage.WardenPaySettled || p.Match != m.ID || p.Seat != s {
			return nil, fmt.Errorf("seat %s is cleared by payment %s, which is not a settled stake of it", s, pay)
		}
		j = Job{Match: m.ID, Seat: s, Kind: KindRefund, To: p.Payer, Amount: p.Amount, Payment: pay, Status: JobQueued}
		if err := t.Put(jobKey(m.ID, s), j); err != nil {
			return nil, err
		}
		queued = append(queued, j)
	}
	return queued, nil
}

// addStakeTimeout raises contender/<wallet>'s stake_timeouts by one (§5.4: shown on the
// profile, not part of Standing), keeping its other members.
func addStakeTimeout(t storage.WardenTx, wallet string) error {
	var c map[string]json.RawMessage
	found, err := t.Get("contender/"+wallet, &c)
	if err != nil || !found {
		return err
	}
	var n int64
	if raw, ok := c["stake_timeouts"]; ok {
		if err := json.Unmarshal(raw, &n); err != nil {
			return err
		}
	}
	c["stake_timeouts"], _ = json.Marshal(n + 1)
	return t.Put("contender/"+wallet, c)
}

// closeAll closes every REFUNDING match whose refunds are all confirmed (§5.1): once its stake
// window and the settle wait after it have passed and no stake payment of it is still being
// settled (a stake clearing late is refunded first). A failed refund keeps the match REFUNDING
// for the operator.
func (w *Worker) closeAll() error {
	now := w.o.Now()
	var refunding []doorMatch
	if err := w.o.Store.WardenKeys("match/", func(_ string, v []byte) error {
		var m doorMatch
		if err := json.Unmarshal(v, &m); err != nil {
			return err
		}
		if m.Status == StatusRefunding && now.UnixMilli() > m.StakeDeadline+w.o.StakeSettleWait.Milliseconds() {
			refunding = append(refunding, m)
		}
		return nil
	}); err != nil || len(refunding) == 0 {
		return err
	}
	open := map[string]bool{}
	if err := w.o.Store.WardenPayments(func(p storage.WardenPayment) error {
		if p.Status == storage.WardenPaySettling || p.Status == storage.WardenPaySubmitted {
			open[p.Match] = true
		}
		return nil
	}); err != nil {
		return err
	}
	var errs []error
	for _, m := range refunding {
		if open[m.ID] {
			continue
		}
		err := w.o.Store.WardenUpdate(func(t storage.WardenTx) error {
			var cur doorMatch
			if found, err := t.Get(matchKey(m.ID), &cur); err != nil || !found || cur.Status != StatusRefunding {
				return err
			}
			for _, s := range []string{"A", "B"} {
				if cur.Stakes[s] == "" {
					continue
				}
				var j Job
				if found, err := t.Get(jobKey(m.ID, s), &j); err != nil || !found || j.Status != JobConfirmed {
					return err // not yet: the refund is queued by the sweep, or in flight
				}
			}
			if err := t.Scan(jobPrefix(m.ID), func(k string, v []byte) error {
				if !strings.Contains(string(v), `"status":"`+JobConfirmed+`"`) {
					return errWaiting
				}
				return nil
			}); err != nil {
				return err
			}
			return setMatchStatus(t, m.ID, StatusClosed)
		})
		if err != nil && !errors.Is(err, errWaiting) {
			errs = append(errs, fmt.Errorf("close %s: %w", m.ID, err))
		}
	}
	return errors.Join(errs...)
}
