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

// opsMarket is `arena ops market keys create OWNER_ID [--name NAME]` (POST /ops/market/keys:
// prints the new key's record, then the key alone on the last line), `arena ops market keys
// list` (GET /ops/market/keys: a table, or one JSON record a line), `arena ops market keys
// revoke ID` (POST /ops/market/keys/{id}/revoke) and `arena ops market admin` (GET
// /ops/market/admin: the Admin projection's JSON), asked of the market site by its Host name
// host on the server at base. Exit codes as opsMain's; 2 for a verb it does not know.
func opsMarket(ctx context.Context, base, host, tok string, pos []string, name string, asJSON bool, stdout, stderr io.Writer) int {
	req := opsRequest{host: host, limit: 64 << 20}
	switch {
	case len(pos) == 4 && pos[1] == "keys" && pos[2] == "create":
		body, _ := json.Marshal(map[string]string{"owner": pos[3], "name": name}) // strings: cannot fail
		req.method, req.url, req.body = http.MethodPost, base+"/ops/market/keys", body
	case len(pos) == 3 && pos[1] == "keys" && pos[2] == "list":
		req.method, req.url = http.MethodGet, base+"/ops/market/keys"
	case len(pos) == 4 && pos[1] == "keys" && pos[2] == "revoke":
		req.method, req.url = http.MethodPost, base+"/ops/market/keys/"+url.PathEscape(pos[3])+"/revoke"
	case len(pos) == 2 && pos[1] == "admin":
		req.method, req.url = http.MethodGet, base+"/ops/market/admin"
	default:
		fmt.Fprint(stderr, opsUsage)
		return 2
	}
	raw, _, code := opsAsk(ctx, req, tok, nil, stderr)
	if code != 0 {
		return code
	}
	switch {
	case pos[1] == "admin" || asJSON && pos[2] != "list":
		stdout.Write(raw)
		fmt.Fprintln(stdout)
	case pos[2] == "create":
		var out struct {
			Key    string            `json:"key"`
			Record storage.MarketKey `json:"record"`
		}
		if !decodeAnswer(raw, &out, stderr) || out.Key == "" {
			return 1
		}
		fmt.Fprintf(stdout, "key %s for owner %s", out.Record.ID, out.Record.Owner)
		if out.Record.Name != "" {
			fmt.Fprintf(stdout, " (delegate %s)", out.Record.Name)
		}
		fmt.Fprintf(stdout, "; shown once, kept hashed:\n%s\n", out.Key)
	case pos[2] == "revoke":
		fmt.Fprintf(stdout, "%s revoked\n", pos[3])
	default:
		var list struct {
			Keys []storage.MarketKey `json:"keys"`
		}
		if !decodeAnswer(raw, &list, stderr) {
			return 1
		}
		if asJSON {
			printJSONLines(stdout, list.Keys)
			return 0
		}
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tOWNER\tDELEGATE\tCREATED\tREVOKED")
		for _, k := range list.Keys {
			revoked := "-"
			if k.RevokedAt != nil {
				revoked = k.RevokedAt.UTC().Format(time.RFC3339)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", k.ID, k.Owner, dash(k.Name), k.CreatedAt.UTC().Format(time.RFC3339), revoked)
		}
		tw.Flush()
	}
	return 0
}
