package dotdotdot

import (
	"context"
	"crypto/rand"
	"sort"
	"strings"
	"time"

	"arena/games"
)

// Hosted tables (dotdotdot-protocol-v1 §4.5 "Hosted tables", "Hosted tables over HTTP, and the
// link"): a walk-in hosts a table under a four-character code, others join by the code, and it
// starts when full, when the host starts it, or ten minutes after it was hosted with whoever
// came, house seats filling the rest. Unrated (no board line), nothing at stake (the notional
// entry of every walk-in seat), no Practice rounds required, always the chat clock.
//
// The desk actor keeps the tables (hosted_desk.go); each walk-in actor knows the code it waits
// at (hosted_walkin.go), so it refuses a second table or any other seat (at_a_hosted_table).
// Every table is saved (storage hosted) before a change to it is answered, from its code's draw
// to the end of the code's hold, and a desk restart (a panic, a server restart) puts each back
// (hosted_desk.go restoreHosted; protocol-notes "hosted tables and pages").

// Hosted table refusal codes (games.Error.Code), beside unknown_token, bad_request, busy.
const (
	// CodeAtAHostedTable: the walk-in waits at a hosted table and asked for another table or
	// seat, or holds a seat (or a place at the walkin table) and asked to host or join one (409).
	CodeAtAHostedTable = "at_a_hosted_table"
	// CodeNotHost: only the host starts its table (403).
	CodeNotHost = "not_host"
	// CodeUnknownTable: no hosted table has that code now (404).
	CodeUnknownTable = "unknown_table"
	// CodeTableStarted: the table with that code has started (or is starting); it takes no more
	// joins and no leaves (409).
	CodeTableStarted = "table_started"
	// CodeNotAtATable: start by a walk-in that waits at no hosted table, or leave by one that
	// waits at no table (hosted, Free play or the walkin table's queue) (409).
	CodeNotAtATable = "not_at_a_table"
)

// Hosted table statuses (HostedTable.Status).
const (
	HostedGathering = "gathering" // waiting for players
	HostedStarting  = "starting"  // full or started: the table is being opened
	HostedStarted   = "started"   // the round runs (or ran): HostedTable.Round is the one to watch
)

const (
	// hostedStartAfter: a gathering table starts with whoever came this long after it was
	// hosted (§4.5 "after ten minutes").
	hostedStartAfter = 10 * time.Minute
	// hostedCodeHold: a started table's code answers "started" and is not reused for this long
	// after its start (§4.5 "for two hours after the start").
	hostedCodeHold = 2 * time.Hour
	// HostedCodeAlphabet: 31 characters with none of 0/O, 1/I/L, so a code read aloud or
	// copied by hand is not misread; codes are upper case (a lower-case code is folded up).
	HostedCodeAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
	// HostedCodeLen is the length of a code (§4.5 "a four-character code").
	HostedCodeLen = 4
	// hostedMaxTables caps the tables gathering or held at once, so codes never run short
	// (31^4 ≈ 923,000 codes) and the desk's memory stays bounded.
	hostedMaxTables = 10_000
)

// HostedTable is one hosted table as the doors show it: never a token, display names only.
// Link is the table's page as a path on the site ("/t/<code>"); the door prefixes the site's
// origin. Seats is the table's size (blitz 6, short 3). Round and Table are set once started.
// StartsBy is when a gathering table starts with whoever came (hosted + ten minutes, UTC).
type HostedTable struct {
	Code    string   `json:"code"`
	Link    string   `json:"link"`
	Format  string   `json:"format"` // "blitz" | "short"
	Pace    string   `json:"pace"`   // always "chat" (§4.5)
	Host    string   `json:"host"`   // the host's display name
	Players []string `json:"players"`
	Seats   int      `json:"seats"`
	Status  string   `json:"status"` // HostedGathering | HostedStarting | HostedStarted
	Round   string   `json:"round,omitempty"`
	// Watch is the live round page ("/r/<round>") once started, which the doors fill in,
	// absolute on their origin; empty from the desk.
	Watch    string    `json:"watch,omitempty"`
	Table    string    `json:"-"` // the table id, for the desk's own use: the doors show the round
	Created  time.Time `json:"created"`
	StartsBy time.Time `json:"starts_by,omitzero"`
	Started  time.Time `json:"started,omitzero"`

	you string // the caller's display name (joinByCode reads its seat), never serialized
}

// NormalizeHostedCode folds a code to upper case and checks its shape: HostedCodeLen characters
// of HostedCodeAlphabet. ok is false for anything else.
func NormalizeHostedCode(code string) (string, bool) {
	c := strings.ToUpper(strings.TrimSpace(code))
	if len(c) != HostedCodeLen {
		return "", false
	}
	for i := 0; i < len(c); i++ {
		if strings.IndexByte(HostedCodeAlphabet, c[i]) < 0 {
			return "", false
		}
	}
	return c, true
}

// newHostedCode draws a code uniformly from the alphabet (rejection sampling on random bytes).
func newHostedCode() (string, error) {
	const n = len(HostedCodeAlphabet)
	const limit = 256 - 256%n
	out := make([]byte, 0, HostedCodeLen)
	var buf [16]byte
	for len(out) < HostedCodeLen {
		if _, err := rand.Read(buf[:]); err != nil {
			return "", err
		}
		for _, b := range buf {
			if int(b) < limit && len(out) < HostedCodeLen {
				out = append(out, HostedCodeAlphabet[int(b)%n])
			}
		}
	}
	return string(out), nil
}

// normalizeHosted is a hosted table's format ("" → "blitz") and seat count (0 → the format's
// fewest), refused (bad_request) outside the game's manifest.
func normalizeHosted(format string, seats int, formats formatSeats) (string, int, error) {
	if format == "" {
		format = "blitz"
	}
	n, err := formats.choose(format, seats)
	if err != nil {
		return "", 0, err
	}
	return format, n, nil
}

// HostTable opens a hosted table for the token's walk-in (§4.5): format "blitz" (default, five
// turns, six seats or as many as seats asks up to eight, §5.6) or "short" (three seats). The
// walk-in is its host, in seat 1 when it starts. Refusals: unknown_token, bad_request (format,
// a seat count outside the format's), at_a_hosted_table (it waits at a hosted table already, or
// holds a seat or a walkin-table place), busy.
func (a *Arena) HostTable(ctx context.Context, token, format string, seats int) (HostedTable, error) {
	format, seats, err := normalizeHosted(format, seats, a.formats)
	if err != nil {
		return HostedTable{}, err
	}
	w, err := a.walkinPID(ctx, token)
	if err != nil {
		return HostedTable{}, err
	}
	r, err := deskCall[*hostedReply](ctx, a, w, &walkinHost{Format: format, Seats: seats})
	if err != nil {
		return HostedTable{}, err
	}
	return r.T, nil
}

// JoinHosted seats the token's walk-in at the hosted table with that code (case-insensitive).
// When it fills the table the answer comes once the round is open (Status started, Round
// set). Refusals: unknown_token, bad_request (a malformed code), unknown_table (no such code
// now), table_started, at_a_hosted_table, busy.
func (a *Arena) JoinHosted(ctx context.Context, token, code string) (HostedTable, error) {
	c, ok := NormalizeHostedCode(code)
	if !ok {
		return HostedTable{}, games.Errorf(games.CodeBadRequest, "a table code is %d characters of %s", HostedCodeLen, HostedCodeAlphabet)
	}
	w, err := a.walkinPID(ctx, token)
	if err != nil {
		return HostedTable{}, err
	}
	r, err := deskCall[*hostedReply](ctx, a, w, &walkinJoinCode{Code: c})
	if err != nil {
		return HostedTable{}, err
	}
	return r.T, nil
}

// StartHosted starts the hosted table the token's walk-in hosts, now, house seats filling the
// empty ones; it answers once the round is open (Status started, Round set). Refusals:
// unknown_token, not_at_a_table, not_host (403: a walk-in at the table that is not its host),
// table_started, busy.
func (a *Arena) StartHosted(ctx context.Context, token string) (HostedTable, error) {
	w, err := a.walkinPID(ctx, token)
	if err != nil {
		return HostedTable{}, err
	}
	r, err := deskCall[*hostedReply](ctx, a, w, &walkinHostedCall{Op: hostedOpStart})
	if err != nil {
		return HostedTable{}, err
	}
	return r.T, nil
}

// LeaveTable takes the token's walk-in away from the table it waits at before it starts: a
// hosted table, a Free play gathering table or the walkin table's queue, saved before it is
// answered (the walk-in is idle then, free to join anything). A host that leaves hands the table
// to the walk-in who came next; the last one to leave closes it (its code, never started, may be
// drawn again); the last at a Free table deletes its record. Refusals: unknown_token,
// not_at_a_table (it waits nowhere), table_started (its table started or is being opened: a
// started table is left by going silent, the away rule, §4.5), busy.
func (a *Arena) LeaveTable(ctx context.Context, token string) error {
	w, err := a.walkinPID(ctx, token)
	if err != nil {
		return err
	}
	_, err = deskCall[*hostedReply](ctx, a, w, &walkinHostedCall{Op: hostedOpLeave})
	return err
}

// ListHosted lists the hosted tables gathering, oldest first (display names only).
func (a *Arena) ListHosted(ctx context.Context) ([]HostedTable, error) {
	d, err := a.deskPID()
	if err != nil {
		return nil, err
	}
	r, err := deskCall[*hostedListReply](ctx, a, d, &hostedList{})
	if err != nil {
		return nil, err
	}
	return r.Tables, nil
}

// HostedByCode is GET /v1/tables/hosted/{code}: the table gathering (or starting), or started
// with its round for two hours after the start. unknown_table otherwise (and for a malformed
// code).
func (a *Arena) HostedByCode(ctx context.Context, code string) (HostedTable, error) {
	c, ok := NormalizeHostedCode(code)
	if !ok {
		return HostedTable{}, games.Errorf(CodeUnknownTable, "no hosted table with code %q", code)
	}
	d, err := a.deskPID()
	if err != nil {
		return HostedTable{}, err
	}
	r, err := deskCall[*hostedReply](ctx, a, d, &hostedGet{Code: c})
	if err != nil {
		return HostedTable{}, err
	}
	return r.T, nil
}

// joinByCode is JoinWalkin with a code: the hosted join in the join answer's shape. Seat and
// Round are set when this join filled the table (it started); else Status is "gathering".
func (a *Arena) joinByCode(ctx context.Context, token string, req JoinRequest) (JoinReply, error) {
	t, err := a.JoinHosted(ctx, token, req.Code)
	if err != nil {
		return JoinReply{}, err
	}
	r := JoinReply{Kind: "hosted", Format: t.Format, Pace: "chat", Status: "gathering"}
	if t.Status == HostedStarted {
		r.Round, r.Table, r.Status = t.Round, t.Table, "seated"
		for i, p := range t.Players {
			if p == t.you {
				r.Seat = i + 1 // walk-ins take seats 1.. in the order they came
			}
		}
	}
	return r, nil
}

// sortHosted orders tables oldest first, then by code.
func sortHosted(ts []HostedTable) {
	sort.Slice(ts, func(i, j int) bool {
		if !ts[i].Created.Equal(ts[j].Created) {
			return ts[i].Created.Before(ts[j].Created)
		}
		return ts[i].Code < ts[j].Code
	})
}
