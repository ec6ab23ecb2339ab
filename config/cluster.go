package config

import (
	"fmt"
	"net"
	"strconv"
	"strings"
)

// Cluster is the optional protoactor cluster this instance joins (membership kept in etcd).
// With Etcd empty the server runs alone, exactly as without the section.
type Cluster struct {
	// Etcd is "etcd://HOST:PORT[,HOST:PORT...]": the etcd client endpoints (--cluster,
	// ARENA_CLUSTER); "" runs alone.
	Etcd string `json:"etcd"`
	// Name is the cluster's name; members see only members of the same name (default "arena").
	Name string `json:"name"`
	// Host is the address this member's remote listens on and advertises to the others
	// (default 127.0.0.1: loopback only; set it to a private interface's address).
	Host string `json:"host"`
	// Port is the member's remote (gRPC) port; 0 (default) picks a free one.
	Port int `json:"port"`
}

// Endpoints is Etcd parsed: its HOST:PORT endpoints, in order; nil when Etcd is "".
func (c Cluster) Endpoints() ([]string, error) {
	if c.Etcd == "" {
		return nil, nil
	}
	rest, ok := strings.CutPrefix(c.Etcd, "etcd://")
	if !ok {
		return nil, fmt.Errorf("want etcd://HOST:PORT[,HOST:PORT...], got %q", c.Etcd)
	}
	var eps []string
	for _, ep := range strings.Split(rest, ",") {
		host, port, err := net.SplitHostPort(ep)
		if err != nil || host == "" || strings.ContainsAny(host, " /?#@") {
			return nil, fmt.Errorf("endpoint %q is not HOST:PORT", ep)
		}
		if p, err := strconv.Atoi(port); err != nil || p < 1 || p > 65535 {
			return nil, fmt.Errorf("endpoint %q: port is not 1..65535", ep)
		}
		eps = append(eps, ep)
	}
	return eps, nil
}

// validate adds the section's errors through bad.
func (c Cluster) validate(bad func(field, format string, args ...any)) {
	if _, err := c.Endpoints(); err != nil {
		bad("cluster.etcd (--cluster, ARENA_CLUSTER)", "%v", err)
	}
	if c.Etcd == "" {
		return
	}
	if strings.TrimSpace(c.Name) == "" || strings.ContainsAny(c.Name, "/ ") {
		bad("cluster.name (--cluster-name, ARENA_CLUSTER_NAME)", "want a name without / or spaces, got %q", c.Name)
	}
	if c.Host == "" || strings.ContainsAny(c.Host, " /") {
		bad("cluster.host (--cluster-host, ARENA_CLUSTER_HOST)", "want a host name or IP, got %q", c.Host)
	}
	if c.Port < 0 || c.Port > 65535 {
		bad("cluster.port (--cluster-port, ARENA_CLUSTER_PORT)", "port %d is not 0..65535", c.Port)
	}
}
