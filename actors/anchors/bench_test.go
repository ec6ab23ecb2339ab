package anchors

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"arena/actors"
	"arena/chain/ccd"
	"arena/chain/devchain"
	"arena/storage"
	"arena/storage/storagetest"
)

// BenchmarkChainAnchors measures anchors per second through the chain actor, from the tables'
// requests to every anchor finalized on the node: signing, the bbolt queue (fsync on), the
// answer, submission and finality watching. The node is the fake (200 µs per call, about a
// loopback gRPC round trip) or the devchain over a real socket. "batched" is BatchSize 32,
// "one-at-a-time" BatchSize 1 (one anchor per bbolt commit and per submission).
//
//	go test -run XXX -bench ChainAnchors -benchtime 2000x ./actors/anchors
func BenchmarkChainAnchors(b *testing.B) {
	for _, node := range []string{"fake", "devchain"} {
		for _, batch := range []int{32, 1} {
			name := "batched"
			if batch == 1 {
				name = "one-at-a-time"
			}
			b.Run(node+"/"+name, func(b *testing.B) { benchAnchors(b, node, batch) })
		}
	}
}

func benchAnchors(b *testing.B, nodeKind string, batch int) {
	key := testKey(b)
	var node Node
	var landed func() int
	switch nodeKind {
	case "fake":
		f := newFakeNode(key.PublicKey())
		f.latency = 200 * time.Microsecond
		node = f
		landed = func() int { d, _ := f.landed(); return d }
	case "devchain":
		seed, _ := key.Seed()
		dev, err := devchain.Start(context.Background(), devchain.Options{NoSync: true, Dir: b.TempDir(),
			BlockTime: 5 * time.Millisecond, FinalizeAfter: -1,
			Genesis: &devchain.Genesis{Accounts: []devchain.GenesisAccount{{Name: devchain.AccountArena, Seed: seed, Balance: devchain.DefaultBalance}}}})
		if err != nil {
			b.Fatal(err)
		}
		defer dev.Stop()
		c, err := ccd.Dial(context.Background(), dev.Addr(), false)
		if err != nil {
			b.Fatal(err)
		}
		defer c.Close()
		node = c
		landed = nil
	}
	db := storagetest.Open(b, storage.Options{})
	sys := newQuietSystem()
	answers := make(chan *actors.Anchored, b.N)
	table, _ := sys.Root.SpawnNamed(actor.PropsFromFunc(func(ctx actor.Context) {
		if m, ok := ctx.Message().(*actors.Anchored); ok {
			answers <- m
		}
	}), "table")
	o := Options{BatchSize: batch, PollEvery: 5 * time.Millisecond, RetryMin: 5 * time.Millisecond, RetryMax: 50 * time.Millisecond}
	ch, err := New(db, key, node, o)
	if err != nil {
		b.Fatal(err)
	}
	if err := ch.Start(context.Background(), sys); err != nil {
		b.Fatal(err)
	}
	defer ch.Stop()
	b.ResetTimer()
	t0 := time.Now()
	for i := 0; i < b.N; i++ {
		ch.Anchor(actors.AnchorJob{Table: "t", Round: "T-1", Request: job(1, "exchange", uint32(i+1), fmt.Sprint(b.N)), ReplyTo: table})
	}
	for i := 0; i < b.N; i++ {
		<-answers
	}
	answered := time.Since(t0)
	for {
		s, err := ch.Stats(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		if s.Pending == 0 && s.Unwritten == 0 && (landed == nil || landed() >= b.N) {
			break
		}
		time.Sleep(time.Millisecond) // a benchmark of wall time: landed/s is read to the millisecond
	}
	all := time.Since(t0)
	b.StopTimer()
	b.ReportMetric(float64(b.N)/answered.Seconds(), "answered/s")
	b.ReportMetric(float64(b.N)/all.Seconds(), "landed/s")
}

// BenchmarkAnswerNoSync is the chain actor's own cost per anchor, from the request to the
// table's answer, with bbolt's fsync off so that the disk does not dominate: parse, encode, sign,
// queue, commit, answer. One request at a time (the latency a table sees), node never reached.
//
//	go test -run XXX -bench AnswerNoSync ./actors/anchors
func BenchmarkAnswerNoSync(b *testing.B) {
	key := testKey(b)
	f := newFakeNode(key.PublicKey())
	f.down = true
	db := storagetest.Open(b, storage.Options{NoSync: true})
	sys := newQuietSystem()
	answers := make(chan *actors.Anchored, 1)
	table, _ := sys.Root.SpawnNamed(actor.PropsFromFunc(func(ctx actor.Context) {
		if m, ok := ctx.Message().(*actors.Anchored); ok {
			answers <- m
		}
	}), "table")
	ch, err := New(db, key, f, Options{RetryMin: time.Hour, RetryMax: time.Hour})
	if err != nil {
		b.Fatal(err)
	}
	if err := ch.Start(context.Background(), sys); err != nil {
		b.Fatal(err)
	}
	defer ch.Stop()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ch.Anchor(actors.AnchorJob{Table: "t", Round: "T-1", Request: job(1, "exchange", uint32(i+1), "nosync"), ReplyTo: table})
		<-answers
	}
}
