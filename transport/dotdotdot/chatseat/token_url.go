package chatseat

import (
	"encoding/json"
	"net/http"

	"arena/transport/mcpguard"
)

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
		"error": map[string]any{"code": mcpguard.CodeInvalidRequest, "message": msg, "data": data}})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusBadRequest)
	_, _ = w.Write(append(body, '\n'))
}
