package mcpguard

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// MsgBatch and MsgParamsTypes are fixed like the guard's other messages.
const (
	MsgBatch       = "Invalid Request: batches are not served; send one JSON-RPC message per POST"
	MsgParamsTypes = "Invalid params: a member of params has the wrong type"

	CodeMethodNotFound = -32601
	MsgMethodNotFound  = "Method not found"

	MsgNullID   = "Invalid Request: id must not be null; send a string or an integer, or no id for a notification"
	MsgNumberID = "Invalid Request: a numeric id must be an integer written in digits (no fraction, exponent or -0)"
	// MsgUnsafeID and MsgUnsafeNumber: canon refuses a whole number past ±(2^53−1), which a JSON
	// number cannot carry exactly between implementations.
	MsgUnsafeID     = "Invalid Request: a numeric id must be within ±9007199254740991 (2^53−1); send a larger one as a string"
	MsgUnsafeNumber = "Invalid Request: a number in the message is outside ±9007199254740991 (2^53−1)"
	MsgIDKind       = "Invalid Request: id must be a string or an integer, or absent for a notification"
)

// IntegerID reports whether a numeric id is an integer in its plain form (-?digits, no
// leading zero, not -0), the only numbers mcp-go echoes byte for byte.
func IntegerID(id json.RawMessage) bool {
	s := string(id)
	if s == "-0" {
		return false
	}
	s = strings.TrimPrefix(s, "-")
	if s == "" || (len(s) > 1 && s[0] == '0') {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// typedRequests maps each method mcp-go serves to a fresh value of the request type it decodes
// the message into. mcp-go answers a decoding failure with -32600 and Go's decoder text
// ("json: cannot unmarshal number into Go struct field CallToolRequest.params.name"), so the
// guard decodes first and answers a fixed -32602 itself: no decoder text reaches the client.
var typedRequests = map[string]func() any{
	string(mcp.MethodInitialize):             func() any { return new(mcp.InitializeRequest) },
	string(mcp.MethodPing):                   func() any { return new(mcp.PingRequest) },
	string(mcp.MethodServerDiscover):         func() any { return new(mcp.DiscoverRequest) },
	string(mcp.MethodSubscriptionsListen):    func() any { return new(mcp.SubscriptionsListenRequest) },
	string(mcp.MethodSetLogLevel):            func() any { return new(mcp.SetLevelRequest) },
	string(mcp.MethodResourcesList):          func() any { return new(mcp.ListResourcesRequest) },
	string(mcp.MethodResourcesTemplatesList): func() any { return new(mcp.ListResourceTemplatesRequest) },
	string(mcp.MethodResourcesRead):          func() any { return new(mcp.ReadResourceRequest) },
	string(mcp.MethodResourcesSubscribe):     func() any { return new(mcp.SubscribeRequest) },
	string(mcp.MethodResourcesUnsubscribe):   func() any { return new(mcp.UnsubscribeRequest) },
	string(mcp.MethodPromptsList):            func() any { return new(mcp.ListPromptsRequest) },
	string(mcp.MethodPromptsGet):             func() any { return new(mcp.GetPromptRequest) },
	string(mcp.MethodToolsList):              func() any { return new(mcp.ListToolsRequest) },
	string(mcp.MethodToolsCall):              func() any { return new(mcp.CallToolRequest) },
	string(mcp.MethodTasksGet):               func() any { return new(mcp.GetTaskRequest) },
	string(mcp.MethodTasksList):              func() any { return new(mcp.ListTasksRequest) },
	string(mcp.MethodTasksResult):            func() any { return new(mcp.TaskResultRequest) },
	string(mcp.MethodTasksCancel):            func() any { return new(mcp.CancelTaskRequest) },
	string(mcp.MethodCompletionComplete):     func() any { return new(mcp.CompleteRequest) },
}

// checkTypes judges the JSON kinds of one message's members as mcp-go will decode them:
//   - "method" present but not a string: -32600 (mcp-go would answer -32700 to valid JSON);
//   - "id" present and not a string, a number or null: -32600 (JSON-RPC 2.0 §4);
//   - a request (with an id) for a method mcp-go does not serve: -32601 "Method not found";
//
// checkDecodes then judges the params (checkMessage runs its own params checks in between).
func checkTypes(m map[string]json.RawMessage, id json.RawMessage) *Refusal {
	if v, ok := m["id"]; ok && id == nil && string(bytes.TrimSpace(v)) != "null" {
		return &Refusal{code: CodeInvalidRequest, msg: MsgIDKind}
	}
	mv, ok := m["method"]
	if !ok {
		return nil // a response (or nothing): mcp-go answers it with its own fixed texts
	}
	if _, ok := m["id"]; ok {
		// A request's id comes back as sent. mcp-go would take a null id for a notification
		// (202, no answer: the client waits for ever) and rewrites a number through float64
		// (1E2 → 100): such ids are refused, with id null as JSON-RPC asks of an id it cannot
		// use. MCP's ids are strings or integers.
		if id == nil {
			return &Refusal{code: CodeInvalidRequest, msg: MsgNullID}
		}
		if id[0] != '"' && !IntegerID(id) {
			return &Refusal{code: CodeInvalidRequest, msg: MsgNumberID}
		}
	}
	var method string
	if json.Unmarshal(mv, &method) != nil {
		return &Refusal{id: id, code: CodeInvalidRequest, msg: MsgInvalid}
	}
	// A request (it has an id) for a method mcp-go does not serve: mcp-go would echo the method
	// back ("Method <text> not found"); the guard answers a fixed text. Notifications (no id)
	// are mcp-go's to ignore.
	if _, served := typedRequests[method]; !served && id != nil {
		return &Refusal{id: id, code: CodeMethodNotFound, msg: MsgMethodNotFound}
	}
	return nil
}

// checkDecodes is the last check of a message: one whose method mcp-go serves must decode into
// mcp-go's request type for it, else -32602 with MsgParamsTypes.
func checkDecodes(method string, raw json.RawMessage, id json.RawMessage) *Refusal {
	if mk, ok := typedRequests[method]; ok && json.Unmarshal(raw, mk()) != nil {
		return &Refusal{id: id, code: CodeInvalidParams, msg: MsgParamsTypes}
	}
	return nil
}
