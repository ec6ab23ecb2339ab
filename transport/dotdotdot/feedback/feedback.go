// Package feedback is DOTDOTDOT's feedback door: the link of the scouting notice (§5.2: "one
// { type: notice, text, link } naming the feedback agent", Nell) served, its notes kept in the
// store (storage.FeedbackNote) and read by the operators.
//
//	GET  /v1/feedback          how to send a note (what the notice's link opens)
//	POST /v1/feedback          {"text", "round"?} → 201 {"seq", "at", "thanks"}; x-walkin optional
//	GET  /ops/feedback         ?after=<seq>&limit=<n> → {"notes": [...], "next": <seq>}, behind
//	                           the operator token (ops.Bearer)
//	DELETE /ops/feedback       ?through=<seq> → {"trimmed": <n>}: the notes read deleted, making room
//	                           (storage keeps MaxFeedbackNotes at most), behind the operator token
//
// A POST is strict JSON (door.DecodeBytes: no unknown or repeated member, UTF-8), its body at
// most MaxBody bytes, its text 1 to storage.MaxFeedbackText characters after trimming, its round,
// when given, a round id (T-<n>); each client address is limited (Options.Limiter: rate_limited,
// 429, with Retry-After) and a full store answers busy (503). A note is answered only once it is
// stored. The sender is the walk-in whose token is in x-walkin, kept as its record key
// ("walkin:<sha256 of the token, hex>", never the token), or nobody.
package feedback

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"math"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"arena/storage"
	"arena/transport/door"
	"arena/transport/dotdotdot/walkin"
	"arena/transport/ops"
)

// Notes keeps and reads the notes; *storage.Store is one.
type Notes interface {
	AddFeedback(n storage.FeedbackNote) (storage.FeedbackNote, error)
	FeedbackNotes(after uint64, limit int) ([]storage.FeedbackNote, error)
	TrimFeedback(through uint64) (int, error)
}

// Options configure the door. Notes is required.
type Options struct {
	Notes Notes
	// Limiter limits the notes one client address sends (door.ClientAddr); nil: no limit. The
	// chat seat's feedback tool shares it, so an address has one budget on both doors.
	Limiter   *door.Limiter
	Forwarded bool // read the address from X-Forwarded-For
	// OperatorToken guards GET /ops/feedback (ops.Bearer: empty refuses everyone).
	OperatorToken string
	// MaxBody caps a note's body in bytes (0: DefaultMaxBody).
	MaxBody int64
	// Now is the clock (nil: time.Now).
	Now func() time.Time
}

// DefaultMaxBody is a note's body cap: room for storage.MaxFeedbackText characters of any
// script, escaped, and a round.
const DefaultMaxBody = 16 << 10

// MaxPage is the most notes GET /ops/feedback answers at once (and its default limit).
const MaxPage = 500

// Thanks is what a stored note is answered with (the chat seat's tool says the same).
const Thanks = "Thank you: Nell, the feedback agent, reads every note. Nothing about play changes with it."

var roundShape = regexp.MustCompile(`^T-[1-9][0-9]{0,19}$`)

// Mount adds the door's routes to e.
func Mount(e *echo.Echo, o Options) {
	if o.MaxBody <= 0 {
		o.MaxBody = DefaultMaxBody
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	e.GET("/v1/feedback", about)
	e.POST("/v1/feedback", func(c echo.Context) error { return post(c, o) })
	g := e.Group("/ops", ops.Bearer(o.OperatorToken))
	g.GET("/feedback", func(c echo.Context) error { return list(c, o) })
	g.DELETE("/feedback", func(c echo.Context) error { return trim(c, o) })
}

// about answers the notice's link with how to send a note.
func about(c echo.Context) error {
	return c.JSON(http.StatusOK, map[string]any{
		"about": "Feedback on DOTDOTDOT or a round goes to Nell, the feedback agent, who reads every note. A notice is never a rule, and nothing about play changes with a note.",
		"post":  "/v1/feedback",
		"body": map[string]string{
			"text":  "the note, 1 to " + strconv.Itoa(storage.MaxFeedbackText) + " characters",
			"round": "optional: the round it is about, T-<n>",
		},
		"headers": map[string]string{"x-walkin": "optional: your walk-in token, so the note is kept with your record"},
	})
}

type noteBody struct {
	Text  string `json:"text"`
	Round string `json:"round,omitempty"`
}

func post(c echo.Context, o Options) error {
	raw, err := door.ReadBody(c, o.MaxBody)
	if err != nil {
		return err
	}
	var b noteBody
	if err := door.DecodeBytes(raw, &b); err != nil {
		return err
	}
	n, err := Note(storage.FeedbackHTTP, "", b.Round, b.Text)
	if err != nil {
		return err
	}
	if len(c.Request().Header.Values(walkin.Header)) > 0 {
		tok, err := walkin.Token(c)
		if err != nil {
			return err
		}
		n.From = From(tok)
	}
	if err := o.Limiter.Allow(door.ClientAddr(c.Request(), o.Forwarded)); err != nil {
		return err
	}
	n.At = o.Now().UTC()
	saved, err := Add(o.Notes, n)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusCreated, map[string]any{"seq": saved.Seq, "at": saved.At.Format(time.RFC3339Nano), "thanks": Thanks})
}

// Note is a note from via, checked as both doors check one: text trimmed, 1 to
// storage.MaxFeedbackText characters of UTF-8; round empty or a round id. from is the sender
// (From). Refusals are bad_request naming the member.
func Note(via, from, round, text string) (storage.FeedbackNote, error) {
	t := strings.TrimSpace(text)
	if t == "" || !utf8.ValidString(t) || utf8.RuneCountInString(t) > storage.MaxFeedbackText {
		return storage.FeedbackNote{}, door.Refuse(door.CodeBadRequest, "text is 1 to "+strconv.Itoa(storage.MaxFeedbackText)+" characters")
	}
	if round != "" && !roundShape.MatchString(round) {
		return storage.FeedbackNote{}, door.Refuse(door.CodeBadRequest, "round must be a round id, T-<n>")
	}
	return storage.FeedbackNote{Via: via, From: from, Round: round, Text: t}, nil
}

// From is the sender of a note sent with a walk-in token: the token's record key, never the
// token ("" for no token).
func From(token string) string {
	if token == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(token))
	return "walkin:" + hex.EncodeToString(sum[:])
}

// Add stores n: a store that is full is busy (503), any other failure internal.
func Add(notes Notes, n storage.FeedbackNote) (storage.FeedbackNote, error) {
	saved, err := notes.AddFeedback(n)
	switch {
	case errors.Is(err, storage.ErrFull):
		return saved, door.Refuse(door.CodeBusy, "the feedback box is full until an operator empties it")
	case err != nil:
		return saved, err
	}
	return saved, nil
}

// list is GET /ops/feedback: notes after a seq, in arrival order, and the seq to ask after next.
func list(c echo.Context, o Options) error {
	for k := range c.QueryParams() {
		if k != "after" && k != "limit" {
			return door.Refuse(door.CodeBadRequest, "unknown query parameter "+strconv.Quote(k))
		}
	}
	num := func(k string, def, max uint64) (uint64, error) {
		s := c.QueryParam(k)
		if s == "" {
			return def, nil
		}
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil || n > max {
			return 0, door.Refuse(door.CodeBadRequest, k+" must be a whole number from 0 to "+strconv.FormatUint(max, 10))
		}
		return n, nil
	}
	after, err := num("after", 0, math.MaxInt64) // a seq: trimmed notes' seqs are not reused
	if err != nil {
		return err
	}
	limit, err := num("limit", MaxPage, MaxPage)
	if err != nil {
		return err
	}
	if limit == 0 {
		limit = MaxPage
	}
	notes, err := o.Notes.FeedbackNotes(after, int(limit))
	if err != nil {
		return err
	}
	next := after
	if len(notes) > 0 {
		next = notes[len(notes)-1].Seq
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, map[string]any{"notes": notes, "next": next})
}

// trim is DELETE /ops/feedback?through=<seq>: every note up to seq deleted (read by the
// operators), which makes room in a full box; the notes after keep their seq.
func trim(c echo.Context, o Options) error {
	q := c.QueryParams()
	for k := range q {
		if k != "through" {
			return door.Refuse(door.CodeBadRequest, "unknown query parameter "+strconv.Quote(k))
		}
	}
	through, err := strconv.ParseUint(c.QueryParam("through"), 10, 63)
	if err != nil || len(q["through"]) != 1 {
		return door.Refuse(door.CodeBadRequest, "through must be the seq of the last note to delete (a whole number)")
	}
	n, err := o.Notes.TrimFeedback(through)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, map[string]any{"trimmed": n, "through": through})
}

// Keep is the chat seat's feedback tool (chatseat.Options.Feedback) on notes: the same checks as
// POST /v1/feedback (Note), the sender the walk-in whose token came with it, kept as Via "mcp".
// now is the clock (nil: time.Now).
func Keep(notes Notes, now func() time.Time) func(ctx context.Context, token, round, text string) error {
	if now == nil {
		now = time.Now
	}
	return func(_ context.Context, token, round, text string) error {
		n, err := Note(storage.FeedbackMCP, From(token), round, text)
		if err != nil {
			return err
		}
		n.At = now().UTC()
		_, err = Add(notes, n)
		return err
	}
}
