package mcpguard

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
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeInvalidParams  = -32602
	CodeInternalError  = -32603
)

// The guard's messages are fixed: nothing of the request (and no panic text) is echoed back.
const (
	MsgParse         = "Parse error: the body is not one well-formed JSON value"
	MsgFolded        = "Invalid Request: a member name is given twice or in two case spellings; names are exact-case"
	MsgCaseVariant   = "Invalid Request: a member name is a case variant of a JSON-RPC or MCP name; names are exact-case"
	MsgInvalid       = "Invalid Request"
	MsgArguments     = "Invalid params: arguments must be a JSON object"
	MsgParamsObject  = "Invalid params: params must be a JSON object"
	MsgTooLarge      = "Invalid Request: body too large"
	MsgInternalError = "Internal error"
	MsgPostOnly      = "Method Not Allowed: this MCP server is stateless and streams nothing; send each JSON-RPC message with POST"
)

// RPCNames are the members of a JSON-RPC 2.0 message; CallNames those of tools/call params
// that mcp-go reads. A member that folds to one of them but is spelled otherwise would be read
// as it by encoding/json (case-insensitive matching), so it is refused.
var (
	RPCNames  = []string{"jsonrpc", "id", "method", "params", "result", "error"}
	CallNames = []string{"name", "arguments", "_meta", "task"}
)

// Refusal is a JSON-RPC error the guard answers before mcp-go sees the request.
type Refusal struct {
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
					writeRPCError(rw, Refusal{code: CodeInternalError, msg: MsgInternalError})
				}
			}
		}()
		if r.Method != http.MethodPost {
			// Stateless and never streaming: no event stream to GET, no session to DELETE.
			rw.Header().Set("Allow", http.MethodPost)
			writeRPCErrorStatus(rw, Refusal{code: CodeInvalidRequest, msg: MsgPostOnly}, http.StatusMethodNotAllowed)
			return
		}
		if r.Body == nil {
			next.ServeHTTP(rw, r)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
		if err != nil {
			writeRPCError(rw, Refusal{code: CodeParseError, msg: MsgParse})
			return
		}
		if int64(len(body)) > maxBody {
			writeRPCErrorStatus(rw, Refusal{code: CodeInvalidRequest, msg: MsgTooLarge}, http.StatusRequestEntityTooLarge)
			return
		}
		if ref := Check(body); ref != nil {
			writeRPCError(rw, *ref)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		next.ServeHTTP(rw, r)
	})
}

// Check judges one POST body: a message or a batch of them.
func Check(raw []byte) *Refusal {
	if _, err := canon.Canonical(raw); err != nil {
		switch {
		case errors.Is(err, canon.ErrDuplicateMember), errors.Is(err, canon.ErrFoldedMember):
			return &Refusal{id: idOf(raw), code: CodeInvalidRequest, msg: MsgFolded}
		case errors.Is(err, canon.ErrSyntax), errors.Is(err, canon.ErrInvalidUTF8), errors.Is(err, canon.ErrTrailingData):
			return &Refusal{code: CodeParseError, msg: MsgParse}
		case errors.Is(err, canon.ErrUnsafeInteger):
			id := idOf(raw)
			if len(id) > 0 && id[0] != '"' {
				if _, err := canon.Canonical(id); err != nil {
					return &Refusal{code: CodeInvalidRequest, msg: MsgUnsafeID}
				}
			}
			return &Refusal{id: id, code: CodeInvalidRequest, msg: MsgUnsafeNumber}
		default:
			return &Refusal{id: idOf(raw), code: CodeInvalidRequest, msg: MsgInvalid}
		}
	}
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		var batch []json.RawMessage
		if err := json.Unmarshal(trimmed, &batch); err != nil || len(batch) == 0 {
			return &Refusal{code: CodeInvalidRequest, msg: MsgInvalid}
		}
		for _, m := range batch {
			if ref := checkMessage(m); ref != nil {
				return ref
			}
		}
		// A batch of sound messages is still refused: mcp-go's streamable HTTP transport does
		// not serve batches (it answers -32700 to valid JSON), and MCP 2025-06-18 dropped them.
		return &Refusal{code: CodeInvalidRequest, msg: MsgBatch}
	}
	return checkMessage(trimmed)
}

// checkMessage judges one JSON-RPC message already through canon's strict parse.
func checkMessage(raw json.RawMessage) *Refusal {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return &Refusal{code: CodeInvalidRequest, msg: MsgInvalid}
	}
	id := ExactID(m)
	if VariantOf(m, RPCNames) {
		return &Refusal{id: id, code: CodeInvalidRequest, msg: MsgCaseVariant}
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
		return &Refusal{id: id, code: CodeInvalidParams, msg: MsgParamsObject}
	}
	if VariantOf(params, CallNames) {
		return &Refusal{id: id, code: CodeInvalidRequest, msg: MsgCaseVariant}
	}
	args, ok := params["arguments"]
	if a := bytes.TrimSpace(args); !ok || len(a) == 0 || a[0] != '{' {
		return &Refusal{id: id, code: CodeInvalidParams, msg: MsgArguments}
	}
	return checkDecodes(method, raw, id)
}

// VariantOf reports whether m has a member that equals one of names under case folding but is
// not spelled exactly so.
func VariantOf(m map[string]json.RawMessage, names []string) bool {
	for k := range m {
		for _, n := range names {
			if k != n && strings.EqualFold(k, n) {
				return true
			}
		}
	}
	return false
}

// ExactID is the message's "id" when it is a string or a number (JSON-RPC's kinds), else null.
func ExactID(m map[string]json.RawMessage) json.RawMessage {
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
	return ExactID(map[string]json.RawMessage{"id": m.ID})
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
func writeRPCError(w http.ResponseWriter, ref Refusal) {
	writeRPCErrorStatus(w, ref, http.StatusBadRequest)
}

// writeRPCErrorStatus answers a JSON-RPC error with the given HTTP status.
func writeRPCErrorStatus(w http.ResponseWriter, ref Refusal, status int) {
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

// WriteError answers a JSON-RPC error with HTTP status, for a server behind Guard that refuses
// a message itself before dispatch (id as the request sent it, already judged by Guard; nil
// writes null). msg is the server's own fixed text: nothing of the request but what the server
// chose to name. A refusal of a well-formed request (its params) goes with 200, as mcp-go sends
// its own JSON-RPC errors, so a client reads it as the request's error, not a transport failure.
func WriteError(w http.ResponseWriter, status int, id json.RawMessage, code int, msg string) {
	writeRPCErrorStatus(w, Refusal{id: id, code: code, msg: msg}, status)
}
