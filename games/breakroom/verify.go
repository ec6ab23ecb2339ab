package breakroom

import "bytes"

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
