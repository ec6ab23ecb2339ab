package actors

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"arena/actors/internal/countdown"
	"arena/games"
	"arena/storage"
)

// BenchOptions configure RunBench. The zero value runs 1,000 countdown tables of three house
// seats with 10-second moves.
type BenchOptions struct {
	Tables  int           // tables opened, all live at once (0: 1000)
	Seats   int           // house seats per table (0: 3)
	Move    time.Duration // the compressed clock: every move's length (0: 10 s)
	Workers int           // goroutines opening tables (0: 64)
	// Spread paces the openings evenly over this long, so deadlines spread as they do when
	// tables start at different times (0: one move length; negative: open all at once, the
	// worst case where every table's deadlines fall in the same instants).
	Spread time.Duration
	// Engine and Game/Format pick the game (nil: the built-in countdown game). The engine must
	// implement games.HousePlayer.
	Engine games.Engine
	Format string
	// Entry is each bench seat's stake (games.Seat.Entry) in the game's unit, for a game that
	// takes stakes (0: none). Ignored with Spec.
	Entry int64
	// Options, when set, gives each table its Setup options (the game's own, as the protocol's
	// product would set them: Inference's per-table deal_key, breakroom.DealKeyOptions). Ignored
	// with Spec.
	Options func() json.RawMessage
	Dir     string // data directory (empty: a temporary one, removed after)
	NoSync  bool   // skip fsync (measures the actors rather than the disk)
	Logger  *slog.Logger
	// Keys makes the tables' keyrings from the bench's instance key and agent id (nil: no seat
	// has a key).
	Keys func(instance ed25519.PrivateKey, agent string) KeyProvider
	// Timeout bounds the whole run (0: 10 minutes).
	Timeout time.Duration
	// Reboot shuts the arena down once every table is open and starts it again on the same
	// store (boot recovery of every live table), timing both.
	Reboot bool
	// Spec, when set, is each table's spec (its Game and Pace then replaced by the bench's: the
	// engine's game, every phase Move long): a protocol's own tables, such as the walk-in desk's
	// Practice table with no walk-in (dotdotdot.PracticeBench). Seats and Format are then ignored.
	Spec func(id string) TableSpec
	// HeapProfile, when set, receives a pprof heap profile taken with the heap measurement
	// (every table open, after a forced GC): where a live table's bytes are.
	HeapProfile io.Writer
	// HeapAt, when positive, takes the heap measurement this long after the first table opened
	// (at least once every table is open) rather than as soon as they are: a Blitz table's public
	// log grows through the round, so mid-round is its typical size, the opening its least.
	HeapAt time.Duration
	// HeapEvery, when positive, also measures the heap per live table every HeapEvery (after a
	// forced GC) while at least 90% of the tables are still live, through the round: its mean
	// and peak are the figures for a table over its life (HeapSamples, HeapMean, HeapPeak).
	HeapEvery time.Duration
}

// BenchResult is what RunBench measured. Durations are wall-clock.
type BenchResult struct {
	Tables          int
	Completed       int
	OpenTime        time.Duration // opening every table
	Elapsed         time.Duration // first open to last finish
	TablesPerSecond float64       // completed / elapsed
	TimerSamples    int
	LatenessP50     time.Duration // phase timer handled after its deadline
	LatenessP99     time.Duration
	LatenessMax     time.Duration
	CommitSamples   int
	CommitP50       time.Duration // one step's CommitStep
	CommitP99       time.Duration
	LiveAtMeasure   int    // tables live when the heap was measured
	HeapPerTable    uint64 // bytes of Go heap per live table (after GC)
	Goroutines      int    // at the heap measurement
	WriteTxs        int    // bbolt write transactions (commits are coalesced into them)
	TxWriteTime     time.Duration
	// With HeapEvery: each sample "+Ns: B (live)", and the mean and peak bytes per live table.
	HeapSamples        []string
	HeapMean, HeapPeak uint64
	// Windows is the timer lateness p99 per 5-second window of the run, "start+Ns: p99 (n)".
	Windows []string
	// With Reboot: Shutdown of the whole tree and Start with boot recovery (until every live
	// table has been spawned; each resumes on its own goroutine after that).
	ShutdownTime, RecoverTime time.Duration
}

func (r BenchResult) String() string {
	return fmt.Sprintf("tables=%d completed=%d open=%v elapsed=%v tables/s=%.1f timers=%d lateness p50=%v p99=%v max=%v "+
		"commits=%d commit p50=%v p99=%v heap/table=%d B (%d live, %d goroutines) bbolt txs=%d write time=%v",
		r.Tables, r.Completed, r.OpenTime.Round(time.Millisecond), r.Elapsed.Round(time.Millisecond), r.TablesPerSecond,
		r.TimerSamples, r.LatenessP50, r.LatenessP99, r.LatenessMax, r.CommitSamples, r.CommitP50, r.CommitP99,
		r.HeapPerTable, r.LiveAtMeasure, r.Goroutines, r.WriteTxs, r.TxWriteTime.Round(time.Millisecond))
}

// RunBench runs N concurrent practice tables of house seats on a compressed clock (the real
// clock, short moves; phases close on their deadlines, so every turn is a timer) and reports
// tables completed per second, timer lateness, commit latency and heap per live table
// (the figures docs/performance.md records). It builds its own store and arena.
func RunBench(ctx context.Context, o BenchOptions) (BenchResult, error) {
	if o.Tables <= 0 {
		o.Tables = 1000
	}
	if o.Seats <= 0 {
		o.Seats = 3
	}
	if o.Move <= 0 {
		o.Move = 10 * time.Second
	}
	if o.Workers <= 0 {
		o.Workers = 64
	}
	if o.Spread == 0 {
		o.Spread = o.Move
	}
	if o.Engine == nil {
		o.Engine = &countdown.Engine{}
	}
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Minute
	}
	if _, ok := o.Engine.(games.HousePlayer); !ok {
		return BenchResult{}, errors.New("actors: bench: the engine has no house policy")
	}
	dir := o.Dir
	if dir == "" {
		d, err := os.MkdirTemp("", "arena-bench-")
		if err != nil {
			return BenchResult{}, err
		}
		defer os.RemoveAll(d)
		dir = d
	}
	st, err := storage.Open(filepath.Join(dir, "bench.db"), storage.Options{NoSync: o.NoSync})
	if err != nil {
		return BenchResult{}, err
	}
	defer st.Close()
	br, err := games.NewBracket(o.Engine)
	if err != nil {
		return BenchResult{}, err
	}
	// The samples are the tool's own, not a table's: room for a Blitz round's worth (25 timers,
	// about 70 commits a table) is made before the heap baseline, so they do not count as heap
	// per table.
	samples := &benchSamples{done: make(chan string, o.Tables), lateness: make([]time.Duration, 0, o.Tables*32),
		latAt: make([]time.Time, 0, o.Tables*32), commit: make([]time.Duration, 0, o.Tables*128)}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	key, agent := ed25519.NewKeyFromSeed(make([]byte, 32)), "ccd:bench/cis-2:bench"
	var keys KeyProvider
	if o.Keys != nil {
		keys = o.Keys(key, agent)
	}
	a, err := Start(Options{DB: st, Bracket: br, InstanceKey: key, InstanceAgent: agent, Keys: keys,
		Logger: log, samples: samples})
	if err != nil {
		return BenchResult{}, err
	}
	defer func() { _ = a.Shutdown(context.Background()) }()

	before := settledHeap()

	game := o.Engine.Manifest().ID
	began := time.Now()
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, o.Workers)
	for w := 0; w < o.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1))
				if i > o.Tables {
					return
				}
				if o.Spread > 0 {
					time.Sleep(time.Until(began.Add(o.Spread * time.Duration(i-1) / time.Duration(o.Tables))))
				}
				pace := games.Pace{Name: "agent", Move: o.Move} // every step of any game Move long
				spec := TableSpec{ID: "bench-" + strconv.Itoa(i), Game: game, Format: o.Format, Kind: "practice", Pace: pace}
				if o.Spec != nil {
					spec = o.Spec(spec.ID)
					spec.Game, spec.Pace = game, pace
				} else {
					if o.Options != nil {
						spec.Options = o.Options()
					}
					for s := 1; s <= o.Seats; s++ {
						seat := games.Seat{Seat: s, Agent: "house-" + strconv.Itoa(s), Name: "house " + strconv.Itoa(s), Entry: o.Entry}
						spec.Seats = append(spec.Seats, SeatSpec{Seat: seat, Kind: "house", Channel: ChannelHouse})
					}
				}
				if _, err := a.OpenTable(ctx, spec); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return BenchResult{}, fmt.Errorf("actors: bench: open: %w", err)
	}
	res := BenchResult{Tables: o.Tables, OpenTime: time.Since(began)}
	// measure takes the heap measurement (HeapPerTable, the profile) once: as soon as every table
	// is open, or at HeapAt (while the HeapEvery samples go on from the start).
	measured := false
	measure := func() error {
		measured = true
		after := settledHeap()
		if o.HeapProfile != nil {
			if err := pprof.WriteHeapProfile(o.HeapProfile); err != nil {
				return fmt.Errorf("actors: bench: heap profile: %w", err)
			}
		}
		res.LiveAtMeasure = o.Tables - res.Completed - len(samples.done)
		res.Goroutines = runtime.NumGoroutine()
		if res.LiveAtMeasure > 0 && after.HeapAlloc > before.HeapAlloc {
			res.HeapPerTable = (after.HeapAlloc - before.HeapAlloc) / uint64(res.LiveAtMeasure)
		}
		return nil
	}
	var heapAt <-chan time.Time
	switch {
	case o.HeapAt > 0 && !o.Reboot:
		t := time.NewTimer(time.Until(began.Add(o.HeapAt)))
		defer t.Stop()
		heapAt = t.C
	case o.HeapAt > 0:
		select {
		case <-time.After(time.Until(began.Add(o.HeapAt))):
		case <-ctx.Done():
			return res, ctx.Err()
		}
		fallthrough
	default:
		if err := measure(); err != nil {
			return BenchResult{}, err
		}
	}

	if o.Reboot {
		t0 := time.Now()
		if err := a.Shutdown(ctx); err != nil {
			return res, err
		}
		res.ShutdownTime = time.Since(t0)
		t0 = time.Now()
		a, err = Start(Options{DB: st, Bracket: br, InstanceKey: key, InstanceAgent: agent, Keys: keys,
			Logger: log, samples: samples})
		if err != nil {
			return res, err
		}
		res.RecoverTime = time.Since(t0)
	}
	timeout := time.After(o.Timeout)
	var every <-chan time.Time
	if o.HeapEvery > 0 {
		tk := time.NewTicker(o.HeapEvery)
		defer tk.Stop()
		every = tk.C
	}
	var heapSum uint64
	for res.Completed < o.Tables {
		select {
		case <-heapAt:
			if err := measure(); err != nil {
				return res, err
			}
		case <-every:
			live := o.Tables - res.Completed - len(samples.done)
			if live*10 < o.Tables*9 {
				every = nil // too few tables left for a per-table figure
				continue
			}
			ms := settledHeap()
			if ms.HeapAlloc <= before.HeapAlloc {
				continue
			}
			per := (ms.HeapAlloc - before.HeapAlloc) / uint64(live)
			res.HeapSamples = append(res.HeapSamples, fmt.Sprintf("+%ds: %d B (%d live)",
				int(time.Since(began).Seconds()), per, live))
			heapSum += per
			res.HeapPeak = max(res.HeapPeak, per)
			res.HeapMean = heapSum / uint64(len(res.HeapSamples))
		case <-samples.done:
			res.Completed++
		case <-timeout:
			return res, fmt.Errorf("actors: bench: %d of %d tables finished in %v", res.Completed, o.Tables, o.Timeout)
		case <-ctx.Done():
			return res, ctx.Err()
		}
	}
	if !measured {
		// HeapAt fell after the last table finished: measured now, with no table live.
		if err := measure(); err != nil {
			return res, err
		}
	}
	res.Elapsed = time.Since(began)
	res.TablesPerSecond = float64(res.Completed) / res.Elapsed.Seconds()
	samples.mu.Lock()
	res.TimerSamples, res.CommitSamples = len(samples.lateness), len(samples.commit)
	win := map[int][]time.Duration{}
	last := 0
	for i, at := range samples.latAt {
		w := int(at.Sub(began) / (5 * time.Second))
		win[w] = append(win[w], samples.lateness[i])
		last = max(last, w)
	}
	for w := 0; w <= last; w++ {
		res.Windows = append(res.Windows, fmt.Sprintf("+%ds: p99 %v (%d)", w*5, pct(win[w], 99).Round(time.Millisecond), len(win[w])))
	}
	res.LatenessP50, res.LatenessP99, res.LatenessMax = pct(samples.lateness, 50), pct(samples.lateness, 99), pct(samples.lateness, 100)
	res.CommitP50, res.CommitP99 = pct(samples.commit, 50), pct(samples.commit, 99)
	samples.mu.Unlock()
	ss := st.Stats() // (read before the deferred Shutdown)
	res.WriteTxs, res.TxWriteTime = int(ss.Commits), ss.WriteTime
	return res, nil
}

// pct is the p-th percentile (nearest rank) of ds; it sorts ds.
func pct(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	i := (len(ds)*p + 99) / 100
	return ds[max(i-1, 0)]
}

// settledHeap collects until the heap stops shrinking and returns the memory statistics then.
// One runtime.GC is not enough for a baseline: sync.Pool contents survive one collection (in the
// victim cache) and objects reachable from finalizers another, so garbage left by what ran
// before (an earlier test, the server's start) would still count in the baseline after a single
// collection and be freed during the run, leaving a live table's heap under it. At least two
// collections, then more while HeapAlloc still falls, at most eight.
func settledHeap() runtime.MemStats {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	for i := 1; i < 8; i++ {
		prev := ms.HeapAlloc
		runtime.GC()
		runtime.ReadMemStats(&ms)
		if i > 1 && ms.HeapAlloc >= prev {
			break
		}
	}
	return ms
}
