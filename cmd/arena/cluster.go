package main

import (
	"log/slog"

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
	Self    cluster.MemberInfo   `json:"self"`
	Members []cluster.MemberInfo `json:"members"`
}

// clusterHealth is meta.Options.Cluster for m; nil when running alone (no "cluster" in /healthz).
func clusterHealth(m *cluster.Member) func() any {
	if m == nil {
		return nil
	}
	return func() any { return clusterView{Self: m.Self(), Members: m.Members()} }
}
