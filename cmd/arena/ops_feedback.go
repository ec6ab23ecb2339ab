package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
	"unicode"

	"arena/storage"
	"arena/transport/dotdotdot/feedback"
)

// opsFeedback is `arena ops feedback`: every note after after, oldest first, read page by page
// from GET /ops/feedback (feedback.MaxPage at a time), as a table (a note's text on one line)
// or, with asJSON, one JSON note a line. Exit codes as opsMain's.
func opsFeedback(ctx context.Context, base, tok string, after uint64, asJSON bool, stdout, stderr io.Writer) int {
	var notes []storage.FeedbackNote
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/ops/feedback?after="+strconv.FormatUint(after, 10), nil)
		if err != nil {
			fmt.Fprintf(stderr, "arena ops: %v\n", err)
			return 2
		}
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			fmt.Fprintf(stderr, "arena ops: %v\n", err)
			return 1
		}
		body, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
		resp.Body.Close()
		if err != nil {
			fmt.Fprintf(stderr, "arena ops: read answer: %v\n", err)
			return 1
		}
		if resp.StatusCode != http.StatusOK {
			var r struct{ Error, Code string }
			if json.Unmarshal(body, &r) == nil && r.Code != "" {
				fmt.Fprintf(stderr, "arena ops: %s (%d %s)\n", r.Error, resp.StatusCode, r.Code)
			} else {
				fmt.Fprintf(stderr, "arena ops: %s\n", resp.Status)
			}
			return 1
		}
		var page struct {
			Notes []storage.FeedbackNote `json:"notes"`
			Next  uint64                 `json:"next"`
		}
		if err := json.Unmarshal(body, &page); err != nil {
			fmt.Fprintf(stderr, "arena ops: unreadable answer: %v\n", err)
			return 1
		}
		notes = append(notes, page.Notes...)
		if len(page.Notes) < feedback.MaxPage || page.Next <= after {
			break
		}
		after = page.Next
	}
	if asJSON {
		for _, n := range notes {
			b, _ := json.Marshal(n) // plain data: cannot fail
			fmt.Fprintf(stdout, "%s\n", b)
		}
		return 0
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SEQ\tAT\tVIA\tROUND\tFROM\tTEXT")
	for _, n := range notes {
		text := oneLine(n.Text)
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\n", n.Seq, n.At.UTC().Format(time.RFC3339), n.Via, dash(n.Round), dash(n.From), text)
	}
	tw.Flush()
	return 0
}

// oneLine is a note's text for a terminal: white space runs as one space, and any other
// character that does not print (a terminal's escape codes, say) as U+FFFD.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return strings.Map(func(r rune) rune {
		if !unicode.IsPrint(r) && r != ' ' {
			return unicode.ReplacementChar
		}
		return r
	}, s)
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
