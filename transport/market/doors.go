package market

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"strconv"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/labstack/echo/v4"

	"arena/games/canon"
	"arena/transport/door"
	"arena/transport/mcpguard"
)

// Doors are the market's two doors in front of the Seam, and the operators' routes:
//
//	POST /v2/request                   the request as the body (application/json)
//	POST /a2a                          A2A v0.3 JSON-RPC message/send, the request in the part
//	                                   named "request"; the answer a Message whose text part named
//	                                   "response" is the envelope, byte for byte
//	GET  /.well-known/agent-card.json  the A2A Agent Card (and /.well-known/agent.json)
//	/ops/market/...                    operator-only (ops.go)
//
// On both doors the Owner comes from the Authenticator; each door hands Handle the raw bytes and
// answers with its status from Statuses, so the same bytes are refused the same way by both.
type Doors struct {
	Seam *Seam
	Auth *Authenticator
	// Card is the Agent Card the A2A door serves; its URL names the /a2a endpoint.
	Card a2a.AgentCard
	// Ops are the operator's routes (nil: none).
	Ops *Ops
}

// mount adds the doors to e.
func (d *Doors) mount(e *echo.Echo) {
	e.POST("/v2/request", d.request)
	e.POST("/a2a", d.a2a)
	card := func(c echo.Context) error {
		c.Response().Header().Set("Cache-Control", "no-store")
		return c.JSON(http.StatusOK, d.Card)
	}
	e.GET("/.well-known/agent-card.json", card)
	e.GET("/.well-known/agent.json", card)
	if d.Ops != nil {
		d.Ops.mount(e)
	}
}

// request is POST /v2/request: the body is the request. A Content-Type other than JSON is
// unsupported_media_type (415); an empty body is handed on (malformed_request, after the
// authentication check, as on the A2A door).
func (d *Doors) request(c echo.Context) error {
	raw, err := door.ReadBody(c, d.Seam.max)
	if r, ok := door.AsRefusal(err); ok {
		switch r.Code {
		case door.CodeBadRequest: // empty or unreadable: the reducer decides
			raw = nil
		case door.CodeTooLarge:
			d.Seam.tooLarge().write(c.Response())
			return nil
		default:
			return err
		}
	} else if err != nil {
		return err
	}
	caller, err := d.Auth.Authenticate(c.Request())
	if err != nil {
		d.limited(c, err).write(c.Response())
		return nil
	}
	d.Seam.Handle(c.Request().Context(), caller, raw).write(c.Response())
	return nil
}

// limited is the answer to a request Authenticate held back (rate_limited, 429): the market's
// envelope, with the Retry-After header.
func (d *Doors) limited(c echo.Context, err error) Reply {
	r, _ := door.AsRefusal(err)
	if r.RetryAfter > 0 {
		c.Response().Header().Set("Retry-After", strconv.FormatInt(int64(math.Ceil(r.RetryAfter.Seconds())), 10))
	}
	return d.Seam.Refusal(r.Code, r.Msg)
}

// JSON-RPC 2.0 error codes (A2A v0.3 §6.11 uses JSON-RPC's own).
const (
	rpcParseError     = -32700
	rpcInvalidRequest = -32600
	rpcMethodNotFound = -32601
	rpcInvalidParams  = -32602
)

// rpcRequest is a JSON-RPC request as the A2A door reads it; params stay raw until the method
// is known.
type rpcRequest struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
}

// sendParams is message/send's params: only the message's parts are read; the parts are kept
// raw so the request part's bytes reach the seam as the caller wrote them.
type sendParams struct {
	Message *struct {
		Kind      string            `json:"kind"`
		MessageID string            `json:"messageId"`
		Role      string            `json:"role"`
		ContextID string            `json:"contextId"`
		Parts     []json.RawMessage `json:"parts"`
	} `json:"message"`
}

// part is one message part as the door reads it.
type part struct {
	Kind     string          `json:"kind"`
	Text     *string         `json:"text"`
	Data     json.RawMessage `json:"data"`
	Metadata map[string]any  `json:"metadata"`
}

// requestPart returns the bytes of the message's one part named "request" (metadata.name, or
// metadata.partId as the Blocks SDK writes it): a text part's text, or a data part's data member
// as it was sent. None, two, or another kind is nil, which Handle refuses as an empty request;
// a part the door cannot read at all is not ok (invalid params).
func requestPart(parts []json.RawMessage) (_ []byte, ok bool) {
	var found []byte
	n := 0
	for _, raw := range parts {
		var p part
		if json.Unmarshal(raw, &p) != nil || variant(raw, partNames) {
			return nil, false // a part the door cannot read may be the one another reader took
		}
		name, _ := p.Metadata["name"].(string)
		if name == "" {
			name, _ = p.Metadata["partId"].(string)
		}
		if name != "request" {
			continue
		}
		n++
		switch {
		case p.Kind == "text" && p.Text != nil:
			found = []byte(*p.Text)
		case p.Kind == "data" && len(p.Data) > 0:
			found = bytes.Clone(p.Data)
		default:
			found = nil
		}
	}
	if n != 1 {
		return nil, true
	}
	return found, true
}

// The member names the A2A door reads, at each level of the frame; a variant spelling of one
// (another case) is refused rather than matched (encoding/json would match it).
var (
	rpcNames     = []string{"jsonrpc", "id", "method", "params"}
	paramNames   = []string{"message"}
	messageNames = []string{"kind", "messageId", "role", "contextId", "parts"}
	partNames    = []string{"kind", "text", "data", "metadata"}
)

// variant reports whether raw is an object with a member spelled as one of names in another
// case (mcpguard.VariantOf); anything that is not an object has none.
func variant(raw []byte, names []string) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return false
	}
	return mcpguard.VariantOf(m, names)
}

// rawMember is member name of object raw (nil when raw is no object or lacks it).
func rawMember(raw []byte, name string) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	return m[name]
}

// validID is whether id is a JSON-RPC id: absent (a notification's), a string, a number or
// null; an object, an array or a boolean is not.
func validID(id json.RawMessage) bool {
	id = bytes.TrimSpace(id)
	if len(id) == 0 || string(id) == "null" {
		return true
	}
	return mcpguard.ExactID(map[string]json.RawMessage{"id": id}) != nil
}

// a2a is POST /a2a: one JSON-RPC message/send, answered at once with a Message (blocking; the
// market keeps no Task). The JSON-RPC frame's own faults are JSON-RPC errors (200); everything
// about the request is the market's envelope, in the Message, with the status Statuses gives its
// code (401 for authentication_required, as on POST /v2/request).
func (d *Doors) a2a(c echo.Context) error {
	// The frame may be larger than the request it carries: twice the cap and a little.
	body, err := door.ReadBody(c, 2*d.Seam.max+4096)
	if r, ok := door.AsRefusal(err); ok && r.Code == door.CodeTooLarge {
		d.Seam.tooLarge().write(c.Response())
		return nil
	} else if err != nil && (!ok || r.Code != door.CodeBadRequest) {
		return err
	}
	// The frame is read strictly before encoding/json sees it (whose decoding matches member
	// names in any case and lets the last of two win): a member twice, two names equal under
	// case folding, or a variant spelling of a member the door reads would let this door read
	// another request part, method or id than a reader before it (the platform, a proxy) did.
	if _, err := canon.Parse(body); err != nil {
		if errors.Is(err, canon.ErrSyntax) || errors.Is(err, canon.ErrInvalidUTF8) || errors.Is(err, canon.ErrTrailingData) {
			return rpcError(c, nil, rpcParseError, "Parse error")
		}
		return rpcError(c, nil, rpcInvalidRequest, "Invalid Request: a member twice or in a variant spelling, or an unsafe integer")
	}
	var req rpcRequest
	if err := json.Unmarshal(body, &req); err != nil || variant(body, rpcNames) {
		return rpcError(c, nil, rpcInvalidRequest, "Invalid Request")
	}
	if req.JSONRPC != "2.0" || req.Method == "" || !validID(req.ID) {
		id := req.ID
		if !validID(id) {
			id = nil
		}
		return rpcError(c, id, rpcInvalidRequest, "Invalid Request")
	}
	if req.Method != "message/send" {
		return rpcError(c, req.ID, rpcMethodNotFound, "Method not found: the market answers message/send only")
	}
	var p sendParams
	if err := json.Unmarshal(req.Params, &p); err != nil || p.Message == nil ||
		variant(req.Params, paramNames) || variant(rawMember(req.Params, "message"), messageNames) {
		return rpcError(c, req.ID, rpcInvalidParams, "Invalid params: message/send needs a message")
	}
	raw, ok := requestPart(p.Message.Parts)
	if !ok {
		return rpcError(c, req.ID, rpcInvalidParams, "Invalid params: a message part is not a part")
	}
	var ans Reply
	if caller, err := d.Auth.Authenticate(c.Request()); err != nil {
		ans = d.limited(c, err)
	} else {
		ans = d.Seam.Handle(c.Request().Context(), caller, raw)
	}
	msg := a2a.NewMessage(a2a.MessageRoleAgent, a2a.TextPart{Text: string(ans.Body), Metadata: map[string]any{"name": "response"}})
	msg.ContextID = p.Message.ContextID
	return rpcResult(c, ans.Status, req.ID, msg)
}

func rpcError(c echo.Context, id json.RawMessage, code int, msg string) error {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, map[string]any{"jsonrpc": "2.0", "id": id,
		"error": map[string]any{"code": code, "message": msg}})
}

func rpcResult(c echo.Context, status int, id json.RawMessage, result any) error {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(status, map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
}

// Card is the market's A2A Agent Card for an endpoint at url (…/a2a): JSON-RPC, no streaming, no
// push, one skill (the protocol's command endpoint), authenticated by bearer API key.
func Card(url string) a2a.AgentCard {
	return a2a.AgentCard{
		Name:               "Game Master market",
		Description:        "The Game Master market (game-master-protocol-v2): send one request, the JSON of game-master-protocol-v2, as the text (or data) of a message part named \"request\" (metadata.name); the answer's text part named \"response\" is the response envelope.",
		URL:                url,
		PreferredTransport: a2a.TransportProtocolJSONRPC,
		ProtocolVersion:    "0.3.0",
		Version:            "2",
		Capabilities:       a2a.AgentCapabilities{},
		DefaultInputModes:  []string{"application/json", "text/plain"},
		DefaultOutputModes: []string{"text/plain"},
		SecuritySchemes: a2a.NamedSecuritySchemes{"apiKey": a2a.HTTPAuthSecurityScheme{Scheme: "Bearer",
			Description: "an API key the operator issued for your Owner"}},
		Security: []a2a.SecurityRequirements{{"apiKey": a2a.SecuritySchemeScopes{}}},
		Skills: []a2a.AgentSkill{{ID: "request", Name: "request",
			Description: "one Game Master protocol v2 request: enroll, setTradingName, transfer, proposeExchange, respondToExchange, counterExchange, cancelExchange, and the queries",
			Tags:        []string{"market", "trading"}, InputModes: []string{"application/json"}, OutputModes: []string{"application/json"}}},
	}
}
