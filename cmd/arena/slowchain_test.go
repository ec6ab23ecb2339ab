package main

import (
	"bufio"
	"context"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	v2 "github.com/Concordium/concordium-go-sdk/v2"

	"arena/chain/ccd"
	"arena/chain/devchain"
)

// startServerOn runs `arena serve` against a chain node of our own (--chain-node, --chain-key):
// a devchain started here whose genesis holds the arena's account, with submissions delayed by
// latency (devchain fault injection on SendBlockItem).
func startServerOn(t *testing.T, bin string, latency time.Duration) *server {
	t.Helper()
	dir := t.TempDir()
	keyPath := filepath.Join(dir, "chain-account.json")
	key, err := ccd.LoadOrCreateKey(keyPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	seed, _ := key.Seed()
	g, err := devchain.DefaultGenesis()
	if err != nil {
		t.Fatal(err)
	}
	for i := range g.Accounts {
		if g.Accounts[i].Name == devchain.AccountArena {
			g.Accounts[i].Seed = seed
			g.Accounts[i].Address = v2.AccountAddress{Value: key.Address()}
		}
	}
	h, _ := hex.DecodeString(devchain.TestnetGenesisHash)
	copy(g.BlockHash[:], h)
	node, err := devchain.Start(t.Context(), devchain.Options{Dir: filepath.Join(dir, "devchain"), Genesis: &g,
		Faults: devchain.Faults{MethodLatency: map[string]time.Duration{"SendBlockItem": latency}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(node.Stop)

	s := &server{t: t, data: filepath.Join(dir, "data"), logs: &syncBuf{}, chain: node.Addr()}
	s.cmd = exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--data", s.data, "--log-format", "json",
		"--chain-node", node.Addr(), "--chain-key", keyPath)
	s.cmd.Stderr = s.logs
	out, err := s.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if s.cmd.ProcessState == nil {
			s.cmd.Process.Kill()
			s.cmd.Wait()
		}
	})
	first := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if l := sc.Text(); strings.HasPrefix(l, "arena: listening on ") {
				first <- strings.TrimPrefix(l, "arena: listening on ")
			}
		}
	}()
	select {
	case s.url = <-first:
	case <-time.After(30 * time.Second):
		t.Fatalf("no listen line in 30s; logs:\n%s", s.logs)
	}
	return s
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}

func mean(d []time.Duration) time.Duration {
	var sum time.Duration
	for _, x := range d {
		sum += x
	}
	if len(d) == 0 {
		return 0
	}
	return sum / time.Duration(len(d))
}

// TestSlowChainMoveLatency is the slow-chain measure: Blitz practice rounds played
// on `arena serve` against a chain whose every submission takes ARENA_SLOW_CHAIN_LATENCY
// (default 100ms so the test stays short; docs/performance.md "Slow chain" runs it at 5s), and
// the same on an instant chain. It reports the move latency (the walk-in's answer acknowledged
// to the next envelope received) on both and their ratio (no timing assertion: figures), and
// asserts that every anchor of every round lands: anchor-check passes on each, waiting for
// finality.
func TestSlowChainMoveLatency(t *testing.T) {
	latency := 100 * time.Millisecond
	if v := os.Getenv("ARENA_SLOW_CHAIN_LATENCY"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("ARENA_SLOW_CHAIN_LATENCY=%q: %v", v, err)
		}
		latency = d
	}
	rounds := 1
	if v := os.Getenv("ARENA_SLOW_CHAIN_ROUNDS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("ARENA_SLOW_CHAIN_ROUNDS=%q", v)
		}
		rounds = n
	}
	bin := buildArena(t)
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Minute)
	defer cancel()
	type run struct {
		s      *server
		rounds []string
		lat    []time.Duration
	}
	runs := map[string]*run{}
	for _, name := range []string{"instant", "slow"} {
		d := time.Duration(0)
		if name == "slow" {
			d = latency
		}
		runs[name] = &run{s: startServerOn(t, bin, d)}
	}
	// Interleave the rounds (instant, slow, instant, ...) so machine load hits both alike.
	for range rounds {
		for _, name := range []string{"instant", "slow"} {
			r := runs[name]
			round, lat := playPractice(t, ctx, r.s, "")
			r.rounds = append(r.rounds, round)
			r.lat = append(r.lat, lat...)
		}
	}
	mi, ms := median(runs["instant"].lat), median(runs["slow"].lat)
	ai, as := mean(runs["instant"].lat), mean(runs["slow"].lat)
	t.Logf("move latency, %d Blitz round(s) each, %d moves each: instant chain median %v mean %v; chain at %v per submission median %v mean %v",
		rounds, len(runs["slow"].lat), mi, ai, latency, ms, as)
	t.Logf("ratio slow/instant: median %.3f, mean %.3f", float64(ms)/float64(mi), float64(as)/float64(ai))

	start := time.Now()
	for _, name := range []string{"slow", "instant"} {
		r := runs[name]
		for _, round := range r.rounds {
			revealedTranscript(t, ctx, r.s, round)
			code, out, errOut := runAnchorCheck(ctx, nil, "--node", r.s.chain, "--wait", "20m", r.s.url+"/v1/rounds/"+round+"/transcript")
			if code != 0 {
				t.Fatalf("%s chain, round %s: anchors did not all land: exit %d\n%s%s", name, round, code, out, errOut)
			}
			n := strings.Count(out, " holds kind ")
			if n < 20 {
				t.Fatalf("%s chain, round %s: only %d anchors on chain\n%s", name, round, n, out)
			}
			t.Logf("%s chain, round %s: all %d anchors landed and check (%v after the last round ended)", name, round, n, time.Since(start).Round(time.Second))
		}
	}
	for _, r := range runs {
		r.s.stop()
	}
}
