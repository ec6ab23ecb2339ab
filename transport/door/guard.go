package door

import (
	"fmt"
	"log/slog"
	"net/url"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
)

// UniqueQuery refuses, before routing, a request whose query does not parse or gives a
// parameter more than once (bad_request, 400). A parameter given twice is as ambiguous as a JSON
// member given twice, which every door refuses: no route reads a parameter more than once, so
// none may be repeated.
func UniqueQuery() echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			q, err := url.ParseQuery(c.Request().URL.RawQuery)
			if err != nil {
				return Refuse(CodeBadRequest, "malformed query string")
			}
			for k, vs := range q {
				if len(vs) > 1 {
					return Refuse(CodeBadRequest, "query parameter "+strconv.Quote(k)+" given more than once")
				}
			}
			return next(c)
		}
	}
}

// Recover turns a panic in a handler into an internal refusal (500) and logs it with its stack;
// the server and every other request carry on.
func Recover(log *slog.Logger) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) (err error) {
			defer func() {
				if p := recover(); p != nil {
					log.Error("handler panic", "route", c.Path(), "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
					err = &Refusal{Code: CodeInternal, Msg: "internal error"}
				}
			}()
			return next(c)
		}
	}
}

// AccessLog logs one line per request at debug level (at warn for 5xx): method, route pattern
// (never the raw URL, which could hold what a client should not have put there), status and
// duration in milliseconds.
func AccessLog(log *slog.Logger) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			start := time.Now()
			err := next(c)
			if err != nil {
				c.Error(err)
			}
			status := c.Response().Status
			lvl := slog.LevelDebug
			if status >= 500 {
				lvl = slog.LevelWarn
			}
			log.Log(c.Request().Context(), lvl, "http request", "method", c.Request().Method, "route", c.Path(),
				"status", status, "ms", time.Since(start).Milliseconds())
			return nil
		}
	}
}
