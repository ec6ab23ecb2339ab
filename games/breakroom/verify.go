package breakroom

import (
	"bytes"
	"fmt"
	"time"
)

// Report is what a game's log verifier (arena verify-log) found. OK says every line of the log
// is the line the re-simulation wrote, through the match's end. Otherwise At is the index
// (0-based, among the lines given) of the first line that differs, Seq and Type that line's seq
// and type when it has them (-1 and "" otherwise), Want the line the re-simulation wrote there
// (its JCS; "" where it wrote none), Got the log's line ("" past the log's end), and Reason the
// difference in words. End is the type of the log's end line ("match_end" or
// "match_abandoned"), Checked how many lines matched.
type Report struct {
	OK      bool   `json:"ok"`
	Lines   int    `json:"lines"`
	Checked int    `json:"checked"`
	End     string `json:"end,omitempty"`
	At      int    `json:"at"`
	Seq     int64  `json:"seq"`
	Type    string `json:"type,omitempty"`
	Want    string `json:"want,omitempty"`
	Got     string `json:"got,omitempty"`
	Reason  string `json:"reason,omitempty"`
	// Unverifiable says the log ends with match_abandoned and seed null (a match closed after a
	// crash, protocol "Match log"): it cannot be re-simulated, which is not a difference.
	Unverifiable bool `json:"unverifiable,omitempty"`
}

// MoneyLines are the lines a paid match writes after match_end; they are not part of the
// re-simulation (protocol "Match log").
var MoneyLines = map[string]bool{"escrow_lock": true, "rake_taken": true, "payout": true, "payout_failed": true, "refund": true}

// SplitLog is a JSONL log's lines: every non-blank line, trimmed of surrounding space.
func SplitLog(log []byte) [][]byte {
	var lines [][]byte
	for l := range bytes.SplitSeq(log, []byte("\n")) {
		if l = bytes.TrimSpace(l); len(l) > 0 {
			lines = append(lines, l)
		}
	}
	return lines
}

// InOrder is rep, or a failure at the first line of lines stamped earlier than the line before
// it when that line comes no later than rep's own failure (or rep found none): the log writer's
// clock never runs back (protocol "Match log"), so such a line is not what the server wrote,
// though a game's re-simulation, which takes each move's instant from its line, may agree with
// it. Lines whose t is not an instant are left to rep; an unverifiable rep is kept as it is.
func InOrder(lines [][]byte, rep Report) Report {
	if rep.Unverifiable {
		return rep
	}
	var last time.Time
	for i, l := range lines {
		if !rep.OK && i > rep.At {
			break
		}
		pl, err := ParseLine(l)
		if err != nil {
			continue
		}
		t, err := time.Parse(time.RFC3339Nano, pl.T)
		if err != nil {
			continue
		}
		if t.Before(last) {
			return Report{Lines: rep.Lines, Checked: min(rep.Checked, i), End: rep.End, At: i, Seq: pl.Seq, Type: pl.Type,
				Got: string(l), Reason: fmt.Sprintf("t %s is earlier than the line before it: the log's instants never run backwards", pl.T)}
		}
		last = t
	}
	return rep
}
