package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"arena/games/breakroom"
	"arena/games/breakroom/auction"
	"arena/games/breakroom/dilemma"
	"arena/games/breakroom/diplomacy"
	"arena/games/breakroom/inference"
	"arena/games/breakroom/werewolf"
)

var verifyLogCommand = command{
	summary: "re-simulate a Break Room match from its public log: verify-log FILE|URL",
	run: func(ctx context.Context, args []string) int {
		return verifyLogMain(ctx, args, os.Stdout, os.Stderr)
	},
}

const verifyLogUsage = `usage: arena verify-log FILE|URL

Re-simulates a Break Room match from its public log (breakroom-protocol-v0.md "Match log (JSONL)"):
FILE holds the log, one JSON line per event (GET /r/{match_id}.jsonl on a Break Room server), or
URL is that address. The match is rebuilt from its match_start line and the seed its end line
reveals (match_end, or match_abandoned up to its cut), played with the choices, talk and
instants the log states, and every line the re-simulation writes is compared with the log's
(as JCS: member order and spacing do not matter). The game is the one match_start names; the
games re-simulated: %s.

Prints "ok" and how many lines matched, or "FAIL" at the first line that differs with what
the log says and what the re-simulation wrote there.

Exit 0 when every line matched, 1 at the first that differs, 2 when the log could not be read
(no such file, not a log, a game this command does not re-simulate), 3 when the log ends with
match_abandoned and seed null (closed after a crash): it cannot be re-simulated.
`

// logVerifier re-simulates one game's log (JSONL) and reports the first difference.
type logVerifier func(log []byte) breakroom.Report

// logVerifiers are the games verify-log re-simulates, by the id match_start names.
var logVerifiers = map[string]logVerifier{
	dilemma.GameID:   dilemma.VerifyJSONL,
	inference.GameID: inference.VerifyJSONL,
	auction.GameID:   auction.VerifyJSONL,
	werewolf.GameID:  werewolf.VerifyJSONL,
	diplomacy.GameID: diplomacy.VerifyJSONL,
}

func verifyLogGames() string {
	ids := make([]string, 0, len(logVerifiers))
	for id := range logVerifiers {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return strings.Join(ids, ", ")
}

// verifyLogMain is `arena verify-log`; stdout and stderr are injected for tests.
func verifyLogMain(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	usage := fmt.Sprintf(verifyLogUsage, verifyLogGames())
	fs := flag.NewFlagSet("arena verify-log", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, usage)
			return 0
		}
		fmt.Fprintf(stderr, "arena verify-log: %v\n%s", err, usage)
		return 2
	}
	if len(pos) != 1 {
		fmt.Fprint(stderr, "arena verify-log: want one FILE or URL\n"+usage)
		return 2
	}
	raw, err := readTranscript(ctx, pos[0])
	if err != nil {
		fmt.Fprintf(stderr, "arena verify-log: %v\n", err)
		return 2
	}
	game, err := logGame(raw)
	if err != nil {
		fmt.Fprintf(stderr, "arena verify-log: %s: %v\n", pos[0], err)
		return 2
	}
	verify, ok := logVerifiers[game]
	if !ok {
		fmt.Fprintf(stderr, "arena verify-log: %s: game %q is not one this command re-simulates (%s)\n", pos[0], game, verifyLogGames())
		return 2
	}
	rep := breakroom.InOrder(breakroom.SplitLog(raw), verify(raw))
	if rep.OK {
		fmt.Fprintf(stdout, "ok: %s match, %d of %d lines re-simulated through %s\n", game, rep.Checked, rep.Lines, rep.End)
		return 0
	}
	if rep.Unverifiable {
		fmt.Fprintf(stdout, "CANNOT RE-SIMULATE: the match was closed after a crash (match_abandoned with seed null, line %d): "+
			"its seed is lost, so its %d lines cannot be checked\n", rep.At+1, rep.Lines)
		return 3
	}
	where := fmt.Sprintf("line %d", rep.At+1)
	if rep.Seq >= 0 {
		where += fmt.Sprintf(" (seq %d", rep.Seq)
		if rep.Type != "" {
			where += ", " + rep.Type
		}
		where += ")"
	}
	fmt.Fprintf(stdout, "FAIL %s: %s\n", where, rep.Reason)
	fmt.Fprintf(stdout, "  log:          %s\n", orNone(rep.Got, "(no line: the log ends here)"))
	fmt.Fprintf(stdout, "  re-simulated: %s\n", orNone(rep.Want, "(no line)"))
	if rep.At == 1 {
		fmt.Fprintln(stdout, "1 line matched before it")
	} else {
		fmt.Fprintf(stdout, "%d lines matched before it\n", rep.At)
	}
	return 1
}

func orNone(s, none string) string {
	if s == "" {
		return none
	}
	return s
}

// logGame is the game the log's first line, match_start, names.
func logGame(raw []byte) (string, error) {
	first, _, _ := bytes.Cut(bytes.TrimLeft(raw, " \t\r\n"), []byte("\n"))
	l, err := breakroom.ParseLine(bytes.TrimSpace(first))
	if err != nil {
		return "", fmt.Errorf("not a match log: its first line: %v", err)
	}
	if l.Type != "match_start" {
		return "", fmt.Errorf("not a match log: its first line is %q, not match_start", l.Type)
	}
	var ms struct {
		Game string `json:"game"`
	}
	if err := json.Unmarshal(l.Raw, &ms); err != nil || ms.Game == "" {
		return "", errors.New("match_start names no game")
	}
	return ms.Game, nil
}
