package door

import (
	"context"
	"errors"
	"log/slog"

	"github.com/labstack/echo/v4"
)

// Statuses is one site's table from refusal codes to HTTP statuses: each protocol writes its
// own (DOTDOTDOT refuses a lever with 409, Break Room refuses a move with 400). Codes it does not
// list get Else. Statuses is read-only once built.
type Statuses struct {
	Codes map[string]int
	Else  int
}

// Status is code's status: Codes[code], else Else.
func (s Statuses) Status(code string) int {
	if st, ok := s.Codes[code]; ok {
		return st
	}
	return s.Else
}

// Shape writes refusal r as a site's error body with the given HTTP status. DOTDOTDOT's shape
// is {error, code, retry} (transport/dotdotdot/codes); another protocol's site brings its own (Break Room's
// {type:"error", v, code, detail}, the Warden's {v, error, detail}).
type Shape func(c echo.Context, status int, r *Refusal) error

// Site is how one site answers a refusal: its status table and its body shape.
type Site struct {
	Statuses Statuses
	Shape    Shape
}

// Write writes r in the site's shape with the status its table gives r.Code, and its
// Retry-After header when r.RetryAfter is set.
func (s Site) Write(c echo.Context, r *Refusal) error {
	if r.RetryAfter > 0 {
		c.Response().Header().Set("Retry-After", retryAfterHeader(r.RetryAfter))
	}
	return s.Shape(c, s.Statuses.Status(r.Code), r)
}

// ErrorHandler is echo's HTTPErrorHandler for one site: each error becomes a refusal (AsRefusal)
// written in the site's shape; internal errors are logged with the route and their text, never
// sent. A client that went away (context canceled) gets nothing written.
func (s Site) ErrorHandler(log *slog.Logger) echo.HTTPErrorHandler {
	return func(err error, c echo.Context) {
		if c.Response().Committed {
			return
		}
		if errors.Is(err, context.Canceled) && c.Request().Context().Err() != nil {
			return
		}
		r, ok := AsRefusal(err)
		if !ok {
			log.Error("request failed", "method", c.Request().Method, "route", c.Path(), "err", err)
		}
		if werr := s.Write(c, r); werr != nil {
			log.Debug("refusal not written", "route", c.Path(), "err", werr)
		}
	}
}
