// Package mcpguard is the hostile-request guard every MCP server of the arena sits behind (the
// DOTDOTDOT chat seat, Break Room's MCP door): mcp-go's Streamable HTTP server reads JSON-RPC
// with encoding/json, which folds member names ("Method" is read as "method", the later of two
// spellings wins), rewrites numeric ids through float64 and echoes decoder and panic text. Guard
// reads each POST body first and refuses such messages with a fixed JSON-RPC error before
// mcp-go dispatches them: a member twice or in two case spellings, and a case variant of a
// JSON-RPC or tools/call name, -32600; a null or fractional id, -32600 with id null; a
// tools/call whose arguments are not an object, or params that do not decode into mcp-go's
// request type, -32602; a panic below it, -32603 "Internal error" (logged, never sent).
// LocalHost is the DNS-rebinding guard for loopback connections.
//
// Nothing here knows a protocol: the servers it guards keep their tools, their refusal words
// and their routes.
package mcpguard
