package devchain

import (
	"context"
	"testing"
	"time"
)

// BenchmarkSendBlockItem measures accepted Register Data submissions per second over the
// loopback socket through the SDK client, with bbolt's fsync and without (Options.NoSync).
func BenchmarkSendBlockItem(b *testing.B) {
	for _, noSync := range []bool{false, true} {
		name := "fsync"
		if noSync {
			name = "nosync"
		}
		b.Run(name, func(b *testing.B) {
			alice := newTestAccount("alice", 2)
			_, c := testNode(b, Options{NoSync: noSync, BlockTime: 50 * time.Millisecond, Genesis: &Genesis{Accounts: []GenesisAccount{alice.genesis(DefaultBalance)}}})
			ctx := context.Background()
			p := regData(make([]byte, 50))
			energy := baseEnergy(1, len(p)) + energyRegisterData
			expiry := uint64(time.Now().Add(time.Hour).Unix())
			nonce := uint64(1)
			b.ReportAllocs()
			for b.Loop() {
				bi := buildTx(alice.seed, alice.addr, nonce, energy, expiry, p)
				if _, err := c.GrpcClient.SendBlockItem(ctx, rawRequest(b, bi)); err != nil {
					b.Fatal(err)
				}
				nonce++
			}
		})
	}
}

// BenchmarkAgentOf measures one agentOf InvokeInstance round trip over the socket.
func BenchmarkAgentOf(b *testing.B) {
	n, c := testNode(b, Options{})
	house, _ := n.Account(AccountHouse)
	a, err := n.RegisterAgent(Agent{Owner: house.Address, AgentURI: "https://a.example/card.json", MetadataHash: make([]byte, 32)})
	if err != nil {
		b.Fatal(err)
	}
	req := agentOfRequest(a.TokenID)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := c.GrpcClient.InvokeInstance(ctx, req)
		if err != nil || res.GetSuccess() == nil {
			b.Fatal(res, err)
		}
	}
}
