// Command arena is the game server and its tools: serve, sim, anchor-check, ops, devchain,
// chain, check-data, bench, brload, marketload, verify-log (the table in commands). main only parses the sub-command and calls
// it; everything is wired in the sub-command's own file. Every command's -h and --help print its
// usage on standard output and exit 0; a usage error prints it on standard error and exits 2.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"syscall"
)

// command runs one sub-command with its arguments and returns the process exit code.
type command struct {
	summary string
	run     func(ctx context.Context, args []string) int
}

// commands is the sub-command table. Each entry's run func lives in a file named for it.
func commands() map[string]command {
	return map[string]command{
		// one line per sub-command, kept sorted
		"anchor-check": anchorCheckCommand,
		"bench":        benchCommand,
		"brload":       brloadCommand,
		"chain":        chainCommand,
		"check-data":   checkDataCommand,
		"devchain":     devchainCommand,
		"marketload":   marketloadCommand,
		"ops":          opsCommand,
		"serve":        serveCommand,
		"sim":          simCommand,
		"verify-log":   verifyLogCommand,
	}
}

func main() {
	cmds := commands()
	if len(os.Args) < 2 {
		usage(os.Stderr, cmds)
		os.Exit(2)
	}
	if os.Args[1] == "-h" || os.Args[1] == "--help" || os.Args[1] == "help" {
		usage(os.Stdout, cmds)
		return
	}
	c, ok := cmds[os.Args[1]]
	if !ok {
		fmt.Fprintf(os.Stderr, "arena: unknown command %q\n", os.Args[1])
		usage(os.Stderr, cmds)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := c.run(ctx, os.Args[2:])
	stop()
	os.Exit(code)
}

// usage prints the command table on w: `arena <command> -h` for a command's own.
func usage(w io.Writer, cmds map[string]command) {
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Fprintln(w, "usage: arena <command> [flags]     (arena <command> -h: the command's own)")
	for _, n := range names {
		fmt.Fprintf(w, "  %-14s %s\n", n, cmds[n].summary)
	}
}

// parseInterspersed parses fs from args with flags allowed before, between and after the
// positional arguments (the flag package stops at the first), and returns the positional ones in
// order. The error is fs.Parse's (flag.ErrHelp for -h).
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for rest := args; ; {
		if err := fs.Parse(rest); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos, rest = append(pos, fs.Arg(0)), fs.Args()[1:]
	}
}
