package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httputil"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"arena/actors"
	"arena/actors/cluster"
	"arena/config"
)

// joinCluster joins rt's actor system to the cluster of cfg.Cluster (--cluster); nil, nil when
// none is configured: the server then runs alone exactly as without the flag.
func joinCluster(cfg config.Config, rt *actors.Arena, log *slog.Logger) (*cluster.Member, error) {
	eps, err := cfg.Cluster.Endpoints() // validated by config
	if err != nil || len(eps) == 0 {
		return nil, err
	}
	return cluster.Join(rt.System(), cluster.Options{
		Etcd: eps, Name: cfg.Cluster.Name, Host: cfg.Cluster.Host, Port: cfg.Cluster.Port, Logger: log,
	})
}

// clusterView is the "cluster" member of /healthz and the answer of GET /ops/members.
type clusterView struct {
	Self    cluster.MemberInfo `json:"self"`
	Members []memberView       `json:"members"`
}

// memberView is one member in /healthz: who it is and its own figures, read from it over the
// cluster's remote when /healthz is asked (Figures nil and Unreachable when it did not answer
// within figuresWait: killed, or restarting).
type memberView struct {
	cluster.MemberInfo
	Figures     *memberFigures `json:"figures,omitempty"`
	Unreachable bool           `json:"unreachable,omitempty"`
}

// memberFigures are one member's figures from its metrics registry (its /metrics): its tables by
// status (arena_tables), the rounds it opened and finished, and the inputs its matches took.
type memberFigures struct {
	Tables         map[string]float64 `json:"tables"`
	RoundsStarted  float64            `json:"rounds_started"`
	RoundsFinished float64            `json:"rounds_finished"`
	Moves          float64            `json:"moves"`
}

// figuresWait bounds one member's answer of its figures to /healthz.
const figuresWait = 2 * time.Second

// figuresOf reads a member's figures from its registry g.
func figuresOf(g prometheus.Gatherer) memberFigures {
	f := memberFigures{Tables: map[string]float64{}}
	mfs, _ := g.Gather() // a partial gather still gives what it could read
	for _, mf := range mfs {
		for _, m := range mf.GetMetric() {
			switch mf.GetName() {
			case "arena_tables":
				for _, l := range m.GetLabel() {
					if l.GetName() == "status" {
						f.Tables[l.GetValue()] = m.GetGauge().GetValue()
					}
				}
			case "arena_rounds_started_total":
				f.RoundsStarted = m.GetCounter().GetValue()
			case "arena_rounds_finished_total":
				f.RoundsFinished = m.GetCounter().GetValue()
			case "arena_moves_total":
				f.Moves = m.GetCounter().GetValue()
			}
		}
	}
	return f
}

// clusterHealth is meta.Options.Cluster for m; nil when running alone (no "cluster" in /healthz).
// Each member's figures are its own: this member's from g, the others' asked of them at once
// (figuresPath), so /healthz shows every member's and never one member's as the cluster's.
func clusterHealth(m *cluster.Member, g prometheus.Gatherer) func() any {
	if m == nil {
		return nil
	}
	return func() any {
		ms := m.Members()
		v := clusterView{Self: m.Self(), Members: make([]memberView, len(ms))}
		var wg sync.WaitGroup
		for i, x := range ms {
			v.Members[i].MemberInfo = x
			if x.Address == m.Address() {
				f := figuresOf(g)
				v.Members[i].Figures = &f
				continue
			}
			wg.Go(func() {
				f, err := askFigures(m, x.Address)
				if err != nil {
					v.Members[i].Unreachable = true
					return
				}
				v.Members[i].Figures = f
			})
		}
		wg.Wait()
		return v
	}
}

// askFigures asks the member at address for its figures (figuresPath).
func askFigures(m *cluster.Member, address string) (*memberFigures, error) {
	req, err := http.NewRequest(http.MethodGet, figuresPath, nil)
	if err != nil {
		return nil, err
	}
	dump, err := httputil.DumpRequest(req, false)
	if err != nil {
		return nil, err
	}
	raw, err := m.Forward(address, dump, figuresWait)
	if err != nil {
		return nil, err
	}
	resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(raw)), req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var f memberFigures
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("figures: %d", resp.StatusCode)
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&f); err != nil {
		return nil, err
	}
	return &f, nil
}
