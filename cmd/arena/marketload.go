package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"arena/actors"
	mkt "arena/actors/market"
	gm "arena/games/market"
	"arena/storage"
)

var marketloadCommand = command{
	summary: "load test of the Game Master market: N Players issuing random commands: marketload --players N",
	run:     runMarketload,
}

// marketloadUsage is printed by `arena marketload -h` and on a usage error.
const marketloadUsage = `usage: arena marketload [--players N] [--duration D] [--nosync] [flags]

Runs the Game Master market actor (actors/market) in-process on a bbolt file of its own (a
temporary directory unless --dir names one), or uses a running server (--url), and N Players, one goroutine each, closed loop with
no think time: each enrols, then until D has passed issues random valid commands
(game-master-protocol-v2.md): transfers (40%), proposeExchange (15%), answers to Exchanges
proposed or countered to it (respondToExchange approve or decline, counterExchange: 15%),
cancelExchange of its own (3%), setTradingName (5%), and queries (readInventory, readStatement,
listExchanges, getExchange: 22%). Every answer is durable before it returns (the store fsyncs
every commit unless --nosync).

Reports requests and accepted mutations per second, the latency of a mutation and of a query
as the caller sees it (p50, p99, max), the market's group writes (how many, their Deltas per
write, and the bbolt commit latency of each: p50, p99, max), refusals by code, the file's size,
CPU seconds of this process; then (unless --verify=false) stops the actor, starts a new one on
the same file (the boot replay, timed) and sends every accepted mutation again: each must be
answered its first response byte for byte (a refused one consumed no commandId: its retry would
be a fresh attempt). Figures in docs/performance.md.

flags:
  --players N       concurrent Players (default 64)
  --duration D      how long the Players issue commands (default 20s)
  --nosync          the store skips fsync (measures without the disk)
  --seed S          the Players' random choices (default 1)
  --dir DIR         keep the bbolt file in DIR (default: a temporary directory, removed)
  --verify          after the run, replay and retry every accepted mutation (default true)
  --url URL         a running server's origin (http://127.0.0.1:8080) instead of in-process:
                    every request is POST /v2/request; the server's group writes are not seen
                    here (no commit figures), the retries go to the same server
  --host H          with --url: the market site's Host name (default market.localhost)
  --owner-header H  with --url: the header the server trusts from this address for the
                    caller's Owner ID (its --market-gateway-header; default X-Owner-Id)
  --cpuprofile F    write a pprof CPU profile of this process to F

exit status: 0 nothing was unavailable and every retry matched; 1 otherwise; 2 usage error.
`

// marketLoadOptions configure a market load run (marketloadUsage).
type marketLoadOptions struct {
	Players  int
	Duration time.Duration
	NoSync   bool
	Seed     uint64
	Dir      string // "" a temporary directory
	Verify   bool
	// URL is a running server's origin: the Players send POST /v2/request there (Host: Host),
	// their Owner ID in the trusted gateway header OwnerHeader, instead of to an in-process actor.
	URL, Host, OwnerHeader string
}

// marketLoadResult is what a market load run measured. Durations are wall-clock.
type marketLoadResult struct {
	Players                          int
	Elapsed                          time.Duration // the commands' phase (after every enrolment)
	Requests, Mutations, Accepted    int64
	Queries, Unavailable             int64
	RequestsPerSecond, AcceptedPerS  float64
	MutP50, MutP99, MutMax           time.Duration
	QueryP50, QueryP99, QueryMax     time.Duration
	Commits                          int // group writes during the commands' phase
	CommitP50, CommitP99, CommitMax  time.Duration
	GroupMean                        float64 // Deltas per write
	GroupP50, GroupP99, GroupMax     int
	Deltas                           int64 // Deltas written during the commands' phase
	Refusals                         map[string]int
	AcceptedBy                       map[string]int // accepted mutations by action
	FileBytes                        int64
	CPU                              time.Duration
	Replay                           time.Duration // a new actor's boot: its first answer
	Retried, Mismatched, RetryFailed int
}

func (r marketLoadResult) String() string {
	return fmt.Sprintf("players=%d elapsed=%v requests=%d (%.0f/s) mutations=%d accepted=%d (%.0f/s) queries=%d unavailable=%d\n"+
		"mutation latency p50=%v p99=%v max=%v; query latency p50=%v p99=%v max=%v\n"+
		"group writes=%d deltas=%d per write mean=%.1f p50=%d p99=%d max=%d; bbolt commit p50=%v p99=%v max=%v\n"+
		"accepted by action %v\nrefusals %v\nfile=%d bytes (%.0f per delta of the run) cpu=%v\n"+
		"replay (new actor's first answer)=%v retried=%d mismatched=%d failed=%d",
		r.Players, r.Elapsed.Round(time.Millisecond), r.Requests, r.RequestsPerSecond, r.Mutations, r.Accepted, r.AcceptedPerS,
		r.Queries, r.Unavailable, r.MutP50.Round(10*time.Microsecond), r.MutP99.Round(10*time.Microsecond), r.MutMax.Round(10*time.Microsecond),
		r.QueryP50.Round(10*time.Microsecond), r.QueryP99.Round(10*time.Microsecond), r.QueryMax.Round(10*time.Microsecond),
		r.Commits, r.Deltas, r.GroupMean, r.GroupP50, r.GroupP99, r.GroupMax,
		r.CommitP50.Round(10*time.Microsecond), r.CommitP99.Round(10*time.Microsecond), r.CommitMax.Round(10*time.Microsecond),
		r.AcceptedBy, r.Refusals, r.FileBytes, float64(r.FileBytes)/float64(max(r.Deltas, 1)), r.CPU.Round(10*time.Millisecond),
		r.Replay.Round(time.Millisecond), r.Retried, r.Mismatched, r.RetryFailed)
}

func runMarketload(ctx context.Context, args []string) int {
	return marketloadMain(ctx, args, os.Stdout, os.Stderr)
}

func marketloadMain(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("marketload", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var o marketLoadOptions
	fs.IntVar(&o.Players, "players", 64, "")
	fs.DurationVar(&o.Duration, "duration", 20*time.Second, "")
	fs.BoolVar(&o.NoSync, "nosync", false, "")
	fs.Uint64Var(&o.Seed, "seed", 1, "")
	fs.StringVar(&o.Dir, "dir", "", "")
	fs.BoolVar(&o.Verify, "verify", true, "")
	fs.StringVar(&o.URL, "url", "", "")
	fs.StringVar(&o.Host, "host", "market.localhost", "")
	fs.StringVar(&o.OwnerHeader, "owner-header", "X-Owner-Id", "")
	cpuProfile := fs.String("cpuprofile", "", "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, marketloadUsage)
			return 0
		}
		fmt.Fprintf(stderr, "arena marketload: %v\n%s", err, marketloadUsage)
		return 2
	}
	usage := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "arena marketload: "+format+"\n%s", append(a, marketloadUsage)...)
		return 2
	}
	switch {
	case fs.NArg() > 0:
		return usage("unexpected argument %q", fs.Arg(0))
	case o.Players < 2 || o.Players > 100_000:
		return usage("--players %d: 2 to 100000", o.Players)
	case o.Duration <= 0:
		return usage("--duration must be positive")
	case o.URL != "" && !strings.HasPrefix(o.URL, "http://") && !strings.HasPrefix(o.URL, "https://"):
		return usage("--url %q: want http(s)://HOST:PORT", o.URL)
	case o.URL != "" && (o.NoSync || o.Dir != ""):
		return usage("--nosync and --dir are for the in-process market")
	case o.URL != "" && o.OwnerHeader == "":
		return usage("--owner-header must name a header")
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fmt.Fprintf(stderr, "arena marketload: %v\n", err)
			return 1
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(stderr, "arena marketload: %v\n", err)
			return 1
		}
		defer pprof.StopCPUProfile()
	}
	r, err := marketLoad(ctx, o)
	fmt.Fprintln(stdout, r)
	if err != nil {
		fmt.Fprintf(stderr, "arena marketload: %v\n", err)
		return 1
	}
	return 0
}

// marketLoadConfig is the load run's market: three tradable Assets, enough of each that a
// Player rarely runs dry.
func marketLoadConfig() gm.Config {
	return gm.Config{GameID: "marketload", Assets: []gm.Asset{{ID: "credits", UnitPrice: 1}, {ID: "wood", UnitPrice: 4}, {ID: "stone", UnitPrice: 9}},
		StartingAssets: []gm.Holding{{AssetID: "credits", Quantity: 10_000}, {AssetID: "wood", Quantity: 1_000}, {AssetID: "stone", Quantity: 500}}}
}

// acked is one accepted mutation: who sent it, the body, and the response it got.
type acked struct {
	owner      string
	body, resp []byte
}

// exRef is an Exchange a Player may answer: its live Round as the last response showed it.
type exRef struct {
	id, hash string
	version  uint64
}

// inbox is the Exchanges waiting on one Player's answer, oldest first.
type inbox struct {
	mu  sync.Mutex
	exs []exRef
}

func (b *inbox) push(x exRef) {
	b.mu.Lock()
	if len(b.exs) >= 64 {
		b.exs = b.exs[1:]
	}
	b.exs = append(b.exs, x)
	b.mu.Unlock()
}

func (b *inbox) pop() (exRef, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.exs) == 0 {
		return exRef{}, false
	}
	x := b.exs[0]
	b.exs = b.exs[1:]
	return x, true
}

// envelopeOf is the parts of a response the load tool reads.
type envelopeOf struct {
	OK     bool `json:"ok"`
	Result struct {
		PlayerID          string  `json:"playerId"`
		ExchangeID        string  `json:"exchangeId"`
		ExchangeVersion   uint64  `json:"exchangeVersion"`
		TermsHash         string  `json:"termsHash"`
		Status            string  `json:"status"`
		AnsweringPlayerID *string `json:"answeringPlayerId"`
	} `json:"result"`
	Error *struct {
		Code string `json:"code"`
	} `json:"error"`
}

// playerTally is one Player's counts and latencies, merged at the end.
type playerTally struct {
	requests, mutations, accepted, queries, unavailable int64
	mut, query                                          []time.Duration
	refusals, acceptedBy                                map[string]int
	acked                                               []acked
	err                                                 error
}

// marketDo sends one request as owner and returns the response envelope; an error is an
// answer that never came or said unavailable.
type marketDo func(ctx context.Context, owner string, body []byte) ([]byte, error)

// httpMarketDo sends requests to a running server's POST /v2/request.
func httpMarketDo(o marketLoadOptions) marketDo {
	client := &http.Client{Timeout: time.Minute, Transport: &http.Transport{MaxIdleConnsPerHost: o.Players + 8}}
	url := strings.TrimSuffix(o.URL, "/") + "/v2/request"
	return func(ctx context.Context, owner string, body []byte) ([]byte, error) {
		req, err := http.NewRequestWithContext(ctx, "POST", url, bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		req.Host = o.Host
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(o.OwnerHeader, owner)
		resp, err := client.Do(req)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode >= 500 || !bytes.HasPrefix(b, []byte(`{"protocolVersion":2,`)) {
			return nil, fmt.Errorf("%s: %s", resp.Status, b)
		}
		return b, nil
	}
}

func marketLoad(ctx context.Context, o marketLoadOptions) (marketLoadResult, error) {
	res := marketLoadResult{Players: o.Players, Refusals: map[string]int{}, AcceptedBy: map[string]int{}}
	var (
		cmu     sync.Mutex
		counted bool // the commands' phase: commits are tallied
		commits []time.Duration
		groups  []int
	)
	var (
		do      marketDo
		path    string
		store   *storage.Store
		stop    = func() {}
		cfg     = marketLoadConfig()
		seed    = [32]byte{'m', 'l'}
		quiet   = func(*actor.ActorSystem) *slog.Logger { return slog.New(slog.DiscardHandler) }
		runName = fmt.Sprintf("marketload-%d-", time.Now().UnixNano())
	)
	if o.URL != "" {
		do = httpMarketDo(o)
	} else {
		dir := o.Dir
		if dir == "" {
			d, err := os.MkdirTemp("", "marketload-")
			if err != nil {
				return res, err
			}
			defer os.RemoveAll(d)
			dir = d
		}
		path = filepath.Join(dir, "market.db")
		var err error
		if store, err = storage.Open(path, storage.Options{NoSync: o.NoSync}); err != nil {
			return res, err
		}
		defer store.Close()
		sys := actor.NewActorSystem(actor.WithLoggerFactory(quiet))
		onCommit := func(n int, took time.Duration, err error) {
			cmu.Lock()
			if counted && err == nil {
				commits, groups = append(commits, took), append(groups, n)
			}
			cmu.Unlock()
		}
		m, err := mkt.Start(sys, store, actors.RealClock(), cfg, seed, mkt.Options{Name: "marketload", OnCommit: onCommit})
		if err != nil {
			sys.Shutdown()
			return res, err
		}
		do, stop = m.Do, sys.Shutdown
	}
	defer func() { stop() }()

	n := o.Players
	owners, pids := make([]string, n), make([]string, n)
	boxes := make([]*inbox, n)
	for i := range n {
		owners[i], boxes[i] = runName+fmt.Sprint(i), &inbox{}
		b, err := do(ctx, owners[i], []byte(`{"protocolVersion":2,"commandId":"enroll","action":"enroll"}`))
		var e envelopeOf
		if err == nil {
			err = json.Unmarshal(b, &e)
		}
		if err != nil || !e.OK || e.Result.PlayerID == "" {
			return res, fmt.Errorf("marketload: enrol player %d: %s %v", i, b, err)
		}
		pids[i] = e.Result.PlayerID
	}
	index := make(map[string]int, n)
	for i, p := range pids {
		index[p] = i
	}

	var ru0 syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
	cmu.Lock()
	counted = true
	cmu.Unlock()
	start := time.Now()
	deadline := start.Add(o.Duration)
	tallies := make([]*playerTally, n)
	var wg sync.WaitGroup
	for i := range n {
		t := &playerTally{refusals: map[string]int{}, acceptedBy: map[string]int{}}
		tallies[i] = t
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(o.Seed, uint64(i)))
			p := marketPlayer{i: i, owner: owners[i], pids: pids, index: index, boxes: boxes, rng: rng, t: t, do: do}
			for time.Now().Before(deadline) && ctx.Err() == nil && t.err == nil {
				p.step(ctx)
			}
		})
	}
	wg.Wait()
	res.Elapsed = time.Since(start)
	cmu.Lock()
	counted = false
	res.Commits = len(commits)
	res.CommitP50, res.CommitP99, res.CommitMax = percentile(commits, 50), percentile(commits, 99), slices.Max(append(commits, 0))
	if len(groups) > 0 {
		s := slices.Clone(groups)
		slices.Sort(s)
		var sum int64
		for _, g := range s {
			sum += int64(g)
		}
		res.Deltas = sum
		res.GroupMean = float64(sum) / float64(len(s))
		res.GroupP50, res.GroupP99, res.GroupMax = s[max((len(s)*50+99)/100-1, 0)], s[max((len(s)*99+99)/100-1, 0)], s[len(s)-1]
	}
	cmu.Unlock()
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	res.CPU = time.Duration(ru.Utime.Nano()+ru.Stime.Nano()-ru0.Utime.Nano()-ru0.Stime.Nano()) * time.Nanosecond

	var mut, query []time.Duration
	var all []acked
	var firstErr error
	for _, t := range tallies {
		res.Requests += t.requests
		res.Mutations += t.mutations
		res.Accepted += t.accepted
		res.Queries += t.queries
		res.Unavailable += t.unavailable
		mut, query = append(mut, t.mut...), append(query, t.query...)
		for k, v := range t.refusals {
			res.Refusals[k] += v
		}
		for k, v := range t.acceptedBy {
			res.AcceptedBy[k] += v
		}
		all = append(all, t.acked...)
		if t.err != nil && firstErr == nil {
			firstErr = t.err
		}
	}
	secs := res.Elapsed.Seconds()
	res.RequestsPerSecond, res.AcceptedPerS = float64(res.Requests)/secs, float64(res.Accepted)/secs
	res.MutP50, res.MutP99, res.MutMax = percentile(mut, 50), percentile(mut, 99), slices.Max(append(mut, 0))
	res.QueryP50, res.QueryP99, res.QueryMax = percentile(query, 50), percentile(query, 99), slices.Max(append(query, 0))
	stop()
	stop = func() {}
	if fi, err := os.Stat(path); path != "" && err == nil {
		res.FileBytes = fi.Size()
	}
	if firstErr != nil {
		return res, firstErr
	}
	if !o.Verify {
		return res, unavailableErr(res)
	}

	// A new incarnation on the same file: its boot replays every Delta; every accepted
	// mutation sent again must get its first answer, byte for byte. (With URL: the same
	// server, which has not restarted.)
	if o.URL == "" {
		sys2 := actor.NewActorSystem(actor.WithLoggerFactory(quiet))
		defer sys2.Shutdown()
		t0 := time.Now()
		m2, err := mkt.Start(sys2, store, actors.RealClock(), cfg, seed, mkt.Options{Name: "marketload-2", AskTimeout: time.Minute})
		if err != nil {
			return res, err
		}
		if _, err := m2.Do(ctx, owners[0], []byte(`{"protocolVersion":2,"action":"readInventory"}`)); err != nil {
			return res, fmt.Errorf("marketload: the new actor: %w", err)
		}
		res.Replay = time.Since(t0)
		do = m2.Do
	}
	for _, a := range all {
		b, err := do(ctx, a.owner, a.body)
		res.Retried++
		switch {
		case err != nil:
			res.RetryFailed++
		case !bytes.Equal(b, a.resp):
			res.Mismatched++
		}
	}
	if res.Mismatched > 0 || res.RetryFailed > 0 {
		return res, fmt.Errorf("marketload: %d of %d retries answered differently, %d failed", res.Mismatched, res.Retried, res.RetryFailed)
	}
	return res, unavailableErr(res)
}

func unavailableErr(r marketLoadResult) error {
	if r.Unavailable > 0 {
		return fmt.Errorf("marketload: %d requests answered unavailable", r.Unavailable)
	}
	return nil
}

// marketPlayer is one Player's loop state; only its own goroutine touches it (the inboxes
// are shared).
type marketPlayer struct {
	i     int
	owner string
	pids  []string
	index map[string]int
	boxes []*inbox
	mine  []exRef // Exchanges it proposed, for cancelExchange
	rng   *rand.Rand
	t     *playerTally
	do    marketDo
	n     int // commands sent, for the commandIds
}

var loadAssets = []string{"credits", "wood", "stone"}

func (p *marketPlayer) peer() int {
	j := p.rng.IntN(len(p.pids) - 1)
	if j >= p.i {
		j++
	}
	return j
}

func (p *marketPlayer) goods() string {
	return fmt.Sprintf(`[{"assetId":%q,"quantity":%d}]`, loadAssets[p.rng.IntN(len(loadAssets))], 1+p.rng.IntN(3))
}

func (p *marketPlayer) expires() string {
	return time.Now().Add(2 * time.Minute).UTC().Format("2006-01-02T15:04:05.000Z")
}

// step sends one random command and tallies its answer.
func (p *marketPlayer) step(ctx context.Context) {
	p.n++
	id := fmt.Sprintf("c-%d", p.n)
	r := p.rng.IntN(100)
	var action, body string
	switch {
	case r < 55 && r >= 40:
		action = gm.ActProposeExchange
		body = fmt.Sprintf(`{"protocolVersion":2,"commandId":%q,"action":"proposeExchange","counterpartyPlayerId":%q,"offered":%s,"requested":%s,"expiresAt":%q}`,
			id, p.pids[p.peer()], p.goods(), p.goods(), p.expires())
	case r >= 55 && r < 70:
		x, ok := p.boxes[p.i].pop()
		if !ok {
			r = 0 // nothing to answer: a transfer instead
			break
		}
		switch d := p.rng.IntN(100); {
		case d < 50:
			action = gm.ActRespond
			body = fmt.Sprintf(`{"protocolVersion":2,"commandId":%q,"action":"respondToExchange","exchangeId":%q,"exchangeVersion":%d,"termsHash":%q,"decision":"approve"}`, id, x.id, x.version, x.hash)
		case d < 65:
			action = gm.ActRespond
			body = fmt.Sprintf(`{"protocolVersion":2,"commandId":%q,"action":"respondToExchange","exchangeId":%q,"exchangeVersion":%d,"termsHash":%q,"decision":"decline"}`, id, x.id, x.version, x.hash)
		default:
			action = gm.ActCounter
			body = fmt.Sprintf(`{"protocolVersion":2,"commandId":%q,"action":"counterExchange","exchangeId":%q,"exchangeVersion":%d,"termsHash":%q,"offered":%s,"requested":%s,"expiresAt":%q}`,
				id, x.id, x.version, x.hash, p.goods(), p.goods(), p.expires())
		}
	case r >= 70 && r < 73:
		if len(p.mine) == 0 {
			r = 0
			break
		}
		k := p.rng.IntN(len(p.mine))
		x := p.mine[k]
		p.mine = slices.Delete(p.mine, k, k+1)
		action = gm.ActCancel
		body = fmt.Sprintf(`{"protocolVersion":2,"commandId":%q,"action":"cancelExchange","exchangeId":%q,"exchangeVersion":%d}`, id, x.id, x.version)
	case r >= 73 && r < 78:
		action = gm.ActSetTradingName
		body = fmt.Sprintf(`{"protocolVersion":2,"commandId":%q,"action":"setTradingName","tradingName":"Load Trader %d-%d"}`, id, p.i, p.n%7)
	case r >= 78:
		switch q := p.rng.IntN(100); {
		case q < 40:
			action, body = gm.ActReadInventory, `{"protocolVersion":2,"action":"readInventory"}`
		case q < 65:
			action, body = gm.ActReadStatement, `{"protocolVersion":2,"action":"readStatement","limit":20}`
		case q < 85 || len(p.mine) == 0:
			action, body = gm.ActListExchanges, `{"protocolVersion":2,"action":"listExchanges","limit":20}`
		default:
			action, body = gm.ActGetExchange, fmt.Sprintf(`{"protocolVersion":2,"action":"getExchange","exchangeId":%q,"roundLimit":10}`, p.mine[p.rng.IntN(len(p.mine))].id)
		}
	}
	if r < 40 {
		action = gm.ActTransfer
		body = fmt.Sprintf(`{"protocolVersion":2,"commandId":%q,"action":"transfer","toPlayerId":%q,"assetId":%q,"quantity":%d}`,
			id, p.pids[p.peer()], loadAssets[p.rng.IntN(len(loadAssets))], 1+p.rng.IntN(3))
	}
	mutation := action != gm.ActReadInventory && action != gm.ActReadStatement && action != gm.ActListExchanges && action != gm.ActGetExchange
	t0 := time.Now()
	b, err := p.do(ctx, p.owner, []byte(body))
	took := time.Since(t0)
	p.t.requests++
	if err != nil {
		if ctx.Err() != nil {
			return
		}
		p.t.unavailable++
		return
	}
	if !mutation {
		p.t.queries++
		p.t.query = append(p.t.query, took)
		if !bytes.HasPrefix(b, []byte(`{"protocolVersion":2,"ok":true,`)) {
			p.t.err = fmt.Errorf("marketload: %s answered %s", body, b)
		}
		return
	}
	var e envelopeOf
	if err := json.Unmarshal(b, &e); err != nil {
		p.t.err = fmt.Errorf("marketload: %s answered %q: %v", body, b, err)
		return
	}
	p.t.mutations++
	p.t.mut = append(p.t.mut, took)
	if !e.OK {
		code := "?"
		if e.Error != nil {
			code = e.Error.Code
		}
		p.t.refusals[code]++
		return // a refusal consumes no commandId: its retry would be a fresh attempt
	}
	p.t.acked = append(p.t.acked, acked{owner: p.owner, body: []byte(body), resp: b})
	p.t.accepted++
	p.t.acceptedBy[action]++
	// An Exchange that now waits on the other party goes to that party's inbox.
	if x := e.Result; x.ExchangeID != "" && x.Status == gm.StatusAwaiting && x.AnsweringPlayerID != nil {
		ref := exRef{id: x.ExchangeID, hash: x.TermsHash, version: x.ExchangeVersion}
		if j, ok := p.index[*x.AnsweringPlayerID]; ok && j != p.i {
			p.boxes[j].push(ref)
		}
		if action == gm.ActProposeExchange {
			p.mine = append(p.mine, ref)
			if len(p.mine) > 32 {
				p.mine = p.mine[1:]
			}
		}
	}
}
