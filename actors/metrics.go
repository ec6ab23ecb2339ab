package actors

import (
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// metrics are the arena's Prometheus collectors, registered on
// Options.Metrics. Names are prefixed arena_.
type metrics struct {
	tables         *prometheus.GaugeVec // arena_tables{status}
	roundsStarted  prometheus.Counter
	roundsFinished prometheus.Counter
	moves          prometheus.Counter
	staleTimers    prometheus.Counter
	restarts       prometheus.Counter
	lateness       prometheus.Histogram // seconds a timer message was handled after its instant
	commit         prometheus.Histogram // seconds a CommitStep took

	mu     sync.Mutex
	status map[string]string // table id → status, to move the gauge on transitions

	onStatus func(table, game, status string) // env.status: Options.OnStatus and the game's product

	// samples, when non-nil, records every timer lateness and commit latency (RunBench).
	samples *benchSamples
}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	m := &metrics{
		tables: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "arena_tables",
			Help: "Tables known to this instance, by status (live, finished, failed, stopped)."}, []string{"status"}),
		roundsStarted:  prometheus.NewCounter(prometheus.CounterOpts{Name: "arena_rounds_started_total", Help: "Rounds opened."}),
		roundsFinished: prometheus.NewCounter(prometheus.CounterOpts{Name: "arena_rounds_finished_total", Help: "Rounds played to their result."}),
		moves:          prometheus.NewCounter(prometheus.CounterOpts{Name: "arena_moves_total", Help: "Inputs accepted by a match (answers, levers, anchors)."}),
		staleTimers:    prometheus.NewCounter(prometheus.CounterOpts{Name: "arena_stale_timers_total", Help: "Timer messages dropped because their generation was stale."}),
		restarts:       prometheus.NewCounter(prometheus.CounterOpts{Name: "arena_table_restarts_total", Help: "Table restarts after a panic."}),
		lateness: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "arena_timer_lateness_seconds",
			Help:    "How late a phase timer was handled after its deadline.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5}}),
		commit: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "arena_snapshot_commit_seconds",
			Help:    "Latency of one table step's bbolt commit (snapshot and events).",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1}}),
		status: map[string]string{},
	}
	if reg != nil {
		for _, c := range []prometheus.Collector{m.tables, m.roundsStarted, m.roundsFinished, m.moves,
			m.staleTimers, m.restarts, m.lateness, m.commit} {
			if err := reg.Register(c); err != nil {
				return nil, err
			}
		}
	}
	return m, nil
}

// setStatus moves table id, a table of game, to status in the gauge and tells the hooks
// (env.status).
func (m *metrics) setStatus(id, game, status string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	old := m.status[id]
	if old == status {
		return
	}
	if old != "" {
		m.tables.WithLabelValues(old).Dec()
	}
	m.status[id] = status
	if status == StatusFinished {
		delete(m.status, id) // terminal: no need to remember it (the map would grow forever)
	}
	m.tables.WithLabelValues(status).Inc()
	if m.onStatus != nil {
		m.onStatus(id, game, status)
	}
}

func (m *metrics) observeLateness(d time.Duration) {
	if d < 0 {
		d = 0
	}
	m.lateness.Observe(d.Seconds())
	if s := m.samples; s != nil {
		s.mu.Lock()
		s.lateness = append(s.lateness, d)
		s.latAt = append(s.latAt, time.Now())
		s.mu.Unlock()
	}
}

func (m *metrics) observeCommit(d time.Duration) {
	m.commit.Observe(d.Seconds())
	if s := m.samples; s != nil {
		s.add(&s.commit, d)
	}
}

// benchSamples keeps raw durations for percentiles (RunBench).
type benchSamples struct {
	mu       sync.Mutex
	lateness []time.Duration
	latAt    []time.Time // when each lateness sample was taken
	commit   []time.Duration
	finished int
	done     chan string // table ids as they finish (buffered; never blocks)
}

func (s *benchSamples) add(to *[]time.Duration, d time.Duration) {
	s.mu.Lock()
	*to = append(*to, d)
	s.mu.Unlock()
}
