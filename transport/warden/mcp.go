package warden

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"arena/games/canon"
	"arena/storage"
	"arena/transport/door"
	"arena/transport/mcpguard"
)

// MCPPath is the Warden's MCP endpoint (warden-games §8.1).
const MCPPath = "/v1/warden/mcp"

// MaxWaitMS caps warden_wait's wait_ms (§8.2).
const MaxWaitMS = 25_000

// The _meta members of the x402 MCP binding (§8.3).
const (
	MetaPayment         = "x402/payment"
	MetaPaymentResponse = "x402/payment-response"
)

// MatchViews is where the match-tied tools read a Contender's private view (§9.1): the match
// actor, which alone knows the match's hidden state. View returns the view of seat's Contender
// as a JSON object, with the events after seq after; with wait > 0 it waits up to wait for a
// change after after first (the long poll). A refusal is a *door.Refusal (unknown_match …).
type MatchViews interface {
	View(ctx context.Context, match, seat string, after uint64, wait time.Duration) (json.RawMessage, error)
}

// MCP is the Warden's metered MCP door (§8): a stateless mcp-go Streamable HTTP server behind
// transport/mcpguard at MCPPath. Its free tools (challenge, register, pricing, queue, open,
// join, act) and its global reads are the site's REST doors called in process, with the
// Contender's token as the bearer; its match-tied reads (state, legal moves, wait) read
// MatchViews. Every data-returning tool is charged by Meter at its tier before it is served
// (§8.3 tool-result binding: the payment rides in _meta["x402/payment"]). A read is computed
// first and its answer held back until the payment has settled, so a read the REST door
// refuses (bad arguments, an unknown id) charges nothing.
type MCP struct {
	Meter *Meter     // nil: metered tools answer facilitator_unavailable
	Views MatchViews // nil: match-tied tools answer facilitator_unavailable
	Store *storage.Store
	// Games are the Warden-family manifests (warden_games) and RulesText a game's rules
	// (warden_rules; ok false: unknown_game).
	Games     []json.RawMessage
	RulesText func(game string) (text string, ok bool)
	Log       *slog.Logger

	rest http.Handler // the site itself, for the tools that are REST doors
	srv  http.Handler
}

func (m *MCP) mount(e *echo.Echo) error {
	m.rest = e
	if m.Log == nil {
		m.Log = slog.New(slog.DiscardHandler)
	}
	s := server.NewMCPServer("warden", "1", server.WithToolCapabilities(false), server.WithTitle("The Warden"),
		server.WithInstructions("The Warden: two-player games for USDC stakes. Reads are metered by x402 (warden_pricing); "+
			"a metered call without payment answers isError with a PaymentRequired object: retry it with the PaymentPayload in _meta[\"x402/payment\"]."))
	for _, t := range m.tools() {
		s.AddTool(t.tool, m.wrap(t.name, t.fn))
	}
	st := server.NewStreamableHTTPServer(s, server.WithStateLess(true), server.WithDisableStreaming(true),
		server.WithDisableLocalhostProtection(true), server.WithStreamableHTTPLogger(m.Log))
	m.srv = mcpguard.Guard(mcpguard.LocalHost(st, false), 64<<10, m.Log)
	e.Any(MCPPath, echo.WrapHandler(m.srv))
	e.GET("/v1/warden/pricing", func(c echo.Context) error {
		c.Response().Header().Set("Cache-Control", "no-store")
		return c.JSON(http.StatusOK, m.pricing().StructuredContent)
	})
	m.mountCatalog(e)
	return nil
}

type toolFn func(ctx context.Context, req mcp.CallToolRequest, args []byte) *mcp.CallToolResult

type toolDef struct {
	name string
	tool mcp.Tool
	fn   toolFn
}

func (m *MCP) wrap(name string, fn toolFn) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
		defer func() {
			if p := recover(); p != nil {
				m.Log.Error("warden mcp: tool panic", "tool", name, "panic", p, "stack", string(debug.Stack()))
				res, err = refusalResult(door.CodeInternal, "the server failed on this call; it is logged"), nil
			}
		}()
		raw := []byte(req.Params.RawArguments)
		if len(raw) == 0 {
			raw = []byte("{}")
		}
		return fn(ctx, req, raw), nil
	}
}

// refusalResult is a non-payment refusal: isError, {v:1, error, detail} as structuredContent
// and as text.
func refusalResult(code, detail string) *mcp.CallToolResult {
	body := map[string]any{"v": 1, "error": code, "detail": detail}
	b, _ := json.Marshal(body)
	r := mcp.NewToolResultStructured(body, string(b))
	r.IsError = true
	return r
}

func (m *MCP) refused(err error) *mcp.CallToolResult {
	if r, ok := door.AsRefusal(err); ok {
		return refusalResult(r.Code, r.Msg)
	}
	var pe *PayError
	if errors.As(err, &pe) {
		return refusalResult(pe.Code, pe.Detail)
	}
	m.Log.Error("warden mcp: call failed", "err", err)
	return refusalResult(door.CodeInternal, "something went wrong on the server's side; it is logged")
}

// decode reads a tool's arguments strictly (canon: exact names, no unknown member, declared
// JSON types): bad_request otherwise.
func decode(args []byte, v any) error {
	if err := canon.Decode(args, v); err != nil {
		return door.Refuse(door.CodeBadRequest, "arguments: "+canon.Reason(err))
	}
	return nil
}

// restAnswer is a REST door's answer called in process.
type restAnswer struct {
	status int
	header http.Header
	body   []byte
}

// call runs the site's REST door method path (query q, JSON body, bearer token, extra headers)
// in process and returns its answer.
func (m *MCP) call(ctx context.Context, method, path string, q url.Values, body any, token string, hdr map[string]string) restAnswer {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	u := path
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	req := httptest.NewRequest(method, u, rd).WithContext(ctx)
	req.Host = "warden.internal"
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	m.rest.ServeHTTP(rec, req)
	return restAnswer{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
}

// toolAnswer is a REST answer as a tool result: 2xx its JSON object; otherwise the Warden's error
// body as a refusal.
func toolAnswer(a restAnswer) *mcp.CallToolResult {
	var v map[string]any
	if err := json.Unmarshal(a.body, &v); err != nil {
		return refusalResult(door.CodeInternal, "the door's answer is not JSON")
	}
	if a.status >= 300 {
		if code, _ := v["error"].(string); code == "" {
			return refusalResult(door.CodeInternal, "the door answered "+strconv.Itoa(a.status))
		}
		r := mcp.NewToolResultStructured(v, string(a.body))
		r.IsError = true
		return r
	}
	return mcp.NewToolResultStructured(v, string(a.body))
}

// paymentOf is the request's _meta["x402/payment"] as JSON, nil when absent.
func paymentOf(req mcp.CallToolRequest) ([]byte, error) {
	if req.Params.Meta == nil || req.Params.Meta.AdditionalFields == nil {
		return nil, nil
	}
	v, ok := req.Params.Meta.AdditionalFields[MetaPayment]
	if !ok {
		return nil, nil
	}
	if _, isObj := v.(map[string]any); !isObj {
		return nil, &PayError{Code: "invalid_payload", Detail: "_meta[\"x402/payment\"] must be the PaymentPayload object"}
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, &PayError{Code: "invalid_payload", Detail: "_meta[\"x402/payment\"] does not encode"}
	}
	return b, nil
}

// charge is the x402 binding around a read (§8.3): serve computes the read (a refusal charges
// nothing); then the payment is taken; then the read's result is released with the settlement
// answer in _meta["x402/payment-response"]. seatOf seats a payer known only by its payment.
func (m *MCP) charge(req mcp.CallToolRequest, r Read, seatOf SeatOf, serve func(seat string) *mcp.CallToolResult) *mcp.CallToolResult {
	if m.Meter == nil {
		return refusalResult("facilitator_unavailable", "this Warden has no read rail: metered reads are off")
	}
	raw, err := paymentOf(req)
	if err != nil {
		return m.paymentRefused(r, err)
	}
	var res *mcp.CallToolResult
	if r.Seat != "" || seatOf == nil {
		if res = serve(r.Seat); res.IsError {
			return res
		}
	}
	paid, err := m.Meter.Pay(r, raw, seatOf)
	if err != nil {
		return m.paymentRefused(r, err)
	}
	if res == nil {
		if res = serve(paid.Rec.Seat); res.IsError {
			return res // the payer's seat became known only now; the read itself failed after the charge
		}
	}
	res.Meta = mcp.NewMetaFromMap(map[string]any{MetaPaymentResponse: settlementOf(paid.Rec, true)})
	return res
}

func settlementOf(rec storage.WardenPayment, ok bool) map[string]any {
	out := map[string]any{"success": ok, "transaction": rec.Tx, "network": rec.Network, "payer": rec.Payer}
	if !ok {
		out["errorReason"] = rec.Reason
	}
	return out
}

// paymentRefused is a refused payment as the binding answers it: isError with a fresh v2
// PaymentRequired (its error the reason code) as structuredContent and as content[0].text,
// and a failed settlement's response in _meta; a refusal that is not a payment one (not_seated)
// as a plain refusal.
func (m *MCP) paymentRefused(r Read, err error) *mcp.CallToolResult {
	var pe *PayError
	if !errors.As(err, &pe) || !pe.Challenge {
		return m.refused(err)
	}
	b, cerr := m.Meter.Challenge(r).V2(pe.Code)
	if cerr != nil {
		return m.refused(cerr)
	}
	var obj map[string]any
	_ = json.Unmarshal(b, &obj)
	obj["detail"] = pe.Detail
	text, _ := json.Marshal(obj)
	res := mcp.NewToolResultStructured(obj, string(text))
	res.IsError = true
	if pe.Settled != nil {
		res.Meta = mcp.NewMetaFromMap(map[string]any{MetaPaymentResponse: settlementOf(*pe.Settled, false)})
	}
	return res
}

// caller is the Contender of a token ("" for none); an unknown or expired token is unauthorized.
func (m *MCP) caller(token string) (string, error) {
	if token == "" {
		return "", nil
	}
	var rec tokenRec
	var found bool
	if err := m.Store.WardenView(func(tx storage.WardenTx) (err error) {
		found, err = tx.Get("token/"+hashHex(token), &rec)
		return err
	}); err != nil {
		return "", err
	}
	if !found || rec.Expires < ms(m.now()) {
		return "", door.Refuse("unauthorized", "the token is unknown or expired; register again")
	}
	return rec.Wallet, nil
}

func (m *MCP) now() time.Time {
	if m.Meter != nil {
		return m.Meter.now()
	}
	return time.Now()
}

// matchRead prepares a match-tied read (§8.2): the match must exist; its tier is match while it
// is STAKING or LIVE and global after [JC-25]; a caller known by token must be seated
// (not_seated, nothing charged); seatOf seats a payer known only by its payment.
func (m *MCP) matchRead(tool, id, token string) (Read, SeatOf, error) {
	if !validMatchID(id) {
		return Read{}, nil, door.Refuse("bad_request", "match_id is not a match id (wm_ and 16 hex digits)")
	}
	var mt Match
	var found bool
	if err := m.Store.WardenView(func(tx storage.WardenTx) (err error) {
		found, err = tx.Get("match/"+id, &mt)
		return err
	}); err != nil {
		return Read{}, nil, err
	}
	if !found {
		return Read{}, nil, door.Refuse("unknown_match", "no match "+strconv.Quote(id))
	}
	r := Read{Tool: tool, Match: id, Tier: TierGlobal}
	if mt.Status == StatusStaking || mt.Status == StatusLive {
		r.Tier = TierMatch
	}
	who, err := m.caller(token)
	if err != nil {
		return Read{}, nil, err
	}
	seatOf := func(wallet string) (string, error) {
		if s := seatOf(mt, wallet); s != "" {
			return s, nil
		}
		return "", door.Refuse("not_seated", wallet+" has no seat in "+id+"; nothing was charged")
	}
	if who != "" {
		if r.Seat, err = seatOf(who); err != nil {
			return Read{}, nil, err
		}
	}
	return r, seatOf, nil
}

func (m *MCP) tools() []toolDef {
	str := func(name, desc string, required bool) mcp.ToolOption {
		opts := []mcp.PropertyOption{mcp.Description(desc)}
		if required {
			opts = append(opts, mcp.Required())
		}
		return mcp.WithString(name, opts...)
	}
	num := func(name, desc string, required bool) mcp.ToolOption {
		opts := []mcp.PropertyOption{mcp.Description(desc)}
		if required {
			opts = append(opts, mcp.Required())
		}
		return mcp.WithInteger(name, opts...)
	}
	tool := func(name, desc string, opts ...mcp.ToolOption) mcp.Tool {
		return mcp.NewTool(name, append([]mcp.ToolOption{mcp.WithDescription(desc)}, opts...)...)
	}
	global := func(name string, build func(ctx context.Context, args []byte) (restAnswer, error)) toolFn {
		return func(ctx context.Context, req mcp.CallToolRequest, args []byte) *mcp.CallToolResult {
			var a restAnswer
			var berr error
			return m.charge(req, Read{Tool: name, Tier: TierGlobal}, nil, func(string) *mcp.CallToolResult {
				if a, berr = build(ctx, args); berr != nil {
					return m.refused(berr)
				}
				return toolAnswer(a)
			})
		}
	}
	q := func(kv ...any) url.Values {
		v := url.Values{}
		for i := 0; i < len(kv); i += 2 {
			switch x := kv[i+1].(type) {
			case *string:
				if x != nil {
					v.Set(kv[i].(string), *x)
				}
			case *int64:
				if x != nil {
					v.Set(kv[i].(string), strconv.FormatInt(*x, 10))
				}
			}
		}
		return v
	}
	return []toolDef{
		{"warden_pricing", tool("warden_pricing", "The price table (free): read tiers in atomic USDC units, the read rail and Gateway contract, x402 versions."),
			func(ctx context.Context, _ mcp.CallToolRequest, args []byte) *mcp.CallToolResult {
				if err := decode(args, &struct{}{}); err != nil {
					return m.refused(err)
				}
				return m.pricing()
			}},
		{"warden_challenge", tool("warden_challenge", "A single-use registration challenge (free)."),
			func(ctx context.Context, _ mcp.CallToolRequest, args []byte) *mcp.CallToolResult {
				if err := decode(args, &struct{}{}); err != nil {
					return m.refused(err)
				}
				return toolAnswer(m.call(ctx, "GET", "/v1/warden/challenge", nil, nil, "", nil))
			}},
		{"warden_register", tool("warden_register", "Register a wallet with a Temperament (free): sign the registration text with personal_sign.",
			str("wallet", "EIP-55 address", true), str("temperament", "one of the temperaments", true), str("name", "display name", false),
			str("challenge", "from warden_challenge", true), str("signature", "0x personal_sign signature", true)),
			func(ctx context.Context, _ mcp.CallToolRequest, args []byte) *mcp.CallToolResult {
				var in struct {
					Wallet      string  `json:"wallet"`
					Temperament string  `json:"temperament"`
					Name        *string `json:"name"`
					Challenge   string  `json:"challenge"`
					Signature   string  `json:"signature"`
				}
				if err := decode(args, &in); err != nil {
					return m.refused(err)
				}
				body := map[string]any{"wallet": in.Wallet, "temperament": in.Temperament, "challenge": in.Challenge, "signature": in.Signature}
				if in.Name != nil {
					body["name"] = *in.Name
				}
				return toolAnswer(m.call(ctx, "POST", "/v1/warden/contenders", nil, body, "", nil))
			}},
		{"warden_open_match", tool("warden_open_match", "Open a match (free).", str("token", "bearer token", true), str("game", "game id", true), num("stake", "atomic units", true)),
			m.forwardGameStake("/v1/warden/matches")},
		{"warden_queue", tool("warden_queue", "Queue for a game and stake (free).", str("token", "bearer token", true), str("game", "game id", true), num("stake", "atomic units", true)),
			m.forwardGameStake("/v1/warden/queue")},
		{"warden_join_match", tool("warden_join_match", "Join an open match as seat B (free).", str("token", "bearer token", true), str("match_id", "wm_…", true)),
			func(ctx context.Context, _ mcp.CallToolRequest, args []byte) *mcp.CallToolResult {
				var in struct {
					Token string `json:"token"`
					Match string `json:"match_id"`
				}
				if err := decode(args, &in); err != nil {
					return m.refused(err)
				}
				if !validMatchID(in.Match) {
					return refusalResult("bad_request", "match_id is not a match id (wm_ and 16 hex digits)")
				}
				return toolAnswer(m.call(ctx, "POST", "/v1/warden/matches/"+in.Match+"/join", nil, nil, in.Token, nil))
			}},
		{"warden_act", tool("warden_act", "Submit the legal move the view names (free).", str("token", "bearer token", true), str("match_id", "wm_…", true),
			num("round", "the current round", true), str("action", "an action of the legal moves", true), mcp.WithObject("args", mcp.Description("the action's arguments"), mcp.Required())),
			func(ctx context.Context, _ mcp.CallToolRequest, args []byte) *mcp.CallToolResult {
				var in struct {
					Token  string          `json:"token"`
					Match  string          `json:"match_id"`
					Round  int64           `json:"round"`
					Action string          `json:"action"`
					Args   json.RawMessage `json:"args"`
				}
				if err := decode(args, &in); err != nil {
					return m.refused(err)
				}
				if !validMatchID(in.Match) {
					return refusalResult("bad_request", "match_id is not a match id (wm_ and 16 hex digits)")
				}
				return toolAnswer(m.call(ctx, "POST", "/v1/warden/matches/"+in.Match+"/actions", nil,
					map[string]any{"round": in.Round, "action": in.Action, "args": in.Args}, in.Token, nil))
			}},
		{"warden_pay_stake", tool("warden_pay_stake", "Pay your stake (price: the stake): unpaid, the answer is a PaymentRequired; retry with the PaymentPayload in _meta[\"x402/payment\"].",
			str("token", "bearer token", true), str("match_id", "wm_…", true)),
			m.payStake},
		{"warden_leave_queue", tool("warden_leave_queue", "Leave the queue (free).", str("token", "bearer token", true), str("ticket", "queue ticket", true)),
			m.forwardTicket("DELETE", "")},
		{"warden_queue_status", tool("warden_queue_status", "A queue ticket's state (global read).", str("token", "bearer token", true), str("ticket", "queue ticket", true)),
			m.forwardTicket("GET", "warden_queue_status")},
		{"warden_games", tool("warden_games", "The Warden games' manifests (global read)."),
			global("warden_games", func(ctx context.Context, args []byte) (restAnswer, error) {
				if err := decode(args, &struct{}{}); err != nil {
					return restAnswer{}, err
				}
				b, _ := json.Marshal(map[string]any{"v": 1, "games": m.Games})
				return restAnswer{status: 200, body: b}, nil
			})},
		{"warden_rules", tool("warden_rules", "A game's rules text (global read).", str("game", "game id", true)),
			global("warden_rules", func(ctx context.Context, args []byte) (restAnswer, error) {
				var in struct {
					Game string `json:"game"`
				}
				if err := decode(args, &in); err != nil {
					return restAnswer{}, err
				}
				text, ok := "", false
				if m.RulesText != nil {
					text, ok = m.RulesText(in.Game)
				}
				if !ok {
					return restAnswer{}, door.Refuse("unknown_game", "no Warden game "+strconv.Quote(in.Game))
				}
				b, _ := json.Marshal(map[string]any{"game": in.Game, "rules_version": in.Game + "/1", "text": text})
				return restAnswer{status: 200, body: b}, nil
			})},
		{"warden_matches", tool("warden_matches", "Match summaries (global read).", str("status", "OPEN, STAKING, LIVE", false), str("game", "game id", false), num("limit", "1–500", false), str("cursor", "from next_cursor", false)),
			global("warden_matches", func(ctx context.Context, args []byte) (restAnswer, error) {
				var in struct {
					Status *string `json:"status"`
					Game   *string `json:"game"`
					Limit  *int64  `json:"limit"`
					Cursor *string `json:"cursor"`
				}
				if err := decode(args, &in); err != nil {
					return restAnswer{}, err
				}
				return m.matchList(in.Status, in.Game, in.Limit, in.Cursor)
			})},
		{"warden_match_public", tool("warden_match_public", "A match's public view, any match (global read).", str("match_id", "wm_…", true)),
			global("warden_match_public", func(ctx context.Context, args []byte) (restAnswer, error) {
				var in struct {
					Match string `json:"match_id"`
				}
				if err := decode(args, &in); err != nil {
					return restAnswer{}, err
				}
				if !validMatchID(in.Match) {
					return restAnswer{}, door.Refuse("bad_request", "match_id is not a match id (wm_ and 16 hex digits)")
				}
				return m.call(ctx, "GET", "/v1/warden/matches/"+in.Match, nil, nil, "", nil), nil
			})},
		{"warden_leaderboard", tool("warden_leaderboard", "Ranked Standing rows, §13.5 (global read).", str("game", "game id", false), str("tier", "ELITE, SOLVENT, UNDERWATER, UNPROVEN", false), num("limit", "1–500", false), str("cursor", "from next_cursor", false)),
			global("warden_leaderboard", func(ctx context.Context, args []byte) (restAnswer, error) {
				var in struct {
					Game   *string `json:"game"`
					Tier   *string `json:"tier"`
					Limit  *int64  `json:"limit"`
					Cursor *string `json:"cursor"`
				}
				if err := decode(args, &in); err != nil {
					return restAnswer{}, err
				}
				return m.call(ctx, "GET", "/v1/warden/leaderboard", q("game", in.Game, "tier", in.Tier, "limit", in.Limit, "cursor", in.Cursor), nil, "", nil), nil
			})},
		{"warden_standing", tool("warden_standing", "A Contender's Standing, §13.4 (global read).", str("contender_id", "wallet", true)),
			global("warden_standing", func(ctx context.Context, args []byte) (restAnswer, error) {
				var in struct {
					ID string `json:"contender_id"`
				}
				if err := decode(args, &in); err != nil {
					return restAnswer{}, err
				}
				id, err := contenderID("contender_id", in.ID)
				if err != nil {
					return restAnswer{}, err
				}
				a := m.call(ctx, "GET", "/v1/warden/contenders/"+id, nil, nil, "", nil)
				if a.status != 200 {
					return a, nil
				}
				var prof map[string]json.RawMessage
				if err := json.Unmarshal(a.body, &prof); err != nil {
					return restAnswer{}, err
				}
				return restAnswer{status: 200, body: prof["standing"]}, nil
			})},
		{"warden_temperaments", tool("warden_temperaments", "Per-temperament statistics, §14 (global read).", str("temperament", "one temperament", false)),
			global("warden_temperaments", func(ctx context.Context, args []byte) (restAnswer, error) {
				var in struct {
					T *string `json:"temperament"`
				}
				if err := decode(args, &in); err != nil {
					return restAnswer{}, err
				}
				return m.call(ctx, "GET", "/v1/warden/temperaments", q("temperament", in.T), nil, "", nil), nil
			})},
		{"warden_ledger", tool("warden_ledger", "Ledger rows (global read).", str("contender_id", "wallet", false), str("match_id", "wm_…", false), num("after_seq", "rows above this seq", false), num("limit", "1–500", false)),
			global("warden_ledger", func(ctx context.Context, args []byte) (restAnswer, error) {
				var in struct {
					Who   *string `json:"contender_id"`
					Match *string `json:"match_id"`
					After *int64  `json:"after_seq"`
					Limit *int64  `json:"limit"`
				}
				if err := decode(args, &in); err != nil {
					return restAnswer{}, err
				}
				return m.call(ctx, "GET", "/v1/warden/ledger", q("contender", in.Who, "match", in.Match, "after", in.After, "limit", in.Limit), nil, "", nil), nil
			})},
		{"warden_state", tool("warden_state", "Your private view of a match you play, with legal moves (match read).", str("match_id", "wm_…", true), str("token", "bearer token; without it the payer's wallet is the caller", false)),
			m.viewTool("warden_state", false, false)},
		{"warden_legal_moves", tool("warden_legal_moves", "Your legal moves in a match you play (match read).", str("match_id", "wm_…", true), str("token", "bearer token", false)),
			m.viewTool("warden_legal_moves", true, false)},
		{"warden_wait", tool("warden_wait", "Wait up to wait_ms (≤ 25000) for events after after_seq in a match you play (match read, paid once before waiting).",
			str("match_id", "wm_…", true), num("after_seq", "last seq seen", true), num("wait_ms", "0–25000", true), str("token", "bearer token", false)),
			m.viewTool("warden_wait", false, true)},
	}
}

func (m *MCP) forwardGameStake(path string) toolFn {
	return func(ctx context.Context, _ mcp.CallToolRequest, args []byte) *mcp.CallToolResult {
		var in struct {
			Token string `json:"token"`
			Game  string `json:"game"`
			Stake int64  `json:"stake"`
		}
		if err := decode(args, &in); err != nil {
			return m.refused(err)
		}
		return toolAnswer(m.call(ctx, "POST", path, nil, map[string]any{"game": in.Game, "stake": in.Stake}, in.Token, nil))
	}
}

// forwardTicket is a queue ticket door; metered (paid as a global read) when tool is not "".
func (m *MCP) forwardTicket(method, tool string) toolFn {
	return func(ctx context.Context, req mcp.CallToolRequest, args []byte) *mcp.CallToolResult {
		var in struct {
			Token  string `json:"token"`
			Ticket string `json:"ticket"`
		}
		if err := decode(args, &in); err != nil {
			return m.refused(err)
		}
		if in.Ticket == "" || len(in.Ticket) > 64 || url.PathEscape(in.Ticket) != in.Ticket {
			return refusalResult("bad_request", "ticket is not a queue ticket")
		}
		run := func(string) *mcp.CallToolResult {
			return toolAnswer(m.call(ctx, method, "/v1/warden/queue/"+in.Ticket, nil, nil, in.Token, nil))
		}
		if tool == "" {
			return run("")
		}
		return m.charge(req, Read{Tool: tool, Tier: TierGlobal}, nil, run)
	}
}

// viewTool is a match-tied read through Views: the whole private view, only its legal moves
// (moves), or the long poll (wait: after_seq and wait_ms, paid once before waiting).
func (m *MCP) viewTool(name string, moves, wait bool) toolFn {
	return func(ctx context.Context, req mcp.CallToolRequest, args []byte) *mcp.CallToolResult {
		var in struct {
			Match  string  `json:"match_id"`
			Token  *string `json:"token"`
			After  *int64  `json:"after_seq"`
			WaitMS *int64  `json:"wait_ms"`
		}
		if err := decode(args, &in); err != nil {
			return m.refused(err)
		}
		if !wait && (in.After != nil || in.WaitMS != nil) {
			return refusalResult("bad_request", "arguments: after_seq and wait_ms belong to warden_wait")
		}
		var after uint64
		var d time.Duration
		if wait {
			if in.After == nil || in.WaitMS == nil || *in.After < 0 || *in.WaitMS < 0 || *in.WaitMS > MaxWaitMS {
				return refusalResult("bad_request", "warden_wait takes after_seq ≥ 0 and wait_ms from 0 to 25000")
			}
			after, d = uint64(*in.After), time.Duration(*in.WaitMS)*time.Millisecond
		}
		token := ""
		if in.Token != nil {
			token = *in.Token
		}
		if m.Views == nil {
			return refusalResult("facilitator_unavailable", "this Warden serves no private views yet")
		}
		r, seatOf, err := m.matchRead(name, in.Match, token)
		if err != nil {
			return m.refused(err)
		}
		if !wait {
			return m.charge(req, r, seatOf, func(seat string) *mcp.CallToolResult {
				return m.view(ctx, in.Match, seat, 0, 0, moves)
			})
		}
		// The long poll is paid once, before waiting (§10.5): the charge carries only the seat.
		res := m.charge(req, r, seatOf, func(seat string) *mcp.CallToolResult { return mcp.NewToolResultText(seat) })
		if res.IsError {
			return res
		}
		seat := r.Seat
		if seat == "" && len(res.Content) > 0 {
			if tc, ok := res.Content[0].(mcp.TextContent); ok {
				seat = tc.Text
			}
		}
		out := m.view(ctx, in.Match, seat, after, d, false)
		out.Meta = res.Meta
		return out
	}
}

// view is the seat's private view as a tool result, or its legal moves only.
func (m *MCP) view(ctx context.Context, match, seat string, after uint64, wait time.Duration, moves bool) *mcp.CallToolResult {
	raw, err := m.Views.View(ctx, match, seat, after, wait)
	if err != nil {
		return m.refused(err)
	}
	var v map[string]any
	if err := json.Unmarshal(raw, &v); err != nil {
		return m.refused(fmt.Errorf("warden mcp: the view of %s is not a JSON object: %w", match, err))
	}
	if moves {
		v = map[string]any{"round": v["round"], "step": v["step"], "deadline": v["deadline"], "legal_moves": v["legal_moves"]}
	}
	b, _ := json.Marshal(v)
	return mcp.NewToolResultStructured(v, string(b))
}

// pricing is warden_pricing (§7.1 GET /pricing).
func (m *MCP) pricing() *mcp.CallToolResult {
	out := map[string]any{"v": 1, "x402_versions": []int{1, 2}, "tiers": map[string]any{"free": 0}}
	if m.Meter != nil {
		r := m.Meter.Rail
		out["tiers"] = map[string]any{"free": 0, TierGlobal: m.Meter.Global, TierMatch: m.Meter.Match}
		out["read_rail"] = map[string]any{"kind": "gateway", "network": "eip155:" + strconv.FormatUint(r.ChainID, 10),
			"asset": r.Asset.String(), "pay_to": r.PayTo.String(), "gateway_contract": r.GatewayWallet.String(),
			"max_timeout_seconds": GatewayTimeout, "min_validity_seconds": GatewayTimeout - 100}
	}
	b, _ := json.Marshal(out)
	return mcp.NewToolResultStructured(out, string(b))
}

// matchList is warden_matches: the public summaries of the matches warden_state holds, by id,
// filtered by status and game, paged by cursor (the last id) and limit.
func (m *MCP) matchList(status, game *string, limit *int64, cursor *string) (restAnswer, error) {
	n := DefaultLimit
	if limit != nil {
		if *limit < 1 || *limit > MaxLimit {
			return restAnswer{}, door.Refuse("bad_request", "limit must be a whole number from 1 to "+strconv.Itoa(MaxLimit))
		}
		n = int(*limit)
	}
	after := ""
	if cursor != nil {
		if !validMatchID(*cursor) {
			return restAnswer{}, door.Refuse("bad_request", "cursor is not one this list gave")
		}
		after = *cursor
	}
	rows := []map[string]any{}
	var next any
	err := m.Store.WardenKeys("match/", func(_ string, v []byte) error {
		var mt Match
		if err := json.Unmarshal(v, &mt); err != nil {
			return err
		}
		if mt.ID <= after || status != nil && mt.Status != *status || game != nil && mt.Game != *game {
			return nil
		}
		if len(rows) == n {
			next = rows[n-1]["match_id"]
			return errStop
		}
		rows = append(rows, map[string]any{"match_id": mt.ID, "game": mt.Game, "stake": mt.Stake, "status": mt.Status,
			"seats": map[string]string{"A": mt.A, "B": mt.B}})
		return nil
	})
	if err != nil && !errors.Is(err, errStop) {
		return restAnswer{}, err
	}
	b, _ := json.Marshal(map[string]any{"v": 1, "matches": rows, "next_cursor": next})
	return restAnswer{status: 200, body: b}, nil
}

// StoredViews is a MatchViews over warden_state's match records alone, until the match actor
// serves the full private view: the match's game, stake, status, the caller's seat and both
// seats' wallets, which seats have staked, and no legal moves before LIVE. It neither waits nor
// has events: a wait returns at once.
type StoredViews struct{ Store *storage.Store }

// View is the stored record's view for seat.
func (s StoredViews) View(_ context.Context, match, seat string, _ uint64, _ time.Duration) (json.RawMessage, error) {
	var mt Match
	var found bool
	if err := s.Store.WardenView(func(tx storage.WardenTx) (err error) {
		found, err = tx.Get("match/"+match, &mt)
		return err
	}); err != nil {
		return nil, err
	}
	if !found {
		return nil, door.Refuse("unknown_match", "no match "+strconv.Quote(match))
	}
	staked := []string{}
	for _, st := range []string{"A", "B"} {
		if mt.Stakes[st] != "" {
			staked = append(staked, st)
		}
	}
	return json.Marshal(map[string]any{"v": 1, "match_id": mt.ID, "game": mt.Game, "status": mt.Status, "seat": seat,
		"stake": mt.Stake, "seats": map[string]string{"A": mt.A, "B": mt.B}, "staked": staked,
		"round": nil, "step": nil, "deadline": nil, "legal_moves": []any{}, "last_seq": 0})
}

// payStake is warden_pay_stake (§8.2, §10.4): the REST stake door called with the payment of
// _meta["x402/payment"] as its header (PAYMENT-SIGNATURE for x402 v2, X-PAYMENT for v1, base64
// of the same JSON), so the stake is checked, claimed and settled exactly as over HTTP. A 402 is
// answered as the binding's PaymentRequired (the door's PAYMENT-REQUIRED object, its error the
// refusal's code); a 200 with the settlement in _meta["x402/payment-response"].
func (m *MCP) payStake(ctx context.Context, req mcp.CallToolRequest, args []byte) *mcp.CallToolResult {
	var in struct {
		Token string `json:"token"`
		Match string `json:"match_id"`
	}
	if err := decode(args, &in); err != nil {
		return m.refused(err)
	}
	if !validMatchID(in.Match) {
		return refusalResult("bad_request", "match_id is not a match id (wm_ and 16 hex digits)")
	}
	raw, err := paymentOf(req)
	if err != nil {
		return m.refused(err)
	}
	var hdr map[string]string
	if raw != nil {
		var v struct {
			Version json.RawMessage `json:"x402Version"`
		}
		_ = json.Unmarshal(raw, &v)
		name := "PAYMENT-SIGNATURE"
		if string(v.Version) == "1" {
			name = "X-PAYMENT"
		}
		hdr = map[string]string{name: base64.StdEncoding.EncodeToString(raw)}
	}
	a := m.call(ctx, "POST", "/v1/warden/matches/"+in.Match+"/stake", nil, nil, in.Token, hdr)
	if a.status == http.StatusPaymentRequired {
		var body struct {
			Error  string `json:"error"`
			Detail string `json:"detail"`
		}
		_ = json.Unmarshal(a.body, &body)
		dec, err := base64.StdEncoding.DecodeString(a.header.Get("PAYMENT-REQUIRED"))
		var obj map[string]any
		if err != nil || json.Unmarshal(dec, &obj) != nil {
			return refusalResult(body.Error, body.Detail)
		}
		obj["detail"] = body.Detail
		text, _ := json.Marshal(obj)
		res := mcp.NewToolResultStructured(obj, string(text))
		res.IsError = true
		return res
	}
	res := toolAnswer(a)
	if a.status == http.StatusOK {
		h := a.header.Get("PAYMENT-RESPONSE")
		if h == "" {
			h = a.header.Get("X-PAYMENT-RESPONSE")
		}
		if dec, err := base64.StdEncoding.DecodeString(h); err == nil {
			var resp map[string]any
			if json.Unmarshal(dec, &resp) == nil {
				res.Meta = mcp.NewMetaFromMap(map[string]any{MetaPaymentResponse: resp})
			}
		}
	}
	return res
}
