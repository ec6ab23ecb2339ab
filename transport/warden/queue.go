package warden

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"arena/storage"
	"arena/transport/door"
)

// QueueTTL is how long a queue entry waits for a partner (§5.5).
const QueueTTL = OpenTTL

// ticketRec is a queue ticket as warden_state stores it.
type ticketRec struct {
	Ticket  string `json:"ticket"`
	Wallet  string `json:"wallet"`
	Entry   string `json:"entry"`  // its queue/… key while queued
	Status  string `json:"status"` // queued | matched | left
	Expires int64  `json:"expires_ms"`
	Match   string `json:"match_id,omitempty"`
	Seat    string `json:"seat,omitempty"`
}

// queueKey is an entry's key: FIFO per (game, stake) by the time it was queued.
func queueKey(game string, stake uint64, at int64, ticket string) string {
	return fmt.Sprintf("queue/%s/%020d/%016d/%s", game, stake, at, ticket)
}

// queue is POST /v1/warden/queue {game, stake} (§5.5): the first other Contender waiting for the
// same (game, stake), and free to play, is paired with the caller in one transaction: a STAKING
// match with the waiting one as seat A (201 {match_id, seat:"B"}). Otherwise the caller waits:
// 202 {ticket, position}. Errors: unknown_game, bad_stake, already_queued, too_many_matches.
func (d *Doors) queue(c echo.Context) error {
	wallet, err := d.caller(c)
	if err != nil {
		return err
	}
	return d.idempotent(c, wallet, true, func(raw []byte, keep keeper) (int, any, error) {
		in, err := d.gameStake(raw)
		if err != nil {
			return 0, nil, err
		}
		now := ms(d.now())
		var status int
		var out map[string]any
		err = d.Store.WardenUpdate(func(tx storage.WardenTx) error {
			status, out = 0, nil
			if n, err := active(tx, wallet); err != nil {
				return err
			} else if n > 0 {
				return refuse("too_many_matches", wallet+" is already in a match that is staking or live")
			}
			prefix := fmt.Sprintf("queue/%s/%020d/", in.Game, in.Stake)
			var partner *ticketRec
			var stale []string
			position := 1
			var entries []string
			if err := tx.Scan(prefix, func(k string, _ []byte) error { entries = append(entries, k); return nil }); err != nil {
				return err
			}
			for _, k := range entries {
				var t ticketRec
				if _, err := tx.Get("ticket/"+k[strings.LastIndexByte(k, '/')+1:], &t); err != nil {
					return err
				}
				switch {
				case t.Expires < now:
					stale = append(stale, k)
				case t.Wallet == wallet:
					return refuse("already_queued", "the caller is queued already (ticket "+t.Ticket+")")
				case partner == nil:
					if n, err := active(tx, t.Wallet); err != nil {
						return err
					} else if n == 0 {
						partner = &t
					}
				default:
					position++
				}
			}
			for _, k := range stale {
				if err := tx.Delete(k); err != nil {
					return err
				}
			}
			if partner != nil {
				m := Match{ID: "wm_" + randHex(8), Game: in.Game, Stake: uint64(in.Stake), A: partner.Wallet, B: wallet,
					Status: StatusStaking, OpenUntil: now, StakeDeadline: now + StakeWindow.Milliseconds()}
				if err := tx.Put("match/"+m.ID, m); err != nil {
					return err
				}
				// Opened and paired in one write: both events, so its feed starts at
				// match_opened as every match feed does (§15.5).
				if err := d.feedOpened(tx, m, time.UnixMilli(now)); err != nil {
					return err
				}
				if err := d.feedPaired(tx, m, time.UnixMilli(now)); err != nil {
					return err
				}
				if err := tx.Delete(partner.Entry); err != nil {
					return err
				}
				partner.Status, partner.Entry, partner.Match, partner.Seat = "matched", "", m.ID, "A"
				if err := tx.Put("ticket/"+partner.Ticket, partner); err != nil {
					return err
				}
				status, out = http.StatusCreated, map[string]any{"match_id": m.ID, "seat": "B", "stake_deadline": rfc(m.StakeDeadline)}
				return keep(tx, status, out)
			}
			t := ticketRec{Ticket: "wq_" + randHex(8), Wallet: wallet, Status: "queued", Expires: now + QueueTTL.Milliseconds()}
			t.Entry = queueKey(in.Game, uint64(in.Stake), now, t.Ticket)
			if err := tx.Put(t.Entry, t.Ticket); err != nil {
				return err
			}
			if err := tx.Put("ticket/"+t.Ticket, t); err != nil {
				return err
			}
			status, out = http.StatusAccepted, map[string]any{"ticket": t.Ticket, "position": position}
			return keep(tx, status, out)
		})
		if err != nil {
			return 0, nil, err
		}
		return status, out, nil
	})
}

// ticket reads the caller's ticket: unknown (unknown_match would mislead: bad_request names it),
// another's (forbidden).
func (d *Doors) ticket(c echo.Context) (ticketRec, string, error) {
	wallet, err := d.caller(c)
	if err != nil {
		return ticketRec{}, "", err
	}
	var t ticketRec
	var found bool
	if err := d.Store.WardenView(func(tx storage.WardenTx) (err error) {
		found, err = tx.Get("ticket/"+c.Param("ticket"), &t)
		return err
	}); err != nil {
		return ticketRec{}, "", err
	}
	switch {
	case !found:
		return ticketRec{}, "", door.Refuse(door.CodeNotFound, "no queue ticket "+strconv.Quote(c.Param("ticket")))
	case t.Wallet != wallet:
		return ticketRec{}, "", refuse("forbidden", "the ticket is another Contender's")
	}
	return t, wallet, nil
}

// queueStatus is GET /v1/warden/queue/{ticket}: {status: queued|matched|expired|left,
// match_id?, seat?}. It answers at once (no long poll yet).
func (d *Doors) queueStatus(c echo.Context) error {
	t, _, err := d.ticket(c)
	if err != nil {
		return err
	}
	out := map[string]any{"status": t.Status}
	if t.Status == "queued" && t.Expires < ms(d.now()) {
		out["status"] = "expired"
	}
	if t.Status == "matched" {
		out["match_id"], out["seat"] = t.Match, t.Seat
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, out)
}

// leaveQueue is DELETE /v1/warden/queue/{ticket}: {status:"left"}; a matched ticket is
// wrong_state (the match is the caller's now).
func (d *Doors) leaveQueue(c echo.Context) error {
	t, _, err := d.ticket(c)
	if err != nil {
		return err
	}
	err = d.Store.WardenUpdate(func(tx storage.WardenTx) error {
		var cur ticketRec
		if _, err := tx.Get("ticket/"+t.Ticket, &cur); err != nil {
			return err
		}
		if cur.Status == "matched" {
			return refuse("wrong_state", "the ticket was matched: "+cur.Match)
		}
		if cur.Entry != "" {
			if err := tx.Delete(cur.Entry); err != nil {
				return err
			}
		}
		cur.Status, cur.Entry = "left", ""
		return tx.Put("ticket/"+cur.Ticket, cur)
	})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"status": "left"})
}
