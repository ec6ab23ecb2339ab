package config

import (
	"io"
	"slices"
	"strings"
	"testing"
)

// --cluster etcd://HOST:PORT[,…] loads into its endpoints with the section's defaults (name
// arena, host 127.0.0.1, port 0); without it there is no endpoint (the server runs alone).
func TestClusterFromFlags(t *testing.T) {
	c, err := Load("serve", nil, env(nil), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if eps, err := c.Cluster.Endpoints(); err != nil || eps != nil {
		t.Fatalf("no --cluster: endpoints %v, %v; want none", eps, err)
	}
	c, err = Load("serve", []string{"--cluster", "etcd://127.0.0.1:2379,etcd-2.internal:2379", "--cluster-port", "7000"}, env(nil), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	eps, err := c.Cluster.Endpoints()
	if err != nil || !slices.Equal(eps, []string{"127.0.0.1:2379", "etcd-2.internal:2379"}) {
		t.Fatalf("endpoints %v, %v", eps, err)
	}
	if c.Cluster.Name != "arena" || c.Cluster.Host != "127.0.0.1" || c.Cluster.Port != 7000 {
		t.Fatalf("cluster section %+v", c.Cluster)
	}
}

// A bad --cluster, name, host or port is refused naming its setting.
func TestClusterRefused(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--cluster", "http://127.0.0.1:2379"}, "want etcd://"},
		{[]string{"--cluster", "etcd://127.0.0.1"}, "not HOST:PORT"},
		{[]string{"--cluster", "etcd://127.0.0.1:0"}, "1..65535"},
		{[]string{"--cluster", "etcd://127.0.0.1:2379,"}, "not HOST:PORT"},
		{[]string{"--cluster", "etcd://a:1", "--cluster-name", "a/b"}, "cluster.name"},
		{[]string{"--cluster", "etcd://a:1", "--cluster-host", ""}, "cluster.host"},
		{[]string{"--cluster", "etcd://a:1", "--cluster-port", "70000"}, "cluster.port"},
		{[]string{"--cluster-port", "x"}, "port number"},
	} {
		_, err := Load("serve", tt.args, env(nil), io.Discard)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: err = %v, want one containing %q", tt.args, err, tt.want)
		}
	}
}

// Endpoints never panics, and every endpoint it accepts is HOST:PORT with a port in range.
func FuzzClusterEndpoints(f *testing.F) {
	for _, s := range []string{"", "etcd://127.0.0.1:2379", "etcd://a:1,b:2", "etcd://[::1]:2379", "etcd://:1", "etcd://a:99999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		eps, err := Cluster{Etcd: s}.Endpoints()
		if err != nil {
			if eps != nil {
				t.Fatalf("%q: error %v with endpoints %v", s, err, eps)
			}
			return
		}
		if s != "" && len(eps) == 0 {
			t.Fatalf("%q accepted with no endpoint", s)
		}
		for _, ep := range eps {
			if !strings.Contains(ep, ":") {
				t.Fatalf("%q: endpoint %q has no port", s, ep)
			}
		}
	})
}
