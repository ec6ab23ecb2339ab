package devchain

import (
	"context"
	"math/rand/v2"
	"path"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Faults are injected into the node's gRPC calls, for tests of the client side.
type Faults struct {
	// Latency delays every call before it is served.
	Latency time.Duration
	// MethodLatency delays calls of one method, by its short name ("SendBlockItem"), on top
	// of Latency.
	MethodLatency map[string]time.Duration
	// UnavailableRate is the fraction (0..1) of calls answered codes.Unavailable before they
	// are served (nothing happens on the chain).
	UnavailableRate float64
	// DropRate is the fraction (0..1) of valid SendBlockItem submissions that are answered
	// with their hash and then forgotten: never committed, NOT_FOUND to GetBlockItemStatus,
	// the sequence number not used. A later identical submission is accepted afresh.
	DropRate float64
	// Seed seeds the draws of UnavailableRate and DropRate, so a test is repeatable.
	Seed uint64
	// RefuseCalls makes update-contract transactions to these receive names ("escrow.refund")
	// fail in their block with the reject code given, as the contract refusing them for a reason
	// of its own would: the fee is charged, nothing else changes.
	RefuseCalls map[string]int32
}

// refusal is the reject code RefuseCalls sets for receive, if any.
func (s *faultState) refusal(receive string) (int32, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	code, ok := s.f.RefuseCalls[receive]
	return code, ok
}

// faultState holds the current Faults and the random source behind the rates.
type faultState struct {
	mu  sync.Mutex // guards f and rng
	f   Faults
	rng *rand.Rand
	// counters for tests and logs
	unavailable, dropped uint64
}

func newFaultState(f Faults) *faultState {
	s := &faultState{}
	s.set(f)
	return s
}

func (s *faultState) set(f Faults) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := make(map[string]time.Duration, len(f.MethodLatency))
	for k, v := range f.MethodLatency {
		m[k] = v
	}
	f.MethodLatency = m
	r := make(map[string]int32, len(f.RefuseCalls))
	for k, v := range f.RefuseCalls {
		r[k] = v
	}
	f.RefuseCalls = r
	s.f = f
	s.rng = rand.New(rand.NewPCG(f.Seed, f.Seed^0x9e3779b97f4a7c15))
}

// draw reports whether an event of probability p happens.
func (s *faultState) draw(p float64) bool {
	if p <= 0 {
		return false
	}
	return p >= 1 || s.rng.Float64() < p
}

// before returns the delay and whether to answer Unavailable for a call of method.
func (s *faultState) before(method string) (time.Duration, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.f.Latency + s.f.MethodLatency[method]
	unavailable := s.draw(s.f.UnavailableRate)
	if unavailable {
		s.unavailable++
	}
	return d, unavailable
}

// drop reports whether to drop this submission if it passes the door.
func (s *faultState) drop() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.draw(s.f.DropRate)
}

// countDrop records a submission that passed the door and was dropped.
func (s *faultState) countDrop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dropped++
}

// intercept applies latency and the Unavailable rate to every unary call, and turns a panic
// in a handler (a bug) into an Internal answer: the devchain runs inside arena serve, which
// must not die of it.
func (s *faultState) intercept(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (resp any, err error) {
	defer func() {
		if r := recover(); r != nil {
			resp, err = nil, status.Errorf(codes.Internal, "devchain: %s panicked: %v", info.FullMethod, r)
		}
	}()
	d, unavailable := s.before(path.Base(info.FullMethod))
	if d > 0 {
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, status.FromContextError(ctx.Err()).Err()
		case <-t.C:
		}
	}
	if unavailable {
		return nil, status.Error(codes.Unavailable, "devchain: injected fault: unavailable")
	}
	return handler(ctx, req)
}

// FaultCounts reports how many calls were answered Unavailable and how many submissions were
// dropped by injected faults since the node started.
func (n *Node) FaultCounts() (unavailable, dropped uint64) {
	n.faults.mu.Lock()
	defer n.faults.mu.Unlock()
	return n.faults.unavailable, n.faults.dropped
}
