package main

import (
	"context"
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
		var page struct {
			Notes []storage.FeedbackNote `json:"notes"`
			Next  uint64                 `json:"next"`
		}
		url := base + "/ops/feedback?after=" + strconv.FormatUint(after, 10)
		if _, _, code := opsAsk(ctx, opsRequest{method: http.MethodGet, url: url, limit: 16 << 20}, tok, &page, stderr); code != 0 {
			return code
		}
		notes = append(notes, page.Notes...)
		if len(page.Notes) < feedback.MaxPage || page.Next <= after {
			break
		}
		after = page.Next
	}
	if asJSON {
		printJSONLines(stdout, notes)
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
