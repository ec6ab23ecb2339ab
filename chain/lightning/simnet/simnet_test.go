package simnet

import (
	"context"
	"testing"
	"time"
)

// TestStartAndClose brings the network up and checks what Start promises: both nodes synced, one
// active channel each, and the push landed on bob's side.
func TestStartAndClose(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	n, err := Start(ctx, Options{Log: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	t.Logf("simnet up in %v", n.Started)
	for _, node := range []*Node{n.Alice, n.Bob} {
		info, err := node.Info(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !info.SyncedToChain || info.NumActiveChannels != 1 || info.BlockHeight != 406 {
			t.Errorf("%s: %+v, want synced, 1 active channel, height 406", node.Name, info)
		}
	}
	alice, bob, err := n.Settled(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Alice, the opener, also pays the commitment fee and the anchors out of her side.
	if bob != PushSat*1000 || alice >= (ChannelSat-PushSat)*1000 || alice < (ChannelSat-PushSat-10_000)*1000 {
		t.Errorf("at rest alice has %d msat, bob %d; want bob %d and alice a little under %d", alice, bob, PushSat*1000, (ChannelSat-PushSat)*1000)
	}
	if got, err := n.Bob.Balance(ctx); err != nil || got != bob {
		t.Errorf("bob's /v1/balance/channels: %d msat, %v; /v1/channels says %d", got, err, bob)
	}
}
