package site

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"arena/games"
	"arena/transport/door"
	"arena/transport/ops"
)

// Showcaser opens a Showcase (§12: every seat an in-house agent holding its human's levers; the
// house opens one for an audience). *dotdotdot.Arena implements it.
type Showcaser interface {
	OpenShowcase(ctx context.Context, format string, seats int, pace games.Pace) (table, round string, err error)
}

// showcaseBody is POST /ops/showcase: the format ("blitz" by default, or "short") and, on
// blitz, the seats (6 to 8; 0 the fewest).
type showcaseBody struct {
	Format string `json:"format,omitempty"`
	Seats  int    `json:"seats,omitempty"`
}

// mountShowcase adds POST /ops/showcase behind the operator token (`arena ops showcase`):
// {format?, seats?} → {table, round}, the Showcase opened on the agent clock. Refusals are the
// product's (bad_request for a format or seat count it does not play).
func mountShowcase(e *echo.Echo, s Showcaser, o ops.Options) {
	timeout := o.CallTimeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	e.POST("/ops/showcase", func(c echo.Context) error {
		var b showcaseBody
		if err := door.Decode(c, door.DefaultMaxBody, &b); err != nil {
			return err
		}
		ctx, cancel := context.WithTimeout(c.Request().Context(), timeout)
		defer cancel()
		table, round, err := s.OpenShowcase(ctx, b.Format, b.Seats, games.Pace{})
		if err != nil {
			return err
		}
		return c.JSON(http.StatusOK, map[string]string{"table": table, "round": round, "kind": "showcase"})
	}, ops.Bearer(o.Token))
}
