package main

import (
	"bytes"
	"log/slog"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"arena/actors"
	mkt "arena/actors/market"
	"arena/storage"
	"arena/storage/storagetest"
	"arena/transport/httpapi"
	tmarket "arena/transport/market"
)

// TestMarketloadTradesAndRetriesByteForByte: the market load tool at a tiny scale: 8 Players
// trade for a second on a real bbolt file; mutations were accepted and written in groups, one
// Delta per accepted mutation (a refusal writes none, and no deadline passes in the run),
// nothing was unavailable, every query was answered ok, and a new actor on the same file
// answered every accepted mutation's retry with its first response byte for byte.
func TestMarketloadTradesAndRetriesByteForByte(t *testing.T) {
	r, err := marketLoad(t.Context(), marketLoadOptions{Players: 8, Duration: time.Second, NoSync: true, Seed: 3, Verify: true})
	if err != nil {
		t.Fatalf("%v\n%v", err, r)
	}
	switch {
	case r.Accepted == 0 || r.AcceptedBy["transfer"] == 0 || r.AcceptedBy["proposeExchange"] == 0 || r.Queries == 0:
		t.Errorf("accepted %d %v, queries %d", r.Accepted, r.AcceptedBy, r.Queries)
	case r.Commits == 0 || r.Deltas != r.Accepted || r.GroupMax < 1 || r.CommitP50 > r.CommitP99:
		t.Errorf("writes %d carrying %d deltas for %d accepted mutations (max group %d)", r.Commits, r.Deltas, r.Accepted, r.GroupMax)
	case r.Retried != int(r.Accepted) || r.Mismatched != 0 || r.RetryFailed != 0 || r.Unavailable != 0:
		t.Errorf("retried %d of %d accepted, mismatched %d, failed %d, unavailable %d", r.Retried, r.Accepted, r.Mismatched, r.RetryFailed, r.Unavailable)
	case r.MutP50 <= 0 || r.MutP50 > r.MutP99 || r.MutP99 > r.MutMax:
		t.Errorf("mutation latency p50 %v p99 %v max %v", r.MutP50, r.MutP99, r.MutMax)
	}
	if t.Failed() {
		t.Logf("%v", r)
	}
}

// TestMarketloadRefusesBadFlags: out-of-range flags are usage errors (exit 2) naming the flag.
func TestMarketloadRefusesBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--players", "1"}, "--players 1"},
		{[]string{"--duration", "0s"}, "--duration"},
		{[]string{"extra"}, `unexpected argument "extra"`},
	} {
		var out, errb bytes.Buffer
		if code := marketloadMain(t.Context(), tc.args, &out, &errb); code != 2 || !strings.Contains(errb.String(), tc.want) || out.Len() != 0 {
			t.Errorf("%q: exit %d, stderr %q", tc.args, code, errb.String())
		}
	}
}

// TestMarketloadOverHTTP: with --url the Players send POST /v2/request to a market site (its
// doors over a real store and actor, the Owner in the trusted gateway header from loopback),
// and every accepted mutation's retry through the same door is its first answer.
func TestMarketloadOverHTTP(t *testing.T) {
	sys := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return slog.New(slog.DiscardHandler) }))
	t.Cleanup(sys.Shutdown)
	store := storagetest.Open(t, storage.Options{NoSync: true})
	m, err := mkt.Start(sys, store, actors.RealClock(), marketLoadConfig(), [32]byte{1}, mkt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	seam, err := tmarket.NewSeam(m, 0)
	if err != nil {
		t.Fatal(err)
	}
	auth, err := tmarket.NewAuthenticator(store, tmarket.Gateway{Header: "X-Owner-Id", From: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}})
	if err != nil {
		t.Fatal(err)
	}
	e, err := httpapi.Build(tmarket.Site{Doors: &tmarket.Doors{Seam: seam, Auth: auth, Card: tmarket.Card("http://market.test/a2a")}}, httpapi.Global{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	r, err := marketLoad(t.Context(), marketLoadOptions{Players: 6, Duration: time.Second, Seed: 5, Verify: true,
		URL: srv.URL, Host: "market.localhost", OwnerHeader: "X-Owner-Id"})
	if err != nil {
		t.Fatalf("%v\n%v", err, r)
	}
	if r.Accepted == 0 || r.Queries == 0 || r.Retried != int(r.Accepted) || r.Mismatched != 0 || r.Commits != 0 {
		t.Errorf("accepted %d, queries %d, retried %d of %d, mismatched %d, commits seen %d", r.Accepted, r.Queries, r.Retried, r.Accepted, r.Mismatched, r.Commits)
	}
}
