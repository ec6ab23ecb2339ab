package chatseat

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"arena/games"
	"arena/transport/door"
)

// Path is where the chat seat is mounted on the site host (§4.5).
const Path = "/mcp"

// MaxWait is how long next_move waits for a move (§4.5: up to 20 s).
const MaxWait = 20 * time.Second

// DefaultMaxBody caps a POST body to /mcp (bytes): a commit with four commitments and depth-2
// conditions is a few kilobytes.
const DefaultMaxBody = 256 << 10

// Options configure the chat seat.
type Options struct {
	// Desk is the walk-in desk (required).
	Desk Desk
	// Describer puts the game's table, the ways to answer a move and the result in words
	// (games.Describer: the Blitz engine); nil leaves them out of next_move's text, which then
	// sends the assistant to the brief for how to answer.
	Describer games.Describer
	// Hosted is the desk's hosted tables; nil takes the Desk's own when it implements Hosted,
	// else host_table, start_table and leave_table answer not_served.
	Hosted Hosted
	// Feedback receives the feedback tool's text (token may be empty); nil refuses feedback
	// with not_served.
	Feedback func(ctx context.Context, token, round, text string) error
	// Site is the public origin of the site ("https://arena.example"), prefixed to a hosted
	// table's link when the desk gives a path ("/t/K7QX"). Empty: the origin the request came
	// to (its Host; https when the connection is TLS or, with TrustProxyHost, when
	// X-Forwarded-Proto says so).
	Site string
	// TrustProxyHost turns off the seat's DNS-rebinding guard (localHost), which refuses (403)
	// a request that arrives on a loopback connection with a Host header that is not
	// localhost, a name under .localhost or a loopback IP: exactly what a reverse proxy on the
	// same machine sends when it keeps the public Host. Set it when /mcp sits behind such a
	// proxy (serve: ARENA_MCP_BEHIND_PROXY=1).
	TrustProxyHost bool
	// MaxBody caps a POST body in bytes (DefaultMaxBody when ≤ 0).
	MaxBody int64
	// PollsPerToken caps next_move calls waiting at once for one token (4 when ≤ 0, as the
	// HTTP door's long polls): a poll never consumes a move, so one is enough.
	PollsPerToken int
	// CallTimeout bounds every desk call but next_move's wait (10 s when ≤ 0).
	CallTimeout time.Duration
	// Drain, when closed, ends waiting next_move calls at once (the server is shutting down).
	Drain <-chan struct{}
	// Now is the clock for "time left" in briefs (time.Now when nil).
	Now func() time.Time
	// Logger receives internal errors and panics (with their stacks); nil discards.
	Logger *slog.Logger
	// Version is reported in the MCP initialize answer ("dev" when empty).
	Version string
	// Registrations limits register per caller address (door.ClientAddr), Tables the tables a
	// caller opens (play_practice, host_table): past either, rate_limited with the seconds to
	// wait. `arena serve` hands the desk door the same limiters (desk.Options), so one address
	// has one budget on both doors. Nil: no limit.
	Registrations, Tables *door.Limiter
	// Notes limits feedback notes per caller address, as POST /v1/feedback does with the same
	// limiter (transport/dotdotdot/feedback). Nil: no limit.
	Notes *door.Limiter
	// Forwarded reads the caller's address from X-Forwarded-For (door.ClientAddr).
	Forwarded bool
}

// New returns the chat seat's http.Handler, to be mounted at Path: the hostile-request Guard
// around mcp-go's Streamable HTTP server (stateless: no session id; POST answers are
// application/json, since no tool sends notifications), with the thirteen tools of §4.5.
func New(o Options) (http.Handler, error) {
	if o.Desk == nil {
		return nil, fmt.Errorf("chatseat: Options.Desk is required")
	}
	if o.Hosted == nil {
		if hd, ok := o.Desk.(Hosted); ok {
			o.Hosted = hd
		}
	}
	if o.MaxBody <= 0 {
		o.MaxBody = DefaultMaxBody
	}
	if o.PollsPerToken <= 0 {
		o.PollsPerToken = 4
	}
	if o.CallTimeout <= 0 {
		o.CallTimeout = 10 * time.Second
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Version == "" {
		o.Version = "dev"
	}
	s := server.NewMCPServer("arena-dotdotdot", o.Version,
		server.WithInstructions(Instructions),
		server.WithToolCapabilities(false),
		server.WithTitle("DOTDOTDOT chat seat"),
	)
	h := &handlers{o: o, polls: map[string]int{}}
	for _, d := range toolDefs {
		fn, ok := h.table()[d.name]
		if !ok {
			return nil, fmt.Errorf("chatseat: tool %s has no handler", d.name)
		}
		s.AddTool(d.tool(), h.wrap(d.name, fn))
	}
	st := server.NewStreamableHTTPServer(s,
		server.WithStateLess(true),
		server.WithDisableStreaming(true),
		// mcp-go's guard knows only localhost and loopback IPs; localHost (below) also takes
		// RFC 6761's .localhost names, the DOTDOTDOT site's default host among them.
		server.WithDisableLocalhostProtection(true),
		server.WithStreamableHTTPLogger(o.Logger),
		server.WithHTTPContextFunc(func(ctx context.Context, r *http.Request) context.Context {
			ctx = context.WithValue(ctx, addrKey{}, door.ClientAddr(r, o.Forwarded))
			return context.WithValue(ctx, originKey{}, originOf(r, o))
		}),
	)
	return Guard(localHost(st, o.TrustProxyHost), o.MaxBody, o.Logger), nil
}

// toolFunc is a tool's body: the raw arguments (a JSON object, the Guard saw to it) in, the
// result out. It returns a tool error (isError) for every refusal, never a Go error.
type toolFunc func(ctx context.Context, args []byte) *mcp.CallToolResult

// wrap turns a toolFunc into mcp-go's handler: the raw arguments as sent, and a panic turned
// into a fixed tool error (logged with its stack; no panic text reaches the client).
func (h *handlers) wrap(name string, fn toolFunc) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
		defer func() {
			if p := recover(); p != nil {
				h.o.Logger.Error("mcp: tool panic", "tool", name, "panic", p, "stack", string(debug.Stack()))
				res, err = refusalOf("internal", "the arena failed on this call; it is logged", true), nil
			}
		}()
		raw := req.Params.RawArguments
		if len(raw) == 0 {
			return badArgs(name, "arguments must be a JSON object"), nil
		}
		if name != "next_move" {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, h.o.CallTimeout)
			defer cancel()
		}
		return fn(ctx, raw), nil
	}
}

// originKey carries the request's site origin to the tools (for hosted tables' links).
type originKey struct{}

// addrKey carries the caller's address (door.ClientAddr) to the tools, for the limits.
type addrKey struct{}

// limit takes one from l for the caller of ctx; the refusal is the tool error to answer.
func (h *handlers) limit(ctx context.Context, l *door.Limiter) *mcp.CallToolResult {
	addr, _ := ctx.Value(addrKey{}).(string)
	if err := l.Allow(addr); err != nil {
		return h.refusal(err)
	}
	return nil
}

// originOf is the site origin a link is written against: Options.Site, else the request's.
func originOf(r *http.Request, o Options) string {
	if o.Site != "" {
		return strings.TrimRight(o.Site, "/")
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	if o.TrustProxyHost {
		if p := r.Header.Get("X-Forwarded-Proto"); p == "https" || p == "http" {
			scheme = p
		}
	}
	return scheme + "://" + r.Host
}

// siteLink makes a path link absolute against the request's origin; anything else is kept.
func siteLink(ctx context.Context, link string) string {
	if !strings.HasPrefix(link, "/") {
		return link
	}
	origin, _ := ctx.Value(originKey{}).(string)
	return origin + link
}
