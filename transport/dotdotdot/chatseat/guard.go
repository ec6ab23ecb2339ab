package chatseat

import (
	"encoding/json"
	"log/slog"
	"net/http"

	"arena/transport/mcpguard"
)

// The chat seat's hostile-request guard is the arena's MCP guard (transport/mcpguard, shared
// with Break Room's MCP door); these names keep the seat's own words for it.

// The guard's fixed messages (mcpguard's).
const (
	msgParse        = mcpguard.MsgParse
	msgFolded       = mcpguard.MsgFolded
	msgCaseVariant  = mcpguard.MsgCaseVariant
	msgInvalid      = mcpguard.MsgInvalid
	msgArguments    = mcpguard.MsgArguments
	msgParamsObject = mcpguard.MsgParamsObject
	msgTooLarge     = mcpguard.MsgTooLarge
	msgBatch        = mcpguard.MsgBatch
	msgParamsTypes  = mcpguard.MsgParamsTypes

	msgMethodNotFound = mcpguard.MsgMethodNotFound
	msgUnsafeID       = mcpguard.MsgUnsafeID
	msgUnsafeNumber   = mcpguard.MsgUnsafeNumber
	msgIDKind         = mcpguard.MsgIDKind
)

// rpcNames and callNames are the JSON-RPC and tools/call member names the guard holds exact.
var (
	rpcNames  = mcpguard.RPCNames
	callNames = mcpguard.CallNames
)

// Guard is mcpguard.Guard: the seat's MCP handler behind the hostile-request checks (see there).
func Guard(next http.Handler, maxBody int64, log *slog.Logger) http.Handler {
	return mcpguard.Guard(next, maxBody, log)
}

// checkBody is mcpguard.Check: nil when the body may reach mcp-go.
func checkBody(raw []byte) *mcpguard.Refusal { return mcpguard.Check(raw) }

// variantOf is mcpguard.VariantOf.
func variantOf(m map[string]json.RawMessage, names []string) bool {
	return mcpguard.VariantOf(m, names)
}

// exactID is mcpguard.ExactID.
func exactID(m map[string]json.RawMessage) json.RawMessage { return mcpguard.ExactID(m) }

// integerID is mcpguard.IntegerID.
func integerID(id json.RawMessage) bool { return mcpguard.IntegerID(id) }

// localHost is mcpguard.LocalHost, isLoopback mcpguard.IsLoopback.
func localHost(next http.Handler, trust bool) http.Handler { return mcpguard.LocalHost(next, trust) }

func isLoopback(addr string) bool { return mcpguard.IsLoopback(addr) }
