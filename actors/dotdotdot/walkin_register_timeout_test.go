package dotdotdot

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"arena/games"
)

// TestRegisterGivenUpLeavesTheNameFree: a registration whose caller stops waiting (the desk
// was slow: the store's writer stalled) is answered busy with retry true, and the retry with
// the same name succeeds: the record written after the caller left, whose token nobody ever
// received, is taken back rather than leaving the name taken for good.
func TestRegisterGivenUpLeavesTheNameFree(t *testing.T) {
	e := newDeskEnv(t, "", nil)
	if _, err := e.a.RegisterWalkin(deskCtx(t), "Warm Up", ""); err != nil { // the desk is running
		t.Fatal(err)
	}

	// Stall the store's one writer: the desk's register blocks on its write.
	release, stalled := make(chan struct{}), make(chan struct{}, 1)
	writerDone := make(chan error, 1)
	go func() {
		_, err := e.db.CreateTable("stall-writer", "stall", func(uint64) ([]byte, string, error) {
			select {
			case stalled <- struct{}{}:
			default:
			}
			<-release
			return nil, "", errors.New("stall: abort")
		})
		writerDone <- err
	}()
	<-stalled

	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	_, err := e.a.RegisterWalkin(ctx, "Slow Sam", "")
	cancel()
	var ge *games.Error
	if err == nil || !(errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ge) && ge.Code == CodeBusy && ge.Retry) {
		t.Fatalf("register while the store stalls: %v, want busy (retry) or the deadline", err)
	}
	close(release)
	if err := <-writerDone; err == nil {
		t.Fatal("the stalling write was not aborted")
	}

	tok, err := e.a.RegisterWalkin(deskCtx(t), "Slow Sam", "")
	if err != nil {
		t.Fatalf("register again after busy: %v, want the name free", err)
	}
	me, err := e.a.WalkinRecord(deskCtx(t), tok)
	if err != nil {
		t.Fatal(err)
	}
	var rec struct{ Name string }
	if err := json.Unmarshal(me, &rec); err != nil || rec.Name != "Slow Sam" {
		t.Fatalf("record of the new token: %s (%v)", me, err)
	}
	// Exactly one record carries the name: the abandoned one is gone.
	n := 0
	if err := e.db.Walkins().Scan("", func(k string, v []byte) error {
		var r walkinRecord
		if len(k) == 64 && json.Unmarshal(v, &r) == nil && r.Name == "Slow Sam" {
			n++
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Fatalf("%d records named Slow Sam, want 1", n)
	}
}
