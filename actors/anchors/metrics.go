package anchors

import (
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
)

// gauges are the chain actor's figures as the last message left them, for Prometheus (read from
// any goroutine).
type gauges struct {
	pending, landed, resigned, rejected, failed, calls, duplicates atomic.Int64
	next                                                           atomic.Uint64
}

func (g *gauges) publish(a *chainActor) {
	g.pending.Store(int64(len(a.items)))
	g.landed.Store(int64(a.stats.Landed))
	g.resigned.Store(int64(a.stats.Resigned))
	g.rejected.Store(int64(a.stats.Rejected))
	g.failed.Store(int64(a.stats.Failed))
	g.calls.Store(int64(a.stats.Calls))
	g.duplicates.Store(int64(a.stats.Duplicates))
	g.next.Store(a.next)
}

// register adds the arena_chain_* collectors to r.
func (g *gauges) register(r prometheus.Registerer) error {
	gauge := func(name, help string, f func() float64) prometheus.Collector {
		return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, f)
	}
	counter := func(name, help string, f func() float64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help}, f)
	}
	for _, c := range []prometheus.Collector{
		gauge("arena_chain_pending", "Chain submissions not yet finalized (anchors and escrow calls).", func() float64 { return float64(g.pending.Load()) }),
		gauge("arena_chain_next_nonce", "The next nonce the chain actor will assign.", func() float64 { return float64(g.next.Load()) }),
		counter("arena_chain_landed_total", "Submissions finalized since start.", func() float64 { return float64(g.landed.Load()) }),
		counter("arena_chain_resigned_total", "Submissions re-signed since start (nonce taken, expired, failed in a block).", func() float64 { return float64(g.resigned.Load()) }),
		counter("arena_chain_rejected_total", "SendBlockItem refusals (INVALID_ARGUMENT) since start.", func() float64 { return float64(g.rejected.Load()) }),
		counter("arena_chain_failed_total", "Submissions finalized as failed since start.", func() float64 { return float64(g.failed.Load()) }),
		counter("arena_chain_send_calls_total", "SendBlockItem calls since start.", func() float64 { return float64(g.calls.Load()) }),
		counter("arena_chain_duplicates_total", "SendBlockItem ALREADY_EXISTS answers since start (success).", func() float64 { return float64(g.duplicates.Load()) }),
	} {
		if err := r.Register(c); err != nil {
			return err
		}
	}
	return nil
}
