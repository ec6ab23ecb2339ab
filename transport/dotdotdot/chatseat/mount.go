package chatseat

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"log/slog"

	"github.com/labstack/echo/v4"
)

// Mount builds the chat seat (New) and mounts it at Path on e for every method (POST carries
// JSON-RPC; any other method is the Guard's 405 with Allow: POST: the seat streams nothing and
// keeps no session). e's shared middleware (token-in-URL guard, access log, recovery) applies.
func Mount(e *echo.Echo, o Options) error {
	h, err := New(o)
	if err != nil {
		return err
	}
	e.Any(Path, echo.WrapHandler(h))
	return nil
}

// LogFeedback is an Options.Feedback that writes each note to log at info level, under the
// walk-in's record key (sha256 of the token, hex, as the desk stores records) and never the
// token itself. It is the stand-in until the desk keeps feedback for Nell.
func LogFeedback(log *slog.Logger) func(ctx context.Context, token, round, text string) error {
	return func(ctx context.Context, token, round, text string) error {
		who := ""
		if token != "" {
			sum := sha256.Sum256([]byte(token))
			who = hex.EncodeToString(sum[:])
		}
		log.InfoContext(ctx, "feedback", "walkin", who, "round", round, "text", text)
		return nil
	}
}
