package wardenpay

import (
	"errors"
	"fmt"
	"time"

	"arena/games/warden/feed"
	"arena/storage"
)

// StatusFailed is a match parked for the operator (§5.6: a conservation failure, or the same
// input crashing its table twice); only Void or a resume moves it.
const StatusFailed = "FAILED"

// ErrNoMatch is Void's answer for a match id the store does not hold.
var ErrNoMatch = errors.New("wardenpay: no such match")

// ErrNotFailed is Void's answer for a match that is not FAILED (wrapped with its status): only
// a parked match may be voided, so a void never races a settlement.
var ErrNotFailed = errors.New("wardenpay: the match is not FAILED")

// Void is the operator's void of a FAILED match (§5.6): in one write, a refund job of the whole
// stake for each cleared seat (the jobs the Worker pays exactly as a cancel's, §11), the match
// REFUNDING, and the Gallery's match_voided {reason, refunds} at now. It writes no Ledger row,
// so the match never touches Standing (§5.1 [JC-22]); the Worker closes it (CLOSED) once its
// refunds are confirmed. It returns the queued jobs. Errors: ErrNoMatch, ErrNotFailed, or the
// store's; on any error nothing is written.
func Void(st *storage.Store, id, reason string, now time.Time) ([]Job, error) {
	var queued []Job
	err := st.WardenUpdate(func(t storage.WardenTx) error {
		queued = nil
		var m doorMatch
		found, err := t.Get(matchKey(id), &m)
		if err != nil {
			return err
		}
		if !found {
			return ErrNoMatch
		}
		if m.Status != StatusFailed {
			return fmt.Errorf("%w: it is %s", ErrNotFailed, m.Status)
		}
		if queued, err = queueRefunds(t, m); err != nil {
			return err
		}
		if err := setMatchStatus(t, id, StatusRefunding); err != nil {
			return err
		}
		refunds := []feed.Refund{}
		for _, j := range queued {
			refunds = append(refunds, feed.Refund{Seat: j.Seat, Amount: int64(j.Amount), Status: JobQueued})
		}
		var g struct {
			Game string `json:"game"`
		}
		if _, err := t.Get(matchKey(id), &g); err != nil {
			return err
		}
		_, err = t.AppendFeed(feed.MatchVoided{Reason: reason, Refunds: refunds}.Event(feed.Head{At: now, MatchID: id, Game: g.Game}))
		return err
	})
	if err != nil {
		return nil, err
	}
	return queued, nil
}

// ErrNoJob is Retry's answer for a match and seat with no payout or refund job.
var ErrNoJob = errors.New("wardenpay: no such job")

// ErrNotFailedJob is Retry's answer for a job that is not failed (wrapped with its status).
var ErrNotFailedJob = errors.New("wardenpay: the job is not failed")

// Retry is the operator's retry of a payout_failed job (§11: the operator retries, after
// fixing what made its transfers revert, e.g. the wallet's token balance): the failed job at
// payoutq/<match>/<seat> is queued again, its reverted hashes kept and MaxReverts counted
// afresh from here, so the Worker signs it at a new nonce on its next pass. The match stays
// SETTLING (or REFUNDING) throughout, as a failed job leaves it. Errors: ErrNoJob,
// ErrNotFailedJob, or the store's; on any error nothing is written.
func Retry(st *storage.Store, match, seat string) (Job, error) {
	var j Job
	err := st.WardenUpdate(func(t storage.WardenTx) error {
		found, err := t.Get(jobKey(match, seat), &j)
		if err != nil {
			return err
		}
		if !found {
			return ErrNoJob
		}
		if j.Status != JobFailed {
			return fmt.Errorf("%w: it is %s", ErrNotFailedJob, j.Status)
		}
		j.Status, j.Reason, j.Retried = JobQueued, "", len(j.Reverted)
		return t.Put(jobKey(match, seat), j)
	})
	if err != nil {
		return Job{}, err
	}
	return j, nil
}
