package main

import (
	"bytes"
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
	req, err := http.NewRequestWithContext(ctx, method, base+path, bytes.NewReader(body))
	if err != nil {
		fmt.Fprintf(stderr, "arena ops: %v\n", err)
		return 2
	}
	req.Host = host
	req.Header.Set("Authorization", "Bearer "+tok)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Fprintf(stderr, "arena ops: %v\n", err)
		return 1
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		fmt.Fprintf(stderr, "arena ops: read answer: %v\n", err)
		return 1
	}
	if resp.StatusCode != http.StatusOK {
		var r struct{ Detail, Code string }
		if json.Unmarshal(raw, &r) == nil && r.Code != "" {
			fmt.Fprintf(stderr, "arena ops: %s (%d %s)\n", r.Detail, resp.StatusCode, r.Code)
		} else {
			fmt.Fprintf(stderr, "arena ops: %s\n", resp.Status)
		}
		return 1
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
	if err := json.Unmarshal(raw, &list); err != nil {
		fmt.Fprintf(stderr, "arena ops: unreadable answer: %v\n", err)
		return 1
	}
	if asJSON {
		for _, h := range list.Handles {
			b, _ := json.Marshal(h) // plain data: cannot fail
			fmt.Fprintf(stdout, "%s\n", b)
		}
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
