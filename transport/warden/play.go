package warden

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	aw "arena/actors/warden"
	"arena/storage"
	"arena/transport/door"
)

// MaxWait bounds a private view's long poll (§7.1: wait ≤ 25 000 ms).
const MaxWait = 25 * time.Second

// playing is the seat number (1 = A, 2 = B) of the caller in match id, with the match: errors
// unknown_match, not_seated, and wrong_state while no play has begun (the doors translate, the
// match actor decides everything else).
func (d *Doors) playing(c echo.Context, id string) (Match, int, error) {
	wallet, err := d.caller(c)
	if err != nil {
		return Match{}, 0, err
	}
	m, err := d.match(id)
	if err != nil {
		return Match{}, 0, err
	}
	seat := 0
	switch seatOf(m, wallet) {
	case "A":
		seat = 1
	case "B":
		seat = 2
	default:
		return m, 0, refuse("not_seated", "the caller has no seat in "+m.ID)
	}
	if d.Play == nil {
		return m, seat, refuse("wrong_state", "this Warden plays no match")
	}
	return m, seat, nil
}

// act is POST /v1/warden/matches/{id}/actions {round, action, args} (§7.2): the action goes to
// the match's actor, which answers once it is durable: 200 {accepted:true, seq, step_closes_at}.
// With an Idempotency-Key the answer is stored in the action's own transaction. Refusals (§7.3):
// bad_request, unauthorized, unknown_match, not_seated, wrong_state, stale_round,
// already_acted, wrong_step, illegal_action, bad_args, ask_above_valuation; a refusal changes
// nothing and never uses up the step. The answer holds nothing private.
func (d *Doors) act(c echo.Context) error {
	id := c.Param("id")
	wallet, err := d.caller(c)
	if err != nil {
		return err
	}
	return d.idempotent(c, wallet, true, func(raw []byte, keep keeper) (int, any, error) {
		var in struct {
			Round  *int            `json:"round"`
			Action string          `json:"action"`
			Args   json.RawMessage `json:"args"`
		}
		if err := door.DecodeBytes(raw, &in); err != nil {
			return 0, nil, err
		}
		if in.Round == nil || in.Action == "" {
			return 0, nil, refuse("bad_request", "round and action are required")
		}
		_, seat, err := d.playing(c, id)
		if err != nil {
			return 0, nil, err
		}
		rep, err := d.Play.Act(c.Request().Context(), &aw.ActRequest{Match: id, Seat: seat, Round: *in.Round,
			Action: in.Action, Args: in.Args, Keep: func(tx storage.WardenTx, out aw.ActReply) error {
				return keep(tx, http.StatusOK, actAnswer(out))
			}})
		if err != nil {
			return 0, nil, err
		}
		return http.StatusOK, actAnswer(rep), nil
	})
}

func actAnswer(r aw.ActReply) map[string]any {
	out := map[string]any{"accepted": r.Accepted, "seq": r.Seq, "step_closes_at": nil}
	if !r.StepClosesAt.IsZero() {
		out["step_closes_at"] = stamp(r.StepClosesAt)
	}
	return out
}

func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// me is GET /v1/warden/matches/{id}/me?after=seq&wait=ms (§9.1): the caller's private view,
// with the events it may read after seq; with wait (≤ 25 000 ms) it long-polls for the next
// change while there is none past seq and the match is live. Bearer only: metering by x402 is
// not built yet.
func (d *Doors) me(c echo.Context) error {
	return d.private(c, false)
}

// moves is GET /v1/warden/matches/{id}/me/moves: the caller's legal moves only.
func (d *Doors) moves(c echo.Context) error {
	return d.private(c, true)
}

func (d *Doors) private(c echo.Context, movesOnly bool) error {
	id := c.Param("id")
	q := c.QueryParams()
	var after int64
	var wait time.Duration
	if s := q.Get("after"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 0 {
			return refuse("bad_request", "after is a non-negative integer (a seq)")
		}
		after = n
	}
	if s := q.Get("wait"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 0 || n > MaxWait.Milliseconds() {
			return refuse("bad_request", "wait is milliseconds, 0..25000")
		}
		wait = time.Duration(n) * time.Millisecond
	}
	_, seat, err := d.playing(c, id)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	out, err := d.privateView(c.Request().Context(), id, seat, after, wait)
	if err != nil {
		return err
	}
	if movesOnly {
		return c.JSON(http.StatusOK, map[string]any{"round": out["round"], "step": out["step"], "deadline": out["deadline"],
			"legal_moves": out["legal_moves"]})
	}
	return c.JSON(http.StatusOK, out)
}

// privateView is seat's (1 = A, 2 = B) private view of match id (§9.1) with its events after
// seq after, long-polled up to wait while nothing is past after and the match is live.
func (d *Doors) privateView(ctx context.Context, id string, seat int, after int64, wait time.Duration) (map[string]any, error) {
	v, err := d.Play.View(ctx, id, seat, after)
	if err != nil {
		return nil, err
	}
	if wait > 0 && len(v.Events) == 0 && v.Status == aw.StatusLive {
		t := time.NewTimer(wait)
		select {
		case <-v.Changed:
		case <-t.C:
		case <-ctx.Done():
		}
		t.Stop()
		if v, err = d.Play.View(context.WithoutCancel(ctx), id, seat, after); err != nil {
			return nil, err
		}
	}
	opp := v.Seats[2-seat]
	out := d.common(v)
	out["seat"] = v.Seat
	out["opponent"] = map[string]any{"contender_id": opp.ContenderID, "name": opp.Name, "temperament": opp.Temperament}
	out["legal_moves"] = legalMoves(v)
	events := []any{}
	for _, e := range v.Events {
		events = append(events, e)
	}
	out["events"] = events
	return out, nil
}

// View is seat's ("A" or "B") private view of match as GET /me serves it, for the MCP door's
// match-tied tools (MatchViews): once the match is played, the match actor's view with its events
// after seq after, long-polled up to wait; before (or with no match actors), the stored record's
// view (StoredViews).
func (d *Doors) View(ctx context.Context, match, seat string, after uint64, wait time.Duration) (json.RawMessage, error) {
	m, err := d.match(match)
	if err != nil {
		return nil, err
	}
	n := map[string]int{"A": 1, "B": 2}[seat]
	if d.Play == nil || !played(m) || n == 0 {
		return StoredViews{Store: d.Store}.View(ctx, match, seat, after, wait)
	}
	out, err := d.privateView(ctx, match, n, int64(min(after, 1<<62)), min(wait, MaxWait))
	if err != nil {
		return nil, err
	}
	return json.Marshal(out)
}

var _ MatchViews = (*Doors)(nil)

// common is what the private and public views share.
func (d *Doors) common(v aw.View) map[string]any {
	out := map[string]any{"v": 1, "match_id": v.Match, "game": v.Game, "rules_version": v.RulesVersion,
		"status": strings.ToLower(v.Status), "stake": v.Stake, "seed_hash": v.SeedHash, "round": v.Round,
		"step": v.Step, "deadline": deadlineOf(v), "deadline_ms": nil, "state": v.State, "last_seq": v.LastSeq}
	if !v.Deadline.IsZero() {
		out["deadline_ms"] = max(0, v.Deadline.Sub(d.now()).Milliseconds())
	}
	if s := v.Settlement; s != nil {
		seats := map[string]any{}
		for i, f := range s.Seats {
			seats[string(rune('A'+i))] = map[string]any{"gross_return": f.Gross, "rake": f.Rake, "paid_out": f.PaidOut,
				"net": f.Net, "result": f.Result}
		}
		out["settlement"] = map[string]any{"seats": seats, "house": s.House, "rake_bps": s.RakeBps, "seed": s.Seed,
			"log_hash": s.LogHash, "finished_at": stamp(s.FinishedAt)}
	}
	return out
}

func deadlineOf(v aw.View) any {
	if v.Deadline.IsZero() {
		return nil
	}
	return stamp(v.Deadline)
}

// legalMoves is §9.1's legal_moves: per move its round, step, action and the action's bounds.
func legalMoves(v aw.View) []any {
	out := []any{}
	for _, m := range v.Legal {
		var mv map[string]any
		b, err := json.Marshal(m.Action)
		if err != nil || json.Unmarshal(b, &mv) != nil {
			continue
		}
		mv["round"], mv["step"] = m.Round, m.Step
		out = append(out, mv)
	}
	return out
}

// played reports whether match m was played (LIVE and after; the public view then carries its
// play). A canceled, expired or refunded match never was.
func played(m Match) bool {
	switch m.Status {
	case aw.StatusLive, aw.StatusFinished, aw.StatusSettling, aw.StatusFailed, "SETTLED":
		return true
	}
	return false
}
