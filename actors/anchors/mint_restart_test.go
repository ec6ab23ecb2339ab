package anchors

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"arena/chain/badge"
	"arena/chain/ccd"
	"arena/chain/devchain"
)

// mintListener collects a CallJob's answers: CallSubmitted at once, CallFinal at finality.
type mintListener struct {
	pid       *actor.PID
	submitted chan *CallSubmitted
	final     chan *CallFinal
}

func listenMint(t *testing.T, sys *actor.ActorSystem, name string) *mintListener {
	t.Helper()
	l := &mintListener{submitted: make(chan *CallSubmitted, 16), final: make(chan *CallFinal, 16)}
	pid, err := sys.Root.SpawnNamed(actor.PropsFromFunc(func(ctx actor.Context) {
		switch m := ctx.Message().(type) {
		case *CallSubmitted:
			l.submitted <- m
		case *CallFinal:
			l.final <- m
		}
	}), name)
	if err != nil {
		t.Fatal(err)
	}
	l.pid = pid
	return l
}

func (l *mintListener) next(t *testing.T) (*CallSubmitted, *CallFinal) {
	t.Helper()
	var s *CallSubmitted
	select {
	case s = <-l.submitted:
	case <-time.After(30 * time.Second):
		t.Fatal("no CallSubmitted")
	}
	if s.Err != "" {
		t.Fatalf("refused: %+v", s)
	}
	select {
	case f := <-l.final:
		return s, f
	case <-time.After(30 * time.Second):
		t.Fatalf("no CallFinal for %+v", s)
	}
	return nil, nil
}

// A lent Badge's mint (the registry's register, keyed by the Badge: CallJob.Key) asked, the
// arena stopped with it written to the chain queue and not yet final, and asked again after the
// restart, is registered once: one transaction, one nonce, one registration, and the asker hears
// CallFinal for it. The registry itself refuses a second registration of the token id (a mint
// under another key, as an arena that lost its queue would ask): final, rejected, the first
// registration unchanged.
func TestMintAcrossARestartRegistersOnce(t *testing.T) {
	d := newDevHarness(t, fastOptions(), devchain.Options{FinalizeAfter: 300 * time.Millisecond})
	ctx := context.Background()
	start, _, err := d.client.NextNonce(ctx, d.key.Address())
	if err != nil {
		t.Fatal(err)
	}
	const token = 0x1122334455667788
	reg := badge.Contract{Chain: badge.Testnet, Index: devchain.DefaultRegistry.Index, Subindex: devchain.DefaultRegistry.Subindex}
	owner := ccd.Address{7, 7, 7}
	card := sha256.Sum256([]byte("card"))
	call := badge.RegisterCall(reg, token, owner, "https://arena.example/.well-known/lent/t1/2.json", card)
	key := []byte("badge.mint:lent-t1-2")
	ask := func(l *mintListener, key []byte, call ccd.ContractCall) {
		d.chain.Call(CallJob{Table: "t1", Round: "T-1", Name: "mint:2", Call: call, Key: key, ReplyTo: l.pid, FinalTo: l.pid})
	}

	l := listenMint(t, d.sys, "minter-1")
	ask(l, key, call)
	var first *CallSubmitted
	select {
	case first = <-l.submitted:
	case <-time.After(30 * time.Second):
		t.Fatal("no CallSubmitted")
	}
	if first.Err != "" || first.Tx == "" {
		t.Fatalf("first ask: %+v", first)
	}
	d.crash() // written (the answer left after the write), not final: FinalizeAfter is 300 ms
	d.bootWith(d.client)

	// Asked again, with the agent_uri of another origin (a server on another port): the key is
	// the Badge, so it is the same transaction.
	l = listenMint(t, d.sys, "minter-2")
	other := badge.RegisterCall(reg, token, owner, "http://127.0.0.1:9/.well-known/lent/t1/2.json", card)
	ask(l, key, other)
	s, f := l.next(t)
	if s.Tx != first.Tx || f.Rejected != "" || f.Name != "mint:2" || f.Table != "t1" || f.Round != "T-1" || f.Block == "" {
		t.Fatalf("after the restart: submitted %+v final %+v (first tx %s)", s, f, first.Tx)
	}
	var h [32]byte
	hex.Decode(h[:], []byte(f.Tx))
	st, err := d.client.Status(ctx, h)
	if err != nil || st.State != ccd.Finalized || st.Rejected {
		t.Fatalf("tx %s on chain: %+v %v", f.Tx, st, err)
	}
	a, ok, err := d.dev.Agent(token)
	if err != nil || !ok || a.Owner.Value != owner || a.AgentURI != "https://arena.example/.well-known/lent/t1/2.json" ||
		hex.EncodeToString(a.MetadataHash) != hex.EncodeToString(card[:]) || a.Status != devchain.AgentActive {
		t.Fatalf("registration %+v %v %v", a, ok, err)
	}

	// A third ask, final already: answered with the same transaction and told final at once.
	ask(l, key, call)
	s, f = l.next(t)
	if s.Tx != first.Tx || f.Tx != first.Tx || f.Rejected != "" {
		t.Fatalf("third ask: submitted %+v final %+v", s, f)
	}

	// The registry refuses a second registration of the token id.
	ask(l, []byte("badge.mint:another-queue"), call)
	s, f = l.next(t)
	if s.Tx == first.Tx || f.Rejected == "" || !strings.Contains(f.Rejected, "-7290") {
		t.Fatalf("second registration: submitted %+v final %+v", s, f)
	}
	if again, _, _ := d.dev.Agent(token); again.AgentURI != a.AgentURI || again.RegisteredAtMs != a.RegisteredAtMs {
		t.Fatalf("the first registration changed: %+v", again)
	}
	next, _, err := d.client.NextNonce(ctx, d.key.Address())
	if err != nil || next != start+2 {
		t.Fatalf("account next nonce %d (%v), want %d: one transaction per ask that was not a repeat", next, err, start+2)
	}
}
