package warden

import (
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"arena/actors/warden/wardenpay"
	"arena/storage"
	"arena/transport/door"
	"arena/transport/ops"
)

// Admin is the Warden's operator routes (warden-games §7.1 "Operator endpoints", §5.6, §11),
// behind `Authorization: Bearer <operator token>` (transport/ops.Bearer, as the market's and
// DOTDOTDOT's operator routes: no bearer 401 unauthorized, a wrong one 403 forbidden, an empty
// token refuses everyone) and, unless AllowRemote, answered only to loopback clients (anything
// else is forbidden before the token is compared):
//
//	GET  /v1/warden/admin/matches?status=FAILED          → {v:1, matches:[record + failed reason]}
//	POST /v1/warden/admin/matches/{id}/void              → {v:1, match_id, status:"REFUNDING", refunds:[job]}
//	POST /v1/warden/admin/ledger/verify                  → {v:1, ok, head | error}
//	GET  /v1/warden/admin/payments?status=               → {v:1, payments:[x402 payment record]}
//	GET  /v1/warden/admin/payouts?status=                → {v:1, jobs:[payout or refund job]}
//	POST /v1/warden/admin/payouts/{match}/{seat}/retry   → {v:1, job}: a payout_failed job queued again
//
// These answers name wallets, payment payloads and failure reasons: they are the operator's.
type Admin struct {
	Token       string
	AllowRemote bool
	Store       *storage.Store
	// Kick, when set, asks the payout Worker for a pass after a void or a retry queued jobs.
	Kick func()
	Now  func() time.Time // nil: time.Now
}

func (a *Admin) now() time.Time {
	if a.Now != nil {
		return a.Now()
	}
	return time.Now()
}

func (a *Admin) mount(e *echo.Echo) {
	g := e.Group("/v1/warden/admin", a.loopback, ops.Bearer(a.Token))
	g.GET("/matches", a.matches)
	g.POST("/matches/:id/void", a.void)
	g.POST("/ledger/verify", a.verify)
	g.GET("/payments", a.payments)
	g.GET("/payouts", a.payouts)
	g.POST("/payouts/:match/:seat/retry", a.retry)
}

// loopback refuses a client that is not on a loopback address (forbidden) unless AllowRemote.
func (a *Admin) loopback(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if !a.AllowRemote {
			host, _, err := net.SplitHostPort(c.Request().RemoteAddr)
			if err != nil {
				host = c.Request().RemoteAddr
			}
			if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
				return door.Refuse(door.CodeForbidden, "the Warden's operator routes answer loopback clients only")
			}
		}
		return next(c)
	}
}

// statusParam reads the one optional query parameter status, upper-cased when want is nil
// (a §5.1 state), else one of want; anything else is bad_request. "" means every status.
func statusParam(v url.Values, want []string) (string, error) {
	for k, vs := range v {
		if k != "status" {
			return "", refuse("bad_request", "unknown query parameter "+k+" (status)")
		}
		if len(vs) != 1 || vs[0] == "" {
			return "", refuse("bad_request", "status is given once, not empty")
		}
	}
	s := v.Get("status")
	if s == "" {
		return "", nil
	}
	if want == nil {
		s = strings.ToUpper(s)
		if !validStatus(s) {
			return "", refuse("bad_request", "status must be a match state of §5.1 (FAILED, SETTLING, …)")
		}
		return s, nil
	}
	for _, w := range want {
		if s == w {
			return s, nil
		}
	}
	return "", refuse("bad_request", "status must be one of "+strings.Join(want, ", "))
}

// matches is GET /v1/warden/admin/matches?status=: every match record (all of it, the
// operator's) of that status, with its play record's failed reason when it has one.
func (a *Admin) matches(c echo.Context) error {
	status, err := statusParam(c.QueryParams(), nil)
	if err != nil {
		return err
	}
	out := []map[string]any{}
	err = a.Store.WardenView(func(tx storage.WardenTx) error {
		var ids []Match
		if err := tx.Scan("match/", func(_ string, v []byte) error {
			var m Match
			if err := json.Unmarshal(v, &m); err != nil {
				return err
			}
			if status == "" || m.Status == status {
				ids = append(ids, m)
			}
			return nil
		}); err != nil {
			return err
		}
		for _, m := range ids {
			var play struct {
				Failed string `json:"failed"`
			}
			if _, err := tx.Get("play/"+m.ID, &play); err != nil {
				return err
			}
			out = append(out, map[string]any{"match": m, "failed": play.Failed})
		}
		return nil
	})
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, map[string]any{"v": 1, "matches": out})
}

// void is POST /v1/warden/admin/matches/{id}/void (§5.6): wardenpay.Void, full refunds, no
// Ledger row, match_voided. Errors: unknown_match (404), wrong_state (409, not FAILED).
func (a *Admin) void(c echo.Context) error {
	id := c.Param("id")
	if !validMatchID(id) {
		return refuse("bad_request", "not a match id (wm_ and 16 hex digits)")
	}
	jobs, err := wardenpay.Void(a.Store, id, "operator", a.now())
	switch {
	case errors.Is(err, wardenpay.ErrNoMatch):
		return refuse("unknown_match", "no match "+id)
	case errors.Is(err, wardenpay.ErrNotFailed):
		return refuse("wrong_state", err.Error())
	case err != nil:
		return err
	}
	if a.Kick != nil {
		a.Kick()
	}
	if jobs == nil {
		jobs = []wardenpay.Job{}
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, map[string]any{"v": 1, "match_id": id, "status": wardenpay.StatusRefunding, "refunds": jobs})
}

// verify is POST /v1/warden/admin/ledger/verify (§13.3): storage.VerifyWarden, the whole chain
// and every aggregate rebuilt from row 1. A Ledger that does not verify is a finding, not a
// refusal: 200 {ok:false, error}.
func (a *Admin) verify(c echo.Context) error {
	h, err := a.Store.VerifyWarden()
	c.Response().Header().Set("Cache-Control", "no-store")
	if err != nil {
		return c.JSON(http.StatusOK, map[string]any{"v": 1, "ok": false, "error": err.Error()})
	}
	return c.JSON(http.StatusOK, map[string]any{"v": 1, "ok": true, "head": map[string]any{"seq": h.Seq, "row_hash": h.RowHash}})
}

// payments is GET /v1/warden/admin/payments?status=settling|submitted|settled|failed: the x402
// payment records (§10.3) of that status.
func (a *Admin) payments(c echo.Context) error {
	status, err := statusParam(c.QueryParams(), []string{storage.WardenPaySettling, storage.WardenPaySubmitted, storage.WardenPaySettled, storage.WardenPayFailed})
	if err != nil {
		return err
	}
	out := []storage.WardenPayment{}
	if err := a.Store.WardenPayments(func(p storage.WardenPayment) error {
		if status == "" || p.Status == status {
			out = append(out, p)
		}
		return nil
	}); err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, map[string]any{"v": 1, "payments": out})
}

// payouts is GET /v1/warden/admin/payouts?status=queued|signed|confirmed|failed: the payout and
// refund jobs (§11) of that status; failed is payout_failed, what retry takes.
func (a *Admin) payouts(c echo.Context) error {
	status, err := statusParam(c.QueryParams(), []string{wardenpay.JobQueued, wardenpay.JobSigned, wardenpay.JobConfirmed, wardenpay.JobFailed})
	if err != nil {
		return err
	}
	out := []wardenpay.Job{}
	if err := a.Store.WardenKeys("payoutq/", func(_ string, v []byte) error {
		var j wardenpay.Job
		if err := json.Unmarshal(v, &j); err != nil {
			return err
		}
		if status == "" || j.Status == status {
			out = append(out, j)
		}
		return nil
	}); err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, map[string]any{"v": 1, "jobs": out})
}

// retry is POST /v1/warden/admin/payouts/{match}/{seat}/retry (§11): wardenpay.Retry. Errors:
// bad_request (ids), not_found (no such job, 404), wrong_state (409, the job is not failed).
func (a *Admin) retry(c echo.Context) error {
	match, seat := c.Param("match"), c.Param("seat")
	if !validMatchID(match) || seat != "A" && seat != "B" {
		return refuse("bad_request", "a match id (wm_ and 16 hex digits) and a seat (A or B)")
	}
	j, err := wardenpay.Retry(a.Store, match, seat)
	switch {
	case errors.Is(err, wardenpay.ErrNoJob):
		return refuse(door.CodeNotFound, "no payout or refund job for "+match+" seat "+seat)
	case errors.Is(err, wardenpay.ErrNotFailedJob):
		return refuse("wrong_state", err.Error())
	case err != nil:
		return err
	}
	if a.Kick != nil {
		a.Kick()
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, map[string]any{"v": 1, "job": j})
}
