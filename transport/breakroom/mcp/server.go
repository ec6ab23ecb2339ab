// Package mcp is Break Room's MCP door (breakroom-protocol-v0.md "MCP"): POST /mcp, a Model
// Context Protocol server (Streamable HTTP, stateless, JSON answers, no sign-in) built with
// github.com/mark3labs/mcp-go, for agents that act through tools; POST /mcp/free, the same
// server without money (no confirm_payment tool, no stake_sats); and the server card at
// /.well-known/mcp/server-card.json.
//
// The tools drive the HTTP fallback's calls on the same product (transport/breakroom/play's
// Door and Backend), so the same rules, deadlines, limits and error codes apply:
//
//	list_games      {}                                        → Backend.Games
//	get_rules       {game}                                    → the game's rules (markdown)
//	join_game       {game, secret_key?, agent_name?, spoilers?, stake_sats?}
//	                → a nonce, signed with the key (created when none is passed, handed back
//	                  once as secret_key), then Door.SignedJoin as POST /v0/join: queued or seated,
//	                  with the session (the HTTP door's bearer token) every later tool takes
//	confirm_payment {session, payment_hash, payout_lnaddr}   → queued (POST /v0/paid, signed by the door)
//	wait_for_turn   {session, wait_ms?}                       → JoinStatus while queued, then State
//	make_move       {session, match_id, round, turn, action, amount?, target?, recipient?,
//	                 orders?, params?, message?}              → Backend.Move, read by wire.DecodeHTTP
//	leave_queue     {session}                                 → Backend.Leave
//	send_feedback   {session, text, rating?, match_id?}       → Backend.Feedback
//
// An answer is the protocol's own message as JSON text (the state message, left, queued …). A
// refusal is a tool error (isError) whose text is the protocol's error message
// ({"type":"error","v":0,"code":…,"detail":…}); it changes nothing and never consumes a turn.
// Hostile JSON-RPC is refused by transport/mcpguard before mcp-go reads it (as on the DOTDOTDOT
// chat seat), and tools/call arguments that do not fit the tool (an unknown or mistyped
// argument, a case variant of one) get -32602 with a fixed message before dispatch.
package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"arena/transport/breakroom/play"
	"arena/transport/door"
	"arena/transport/mcpguard"
)

// Paths of the door.
const (
	Path     = "/mcp"
	FreePath = "/mcp/free"
	CardPath = "/.well-known/mcp/server-card.json"
)

// MaxBody caps a POST body (bytes): the largest move (Diplomacy's orders) is a few kilobytes.
const MaxBody = 64 << 10

// MaxWait caps wait_for_turn's wait, as the HTTP fallback caps its long polls ("wait is capped
// at 25 000 ms").
const MaxWait = play.MaxWait

// Options configure the door. Door is required.
type Options struct {
	// Door is the site's playing doors: their product, challenge desk and join checks.
	Door *play.Door
	// Rules is a game's rules text (markdown) for get_rules; ok false: unknown_game.
	Rules func(game string) (text string, ok bool)
	// PublicURL is the site's origin ("https://breakroom.example"), for the server card.
	PublicURL string
	// Forwarded: read the caller's address from X-Forwarded-For (door.ClientAddr), for the
	// challenge desk's per-caller bound.
	Forwarded bool
	// TrustProxyHost turns off the DNS-rebinding check (mcpguard.LocalHost) behind a proxy.
	TrustProxyHost bool
	// CallTimeout bounds each product call that is not a wait (play.DefaultCallTimeout when 0).
	CallTimeout time.Duration
	// Drain, when closed, ends waiting wait_for_turn calls with what they have.
	Drain <-chan struct{}
	// Version is reported in initialize and the server card ("dev" when empty).
	Version string
	// Logger receives internal errors and panics; nil discards.
	Logger *slog.Logger
	// OnCall is told the name of each tool called (the usage stats' MCP tool calls); nil: nothing.
	OnCall func(tool string)
}

// Door is the MCP door; Mount adds its routes.
type Door struct {
	o          Options
	paid, free http.Handler
}

// New builds both servers.
func New(o Options) (*Door, error) {
	if o.Door == nil {
		return nil, fmt.Errorf("breakroom mcp: Options.Door is required")
	}
	if o.CallTimeout <= 0 {
		o.CallTimeout = play.DefaultCallTimeout
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Version == "" {
		o.Version = "dev"
	}
	if o.Rules == nil {
		o.Rules = func(string) (string, bool) { return "", false }
	}
	d := &Door{o: o}
	var err error
	if d.paid, err = d.server(false); err != nil {
		return nil, err
	}
	if d.free, err = d.server(true); err != nil {
		return nil, err
	}
	return d, nil
}

// Mount adds POST /mcp, POST /mcp/free (any other method: the guard's 405) and the server card.
func (d *Door) Mount(e *echo.Echo) error {
	e.Any(Path, echo.WrapHandler(d.paid))
	e.Any(FreePath, echo.WrapHandler(d.free))
	e.GET(CardPath, d.card)
	return nil
}

// Handler is the server at Path (free false) or FreePath (free true), for tests and mounting.
func (d *Door) Handler(free bool) http.Handler {
	if free {
		return d.free
	}
	return d.paid
}

// addrKey carries the caller's address to the tools (the challenge desk's bound).
type addrKey struct{}

// server is one of the two servers: the guard, the argument check, mcp-go.
func (d *Door) server(free bool) (http.Handler, error) {
	name := "breakroom"
	if free {
		name = "breakroom-free"
	}
	s := server.NewMCPServer(name, d.o.Version,
		server.WithInstructions(instructions(free)),
		server.WithToolCapabilities(false),
		server.WithTitle("Break Room"),
	)
	h := &handlers{o: d.o, d: d.o.Door, free: free, pend: &paidSessions{}}
	for _, t := range toolsOf(free) {
		fn, ok := h.table()[t.name]
		if !ok {
			return nil, fmt.Errorf("breakroom mcp: tool %s has no handler", t.name)
		}
		s.AddTool(t.tool(), h.wrap(t.name, fn))
	}
	st := server.NewStreamableHTTPServer(s,
		server.WithStateLess(true),
		server.WithDisableStreaming(true),
		server.WithDisableLocalhostProtection(true), // mcpguard.LocalHost takes .localhost names too
		server.WithStreamableHTTPLogger(d.o.Logger),
		server.WithHTTPContextFunc(func(ctx context.Context, r *http.Request) context.Context {
			return context.WithValue(ctx, addrKey{}, door.ClientAddr(r, d.o.Forwarded))
		}),
	)
	return mcpguard.Guard(mcpguard.LocalHost(argsCheck(st, free), d.o.TrustProxyHost), MaxBody, d.o.Logger), nil
}

// toolFunc is a tool's body: the arguments (already through argsCheck) in, the result out; a
// refusal is a tool error, never a Go error.
type toolFunc func(ctx context.Context, args []byte) *mcp.CallToolResult

// wrap is mcp-go's handler for fn: the raw arguments, and a panic as a fixed internal refusal
// (logged with its stack; no panic text reaches the client).
func (h *handlers) wrap(name string, fn toolFunc) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
		defer func() {
			if p := recover(); p != nil {
				h.o.Logger.Error("breakroom mcp: tool panic", "tool", name, "panic", p, "stack", string(debug.Stack()))
				res, err = refusal(door.CodeInternal, "the server failed on this call; it is logged", ""), nil
			}
		}()
		if h.o.OnCall != nil {
			h.o.OnCall(name)
		}
		raw := req.Params.RawArguments
		if len(raw) == 0 {
			raw = json.RawMessage("{}")
		}
		return fn(ctx, raw), nil
	}
}
