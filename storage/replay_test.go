package storage

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"testing"

	"arena/chain/x402"
)

func replayKey(chain uint64, b byte) x402.ReplayKey {
	k := x402.ReplayKey{ChainID: chain}
	for i := range k.Contract {
		k.Contract[i], k.From[i] = 0xA0+b, b
	}
	for i := range k.Nonce {
		k.Nonce[i] = b ^ byte(i)
	}
	return k
}

// The first claim of a key holds it; a second payment's claim answers the first's id and
// changes nothing; both still hold after a close and reopen (fsync on, as in production).
func TestReplayClaimFirstHoldsAcrossReopen(t *testing.T) {
	ctx := context.Background()
	s, path := openTest(t, Options{})
	r := s.Replay()
	k1, k2 := replayKey(5042002, 1), replayKey(5042002, 2)
	if h, err := r.Claim(ctx, k1, "pay-1"); err != nil || h != "pay-1" {
		t.Fatalf("first claim: %q %v, want pay-1", h, err)
	}
	if h, err := r.Claim(ctx, k1, "pay-2"); err != nil || h != "pay-1" {
		t.Fatalf("second payment's claim: %q %v, want the first's pay-1", h, err)
	}
	if h, err := r.Claim(ctx, k1, "pay-1"); err != nil || h != "pay-1" {
		t.Fatalf("the holder's own claim again: %q %v, want pay-1", h, err)
	}
	other := k1
	other.ChainID = 1 // same contract, payer and nonce on another chain: another authorization
	if h, err := r.Claim(ctx, other, "pay-3"); err != nil || h != "pay-3" {
		t.Fatalf("claim on another chain: %q %v, want pay-3", h, err)
	}
	if _, err := r.Holder(k2); !errors.Is(err, ErrNotFound) {
		t.Fatalf("holder of an unclaimed key: %v, want ErrNotFound", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	r = s2.Replay()
	if h, err := r.Holder(k1); err != nil || h != "pay-1" {
		t.Fatalf("holder after reopen: %q %v, want pay-1", h, err)
	}
	if h, err := r.Claim(ctx, k1, "pay-4"); err != nil || h != "pay-1" {
		t.Fatalf("claim after reopen: %q %v, want pay-1", h, err)
	}
	if h, err := r.Claim(ctx, other, "pay-5"); err != nil || h != "pay-3" {
		t.Fatalf("other chain's claim after reopen: %q %v, want pay-3", h, err)
	}
	if h, err := r.Claim(ctx, k2, "pay-6"); err != nil || h != "pay-6" {
		t.Fatalf("fresh key after reopen: %q %v, want pay-6", h, err)
	}
}

// Bad calls are refused and claim nothing: an empty payment id, a done context, a closed or
// read-only store.
func TestReplayClaimRefusals(t *testing.T) {
	s, path := openTest(t, Options{NoSync: true})
	r := s.Replay()
	k := replayKey(1, 7)
	if _, err := r.Claim(context.Background(), k, ""); !errors.Is(err, ErrBadKey) {
		t.Fatalf("empty payment id: %v, want ErrBadKey", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := r.Claim(ctx, k, "pay-1"); !errors.Is(err, context.Canceled) {
		t.Fatalf("done context: %v, want context.Canceled", err)
	}
	if _, err := r.Holder(k); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a refused claim was stored: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Claim(context.Background(), k, "pay-1"); !errors.Is(err, errClosed) {
		t.Fatalf("claim on a closed store: %v, want errClosed", err)
	}
	ro, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if _, err := ro.Replay().Claim(context.Background(), k, "pay-1"); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("claim on a read-only store: %v, want ErrReadOnly", err)
	}
	if _, err := ro.Replay().Holder(k); !errors.Is(err, ErrNotFound) {
		t.Fatalf("refused claims left a holder: %v", err)
	}
}

// Many goroutines claiming one key (and some sharing a group commit with claims of others)
// yield exactly one winner, and every caller is told that winner.
func TestReplayClaimConcurrentOneWinner(t *testing.T) {
	s, _ := openTest(t, Options{})
	r := s.Replay()
	const n = 64
	keys := []x402.ReplayKey{replayKey(8453, 1), replayKey(8453, 2), replayKey(8453, 3)}
	holders := make([][]string, len(keys))
	var wg sync.WaitGroup
	for ki := range keys {
		holders[ki] = make([]string, n)
		for i := range n {
			wg.Go(func() {
				h, err := r.Claim(context.Background(), keys[ki], fmt.Sprintf("pay-%d-%d", ki, i))
				if err != nil {
					t.Errorf("claim %d/%d: %v", ki, i, err)
				}
				holders[ki][i] = h
			})
		}
	}
	wg.Wait()
	for ki, hs := range holders {
		stored, err := r.Holder(keys[ki])
		if err != nil {
			t.Fatal(err)
		}
		winners := 0
		for i, h := range hs {
			if h != stored {
				t.Errorf("key %d caller %d was told %q, the stored holder is %q", ki, i, h, stored)
			}
			if h == fmt.Sprintf("pay-%d-%d", ki, i) {
				winners++
			}
		}
		if winners != 1 {
			t.Errorf("key %d: %d winners, want exactly 1", ki, winners)
		}
	}
}

// Property over random keys: the store answers as a map whose first write wins, and after a
// reopen holds exactly that map; the cleanup's Check passes every key's form.
func TestReplayClaimMatchesFirstWinsModel(t *testing.T) {
	seed := uint64(rand.Int64())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	s, path := openTest(t, Options{NoSync: true})
	r := s.Replay()
	var pool []x402.ReplayKey
	for range 40 {
		var k x402.ReplayKey
		k.ChainID = rng.Uint64() >> rng.UintN(64)
		for i := range k.Contract {
			k.Contract[i], k.From[i] = byte(rng.Uint32()), byte(rng.Uint32())
		}
		for i := range k.Nonce {
			k.Nonce[i] = byte(rng.Uint32())
		}
		pool = append(pool, k)
	}
	model := map[x402.ReplayKey]string{}
	for i := range 400 {
		k := pool[rng.IntN(len(pool))]
		id := fmt.Sprintf("pay-%d", i)
		h, err := r.Claim(context.Background(), k, id)
		if err != nil {
			t.Fatal(err)
		}
		want, ok := model[k]
		if !ok {
			want, model[k] = id, id
		}
		if h != want {
			t.Fatalf("claim %d of %s: holder %q, want %q", i, k, h, want)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2, err := Open(path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	for _, k := range pool {
		h, err := s2.Replay().Holder(k)
		want, ok := model[k]
		if !ok {
			if !errors.Is(err, ErrNotFound) {
				t.Fatalf("never-claimed %s: %q %v", k, h, err)
			}
			continue
		}
		if err != nil || h != want {
			t.Fatalf("after reopen %s: %q %v, want %q", k, h, err, want)
		}
	}
}

// FuzzReplayClaim: any key and payment id either claims (and then holds across a second
// payment's claim) or is refused with ErrBadKey; never a panic, never two holders.
func FuzzReplayClaim(f *testing.F) {
	f.Add(uint64(5042002), []byte{1}, []byte{2}, []byte{3}, "pay-1")
	f.Add(uint64(0), []byte{}, []byte{}, []byte{}, "")
	s, err := Open(filepath.Join(f.TempDir(), "arena.db"), Options{NoSync: true})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { _ = s.Close() })
	r := s.Replay()
	f.Fuzz(func(t *testing.T, chain uint64, contract, from, nonce []byte, id string) {
		k := x402.ReplayKey{ChainID: chain}
		copy(k.Contract[:], contract)
		copy(k.From[:], from)
		copy(k.Nonce[:], nonce)
		if err := checkReplay([]byte(k.String()), []byte("p"), nil); err != nil {
			t.Fatalf("the key's own text fails Check: %v", err)
		}
		prev, perr := r.Holder(k)
		h, err := r.Claim(context.Background(), k, id)
		if id == "" {
			if !errors.Is(err, ErrBadKey) {
				t.Fatalf("empty id: %q %v, want ErrBadKey", h, err)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		want := id
		if perr == nil {
			want = prev
		}
		if h != want {
			t.Fatalf("claim %s by %q: holder %q, want %q", k, id, h, want)
		}
		if h2, err := r.Claim(context.Background(), k, id+"x"); err != nil || h2 != want {
			t.Fatalf("second claim %s: %q %v, want %q", k, h2, err, want)
		}
	})
}

// Check passes a row in ReplayKey.String()'s form and reports every other form.
func TestCheckReplayRow(t *testing.T) {
	good := replayKey(5042002, 9).String()
	if err := checkReplay([]byte(good), []byte("pay-1"), nil); err != nil {
		t.Fatalf("good row: %v", err)
	}
	bad := map[string][2]string{
		"no payment id":      {good, ""},
		"three parts":        {"1/0x" + good[len("5042002/0x"):len(good)-67], "p"},
		"chain id with a 0":  {"0" + good, "p"},
		"chain id not a u64": {"18446744073709551616" + good[len("5042002"):], "p"},
		"upper-case hex":     {good[:len(good)-1] + "A", "p"},
		"short nonce":        {good[:len(good)-2], "p"},
		"no 0x":              {"1/" + good[len("5042002/0x"):], "p"},
	}
	for name, kv := range bad {
		if err := checkReplay([]byte(kv[0]), []byte(kv[1]), nil); err == nil {
			t.Errorf("%s (%q): passed", name, kv[0])
		}
	}
}
