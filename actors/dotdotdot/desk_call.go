package dotdotdot

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/asynkron/protoactor-go/actor"

	"arena/actors"
	"arena/games"
)

// deskName is the desk actor's name under the actor system's root.
const deskName = "desk"

// deskRequest is a message that carries the caller's future (deskReplier), so that the actor
// that answers it may be another than the one it was sent to (a walk-in hands a hosted-table
// request on to the desk) and may answer later than the message it came in.
type deskRequest interface {
	setReply(to *actor.PID, root *actor.RootContext)
}

// deskReplier is embedded in every deskRequest: the future of the caller (deskCall). respond
// never blocks; an answer to a caller that gave up goes to a future that has completed, which
// drops it.
type deskReplier struct {
	reply *actor.PID
	root  *actor.RootContext
}

func (r *deskReplier) setReply(to *actor.PID, root *actor.RootContext) { r.reply, r.root = to, root }

func (r *deskReplier) respond(v any) {
	if r.reply != nil {
		r.root.Send(r.reply, v)
	}
}

// deskCall sends msg to pid and waits for its answer on a protoactor future, for as long as the
// arena's Asks wait (Arena.Wait: ctx's deadline, capped by Options.AskTimeout). An answer that
// does not come in time is ctx's error when ctx has ended, else a *games.Error with CodeBusy
// (retry true).
func deskCall[T any](ctx context.Context, a *Arena, pid *actor.PID, msg deskRequest) (T, error) {
	var zero T
	if a == nil || a.Arena == nil || a.System() == nil {
		return zero, actors.ErrClosed
	}
	f := actor.NewFuture(a.System(), a.Wait(ctx))
	msg.setReply(f.PID(), a.System().Root)
	a.System().Root.Send(pid, msg)
	v, err := f.Result()
	if err != nil {
		if ctx.Err() != nil {
			return zero, ctx.Err()
		}
		return zero, &games.Error{Code: CodeBusy, Msg: "the walk-in desk did not answer in time", Retry: true}
	}
	if e, ok := v.(error); ok {
		return zero, e
	}
	r, ok := v.(T)
	if !ok {
		return zero, fmt.Errorf("dotdotdot: desk: unexpected answer %T to %T", v, msg)
	}
	return r, nil
}

// deskSend delivers msg to pid without waiting.
func (a *Arena) deskSend(pid *actor.PID, msg any) error {
	if a == nil || a.Arena == nil || a.System() == nil {
		return actors.ErrClosed
	}
	a.System().Root.Send(pid, msg)
	return nil
}

// deskPID is the desk actor, spawned on first use when Start did not (startDesk). Spawned
// late, after tables were restored (whose open moves went to mailboxes not yet respawned), it
// has the tables of live walk-in seats restarted from their snapshots, which redelivers those
// moves, before the request that started it goes on.
func (a *Arena) deskPID() (*actor.PID, error) {
	if a == nil || a.Arena == nil || a.System() == nil {
		return nil, actors.ErrClosed
	}
	if _, ok := a.System().ProcessRegistry.GetLocal(deskName); ok {
		return actor.NewPID(a.System().Address(), deskName), nil
	}
	pid, fresh, err := a.spawnDesk()
	if err != nil || !fresh {
		return pid, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	for _, id := range a.liveWalkinTables() {
		if err := a.RestartTable(ctx, id); err != nil {
			a.deskLogger().Info("table not restarted for redelivery", "table", id, "err", err)
		}
	}
	return pid, nil
}

// startDesk spawns the walk-in desk. The product runs it in its BeforeRecover (Product), before the
// arena restores tables: the mailboxes of live walk-in seats then exist again (desk Started)
// when the restored tables redeliver their open moves. Without it the desk starts on first use
// and has those tables restarted to redeliver. Calling it when the desk runs is harmless.
func startDesk(a *Arena) error {
	_, _, err := a.spawnDesk()
	return err
}

// spawnDesk spawns the desk (fresh: this call did). Every restart of the desk after its first
// start asks the tables of live walk-in seats to redeliver (a restart stops the mailboxes, and
// with them the moves they held).
func (a *Arena) spawnDesk() (pid *actor.PID, fresh bool, err error) {
	var started atomic.Bool
	props := actor.PropsFromProducer(func() actor.Actor {
		d := newDesk(a)
		d.redeliver = started.Swap(true)
		return d
	}, actor.WithSupervisor(actor.NewOneForOneStrategy(10, time.Minute, actor.DefaultDecider)))
	pid, err = a.System().Root.SpawnNamed(props, deskName)
	if errors.Is(err, actor.ErrNameExists) {
		return actor.NewPID(a.System().Address(), deskName), false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("actors: start walk-in desk: %w", err)
	}
	// Started runs on the desk's own goroutine: wait for it, so the mailboxes of live seats are
	// registered before any table is restored.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := deskCall[*deskPong](ctx, a, pid, &deskPing{}); err != nil {
		return nil, false, fmt.Errorf("actors: start walk-in desk: %w", err)
	}
	return pid, true, nil
}

// deskPing is answered with *deskPong once the desk has started.
type deskPing struct{ deskReplier }

type deskPong struct{}

// liveWalkinTables lists the tables that have a live walk-in seat (storage live/ entries).
func (a *Arena) liveWalkinTables() []string {
	seen := map[string]bool{}
	var ids []string
	_ = a.Store().Walkins().Scan("live/", func(_ string, v []byte) error {
		var s deskLiveSeat
		if json.Unmarshal(v, &s) == nil && s.Table != "" && !seen[s.Table] {
			seen[s.Table] = true
			ids = append(ids, s.Table)
		}
		return nil
	})
	return ids
}

// deskClock is the arena's clock (the wall clock when none was given).
func (a *Arena) deskClock() actors.Clock {
	if a.Clock() == nil {
		return actors.RealClock()
	}
	return a.Clock()
}

// walkinPID resolves a token to its walk-in actor (loading the record on first use since the
// server started). unknown_token for a malformed or unissued token.
func (a *Arena) walkinPID(ctx context.Context, token string) (*actor.PID, error) {
	hash, ok := walkinTokenHash(token)
	if !ok {
		return nil, games.Errorf(CodeUnknownToken, "no walk-in token (x-walkin: w_…) or a malformed one")
	}
	d, err := a.deskPID()
	if err != nil {
		return nil, err
	}
	r, err := deskCall[*deskResolveReply](ctx, a, d, &deskResolve{Hash: hash})
	if err != nil {
		return nil, err
	}
	if r.Err != nil {
		return nil, r.Err
	}
	if r.PID == nil {
		return nil, games.Errorf(CodeUnknownToken, "this walk-in token was not issued here")
	}
	return r.PID, nil
}

// walkinTokenLen is len("w_") + base64url (no padding) of 32 bytes.
const walkinTokenLen = 2 + 43

// newWalkinToken draws a fresh token: "w_" + base64url(32 random bytes), no padding.
func newWalkinToken() (string, error) {
	var b [32]byte
	if _, err := io.ReadFull(rand.Reader, b[:]); err != nil {
		return "", fmt.Errorf("actors: walk-in token: %w", err)
	}
	return "w_" + base64.RawURLEncoding.EncodeToString(b[:]), nil
}

// walkinTokenHash checks a token's shape and returns hex(SHA-256(token)), the record's key.
func walkinTokenHash(token string) (string, bool) {
	if len(token) != walkinTokenLen || !strings.HasPrefix(token, "w_") {
		return "", false
	}
	if _, err := base64.RawURLEncoding.Strict().DecodeString(token[2:]); err != nil {
		return "", false
	}
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:]), true
}

// checkWalkinName validates a display name (1–32 characters) and a model (≤ 64): valid UTF-8,
// no control or format characters, no leading/trailing space (the caller trims).
func checkWalkinName(name, model string) error {
	check := func(field, s string, min, max int) error {
		n := utf8.RuneCountInString(s)
		if !utf8.ValidString(s) || n < min || n > max {
			return games.Errorf(games.CodeBadRequest, "%s must be %d to %d characters of UTF-8", field, min, max)
		}
		if _, bad := games.HiddenRune(s, ""); bad {
			return games.Errorf(games.CodeBadRequest, "%s must not contain control characters", field)
		}
		return nil
	}
	if err := check("name", name, 1, 32); err != nil {
		return err
	}
	return check("model", model, 0, 64)
}

// formatSeats is how many seats the desk's tables of each format of its game may have, read from
// the game's manifest (games.Format.MinSeats to MaxSeats; §5.6: Blitz 6 to 8, Short 3): a table
// has the fewest unless its opener chose more. The desk serves exactly the formats its game has.
type formatSeats struct {
	seats map[string][2]int // format → fewest, most
	names []string          // in the manifest's order, for refusals
}

// formatSeatsOf reads the formats of a game's manifest.
func formatSeatsOf(m games.Manifest) formatSeats {
	f := formatSeats{seats: map[string][2]int{}}
	for _, ff := range m.Formats {
		f.seats[ff.Name] = [2]int{ff.MinSeats, max(ff.MaxSeats, ff.MinSeats)}
		f.names = append(f.names, ff.Name)
	}
	return f
}

// of is the default seat count of format (its fewest), false if the game has no such format.
func (f formatSeats) of(format string) (int, bool) {
	n, ok := f.seats[format]
	return n[0], ok
}

// choose is the seat count of a table of format whose opener asked for n seats: the fewest for
// n = 0, n itself within the manifest's range. Refusals: bad_request naming the range (or the
// formats, for one the game does not have).
func (f formatSeats) choose(format string, n int) (int, error) {
	r, ok := f.seats[format]
	switch {
	case !ok:
		return 0, games.Errorf(games.CodeBadRequest, "format must be %s", f.choices())
	case n == 0:
		return r[0], nil
	case n < r[0] || n > r[1]:
		if r[0] == r[1] {
			return 0, games.Errorf(games.CodeBadRequest, "seats: a %s table has %d seats (§5.6)", format, r[0])
		}
		return 0, games.Errorf(games.CodeBadRequest, "seats: a %s table has %d to %d seats (§5.6)", format, r[0], r[1])
	}
	return n, nil
}

// choices names the formats for a refusal: "blitz" or "short".
func (f formatSeats) choices() string {
	q := make([]string, len(f.names))
	for i, n := range f.names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, " or ")
}

// normalizeJoin fills a join's defaults and refuses what the desk cannot serve (bad_request).
func normalizeJoin(r JoinRequest, formats formatSeats) (JoinRequest, error) {
	if r.Code != "" {
		return r, games.Errorf(games.CodeBadRequest, "hosted tables (code) are not served yet")
	}
	if r.Table == "" {
		r.Table = "practice"
	}
	// A table a walk-in cannot join is bad_table, as the agent's and the off-the-shelf doors
	// answer it (join.go, ots_join.go), with the reason for the kinds only Badges join.
	switch r.Table {
	case KindPractice, KindWalkin, KindSolo, KindFree:
	case KindRated, KindGated:
		return r, games.Errorf(CodeBadTable, "table %q: a walk-in plays under a Badge the house lends it, so it has no rating; rated and badge-gated tables seat registered agents' own Badges (POST /v1/join)", r.Table)
	default:
		return r, games.Errorf(CodeBadTable, "table %q: a walk-in joins \"practice\", \"solo\", \"walkin\" or \"free\" (a hosted table by its code)", r.Table)
	}
	if r.Table == KindFree {
		// Free play gathers walk-ins and registered agents at one table, on the agent clock
		// (§5.3) as every gathering table; a walk-in does not choose another, nor a mole.
		if r.Pace != "" && r.Pace != "agent" {
			return r, games.Errorf(games.CodeBadRequest, "Free play runs on the agent clock: leave pace out or say \"agent\"")
		}
		if r.Mole != nil {
			return r, games.Errorf(games.CodeBadRequest, "the mole is chosen at Practice only")
		}
		r.Pace = "agent"
	}
	if r.Pace == "" {
		r.Pace = "chat"
	}
	if r.Pace != "chat" && r.Pace != "agent" {
		return r, games.Errorf(games.CodeBadRequest, "pace must be \"chat\" or \"agent\"")
	}
	if r.Format == "" {
		r.Format = "blitz"
	}
	if r.Table == KindSolo && r.Format != walkinGame {
		return r, games.Errorf(games.CodeBadRequest, "a Solo plays blitz, the whole game (Practice plays short)")
	}
	if r.Seats != 0 && r.Table == KindWalkin {
		return r, games.Errorf(games.CodeBadRequest, "seats are chosen on Practice tables (and by a hosted table's host); the walkin table has the format's fewest")
	}
	seats, err := formats.choose(r.Format, r.Seats)
	if err != nil {
		return r, err
	}
	r.Seats = seats
	if r.Mole != nil {
		if r.Table != "practice" {
			return r, games.Errorf(games.CodeBadRequest, "mole is chosen on Practice tables only")
		}
		if *r.Mole < 1 || *r.Mole > seats {
			return r, games.Errorf(games.CodeBadRequest, "mole must be a seat from 1 to %d", seats)
		}
		m := *r.Mole
		r.Mole = &m // never share the caller's int with an actor
	}
	return r, nil
}

// walkinEcho is the move an answer names (§4.4): round, turn, phase, exchange (talk only) and,
// optionally, the seat.
type walkinEcho struct {
	Round string
	Move  games.Move
	Seat  int // 0 when absent
}

// parseEcho reads the echo of an answer body strictly: one JSON object, no duplicate or
// trailing data, "round" a non-empty string, "turn" a non-negative integer, "phase" a
// non-empty string, "exchange" a positive integer (required on talk), "seat" a positive
// integer if present. Everything else in the object is the game's to decode.
func parseEcho(body []byte) (walkinEcho, error) {
	var e walkinEcho
	members, err := jsonObjectMembers(body)
	if err != nil {
		return e, games.Errorf(games.CodeBadRequest, "answer body: %v", err)
	}
	str := func(k string) (string, error) {
		raw, ok := members[k]
		if !ok {
			return "", fmt.Errorf("%q is required", k)
		}
		var s string
		if raw[0] != '"' || json.Unmarshal(raw, &s) != nil || s == "" {
			return "", fmt.Errorf("%q must be a non-empty string", k)
		}
		return s, nil
	}
	num := func(k string, min int) (int, bool, error) {
		raw, ok := members[k]
		if !ok {
			return 0, false, nil
		}
		var n int
		if bytes.ContainsAny(raw, ".eE") || json.Unmarshal(raw, &n) != nil || n < min {
			return 0, true, fmt.Errorf("%q must be an integer ≥ %d", k, min)
		}
		return n, true, nil
	}
	if e.Round, err = str("round"); err != nil {
		return e, games.Errorf(games.CodeBadRequest, "answer echo: %v", err)
	}
	if e.Move.Phase, err = str("phase"); err != nil {
		return e, games.Errorf(games.CodeBadRequest, "answer echo: %v", err)
	}
	turn, ok, err := num("turn", 0)
	if err == nil && !ok {
		err = errors.New(`"turn" is required`)
	}
	if err != nil {
		return e, games.Errorf(games.CodeBadRequest, "answer echo: %v", err)
	}
	e.Move.Turn = turn
	ex, ok, err := num("exchange", 1)
	if err == nil && !ok && e.Move.Phase == "talk" {
		err = errors.New(`"exchange" is required on talk`)
	}
	if err != nil {
		return e, games.Errorf(games.CodeBadRequest, "answer echo: %v", err)
	}
	e.Move.Exchange = ex
	if e.Seat, _, err = num("seat", 1); err != nil {
		return e, games.Errorf(games.CodeBadRequest, "answer echo: %v", err)
	}
	return e, nil
}

// jsonObjectMembers splits one JSON object into its members' raw values, refusing anything but
// a single object, duplicate member names and trailing data.
func jsonObjectMembers(body []byte) (map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	tok, err := dec.Token()
	if err != nil {
		return nil, errors.New("not JSON")
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("must be a JSON object")
	}
	out := make(map[string]json.RawMessage)
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, errors.New("malformed JSON")
		}
		k, ok := tok.(string)
		if !ok {
			return nil, errors.New("malformed JSON")
		}
		if _, dup := out[k]; dup {
			return nil, fmt.Errorf("member %q appears twice", k)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, errors.New("malformed JSON")
		}
		out[k] = v
	}
	if _, err := dec.Token(); err != nil {
		return nil, errors.New("malformed JSON")
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data after the JSON object")
	}
	return out, nil
}

// submit hands one input to its table and turns the game's refusal into a *games.Error.
func (a *Arena) submit(ctx context.Context, m actors.SubmitAnswer) (json.RawMessage, error) {
	r, err := a.Submit(ctx, m)
	if err != nil {
		return nil, err
	}
	if r.Code != "" {
		return nil, &games.Error{Code: r.Code, Msg: r.Msg, Retry: r.Retry}
	}
	if len(r.Reply) == 0 {
		return json.RawMessage(`{}`), nil
	}
	return r.Reply, nil
}
