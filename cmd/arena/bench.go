package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"arena/actors"
	"arena/actors/breakroom"
	"arena/actors/dotdotdot"
	"arena/games"
	"arena/games/blitz"
	brgames "arena/games/breakroom"
)

var benchCommand = command{
	summary: "load test: N concurrent practice tables of house seats on a compressed clock: bench --tables N",
	run:     runBench,
}

// benchUsage is printed by `arena bench -h` and on a usage error.
const benchUsage = `usage: arena bench [--tables N] [--move D] [--game G] [flags]

Opens N practice tables of house seats at once in a fresh arena (its own temporary store, no
network, no chain) on a compressed clock: the agent clock with every phase D long, every phase
closed by its timer. G is any game arena serve hosts (its bracket) or countdown. Blitz (the
default) seats six named house agents per table as the walk-in desk's Practice tables do, on the
real engine and its house policy; another hosted game seats its format's fewest seats, each
staking 1000000 of the game's unit, played by the engine's house policy; countdown is the
actors' small built-in game (3 seats, 3 turns). Reports tables completed per second, p50/p99/max timer
lateness (a phase deadline to the table handling it), p50/p99 snapshot commit latency, Go heap
per live table (after a forced GC once every table is open) and the load average (figures in
docs/performance.md).

flags:
  --tables N      tables, all live at once (default 1000)
  --move D        every phase's length (default 20s)
  --game G        a hosted game's id (blitz, the default; warden.dilemma; ...) or countdown
  --format F      the game's format (default its manifest's first; blitz: blitz, 6 seats, or
                  short, 3)
  --spread D      open the tables evenly over D (default: one move; 0s: as fast as possible)
  --workers N     goroutines opening tables (default 64)
  --sync          fsync every commit (default: no fsync, measuring the actors, not the disk)
  --reboot        once every table is open, shut the arena down and start it again (boot
                  recovery of every live table), timed
  --timeout D     give up after D (default 30m)
  --heapprofile F write a pprof heap profile to F when the heap is measured
  --heap-at D     measure the heap D after the first table opened (default: once all are open;
                  a Blitz table's public log grows through the round)
  --cpuprofile F  write a pprof CPU profile of the whole run to F
  --heap-every D  also measure the heap per live table every D through the round (a forced GC
                  each time) and report every sample, their mean and their peak

exit status: 0 every table finished; 1 the run failed; 2 usage error.
`

// benchEntry is each bench seat's stake in a hosted game other than Blitz: one unit of a
// micro-unit currency (Game II's micro-units).
const benchEntry = 1_000_000

// formatNames lists a manifest's formats for a usage error.
func formatNames(m games.Manifest) string {
	var names []string
	for _, f := range m.Formats {
		names = append(names, f.Name)
	}
	return strings.Join(names, ", ")
}

// runBench is `arena bench`.
func runBench(ctx context.Context, args []string) int {
	return benchMain(ctx, args, os.Stdout, os.Stderr)
}

func benchMain(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	tables := fs.Int("tables", 1000, "")
	move := fs.Duration("move", 20*time.Second, "")
	game := fs.String("game", "blitz", "")
	format := fs.String("format", "", "")
	spread := fs.Duration("spread", -1, "")
	workers := fs.Int("workers", 0, "")
	sync := fs.Bool("sync", false, "")
	reboot := fs.Bool("reboot", false, "")
	timeout := fs.Duration("timeout", 30*time.Minute, "")
	heapProfile := fs.String("heapprofile", "", "")
	heapAt := fs.Duration("heap-at", 0, "")
	heapEvery := fs.Duration("heap-every", 0, "")
	cpuProfile := fs.String("cpuprofile", "", "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, benchUsage)
			return 0
		}
		fmt.Fprintf(stderr, "arena bench: %v\n%s", err, benchUsage)
		return 2
	}
	usage := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "arena bench: "+format+"\n%s", append(a, benchUsage)...)
		return 2
	}
	switch {
	case fs.NArg() > 0:
		return usage("unexpected argument %q", fs.Arg(0))
	case *tables < 1 || *tables > 1_000_000:
		return usage("--tables %d: 1 to 1000000", *tables)
	case *move < time.Millisecond:
		return usage("--move %v: at least 1ms", *move)
	case *workers < 0 || *timeout <= 0:
		return usage("--workers and --timeout must be positive")
	}
	o := actors.BenchOptions{Tables: *tables, Move: *move, Workers: *workers, NoSync: !*sync, Reboot: *reboot,
		Timeout: *timeout, Spread: *spread, HeapAt: *heapAt, HeapEvery: *heapEvery, Keys: dotdotdot.BenchKeys}
	switch {
	case *spread < 0:
		o.Spread = 0 // RunBench's default: one move
	case *spread == 0:
		o.Spread = -1 // RunBench: all at once
	}
	bracket, err := newBracket()
	if err != nil {
		fmt.Fprintf(stderr, "arena bench: %v\n", err)
		return 1
	}
	eng, hosted := bracket.Engine(*game)
	switch {
	case *game == blitz.ID:
		o.Engine, o.Format = eng, *format
		if o.Format == "" {
			o.Format = "blitz"
		}
		if o.Format != "blitz" && o.Format != "short" {
			return usage("--format %q: blitz or short", *format)
		}
		spec, err := dotdotdot.PracticeBench(o.Engine, o.Format)
		if err != nil {
			return usage("--format %q: %v", *format, err)
		}
		o.Spec = spec
	case *game == "countdown":
		if *format != "" {
			return usage("--format is not for countdown")
		}
	case hosted:
		f, ok := games.FormatOf(eng.Manifest(), *format)
		if !ok {
			return usage("--format %q: %s has %s", *format, *game, formatNames(eng.Manifest()))
		}
		if _, ok := eng.(games.HousePlayer); !ok {
			return usage("--game %s: the game has no house policy to play its seats", *game)
		}
		o.Engine, o.Format, o.Seats, o.Entry = eng, f.Name, f.MinSeats, benchEntry
		if g, ok := eng.(brgames.Game); ok && g.Info().DealKey != "" {
			member := g.Info().DealKey
			o.Options = func() json.RawMessage { return breakroom.DealKeyOptions(nil, member) }
		}
	default:
		choices := []string{"countdown"}
		for _, m := range bracket.Manifests() {
			choices = append(choices, m.ID)
		}
		slices.Sort(choices)
		return usage("--game %q: one of %s", *game, strings.Join(choices, ", "))
	}
	if *heapProfile != "" {
		f, err := os.Create(*heapProfile)
		if err != nil {
			fmt.Fprintf(stderr, "arena bench: %v\n", err)
			return 1
		}
		defer f.Close()
		o.HeapProfile = f
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintf(stderr, "arena bench: %v\n", err)
			return 1
		}
		defer f.Close()
		defer pprof.StopCPUProfile()
	}
	fmt.Fprintf(stdout, "arena bench: %d %s tables, %v moves, load average %s\n", o.Tables, *game, o.Move, loadAvg())
	r, err := actors.RunBench(ctx, o)
	fmt.Fprintf(stdout, "%v\n", r)
	if len(r.Windows) > 0 {
		fmt.Fprintf(stdout, "p99 lateness per 5 s window: %s\n", strings.Join(r.Windows, ", "))
	}
	if len(r.HeapSamples) > 0 {
		fmt.Fprintf(stdout, "heap per live table through the round: mean %d B, peak %d B; %s\n", r.HeapMean, r.HeapPeak,
			strings.Join(r.HeapSamples, ", "))
	}
	if r.ShutdownTime > 0 {
		fmt.Fprintf(stdout, "reboot: shutdown %v, start with boot recovery %v\n", r.ShutdownTime, r.RecoverTime)
	}
	fmt.Fprintf(stdout, "load average at the end: %s\n", loadAvg())
	if err != nil {
		fmt.Fprintf(stderr, "arena bench: %v\n", err)
		return 1
	}
	return 0
}

// loadAvg is the 1-, 5- and 15-minute load average from /proc/loadavg ("?" where there is none).
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}
