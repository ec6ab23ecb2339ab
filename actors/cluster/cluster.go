// Package cluster joins the arena's actor system to a protoactor cluster whose membership is kept
// in etcd (protoactor's etcd provider, rendezvous identity lookup), and reports who is in it: the
// members' ids and remote addresses and this member's own, for /healthz and `arena ops members`.
// It also records in etcd which member owns what (Claim, Owner) and carries a request's bytes to
// the owner and its answer back (Forward, Serve). Without a cluster the server runs alone and
// this package is not used.
package cluster

import (
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	pcluster "github.com/asynkron/protoactor-go/cluster"
	"github.com/asynkron/protoactor-go/cluster/clusterproviders/etcd"
	"github.com/asynkron/protoactor-go/cluster/identitylookup/disthash"
	"github.com/asynkron/protoactor-go/remote"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// Options say which cluster to join and how this member is reached.
type Options struct {
	// Etcd lists the etcd client endpoints, HOST:PORT each (config.ParseCluster's result).
	Etcd []string
	// Name is the cluster's name: members of one name see each other (etcd key
	// /arena/<name>/<member id>).
	Name string
	// Host and Port are where this member's remote (gRPC) listens and what it advertises to the
	// others; Port 0 picks a free port, advertised as bound.
	Host string
	Port int
	// Kinds are the virtual-actor kinds this member hosts.
	Kinds []*pcluster.Kind
	// Logger receives the join and every membership change.
	Logger *slog.Logger
}

// MemberInfo is one member as /healthz and `arena ops members` show it.
type MemberInfo struct {
	ID      string `json:"id"`      // the member's actor-system id, unique per process start
	Address string `json:"address"` // its remote address, HOST:PORT
}

// Member is this process as a member of the cluster.
type Member struct {
	c    *pcluster.Cluster
	self MemberInfo

	kv     *clientv3.Client // the owners' records (Claim, Owner)
	prefix string           // "/arena-owners/<name>/": this cluster's records, outside the provider's /arena/<name>/

	mu      sync.Mutex
	members []MemberInfo      // sorted by ID; the last topology the cluster published
	owners  map[string]string // key → owner address, as claimed or read (never changes)
	changed chan struct{}
}

// ErrJoin wraps every failure to join (etcd unreachable, port taken).
var ErrJoin = errors.New("cluster: cannot join")

// Join starts sys's remote on o.Host:o.Port and joins it to the cluster named o.Name through
// etcd at o.Etcd; it returns once this member is registered (protoactor waits 1 s after
// registering). An unreachable etcd fails within about 5 s with ErrJoin.
func Join(sys *actor.ActorSystem, o Options) (m *Member, err error) {
	if len(o.Etcd) == 0 || o.Name == "" {
		return nil, fmt.Errorf("%w: no etcd endpoint or cluster name", ErrJoin)
	}
	ecfg := clientv3.Config{Endpoints: o.Etcd, DialTimeout: 5 * time.Second}
	prov, err := etcd.NewWithConfig("/arena", ecfg)
	if err != nil {
		return nil, fmt.Errorf("%w: etcd client: %v", ErrJoin, err)
	}
	kv, err := clientv3.New(ecfg)
	if err != nil {
		return nil, fmt.Errorf("%w: etcd client: %v", ErrJoin, err)
	}
	lookup := disthash.New()
	rc := remote.Configure(o.Host, o.Port)
	opts := []pcluster.ConfigOption{}
	if len(o.Kinds) > 0 {
		opts = append(opts, pcluster.WithKinds(o.Kinds...))
	}
	cfg := pcluster.Configure(o.Name, prov, lookup, rc, opts...)
	c := pcluster.New(sys, cfg)
	m = &Member{c: c, kv: kv, prefix: "/arena-owners/" + o.Name + "/", owners: map[string]string{}, changed: make(chan struct{})}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	sys.EventStream.Subscribe(func(ev any) {
		t, ok := ev.(*pcluster.ClusterTopology)
		if !ok {
			return
		}
		ms := make([]MemberInfo, 0, len(t.Members))
		for _, x := range t.Members {
			ms = append(ms, MemberInfo{ID: x.Id, Address: x.Address()})
		}
		sort.Slice(ms, func(i, j int) bool { return ms[i].ID < ms[j].ID })
		m.mu.Lock()
		m.members = ms
		close(m.changed)
		m.changed = make(chan struct{})
		m.mu.Unlock()
		log.Info("cluster membership", "members", len(ms), "joined", len(t.Joined), "left", len(t.Left))
	})
	// StartMember panics when the provider cannot register (etcd unreachable): turn that into
	// an error for serve.
	defer func() {
		if r := recover(); r != nil {
			kv.Close()
			m, err = nil, fmt.Errorf("%w: %v", ErrJoin, r)
		}
	}()
	c.StartMember()
	m.self = MemberInfo{ID: sys.ID, Address: sys.Address()}
	log.Info("joined cluster", "cluster", o.Name, "id", m.self.ID, "address", m.self.Address, "etcd", o.Etcd)
	return m, nil
}

// Self is this member; its ID is the one the provider registered (as it appears in Members)
// once the membership lists this member's address.
func (m *Member) Self() MemberInfo {
	for _, x := range m.Members() {
		if x.Address == m.self.Address {
			return x
		}
	}
	return m.self
}

// Members is the membership as last published by the cluster, sorted by id; it includes this
// member once the provider has seen its own registration.
func (m *Member) Members() []MemberInfo {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]MemberInfo(nil), m.members...)
}

// Has reports whether the member with this id is in the current membership.
func (m *Member) Has(id string) bool {
	for _, x := range m.Members() {
		if x.ID == id {
			return true
		}
	}
	return false
}

// Cluster is the protoactor cluster, for requests to virtual actors.
func (m *Member) Cluster() *pcluster.Cluster { return m.c }

// Leave deregisters this member from etcd and stops the remote (graceful: the others see it
// leave at once instead of after the 3 s lease). It takes about 2 s (protoactor waits for
// ownership hand-over).
func (m *Member) Leave() {
	m.c.Shutdown(true)
	m.kv.Close()
}
