package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"text/tabwriter"
	"time"

	"arena/transport/breakroom/notes"
)

// opsBreakroomFeedback is `arena ops feedback --breakroom`: every note Break Room's players sent
// (over the socket, HTTP or MCP; one per player per match), oldest first, from GET /ops/feedback on
// the Break Room site (Host host), as a table (a note's text on one line) or, with asJSON, one
// JSON note a line. Exit codes as opsMain's.
func opsBreakroomFeedback(ctx context.Context, base, host, tok string, asJSON bool, stdout, stderr io.Writer) int {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+notes.Path, nil)
	if err != nil {
		fmt.Fprintf(stderr, "arena ops: %v\n", err)
		return 2
	}
	req.Host = host
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Fprintf(stderr, "arena ops: %v\n", err)
		return 1
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
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
	var page struct {
		Notes []notes.Note `json:"notes"`
	}
	if err := json.Unmarshal(raw, &page); err != nil {
		fmt.Fprintf(stderr, "arena ops: unreadable answer: %v\n", err)
		return 1
	}
	if asJSON {
		for _, n := range page.Notes {
			b, _ := json.Marshal(n) // plain data: cannot fail
			fmt.Fprintf(stdout, "%s\n", b)
		}
		return 0
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "AT\tMATCH\tFROM\tRATING\tTEXT")
	for _, n := range page.Notes {
		rating := "-"
		if n.Rating > 0 {
			rating = strconv.Itoa(n.Rating)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", n.At.UTC().Format(time.RFC3339), oneLine(n.MatchID), n.Pubkey, rating, oneLine(n.Text))
	}
	tw.Flush()
	return 0
}
