package cluster

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	clientv3 "go.etcd.io/etcd/client/v3"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// doorName is the name of the actor every member spawns to take requests forwarded to it: a
// remote PID {member address, doorName} reaches it from any member.
const doorName = "arena-door"

// ErrOwnerDown is returned by Forward when the owner is not in the membership, or did not answer
// (dead but not yet dropped: its lease has not run out).
var ErrOwnerDown = errors.New("cluster: the owning member is down")

// Serve makes this member answer the requests other members Forward to it: each request's bytes
// go to h on a goroutine of their own (h may block, as a long poll does) and h's bytes go back.
// Call it once, before the doors open. The messages are protobuf (BytesValue): protoactor's
// remote serialises nothing else.
func (m *Member) Serve(h func(req []byte) []byte) error {
	sys := m.c.ActorSystem
	root := sys.Root
	props := actor.PropsFromFunc(func(ctx actor.Context) {
		req, ok := ctx.Message().(*wrapperspb.BytesValue)
		if !ok || ctx.Sender() == nil {
			return
		}
		to, in := ctx.Sender(), req.GetValue()
		go func() { root.Send(to, wrapperspb.Bytes(h(in))) }()
	})
	if _, err := root.SpawnNamed(props, doorName); err != nil {
		return fmt.Errorf("cluster: door actor: %w", err)
	}
	return nil
}

// Forward sends req to the member at address (HOST:PORT, as Members lists it) and returns what
// its Serve handler answered, waiting at most wait. ErrOwnerDown when that member is not in the
// membership, leaves it while the request is out, or does not answer in time.
func (m *Member) Forward(address string, req []byte, wait time.Duration) ([]byte, error) {
	if !m.Live(address) {
		return nil, ErrOwnerDown
	}
	type answer struct {
		res any
		err error
	}
	got := make(chan answer, 1)
	f := m.c.ActorSystem.Root.RequestFuture(actor.NewPID(address, doorName), wrapperspb.Bytes(req), wait)
	go func() { // ends when the future does, within wait
		res, err := f.Result()
		got <- answer{res, err}
	}()
	// A member killed mid-request answers nothing: give up as soon as the membership drops it
	// instead of waiting out the future.
	var res any
await:
	for {
		m.mu.Lock()
		changed := m.changed
		m.mu.Unlock()
		if !m.Live(address) {
			return nil, ErrOwnerDown
		}
		select {
		case a := <-got:
			if a.err != nil {
				return nil, fmt.Errorf("%w: %v", ErrOwnerDown, a.err)
			}
			res = a.res
			break await
		case <-changed:
		}
	}
	b, ok := res.(*wrapperspb.BytesValue)
	if !ok {
		return nil, fmt.Errorf("%w: unexpected reply %T", ErrOwnerDown, res)
	}
	return b.GetValue(), nil
}

// Live reports whether a member at address (HOST:PORT) is in the current membership.
func (m *Member) Live(address string) bool {
	for _, x := range m.Members() {
		if x.Address == address {
			return true
		}
	}
	return false
}

// Address is this member's remote address (HOST:PORT): what Claim records and Owner returns
// for what this member owns.
func (m *Member) Address() string { return m.self.Address }

// ownerKey is the etcd key recording who owns key: its SHA-256, so a secret (a walk-in token)
// is never stored in etcd.
func (m *Member) ownerKey(key string) string {
	sum := sha256.Sum256([]byte(key))
	return m.prefix + hex.EncodeToString(sum[:])
}

// Claim records in etcd that this member owns key (a walk-in token: its tables live here),
// durably (no lease: the record outlives this process, so a restarted member at the same
// address owns it again). It must succeed before the key is handed out.
func (m *Member) Claim(ctx context.Context, key string) error {
	if _, err := m.kv.Put(ctx, m.ownerKey(key), m.self.Address); err != nil {
		return fmt.Errorf("cluster: claim: %w", err)
	}
	m.Learn(key, m.self.Address)
	return nil
}

// Owner is the address of the member that claimed key, "" when none did (the key is unknown
// to the cluster: this member answers it as it would alone). An owner once read is kept in
// memory: a claim never changes.
func (m *Member) Owner(ctx context.Context, key string) (string, error) {
	m.mu.Lock()
	a, ok := m.owners[key]
	m.mu.Unlock()
	if ok {
		return a, nil
	}
	r, err := m.kv.Get(ctx, m.ownerKey(key))
	if err != nil {
		return "", fmt.Errorf("cluster: owner: %w", err)
	}
	if len(r.Kvs) == 0 {
		return "", nil
	}
	a = string(r.Kvs[0].Value)
	m.mu.Lock()
	m.owners[key] = a
	m.mu.Unlock()
	return a, nil
}

// ErrMoved is returned by Move when key's record does not name this member (another member
// owns it, or none does): nothing was written.
var ErrMoved = errors.New("cluster: this member does not own the key")

// Move records in etcd that the member at to (HOST:PORT) owns key from now on, in one
// compare-and-swap against this member's own claim (ErrMoved when the record names another
// member or none). Like Claim it must succeed before anything depending on it is answered.
func (m *Member) Move(ctx context.Context, key, to string) error {
	k := m.ownerKey(key)
	r, err := m.kv.Txn(ctx).
		If(clientv3.Compare(clientv3.Value(k), "=", m.self.Address)).
		Then(clientv3.OpPut(k, to)).
		Commit()
	if err != nil {
		return fmt.Errorf("cluster: move: %w", err)
	}
	if !r.Succeeded {
		m.Forget(key) // read it again
		return ErrMoved
	}
	m.Learn(key, to)
	return nil
}

// Learn notes that the member at address owns key, as Move or the owner itself said (an answer
// forwarded from the member that holds it), so the next request goes straight there.
func (m *Member) Learn(key, address string) {
	m.mu.Lock()
	m.owners[key] = address
	m.mu.Unlock()
}

// Forget drops what this member knows of key's owner: the next Owner reads etcd's record.
func (m *Member) Forget(key string) {
	m.mu.Lock()
	delete(m.owners, key)
	m.mu.Unlock()
}

// Placed is the address of the member that hosts the cluster's one instance of identity (a
// queue): the live member whose SHA-256 of identity and address is the largest (rendezvous
// hashing, the scheme of protoactor's disthash identity lookup), "" with no member listed. While
// the members' views of the membership differ (a member joining or dropping), two members may
// place it differently for that moment.
func (m *Member) Placed(identity string) string {
	var best string
	var bestSum [sha256.Size]byte
	for _, x := range m.Members() {
		sum := sha256.Sum256([]byte(identity + "\x00" + x.Address))
		if best == "" || bytes.Compare(sum[:], bestSum[:]) > 0 {
			best, bestSum = x.Address, sum
		}
	}
	return best
}
