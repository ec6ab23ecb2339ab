package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"arena/config"
	"arena/storage"
)

var brloadCommand = command{
	summary: "load test of Break Room: N WebSocket agents playing Dilemma matches: brload --agents N",
	run:     runBrload,
}

// brloadUsage is printed by `arena brload -h` and on a usage error.
const brloadUsage = `usage: arena brload [--agents N] [--ramp R] [--duration D] [--move D] [--think D] [flags]

Opens N concurrent Break Room agents over real WebSocket connections (gorilla) on loopback,
each with a BIP-340 key of its own (btcec/v2 schnorr): each opens /v0/play, signs the
challenge, joins the Dilemma, gets seated, answers every your_turn after its think time, and
at match_end opens a new socket and joins again until D has passed; then every match is played
out. The server is an in-process arena serve stack (its own temporary data directory and
embedded devchain, an ephemeral port, Break Room's clocks compressed: the lobby timer, the house
fill and pause, the move deadline) unless --url names one.

Reports connected agents (peak), matches, moves per second, the latency from a move's send (the
client's clock, so the server's receipt, its commit and its fan-out, and both sockets) to its
event: the mover's own action_private, and iteration_end (the iteration's closing move) at
every seat of the table; heap per connected agent and per live table (Go HeapAlloc after a
forced GC, every --heap-every, above the heap before the first agent), goroutine stacks per
agent, CPU seconds and RSS of this process (in-process: the server and the agents together),
and with --url the server's own figures from its /metrics. Figures in docs/performance.md.

flags:
  --agents N        concurrent agents (default 1000; a multiple of 4 fills every table)
  --ramp R          agents started per second (default 500; 0: all at once)
  --duration D      agents start new matches for D (default 1m); then the run ends when the
                    last match does
  --leave           end the run at --duration instead: the agents close their sockets
                    mid-match (every agent must still have been seated; matches are not
                    required to have ended)
  --move D          the move deadline (deadline_ms; in-process only; default 5s)
  --think D         each agent's think time before a move, ±25% (default 200ms)
  --lobby-wait D    in-process: the lobby timer (default 2s)
  --house-after D   in-process: house bots fill a lone agent's table after D (default 5s)
  --url URL         a running server's origin (http://127.0.0.1:8080) instead of in-process
  --host H          the Break Room site's Host name (default breakroom.localhost)
  --sources K       dial from 127.0.0.1 … 127.0.0.K, K callers to the challenge desk's
                    per-address bound of unspent nonces (64 each) and K ephemeral port ranges
                    (default 16)
  --nosync          in-process: the store skips fsync (the server as it runs syncs every
                    commit before the move's events leave; this measures without the disk)
  --heap-every D    heap sample period (default 10s)
  --timeout D       give up after D (default 30m)
  --cpuprofile F    write a pprof CPU profile of this process to F

exit status: 0 every agent was seated and every match ended (with --leave: every agent was
seated); 1 otherwise; 2 usage error.
`

// loadOptions configure a load run (brloadUsage).
type loadOptions struct {
	Agents     int
	Ramp       float64
	Duration   time.Duration
	Move       time.Duration
	Think      time.Duration
	LobbyWait  time.Duration
	HouseAfter time.Duration
	URL        string
	Host       string
	Sources    int
	HeapEvery  time.Duration
	Timeout    time.Duration
	NoSync     bool // in-process: the store skips fsync
	// Leave ends the run at Duration: the agents close their sockets mid-match (the server plays
	// their seats out by its timeouts) instead of playing every match out.
	Leave bool
	Log   io.Writer // the in-process server's warnings (nil: discarded)
}

// loadResult is what a run measured. Durations are wall-clock.
type loadResult struct {
	Agents, Seated       int // agents, and those seated at least once
	PeakConnected        int // sockets open at once
	PeakLive             int // matches with an agent seated and not ended, at once
	Matches, Ended       int // matches agents were seated at, and those whose every agent got match_end
	Moves                int64
	Elapsed, Play        time.Duration // the whole run; first seat to last match_end (--leave: to the leaving)
	MovesPerSecond       float64       // over Play
	Samples              int           // send→event latencies
	P50, P99, Max        time.Duration
	FanOutSamples        int // iteration_end at every seat
	FanOutP50, FanOutP99 time.Duration
	Errors               map[string]int // error codes the agents were sent
	Closes               map[int]int    // close codes the server ended sockets with
	Retries, RateLimited int64          // sockets dialled again; of them refused 429 at the upgrade
	// Drops are seated sockets that ended (the agent joined again and was seated back);
	// FirstDrop is the first one's agent, match and error.
	Drops     int64
	FirstDrop string
	// Heap samples (after a forced GC, above the baseline) per connected agent and per live
	// table; StackPerAgent is goroutine stacks (StackInuse) per connected agent at the heap peak.
	HeapSamples                        []string
	HeapPerAgentMean, HeapPerAgentPeak uint64
	HeapPerTableMean, HeapPerTablePeak uint64
	StackPerAgent                      uint64
	CPU                                time.Duration // this process: user + system
	MaxRSS                             uint64        // this process's peak RSS, bytes
	Server                             []string      // with URL: the server's /metrics figures
	Windows                            []string      // per 5-second window
}

func (r loadResult) String() string {
	return fmt.Sprintf("agents=%d seated=%d connected peak=%d live tables peak=%d matches=%d ended=%d moves=%d "+
		"elapsed=%v play=%v moves/s=%.0f send→event (n=%d) p50=%v p99=%v max=%v iteration_end fan-out (n=%d) p50=%v p99=%v "+
		"errors=%v closes=%v retries=%d (rate_limited %d) drops while seated=%d%s",
		r.Agents, r.Seated, r.PeakConnected, r.PeakLive, r.Matches, r.Ended, r.Moves, r.Elapsed.Round(time.Millisecond),
		r.Play.Round(time.Millisecond), r.MovesPerSecond, r.Samples, r.P50.Round(10*time.Microsecond), r.P99.Round(10*time.Microsecond),
		r.Max.Round(time.Millisecond), r.FanOutSamples, r.FanOutP50.Round(10*time.Microsecond), r.FanOutP99.Round(10*time.Microsecond),
		r.Errors, r.Closes, r.Retries, r.RateLimited, r.Drops, cond(r.FirstDrop != "", " (first: "+r.FirstDrop+")", ""))
}

func runBrload(ctx context.Context, args []string) int {
	return brloadMain(ctx, args, os.Stdout, os.Stderr)
}

func brloadMain(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("brload", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var o loadOptions
	fs.IntVar(&o.Agents, "agents", 1000, "")
	fs.Float64Var(&o.Ramp, "ramp", 500, "")
	fs.DurationVar(&o.Duration, "duration", time.Minute, "")
	fs.DurationVar(&o.Move, "move", 5*time.Second, "")
	fs.DurationVar(&o.Think, "think", 200*time.Millisecond, "")
	fs.DurationVar(&o.LobbyWait, "lobby-wait", 2*time.Second, "")
	fs.DurationVar(&o.HouseAfter, "house-after", 5*time.Second, "")
	fs.StringVar(&o.URL, "url", "", "")
	fs.StringVar(&o.Host, "host", "breakroom.localhost", "")
	fs.IntVar(&o.Sources, "sources", 16, "")
	fs.DurationVar(&o.HeapEvery, "heap-every", 10*time.Second, "")
	fs.DurationVar(&o.Timeout, "timeout", 30*time.Minute, "")
	fs.BoolVar(&o.NoSync, "nosync", false, "")
	fs.BoolVar(&o.Leave, "leave", false, "")
	cpuProfile := fs.String("cpuprofile", "", "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, brloadUsage)
			return 0
		}
		fmt.Fprintf(stderr, "arena brload: %v\n%s", err, brloadUsage)
		return 2
	}
	usage := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "arena brload: "+format+"\n%s", append(a, brloadUsage)...)
		return 2
	}
	switch {
	case fs.NArg() > 0:
		return usage("unexpected argument %q", fs.Arg(0))
	case o.Agents < 1 || o.Agents > 1_000_000:
		return usage("--agents %d: 1 to 1000000", o.Agents)
	case o.Ramp < 0 || o.Duration < 0 || o.Think < 0:
		return usage("--ramp, --duration and --think must not be negative")
	case o.Move < time.Millisecond || o.LobbyWait <= 0 || o.HouseAfter <= 0 || o.HeapEvery <= 0 || o.Timeout <= 0:
		return usage("--move, --lobby-wait, --house-after, --heap-every and --timeout must be positive")
	case o.Sources < 1 || o.Sources > 254:
		return usage("--sources %d: 1 to 254", o.Sources)
	case o.URL != "" && o.NoSync:
		return usage("--nosync is for the in-process server")
	case o.URL != "" && !strings.HasPrefix(o.URL, "http://") && !strings.HasPrefix(o.URL, "https://"):
		return usage("--url %q: want http(s)://HOST:PORT", o.URL)
	}
	// Each agent holds one socket: in-process, both of its ends are this process's.
	perAgent := 1
	if o.URL == "" {
		perAgent = 2
	}
	if limit, err := raiseFDLimit(uint64(perAgent*o.Agents + 64)); err != nil {
		return usage("--agents %d needs %d file descriptors; the limit is %d (%v): at most %d agents here",
			o.Agents, perAgent*o.Agents+64, limit, err, (int(limit)-64)/perAgent)
	}
	o.Log = stderr
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintf(stderr, "arena brload: %v\n", err)
			return 1
		}
		defer f.Close()
		defer pprof.StopCPUProfile()
	}
	target := o.URL
	if target == "" {
		target = "in-process server, fsync on"
		if o.NoSync {
			target = "in-process server, no fsync"
		}
	}
	fmt.Fprintf(stdout, "arena brload: %d agents, ramp %g/s, duration %v, move %v, think %v, %s, load average %s\n",
		o.Agents, o.Ramp, o.Duration, o.Move, o.Think, target, loadAvg())
	r, err := loadTest(ctx, o)
	fmt.Fprintf(stdout, "%v\n", r)
	if len(r.HeapSamples) > 0 {
		fmt.Fprintf(stdout, "heap per connected agent: mean %d B, peak %d B; per live table: mean %d B, peak %d B; stacks %d B per agent; %s\n",
			r.HeapPerAgentMean, r.HeapPerAgentPeak, r.HeapPerTableMean, r.HeapPerTablePeak, r.StackPerAgent, strings.Join(r.HeapSamples, ", "))
	}
	fmt.Fprintf(stdout, "this process: cpu %.1f s, peak rss %d MiB\n", r.CPU.Seconds(), r.MaxRSS>>20)
	if len(r.Server) > 0 {
		fmt.Fprintf(stdout, "server (/metrics): %s\n", strings.Join(r.Server, ", "))
	}
	if len(r.Windows) > 0 {
		fmt.Fprintf(stdout, "per 5 s window: %s\n", strings.Join(r.Windows, ", "))
	}
	fmt.Fprintf(stdout, "load average at the end: %s\n", loadAvg())
	if err != nil {
		fmt.Fprintf(stderr, "arena brload: %v\n", err)
		return 1
	}
	return 0
}

// cond is a when c holds, else b.
func cond(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}

// raiseFDLimit raises the soft limit on open files to need (at most the hard limit; Go's
// runtime already raised it to the hard one at start). It returns the limit and an error when
// need is past it.
func raiseFDLimit(need uint64) (uint64, error) {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return 0, err
	}
	if l.Cur >= need {
		return l.Cur, nil
	}
	want := l
	want.Cur = min(max(need, l.Cur), l.Max)
	if need > l.Max {
		want.Max, want.Cur = need, need // only with CAP_SYS_RESOURCE
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &want); err != nil {
		if l.Max > l.Cur {
			l.Cur = l.Max
			_ = syscall.Setrlimit(syscall.RLIMIT_NOFILE, &l)
		}
		return l.Cur, fmt.Errorf("RLIMIT_NOFILE hard limit %d: %w", l.Max, err)
	}
	return want.Cur, nil
}

// loadRun is one run's shared state: the agents' counters, the latencies, the per-match
// bookkeeping.
type loadRun struct {
	o         loadOptions
	wsURL     string
	writePool *sync.Pool
	began     time.Time
	stopAt    time.Time

	moves, retries, rateLimited, dialErrors, drops atomic.Int64
	conns, peakConns                               atomic.Int64

	mu        sync.Mutex
	seated    []bool
	nSeated   int
	matches   map[string]*loadMatch
	nMatches  int
	nEnded    int
	live      int
	peakLive  int
	firstSeat time.Time
	lastEnd   time.Time
	errCodes  map[string]int
	closes    map[int]int
	lat       []time.Duration
	fan       []time.Duration
	win       map[int][]time.Duration
	failed    error
	firstDrop string
	cancel    context.CancelFunc
}

// loadMatch is one match as the agents saw it.
type loadMatch struct {
	agents int                    // seated, not yet at match_end
	sends  map[[2]int64]time.Time // (round, iteration) → its latest move's send: the closing move's once it closed
}

func (r *loadRun) stopping() bool { return !time.Now().Before(r.stopAt) }

func (r *loadRun) connected(d int64) {
	n := r.conns.Add(d)
	for {
		p := r.peakConns.Load()
		if n <= p || r.peakConns.CompareAndSwap(p, n) {
			return
		}
	}
}

// think is agent i's think time before its k-th move: Think ±25%, spread over agents and moves
// so tables do not move in step.
func (r *loadRun) think(i, k int) time.Duration {
	if r.o.Think <= 0 {
		return 0
	}
	f := float64((i*7919+k*104729)%1000) / 1000
	return time.Duration(float64(r.o.Think) * (0.75 + 0.5*f))
}

func (r *loadRun) seat(i int, match string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.seated[i] {
		r.seated[i] = true
		r.nSeated++
	}
	if r.firstSeat.IsZero() {
		r.firstSeat = time.Now()
	}
	m := r.matches[match]
	if m == nil {
		m = &loadMatch{sends: map[[2]int64]time.Time{}}
		r.matches[match] = m
		r.nMatches++
	}
	if m.agents == 0 {
		r.live++
		r.peakLive = max(r.peakLive, r.live)
	}
	m.agents++
}

func (r *loadRun) ended(i int, match string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lastEnd = time.Now()
	m := r.matches[match]
	if m == nil || m.agents == 0 {
		return
	}
	if m.agents--; m.agents == 0 {
		r.live--
		r.nEnded++
		m.sends = nil
	}
}

func (r *loadRun) sent(match string, iter [2]int64, at time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if m := r.matches[match]; m != nil && m.sends != nil {
		m.sends[iter] = at
	}
}

func (r *loadRun) sendOf(match string, iter [2]int64) (time.Time, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	m := r.matches[match]
	if m == nil {
		return time.Time{}, false
	}
	at, ok := m.sends[iter]
	return at, ok
}

func (r *loadRun) latency(d time.Duration, fanOut bool, now time.Time) {
	w := int(now.Sub(r.began) / (5 * time.Second))
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lat = append(r.lat, d)
	if fanOut {
		r.fan = append(r.fan, d)
	}
	r.win[w] = append(r.win[w], d)
}

func (r *loadRun) refused(code string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errCodes[code]++
}

func (r *loadRun) closedBy(code int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closes[code]++
}

// dropped notes a seated socket's end (the first one's words are reported).
func (r *loadRun) dropped(what string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.firstDrop == "" {
		r.firstDrop = what
	}
}

func (r *loadRun) fail(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.failed == nil {
		r.failed = err
		r.cancel()
	}
}

// loadTest runs the load (loadOptions) and measures it (loadResult). It fails when an agent saw
// what a well-behaved server does not do (a seated socket ended, a message not JSON), when an
// agent was never seated or a match did not end, or at the timeout.
func loadTest(ctx context.Context, o loadOptions) (loadResult, error) {
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	res := loadResult{Agents: o.Agents}
	base := o.URL
	if base == "" {
		srv, err := startLoadServer(ctx, o)
		if err != nil {
			return res, err
		}
		defer srv.stop()
		base = srv.url
	}
	base = strings.TrimRight(base, "/")
	ws := "ws" + strings.TrimPrefix(base, "http") + "/v0/play"
	actx, acancel := context.WithCancel(ctx)
	defer acancel()
	r := &loadRun{o: o, wsURL: ws, writePool: &sync.Pool{}, seated: make([]bool, o.Agents),
		matches: map[string]*loadMatch{}, errCodes: map[string]int{}, closes: map[int]int{}, win: map[int][]time.Duration{},
		cancel: acancel}
	var server0 map[string]float64
	if o.URL != "" {
		server0, _ = scrapeMetrics(ctx, base, o.Host)
	}
	runtime.GC()
	var ms0 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	var ru0 syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)

	r.began = time.Now()
	r.stopAt = r.began.Add(o.Duration)
	var wg sync.WaitGroup
	startErr := make(chan error, 1)
	wg.Go(func() {
		for i := range o.Agents {
			if o.Ramp > 0 {
				at := r.began.Add(time.Duration(float64(i) / o.Ramp * float64(time.Second)))
				select {
				case <-time.After(time.Until(at)):
				case <-actx.Done():
					return
				}
			}
			a, err := newLoadAgent(r, i)
			if err != nil {
				startErr <- err
				acancel()
				return
			}
			wg.Go(func() { a.play(actx) })
		}
	})
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()

	if o.Leave {
		t := time.AfterFunc(o.Duration, acancel)
		defer t.Stop()
	}
	tick := time.NewTicker(o.HeapEvery)
	defer tick.Stop()
	win := time.NewTicker(5 * time.Second)
	defer win.Stop()
	var sumAgent, sumTable uint64
	var lastMoves int64
	var serverPeakHeap, serverPeakRSS float64
	for running := true; running; {
		select {
		case <-done:
			running = false
		case <-tick.C:
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			conns := uint64(r.conns.Load())
			r.mu.Lock()
			live := uint64(r.live)
			r.mu.Unlock()
			if conns == 0 || ms.HeapAlloc <= ms0.HeapAlloc {
				continue
			}
			heap := ms.HeapAlloc - ms0.HeapAlloc
			per := heap / conns
			perTable := uint64(0)
			if live > 0 {
				perTable = heap / live
			}
			res.HeapSamples = append(res.HeapSamples, fmt.Sprintf("+%ds: %d B/agent (%d connected), %d B/table (%d live)",
				int(time.Since(r.began).Seconds()), per, conns, perTable, live))
			sumAgent += per
			sumTable += perTable
			if per > res.HeapPerAgentPeak {
				res.HeapPerAgentPeak = per
				res.StackPerAgent = (ms.StackInuse - min(ms.StackInuse, ms0.StackInuse)) / conns
			}
			res.HeapPerTablePeak = max(res.HeapPerTablePeak, perTable)
			n := uint64(len(res.HeapSamples))
			res.HeapPerAgentMean, res.HeapPerTableMean = sumAgent/n, sumTable/n
			if o.URL != "" {
				if m, err := scrapeMetrics(ctx, base, o.Host); err == nil {
					h := m["go_memstats_heap_alloc_bytes"] - server0["go_memstats_heap_alloc_bytes"]
					if h/float64(conns) > serverPeakHeap {
						serverPeakHeap = h / float64(conns)
					}
					serverPeakRSS = max(serverPeakRSS, m["process_resident_memory_bytes"])
				}
			}
		case <-win.C:
			w := int(time.Since(r.began)/(5*time.Second)) - 1
			mv := r.moves.Load()
			r.mu.Lock()
			ds := r.win[w]
			delete(r.win, w)
			live := r.live
			r.mu.Unlock()
			res.Windows = append(res.Windows, fmt.Sprintf("+%ds: %d connected, %d live, %.0f moves/s, p99 %v (%d)",
				w*5, r.conns.Load(), live, float64(mv-lastMoves)/5, percentile(ds, 99).Round(100*time.Microsecond), len(ds)))
			lastMoves = mv
		case <-ctx.Done():
			running = false
		}
	}
	acancel()
	<-done
	res.Elapsed = time.Since(r.began)
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	res.CPU = time.Duration(ru.Utime.Nano()+ru.Stime.Nano()-ru0.Utime.Nano()-ru0.Stime.Nano()) * time.Nanosecond
	res.MaxRSS = uint64(ru.Maxrss) << 10
	if o.URL != "" {
		if m, err := scrapeMetrics(context.Background(), base, o.Host); err == nil {
			res.Server = []string{
				fmt.Sprintf("heap per connected agent peak %.0f B (HeapAlloc above its start, not GC-forced: an upper bound)", serverPeakHeap),
				fmt.Sprintf("cpu %.1f s", m["process_cpu_seconds_total"]-server0["process_cpu_seconds_total"]),
				fmt.Sprintf("rss peak sampled %.0f MiB", serverPeakRSS/(1<<20)),
			}
		}
	}

	r.mu.Lock()
	defer r.mu.Unlock()
	res.Seated, res.PeakConnected, res.PeakLive = r.nSeated, int(r.peakConns.Load()), r.peakLive
	res.Matches, res.Ended, res.Moves = r.nMatches, r.nEnded, r.moves.Load()
	end := r.lastEnd
	if o.Leave {
		end = r.began.Add(min(o.Duration, res.Elapsed)) // the agents left then
	}
	if !r.firstSeat.IsZero() && end.After(r.firstSeat) {
		res.Play = end.Sub(r.firstSeat)
		res.MovesPerSecond = float64(res.Moves) / res.Play.Seconds()
	}
	res.Samples, res.P50, res.P99, res.Max = len(r.lat), percentile(r.lat, 50), percentile(r.lat, 99), percentile(r.lat, 100)
	res.FanOutSamples, res.FanOutP50, res.FanOutP99 = len(r.fan), percentile(r.fan, 50), percentile(r.fan, 99)
	res.Errors, res.Closes = maps.Clone(r.errCodes), maps.Clone(r.closes)
	res.Retries, res.RateLimited = r.retries.Load(), r.rateLimited.Load()
	res.Drops, res.FirstDrop = r.drops.Load(), r.firstDrop
	select {
	case err := <-startErr:
		return res, err
	default:
	}
	switch {
	case r.failed != nil:
		return res, r.failed
	case ctx.Err() != nil:
		return res, fmt.Errorf("brload: %d of %d matches ended in %v: %w", res.Ended, res.Matches, o.Timeout, ctx.Err())
	case res.Seated < res.Agents:
		return res, fmt.Errorf("brload: %d of %d agents were seated", res.Seated, res.Agents)
	case res.Ended < res.Matches && !o.Leave:
		return res, fmt.Errorf("brload: %d of %d matches ended", res.Ended, res.Matches)
	}
	return res, nil
}

// percentile is the p-th percentile (nearest rank) of ds, which it leaves unsorted.
func percentile(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := (len(s)*p + 99) / 100
	return s[max(i-1, 0)]
}

// scrapeMetrics reads a server's /metrics (Prometheus text) into name → value for the unlabelled
// series.
func scrapeMetrics(ctx context.Context, base, host string) (map[string]float64, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", base+"/metrics", nil)
	if err != nil {
		return nil, err
	}
	req.Host = host
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		return nil, fmt.Errorf("/metrics: %s", resp.Status)
	}
	out := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		name, val, ok := strings.Cut(sc.Text(), " ")
		if !ok || strings.HasPrefix(name, "#") || strings.Contains(name, "{") {
			continue
		}
		if v, err := strconv.ParseFloat(strings.TrimSpace(val), 64); err == nil {
			out[name] = v
		}
	}
	return out, sc.Err()
}

// loadServer is the in-process `arena serve` a run plays against.
type loadServer struct {
	url    string
	cancel context.CancelFunc
	done   chan error
	dir    string
}

// startLoadServer starts `arena serve` in this process (serve, as the command runs it) on an
// ephemeral loopback port with its own temporary data directory and Break Room's clocks from o:
// the lobby timer, the house fill, a 5 ms house pause, the move deadline (the away deadline
// the same).
func startLoadServer(ctx context.Context, o loadOptions) (*loadServer, error) {
	dir, err := os.MkdirTemp("", "arena-brload-")
	if err != nil {
		return nil, err
	}
	args := []string{"--addr", "127.0.0.1:0", "--data", dir, "--log-level", "warn", "--shutdown-grace", "1s",
		"--breakroom-lobby-wait", o.LobbyWait.String(), "--breakroom-house-after", o.HouseAfter.String(),
		"--breakroom-house-pause", "5ms", "--breakroom-turn", o.Move.String(), "--breakroom-away", o.Move.String()}
	cfg, err := config.Load("arena serve", args, func(string) string { return "" }, io.Discard)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	w := o.Log
	if w == nil {
		w = io.Discard
	}
	log := newLogger(cfg, w)
	sctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	pr, pw := io.Pipe()
	s := &loadServer{cancel: cancel, done: make(chan error, 1), dir: dir}
	go func() {
		err := serveStore(sctx, cfg, log, pw, storage.Options{NoSync: o.NoSync})
		pw.Close()
		s.done <- err
	}()
	sc := bufio.NewScanner(pr)
	for sc.Scan() {
		if u, ok := strings.CutPrefix(sc.Text(), "arena: listening on "); ok {
			s.url = u
			break
		}
	}
	go io.Copy(io.Discard, pr)
	if s.url == "" {
		cancel()
		err := <-s.done
		os.RemoveAll(dir)
		return nil, fmt.Errorf("brload: the in-process server did not start: %v", err)
	}
	return s, nil
}

func (s *loadServer) stop() {
	s.cancel()
	if err := <-s.done; err != nil {
		slog.Default().Warn("brload: in-process server", "err", err)
	}
	os.RemoveAll(s.dir)
}
