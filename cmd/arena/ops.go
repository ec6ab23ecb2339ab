package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"arena/config"
	"arena/transport/ops"
)

var opsCommand = command{
	summary: "operate a running server: ops tables | ops members | ops restart ID | ops stop ID | ops check NAME | ops showcase [FORMAT] | ops showing ROUND [--speed N] | ops feedback | ops handles | ops revoke-handle NAME | ops market keys create OWNER_ID|list|revoke ID | ops market admin | ops warden failed|void ID|verify|payments [STATUS]|payouts [STATUS]|retry MATCH SEAT [--server URL] [--token T] [--data DIR]",
	run:     runOps,
}

// opsUsage is printed by `arena ops -h` and on a usage error.
const opsUsage = `usage: arena ops tables|members|restart ID|stop ID|check NAME|showcase [FORMAT]|showing ROUND|feedback|handles|revoke-handle NAME [flags]
       arena ops market keys create OWNER_ID [--name NAME] | market keys list | market keys revoke ID | market admin [flags]
       arena ops warden failed | warden void ID | warden verify | warden payments [STATUS] | warden payouts [STATUS] | warden retry MATCH SEAT [flags]

Lists the tables of a running server, restarts one from its snapshot, or stops one, or lists
the feedback notes players sent (the scouting notice's /v1/feedback and the chat seat's
feedback tool, oldest first), over /ops/* with the operator token. A stop gives up the table's
walk-in seats for good: their moves are dropped, they are free to join another table, and a
later restart plays them on in silence.
A table that has finished its round cannot be restarted or stopped (refused, exit 1).
showcase opens a DOTDOTDOT Showcase (in-house agents only, each holding its human's levers) in
FORMAT (blitz, the default, or short) and prints its table and round.
showing starts a showing of a revealed DOTDOTDOT round: its public feed played again at --speed
times the recorded pace (1 to 10, default 1) on a page of its own, which it prints; the arena
registers the showing's replay anchor on chain as it starts (one chain fee a showing). At most 4
run at once, one per round.
check runs one of the server's consistency checks (paid: the paid tables' ledger against the
escrow; ratings: every rating against its rated rounds, every rated round against its table) and prints each finding as a JSON line, or NAME: ok; it exits 1 when there is a finding
(or the server could not be asked), 2 when the server has no check NAME.
members lists the cluster's members as the server last saw them (from its /healthz: no token
needed), this server's own marked with *; a server run without --cluster says it runs alone.
handles lists Break Room's handles (NIP-05 names), the revoked ones with when and why;
revoke-handle NAME revokes one (--reason says why): the name stops resolving and stays taken,
the key keeps its record and may claim another name. Both ask the Break Room site (--host).
market keys create OWNER_ID issues a Game Master market API key for that Owner (a Delegate:
--name names it; several keys of one Owner act as one Player) and prints it alone on the last
line, once: the server keeps only its hash. market keys list lists the keys (id, Owner,
Delegate, when issued and revoked); market keys revoke ID revokes one at once. market admin
prints the market's Admin projection (JSON). All ask the market site (--market-host).
warden failed lists the Warden's FAILED matches (parked for the operator) with why; warden void
ID voids one (each cleared stake refunded in full, no Ledger row); warden verify re-folds the
Ledger (exit 1 when it does not verify); warden payments and warden payouts list the x402
payment records and the payout and refund jobs, of one STATUS when given; warden retry MATCH
SEAT queues a payout_failed job again. All print the server's JSON and ask the Warden site
(--warden-host) from a loopback address.

flags (anywhere on the line):
  --server URL   the server (env ARENA_SERVER; default http://127.0.0.1:8080)
  --token T      operator token (env ARENA_OPERATOR_TOKEN; default: read <data>/operator.token)
  --data DIR     data dir the server wrote its token to (env ARENA_DATA; default ./data)
  --json         print the server's JSON as is (feedback: one note a line)
  --after SEQ    feedback: only the notes after SEQ (default 0: every note)
  --speed N      showing: times the recorded pace, 1 to 10 (default 1)
  --breakroom    feedback: Break Room's notes (socket, HTTP and MCP), from the Break Room site (--host)
  --host H       handles, revoke-handle, feedback --breakroom: the Break Room site's Host name (default breakroom.localhost)
  --reason TEXT  revoke-handle: why (kept with the handle's record)
  --name NAME    market keys create: the Delegate's name (operator data, never public)
  --market-host H  market: the market site's Host name (default market.localhost)
  --warden-host H  warden: the Warden site's Host name (default warden.localhost)
`

// runOps is `arena ops`. Exit 0 on success, 1 when the server refused or could not be reached,
// 2 on a usage error.
func runOps(ctx context.Context, args []string) int {
	return opsMain(ctx, args, os.Getenv, os.Stdout, os.Stderr)
}

func opsMain(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("arena ops", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	server := fs.String("server", "", "")
	token := fs.String("token", "", "")
	data := fs.String("data", "", "")
	asJSON := fs.Bool("json", false, "")
	after := fs.Uint64("after", 0, "")
	host := fs.String("host", "breakroom.localhost", "")
	reason := fs.String("reason", "", "")
	brFeedback := fs.Bool("breakroom", false, "")
	delegate := fs.String("name", "", "")
	marketHost := fs.String("market-host", "market.localhost", "")
	wardenHost := fs.String("warden-host", "warden.localhost", "")
	speed := fs.Int("speed", 1, "")
	// Flags may come before or after the verb and the id.
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, opsUsage)
			return 0
		}
		fmt.Fprintf(stderr, "arena ops: %v\n%s", err, opsUsage)
		return 2
	}
	var method, path string
	switch {
	case len(pos) == 1 && pos[0] == "tables":
		method, path = http.MethodGet, "/ops/tables"
	case len(pos) == 1 && pos[0] == "feedback":
		method, path = http.MethodGet, "/ops/feedback"
	case len(pos) == 2 && (pos[0] == "restart" || pos[0] == "stop"):
		method, path = http.MethodPost, "/ops/tables/"+url.PathEscape(pos[1])+"/"+pos[0]
	case len(pos) == 1 && pos[0] == "handles", len(pos) == 2 && pos[0] == "revoke-handle":
		// Break Room's: opsHandles, below.
	case len(pos) >= 2 && pos[0] == "market":
		// The market's: opsMarket, below.
	case len(pos) >= 2 && pos[0] == "warden":
		// The Warden's: opsWarden, below.
	case len(pos) == 2 && pos[0] == "check":
		method, path = http.MethodGet, "/ops/checks/"+url.PathEscape(pos[1])
	case len(pos) == 1 && pos[0] == "members":
		// The public /healthz's: opsMembers, below (no operator token needed).
	case (len(pos) == 1 || len(pos) == 2) && pos[0] == "showcase":
		method, path = http.MethodPost, "/ops/showcase"
	case len(pos) == 2 && pos[0] == "showing":
		method, path = http.MethodPost, "/ops/showings"
	default:
		fmt.Fprint(stderr, opsUsage)
		return 2
	}
	env := config.ClientEnv(getenv)
	base := firstOf(*server, env.Server, "http://127.0.0.1:8080")
	if pos[0] == "members" {
		mctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		return opsMembers(mctx, strings.TrimRight(base, "/"), *asJSON, stdout, stderr)
	}
	tok := firstOf(*token, env.OperatorToken)
	if tok == "" {
		t, err := config.ReadOperatorToken(firstOf(*data, env.DataDir, "./data"))
		if err != nil {
			fmt.Fprintf(stderr, "arena ops: no operator token: give --token or --data (%v)\n", err)
			return 2
		}
		tok = t
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if pos[0] == "warden" {
		return opsWarden(ctx, strings.TrimRight(base, "/"), *wardenHost, tok, pos, stdout, stderr)
	}
	if pos[0] == "market" {
		return opsMarket(ctx, strings.TrimRight(base, "/"), *marketHost, tok, pos, *delegate, *asJSON, stdout, stderr)
	}
	if pos[0] == "handles" || pos[0] == "revoke-handle" {
		return opsHandles(ctx, strings.TrimRight(base, "/"), *host, tok, pos, *reason, *asJSON, stdout, stderr)
	}
	if pos[0] == "feedback" && *brFeedback {
		return opsBreakroomFeedback(ctx, strings.TrimRight(base, "/"), *host, tok, *asJSON, stdout, stderr)
	}
	if pos[0] == "feedback" {
		return opsFeedback(ctx, strings.TrimRight(base, "/"), tok, *after, *asJSON, stdout, stderr)
	}
	var list struct {
		Tables []ops.Table `json:"tables"`
	}
	var into any
	if pos[0] == "tables" && !*asJSON {
		into = &list
	}
	var send []byte
	if pos[0] == "showcase" {
		send = []byte(`{}`)
		if len(pos) == 2 {
			send, _ = json.Marshal(map[string]string{"format": pos[1]})
		}
	}
	if pos[0] == "showing" {
		send, _ = json.Marshal(map[string]any{"round": pos[1], "speed": *speed})
	}
	body, status, code := opsAsk(ctx, opsRequest{method: method, url: strings.TrimRight(base, "/") + path, body: send, limit: 16 << 20}, tok, into, stderr)
	if code != 0 {
		if pos[0] == "check" && status == http.StatusNotFound {
			return 2 // no such check: a usage error, never a finding's exit 1
		}
		return code
	}
	if pos[0] == "check" {
		return printCheck(body, *asJSON, stdout, stderr)
	}
	if pos[0] == "showcase" && !*asJSON {
		var sc struct{ Table, Round string }
		if !decodeAnswer(body, &sc, stderr) {
			return 1
		}
		fmt.Fprintf(stdout, "showcase %s %s\n", sc.Table, sc.Round)
		return 0
	}
	if pos[0] == "showing" && !*asJSON {
		var sh struct {
			Round, Started, Page string
			Speed                int
		}
		if !decodeAnswer(body, &sh, stderr) {
			return 1
		}
		fmt.Fprintf(stdout, "showing %s at %d× from %s: %s%s\n", sh.Round, sh.Speed, sh.Started, strings.TrimRight(base, "/"), sh.Page)
		return 0
	}
	if *asJSON || pos[0] != "tables" {
		if *asJSON {
			stdout.Write(body)
			fmt.Fprintln(stdout)
			return 0
		}
		fmt.Fprintf(stdout, "%s %s\n", pos[1], map[string]string{"restart": "restarted", "stop": "stopped"}[pos[0]])
		return 0
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tGAME\tKIND\tROUND\tTURN\tPHASE\tSTATUS\tSEATS\tRESTARTS\tLAST ERROR")
	for _, t := range list.Tables {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\t%s\t%d\t%d\t%s\n", t.ID, t.Game, t.Kind, t.Round, t.Turn, t.Phase, t.Status, t.Seats, t.Restarts, t.LastError)
	}
	tw.Flush()
	return 0
}

// printCheck prints a check's report: its findings one JSON line each (or the report as is with
// --json), "NAME: ok" when there is none; exit 0 when ok, 1 otherwise.
func printCheck(body []byte, asJSON bool, stdout, stderr io.Writer) int {
	var r ops.CheckReport
	if !decodeAnswer(body, &r, stderr) {
		return 1
	}
	switch {
	case asJSON:
		stdout.Write(body)
		fmt.Fprintln(stdout)
	case r.OK:
		fmt.Fprintf(stdout, "%s: ok\n", r.Check)
	default:
		for _, f := range r.Findings {
			fmt.Fprintln(stdout, string(f))
		}
	}
	if !r.OK {
		return 1
	}
	return 0
}

// opsRequest is one request `arena ops` makes of a running server's /ops/* routes.
type opsRequest struct {
	method, url string
	host        string // the Host name of the site asked (Break Room's); "" for the server's own
	body        []byte // sent as application/json when not nil
	limit       int64  // the most bytes of the answer read
}

// opsAsk sends r with the operator token tok and returns the answer's body when it is 200 OK,
// decoded into into as well when into is not nil. Otherwise it prints why on stderr (a refusal's
// message and code when the answer carries them: the server's {error, code}, a site's {detail,
// code}, the market's {error: {code, message}}) and returns the exit code opsMain gives: 2 when
// the request cannot be made, 1 when the server cannot be reached, its answer cannot be read or
// decoded, or it refuses. status is the answer's HTTP status (0 when no answer was read).
func opsAsk(ctx context.Context, r opsRequest, tok string, into any, stderr io.Writer) (raw []byte, status, exit int) {
	req, err := http.NewRequestWithContext(ctx, r.method, r.url, bytes.NewReader(r.body))
	if err != nil {
		fmt.Fprintf(stderr, "arena ops: %v\n", err)
		return nil, 0, 2
	}
	if r.host != "" {
		req.Host = r.host
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	if r.body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Fprintf(stderr, "arena ops: %v\n", err)
		return nil, 0, 1
	}
	defer resp.Body.Close()
	raw, err = io.ReadAll(io.LimitReader(resp.Body, r.limit))
	if err != nil {
		fmt.Fprintf(stderr, "arena ops: read answer: %v\n", err)
		return nil, 0, 1
	}
	if resp.StatusCode != http.StatusOK {
		var e struct{ Error, Detail, Code string }
		var env struct { // the market's envelope
			Error struct{ Code, Message string }
		}
		if json.Unmarshal(raw, &e) == nil && e.Code != "" {
			fmt.Fprintf(stderr, "arena ops: %s (%d %s)\n", firstOf(e.Error, e.Detail), resp.StatusCode, e.Code)
		} else if json.Unmarshal(raw, &env) == nil && env.Error.Code != "" {
			fmt.Fprintf(stderr, "arena ops: %s (%d %s)\n", env.Error.Message, resp.StatusCode, env.Error.Code)
		} else if e.Error != "" { // the Warden's {v, error, detail}
			fmt.Fprintf(stderr, "arena ops: %s (%d %s)\n", e.Detail, resp.StatusCode, e.Error)
		} else {
			fmt.Fprintf(stderr, "arena ops: %s\n", resp.Status)
		}
		return raw, resp.StatusCode, 1
	}
	if into != nil && !decodeAnswer(raw, into, stderr) {
		return raw, resp.StatusCode, 1
	}
	return raw, resp.StatusCode, 0
}

// decodeAnswer decodes an answer's JSON body into v, or prints why not on stderr and is false.
func decodeAnswer(raw []byte, v any, stderr io.Writer) bool {
	if err := json.Unmarshal(raw, v); err != nil {
		fmt.Fprintf(stderr, "arena ops: unreadable answer: %v\n", err)
		return false
	}
	return true
}

// printJSONLines prints each of vs as one JSON line (plain data: marshalling cannot fail).
func printJSONLines[T any](w io.Writer, vs []T) {
	for _, v := range vs {
		b, _ := json.Marshal(v)
		fmt.Fprintf(w, "%s\n", b)
	}
}

func firstOf(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}
