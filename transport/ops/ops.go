// Package ops is the operators' door: list the tables, restart one from its snapshot, stop one,
// behind `Authorization: Bearer <operator token>`.
//
//	GET  /ops/tables                → {"tables": [Table…]}
//	POST /ops/tables/{id}/restart   → {"table": id, "status": "restarted"}
//	POST /ops/tables/{id}/stop      → {"table": id, "status": "stopped"}
//	GET  /ops/checks/{name}         → {"check": name, "ok": bool, "findings": [...]}
//
// No bearer → 401 unauthorized; a wrong one → 403 forbidden; an unknown table → 404
// unknown_table (the arena's error code); a restart or stop of a table that has finished its
// round → refused (actors.ErrBadSpec; 409 on the DOTDOTDOT site), changing nothing; an unknown
// check → 404 not_found. Bodies on the POSTs are not read.
package ops

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"arena/actors"
	"arena/transport/door"
)

// Table is one row of GET /ops/tables (the wire form, read back by `arena ops tables`): an
// actors.TableInfo with its seats counted.
type Table struct {
	ID        string `json:"id"`
	Game      string `json:"game"`
	Kind      string `json:"kind,omitempty"` // practice | walkin | ...
	Round     string `json:"round"`
	Turn      int    `json:"turn"`
	Phase     string `json:"phase"`
	Status    string `json:"status"` // live | finished | failed | stopped
	Seats     int    `json:"seats"`
	Restarts  int    `json:"restarts"` // panics survived since the last ops restart
	LastError string `json:"last_error,omitempty"`
}

// Tables is what the door calls; *actors.Arena implements it. Errors are refusals
// (door.AsRefusal: unknown_table for an id the arena does not hold).
type Tables interface {
	Tables(ctx context.Context) ([]actors.TableInfo, error)
	RestartTable(ctx context.Context, id string) error
	StopTable(ctx context.Context, id string) error
}

// Options configure the door. Token is required: an empty token would open /ops to anyone, so
// Mount refuses every request then (403).
type Options struct {
	Token       string
	CallTimeout time.Duration // 0 selects 10 s
	// Checks are the consistency checks a product offers its operators, by name (a product's
	// own, such as DOTDOTDOT's "paid": its ledger against the escrow); none: /ops/checks/* is
	// not_found.
	Checks map[string]Check
}

// Check runs one consistency check: the findings (each a JSON value naming what disagrees), none
// when all is well; err when the check could not run (a refusal, as every door's).
type Check func(ctx context.Context) ([]any, error)

// CheckReport is GET /ops/checks/{name}'s answer (read back by `arena ops check`).
type CheckReport struct {
	Check    string            `json:"check"`
	OK       bool              `json:"ok"`
	Findings []json.RawMessage `json:"findings"`
}

// tableID is the shape of a table id in a path.
var tableID = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$`)

// Mount adds the ops routes to e.
func Mount(e *echo.Echo, t Tables, opts Options) {
	if opts.CallTimeout <= 0 {
		opts.CallTimeout = 10 * time.Second
	}
	g := e.Group("/ops", bearer(opts.Token))
	g.GET("/tables", func(c echo.Context) error {
		ctx, cancel := context.WithTimeout(c.Request().Context(), opts.CallTimeout)
		defer cancel()
		ts, err := t.Tables(ctx)
		if err != nil {
			return err
		}
		rows := make([]Table, 0, len(ts))
		for _, t := range ts {
			rows = append(rows, Table{ID: t.ID, Game: t.Game, Kind: t.Kind, Round: t.Round, Turn: t.Turn, Phase: t.Phase,
				Status: t.Status, Seats: len(t.Seats), Restarts: t.Restarts, LastError: t.LastError})
		}
		return c.JSON(http.StatusOK, map[string]any{"tables": rows})
	})
	act := func(status string, f func(context.Context, string) error) echo.HandlerFunc {
		return func(c echo.Context) error {
			id := c.Param("id")
			if !tableID.MatchString(id) {
				return door.Refuse(door.CodeBadRequest, "malformed table id")
			}
			ctx, cancel := context.WithTimeout(c.Request().Context(), opts.CallTimeout)
			defer cancel()
			if err := f(ctx, id); err != nil {
				return err
			}
			return c.JSON(http.StatusOK, map[string]string{"table": id, "status": status})
		}
	}
	g.POST("/tables/:id/restart", act("restarted", t.RestartTable))
	g.POST("/tables/:id/stop", act("stopped", t.StopTable))
	g.GET("/checks/:name", func(c echo.Context) error {
		name := c.Param("name")
		check, ok := opts.Checks[name]
		if !ok {
			return door.Refuse(door.CodeNotFound, "no check "+strconv.Quote(name)+" on this server")
		}
		ctx, cancel := context.WithTimeout(c.Request().Context(), opts.CallTimeout)
		defer cancel()
		found, err := check(ctx)
		if err != nil {
			return err
		}
		r := CheckReport{Check: name, OK: len(found) == 0, Findings: make([]json.RawMessage, 0, len(found))}
		for _, f := range found {
			b, err := json.Marshal(f)
			if err != nil {
				return err
			}
			r.Findings = append(r.Findings, b)
		}
		return c.JSON(http.StatusOK, r)
	})
}

// bearer checks `Authorization: Bearer <token>` in constant time (over SHA-256 digests, so the
// comparison does not leak the token's length either).
func bearer(token string) echo.MiddlewareFunc {
	want := sha256.Sum256([]byte(token))
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			h := c.Request().Header.Get("Authorization")
			if h == "" {
				return door.Refuse(door.CodeUnauthorized, "send Authorization: Bearer <operator token>")
			}
			scheme, got, ok := strings.Cut(h, " ")
			if !ok || !strings.EqualFold(scheme, "Bearer") || got == "" {
				return door.Refuse(door.CodeUnauthorized, "send Authorization: Bearer <operator token>")
			}
			g := sha256.Sum256([]byte(strings.TrimSpace(got)))
			if token == "" || subtle.ConstantTimeCompare(want[:], g[:]) != 1 {
				return door.Refuse(door.CodeForbidden, "wrong operator token")
			}
			return next(c)
		}
	}
}
