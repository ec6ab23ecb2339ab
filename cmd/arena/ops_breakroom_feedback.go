package main

import (
	"context"
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
	var page struct {
		Notes []notes.Note `json:"notes"`
	}
	if _, _, code := opsAsk(ctx, opsRequest{method: http.MethodGet, url: base + notes.Path, host: host, limit: 64 << 20}, tok, &page, stderr); code != 0 {
		return code
	}
	if asJSON {
		printJSONLines(stdout, page.Notes)
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
