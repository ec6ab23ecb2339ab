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
	bob, err := n.Bob.Balance(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if bob != PushSat*1000 {
		t.Errorf("bob's channel balance %d msat, want %d", bob, PushSat*1000)
	}
}
