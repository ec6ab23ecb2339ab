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

	"arena/games/blitz/script"
)

var simCommand = command{
	summary: "play one Blitz or Short round offline from a round script: sim --script FILE.json|-",
	run:     runSim,
}

// simUsage is printed by `arena sim -h` and on a usage error.
const simUsage = `usage: arena sim --script FILE.json

Plays one DOTDOTDOT Blitz or Short round from a round script (docs/round-script.md) with no
network, no clock and no chain, and prints the outcome as JSON on standard output.

flags:
  --script FILE   the script; "-" reads standard input
  --compact       print the output on one line

exit status: 0 played; 2 usage error or malformed script (the message names the field at
fault); 1 the round did not conserve money or the rules failed (message on standard error).
`

// runSim is `arena sim`.
func runSim(_ context.Context, args []string) int {
	return simMain(args, os.Stdin, os.Stdout, os.Stderr)
}

// maxScriptRead bounds what sim reads: scripts are refused above 16 MiB anyway.
const maxScriptRead = 16<<20 + 1

func simMain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sim", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	path := fs.String("script", "", "")
	compact := fs.Bool("compact", false, "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, simUsage)
			return 0
		}
		fmt.Fprintf(stderr, "arena sim: %v\n%s", err, simUsage)
		return 2
	}
	if *path == "" || fs.NArg() > 0 {
		fmt.Fprintf(stderr, "arena sim: --script FILE is required (and nothing else)\n%s", simUsage)
		return 2
	}
	var r io.Reader = stdin
	if *path != "-" {
		f, err := os.Open(*path)
		if err != nil {
			fmt.Fprintf(stderr, "arena sim: %v\n", err)
			return 2
		}
		defer f.Close()
		r = f
	}
	src, err := io.ReadAll(io.LimitReader(r, maxScriptRead))
	if err != nil {
		fmt.Fprintf(stderr, "arena sim: read %s: %v\n", *path, err)
		return 2
	}
	s, err := script.Parse(src)
	if err != nil {
		fmt.Fprintf(stderr, "arena sim: %v\n", err)
		return 2
	}
	out, err := script.Run(s)
	if err != nil {
		var se *script.Error
		if errors.As(err, &se) {
			fmt.Fprintf(stderr, "arena sim: %v\n", err)
			return 2
		}
		fmt.Fprintf(stderr, "arena sim: %v\n", err)
		return 1
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if !*compact {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(out); err != nil {
		fmt.Fprintf(stderr, "arena sim: encode output: %v\n", err)
		return 1
	}
	if _, err := stdout.Write(buf.Bytes()); err != nil {
		fmt.Fprintf(stderr, "arena sim: write output: %v\n", err)
		return 1
	}
	return 0
}
