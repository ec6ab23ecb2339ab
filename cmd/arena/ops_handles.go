package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"text/tabwriter"
	"time"

	"arena/storage"
)

// opsHandles is `arena ops handles` (GET /ops/handles: every handle, as a table or, with
// asJSON, one JSON record a line) and `arena ops revoke-handle NAME` (POST
// /ops/handles/{name}/revoke with the reason), asked of the Break Room site by its Host name
// host on the server at base. Exit codes as opsMain's.
func opsHandles(ctx context.Context, base, host, tok string, pos []string, reason string, asJSON bool, stdout, stderr io.Writer) int {
	method, path, body := http.MethodGet, "/ops/handles", []byte(nil)
	if pos[0] == "revoke-handle" {
		method, path = http.MethodPost, "/ops/handles/"+url.PathEscape(pos[1])+"/revoke"
		body, _ = json.Marshal(map[string]string{"reason": reason}) // a string: cannot fail
	}
	raw, _, code := opsAsk(ctx, opsRequest{method: method, url: base + path, host: host, body: body, limit: 16 << 20}, tok, nil, stderr)
	if code != 0 {
		return code
	}
	if pos[0] == "revoke-handle" {
		if asJSON {
			stdout.Write(raw)
			fmt.Fprintln(stdout)
			return 0
		}
		fmt.Fprintf(stdout, "%s revoked\n", pos[1])
		return 0
	}
	var list struct {
		Handles []storage.BreakroomHandle `json:"handles"`
	}
	if !decodeAnswer(raw, &list, stderr) {
		return 1
	}
	if asJSON {
		printJSONLines(stdout, list.Handles)
		return 0
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tPUBKEY\tCLAIMED\tREVOKED\tREASON")
	for _, h := range list.Handles {
		revoked := "-"
		if h.RevokedAt != nil {
			revoked = h.RevokedAt.UTC().Format(time.RFC3339)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", h.Name, h.Pubkey, h.ClaimedAt.UTC().Format(time.RFC3339), revoked, dash(oneLine(h.Reason)))
	}
	tw.Flush()
	return 0
}
