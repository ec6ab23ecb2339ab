package chatseat

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strings"

	"arena/games/canon"
)

// JSON-RPC 2.0 error codes the guard answers with.
const (
	rpcParseError     = -32700
	rpcInvalidRequest = -32600
	rpcInvalidParams  = -32602
	rpcInternalError  = -32603
)

// The guard's messages are fixed: nothing of the request (and no panic text) is echoed back.
const (
	msgParse         = "Parse error: the body is not one well-formed JSON value"
	msgFolded        = "Invalid Request: a member name is given twice or in two case spellings; names are exact-case"
	msgCaseVariant   = "Invalid Request: a member name is a case variant of a JSON-RPC or MCP name; names are exact-case"
	msgInvalid       = "Invalid Request"
	msgArguments     = "Invalid params: arguments must be a JSON object"
	msgParamsObject  = "Invalid params: params must be a JSON object"
	msgTooLarge      = "Invalid Request: body too large"
	msgInternalError = "Internal error"
	msgPostOnly      = "Method Not Allowed: this MCP server is stateless and streams nothing; send each JSON-RPC message with POST"
)

// rpcNames are the members of a JSON-RPC 2.0 message; callNames those of tools/call params
// that mcp-go reads. A member that folds to one of them but is spelled otherwise would be read
// as it by encoding/json (case-insensitive matching), so it is refused.
var (
	rpcNames  = []string{"jsonrpc", "id", "method", "params", "result", "error"}
	callNames = []string{"name", "arguments", "_meta", "task"}
)

// rpcRefusal is a JSON-RPC error the guard answers before mcp-go sees the request.
type rpcRefusal struct {
	id   json.RawMessage // the request's id when it could be read, else null
	code int
	msg  string
}

// Guard wraps the MCP handler: any method but POST is 405 with Allow: POST (the seat is stateless
// and never streams, so there is no event stream to GET and no session to DELETE); it reads the POST body (at most maxBody bytes), refuses hostile
// JSON-RPC before mcp-go dispatches it, hands the rest on with the body restored, and turns any
// panic below it into a fixed -32603 "Internal error" (logged with its stack, never sent).
//
// Refused, each with HTTP 400 and a JSON-RPC error (mcp-go's own status for transport errors):
//   - -32700: not one well-formed JSON value (bad UTF-8, trailing data);
//   - -32600: a member twice in one object or two names equal under case folding (games/canon's
//     strict parse, anywhere in the body, batch arrays included); a top-level member that is a
//     case variant of a JSON-RPC name ("Method"); in tools/call params, a case variant of
//     "name" or "arguments"; an empty batch; nesting deeper than canon.MaxDepth; integers
//     beyond ±(2^53−1);
//   - -32600: any batch, even of sound messages (refused after its messages are judged, so
//     a hostile member still gets its own answer); "method" not a string; "id" not a string,
//     number or null;
//   - -32602: tools/call whose params is not an object, or whose arguments are missing, null
//     or anything but an object; any method mcp-go serves whose message does not decode into
//     mcp-go's request type (params.name a number): a fixed message, never decoder text.
func Guard(next http.Handler, maxBody int64, log *slog.Logger) http.Handler {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rw := &trackingWriter{ResponseWriter: w}
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				log.Error("mcp: panic", "panic", p, "stack", string(debug.Stack()))
				if !rw.wrote {
					writeRPCError(rw, rpcRefusal{code: rpcInternalError, msg: msgInternalError})
				}
			}
		}()
		if r.Method != http.MethodPost {
			// Stateless and never streaming: no event stream to GET, no session to DELETE.
			rw.Header().Set("Allow", http.MethodPost)
			writeRPCErrorStatus(rw, rpcRefusal{code: rpcInvalidRequest, msg: msgPostOnly}, http.StatusMethodNotAllowed)
			return
		}
		if r.Body == nil {
			next.ServeHTTP(rw, r)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
		if err != nil {
			writeRPCError(rw, rpcRefusal{code: rpcParseError, msg: msgParse})
			return
		}
		if int64(len(body)) > maxBody {
			writeRPCErrorStatus(rw, rpcRefusal{code: rpcInvalidRequest, msg: msgTooLarge}, http.StatusRequestEntityTooLarge)
			return
		}
		if ref := checkBody(body); ref != nil {
			writeRPCError(rw, *ref)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		next.ServeHTTP(rw, r)
	})
}

// checkBody judges one POST body: a message or a batch of them.
func checkBody(raw []byte) *rpcRefusal {
	if _, err := canon.Canonical(raw); err != nil {
		switch {
		case errors.Is(err, canon.ErrDuplicateMember), errors.Is(err, canon.ErrFoldedMember):
			return &rpcRefusal{id: idOf(raw), code: rpcInvalidRequest, msg: msgFolded}
		case errors.Is(err, canon.ErrSyntax), errors.Is(err, canon.ErrInvalidUTF8), errors.Is(err, canon.ErrTrailingData):
			return &rpcRefusal{code: rpcParseError, msg: msgParse}
		case errors.Is(err, canon.ErrUnsafeInteger):
			id := idOf(raw)
			if len(id) > 0 && id[0] != '"' {
				if _, err := canon.Canonical(id); err != nil {
					return &rpcRefusal{code: rpcInvalidRequest, msg: msgUnsafeID}
				}
			}
			return &rpcRefusal{id: id, code: rpcInvalidRequest, msg: msgUnsafeNumber}
		default:
			return &rpcRefusal{id: idOf(raw), code: rpcInvalidRequest, msg: msgInvalid}
		}
	}
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		var batch []json.RawMessage
		if err := json.Unmarshal(trimmed, &batch); err != nil || len(batch) == 0 {
			return &rpcRefusal{code: rpcInvalidRequest, msg: msgInvalid}
		}
		for _, m := range batch {
			if ref := checkMessage(m); ref != nil {
				return ref
			}
		}
		// A batch of sound messages is still refused: mcp-go's streamable HTTP transport does
		// not serve batches (it answers -32700 to valid JSON), and MCP 2025-06-18 dropped them.
		return &rpcRefusal{code: rpcInvalidRequest, msg: msgBatch}
	}
	return checkMessage(trimmed)
}

// checkMessage judges one JSON-RPC message already through canon's strict parse.
func checkMessage(raw json.RawMessage) *rpcRefusal {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return &rpcRefusal{code: rpcInvalidRequest, msg: msgInvalid}
	}
	id := exactID(m)
	if variantOf(m, rpcNames) {
		return &rpcRefusal{id: id, code: rpcInvalidRequest, msg: msgCaseVariant}
	}
	if ref := checkTypes(m, id); ref != nil {
		return ref
	}
	var method string
	if json.Unmarshal(m["method"], &method) != nil || method != "tools/call" {
		return checkDecodes(method, raw, id) // mcp-go judges responses and notifications itself
	}
	var params map[string]json.RawMessage
	if p, ok := m["params"]; !ok || json.Unmarshal(p, &params) != nil || params == nil {
		return &rpcRefusal{id: id, code: rpcInvalidParams, msg: msgParamsObject}
	}
	if variantOf(params, callNames) {
		return &rpcRefusal{id: id, code: rpcInvalidRequest, msg: msgCaseVariant}
	}
	args, ok := params["arguments"]
	if a := bytes.TrimSpace(args); !ok || len(a) == 0 || a[0] != '{' {
		return &rpcRefusal{id: id, code: rpcInvalidParams, msg: msgArguments}
	}
	return checkDecodes(method, raw, id)
}

// variantOf reports whether m has a member that equals one of names under case folding but is
// not spelled exactly so.
func variantOf(m map[string]json.RawMessage, names []string) bool {
	for k := range m {
		for _, n := range names {
			if k != n && strings.EqualFold(k, n) {
				return true
			}
		}
	}
	return false
}

// exactID is the message's "id" when it is a string or a number (JSON-RPC's kinds), else null.
func exactID(m map[string]json.RawMessage) json.RawMessage {
	id := bytes.TrimSpace(m["id"])
	if len(id) == 0 {
		return nil
	}
	switch id[0] {
	case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return id
	}
	return nil
}

// idOf reads the id of a message that failed the strict parse, leniently, for the error's id.
// A batch, anything unreadable, and a message whose top level names "id" more than once
// (exactly or in another case: which one a client meant cannot be told) answer null.
func idOf(raw []byte) json.RawMessage {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(raw, &m) != nil || idNamesAtTop(raw) > 1 {
		return nil
	}
	return exactID(map[string]json.RawMessage{"id": m.ID})
}

// idNamesAtTop counts the members of raw's top-level object whose name is "id" under case
// folding (0 when raw is not an object).
func idNamesAtTop(raw []byte) int {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return 0
	}
	n := 0
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return n
		}
		if k, ok := t.(string); ok && strings.EqualFold(k, "id") {
			n++
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return n
		}
	}
	return n
}

// writeRPCError answers a JSON-RPC error with HTTP 400.
func writeRPCError(w http.ResponseWriter, ref rpcRefusal) {
	writeRPCErrorStatus(w, ref, http.StatusBadRequest)
}

// writeRPCErrorStatus answers a JSON-RPC error with the given HTTP status.
func writeRPCErrorStatus(w http.ResponseWriter, ref rpcRefusal, status int) {
	id := ref.id
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	body, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{ref.code, ref.msg}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(body, '\n'))
}

// trackingWriter remembers whether anything was written, so a panic after the response began
// does not write a second one.
type trackingWriter struct {
	http.ResponseWriter
	wrote bool
}

func (t *trackingWriter) WriteHeader(code int) {
	t.wrote = true
	t.ResponseWriter.WriteHeader(code)
}

func (t *trackingWriter) Write(b []byte) (int, error) {
	t.wrote = true
	return t.ResponseWriter.Write(b)
}

// Flush passes through, so mcp-go can stream when it chooses to.
func (t *trackingWriter) Flush() {
	if f, ok := t.ResponseWriter.(http.Flusher); ok {
		t.wrote = true
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (t *trackingWriter) Unwrap() http.ResponseWriter { return t.ResponseWriter }

// WriteTokenInURL answers a request to /mcp whose URL carried a walk-in token, which the
// DOTDOTDOT site's guard refused (token_in_url, §4.4: the token travels as the tool argument
// "token", never in a URL), in JSON-RPC's shape: an MCP client reads no other body, so the
// site's {error, code, token} would reach nobody, and with it the new token the exposed one's
// record now opens with. HTTP 400, -32600, id null (the body is not read); the message names
// the new token (fresh, "" when none was issued) so the client shows it to its person, and
// error.data carries {code: "token_in_url", token}.
func WriteTokenInURL(w http.ResponseWriter, fresh string) {
	msg := "Invalid Request: a walk-in token goes in the tool argument \"token\", never in the /mcp URL; " +
		"treat the one in this URL as exposed and take it out of the connector's URL"
	data := map[string]string{"code": "token_in_url"}
	if fresh != "" {
		msg = "Invalid Request: a walk-in token goes in the tool argument \"token\", never in the /mcp URL; " +
			"the one in this URL is exposed, so it is revoked, and its record (rounds, seat, name) is now under the new token " +
			fresh + ": take the token out of the connector's URL and pass the new one as \"token\""
		data["token"] = fresh
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": nil,
		"error": map[string]any{"code": rpcInvalidRequest, "message": msg, "data": data}})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusBadRequest)
	_, _ = w.Write(append(body, '\n'))
}
