package site

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"arena/actors/dotdotdot"
	"arena/storage"
	"arena/transport/door"
	"arena/transport/ops"
)

// Shower starts a showing of a recorded round (docs/protocol-notes.md "DOTDOTDOT recordings";
// its replay anchor, §5.5 kind replay). *dotdotdot.Arena implements it.
type Shower interface {
	StartShowing(ctx context.Context, round string, speed int) (storage.Showing, error)
}

// showingBody is POST /ops/showings: the round and the speed (1 by default, at most
// dotdotdot.MaxShowingSpeed).
type showingBody struct {
	Round string `json:"round"`
	Speed int    `json:"speed,omitempty"`
}

// showingReply answers it: the showing, where its page is, and its replay anchor's fields.
type showingReply struct {
	Round   string `json:"round"`
	Seq     uint32 `json:"seq"`
	Speed   int    `json:"speed"`
	Started string `json:"started"`
	Hash    string `json:"hash"`
	Page    string `json:"page"`
}

// mountShowings adds POST /ops/showings behind the operator token (`arena ops showing`):
// {round, speed?} → the showing started. Refusals are the product's: bad_request (no round, a
// speed out of range), unknown_round, not_revealed (409), busy (503: the most showings at once
// run, or the round is being shown).
func mountShowings(e *echo.Echo, s Shower, o ops.Options) {
	timeout := o.CallTimeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	e.POST("/ops/showings", func(c echo.Context) error {
		var b showingBody
		if err := door.Decode(c, door.DefaultMaxBody, &b); err != nil {
			return err
		}
		if b.Round == "" {
			return door.Refuse(door.CodeBadRequest, "round is required (T-<n>)")
		}
		if b.Speed == 0 {
			b.Speed = 1
		}
		ctx, cancel := context.WithTimeout(c.Request().Context(), timeout)
		defer cancel()
		sh, err := s.StartShowing(ctx, b.Round, b.Speed)
		if err != nil {
			return err
		}
		return c.JSON(http.StatusOK, showingReply{Round: sh.Round, Seq: sh.Seq, Speed: sh.Speed,
			Started: sh.Started.UTC().Format(time.RFC3339), Hash: sh.Hash, Page: dotdotdot.ShowingPath(sh.Round, sh.Seq)})
	}, ops.Bearer(o.Token))
}
