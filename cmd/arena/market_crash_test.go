package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// marketClient speaks to the market site of a running `arena serve` (by its Host name).
type marketClient struct {
	t    *testing.T
	base string
}

// post sends body with key to POST /v2/request; err is a transport error (no answer).
func (m *marketClient) post(key, body string) (status int, answer []byte, err error) {
	req, err := http.NewRequest(http.MethodPost, m.base+"/v2/request", strings.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Host = "market.localhost"
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	answer, err = io.ReadAll(resp.Body)
	return resp.StatusCode, answer, err
}

func (m *marketClient) must(key, body string) map[string]any {
	m.t.Helper()
	st, b, err := m.post(key, body)
	var env struct {
		OK     bool           `json:"ok"`
		Result map[string]any `json:"result"`
	}
	if err != nil || st != 200 || json.Unmarshal(b, &env) != nil || !env.OK {
		m.t.Fatalf("%s: %d %v %s", body, st, err, b)
	}
	return env.Result
}

// issueKey is `arena ops market keys create owner`: the key is the last line.
func issueKey(t *testing.T, s *server, owner string) string {
	t.Helper()
	var out, errs bytes.Buffer
	if code := opsMain(t.Context(), []string{"market", "keys", "create", owner, "--server", s.url, "--data", s.data}, func(string) string { return "" }, &out, &errs); code != 0 {
		t.Fatalf("ops market keys create: %d %s", code, errs.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	key := lines[len(lines)-1]
	if !strings.HasPrefix(key, "gmk_") || strings.Contains(key, " ") {
		t.Fatalf("last line %q is not a key:\n%s", key, out.String())
	}
	return key
}

// TestMarketSurvivesKill9: `arena serve` is killed (SIGKILL) in the middle of a burst of
// transfers sent concurrently by four Players; it comes back on the same data. Every
// acknowledged command is there: its retry answers the stored response byte for byte. Then every
// command is sent (again): each is applied exactly once (the Holdings are the arithmetic of all
// of them), nothing is half-applied (the Admin projection's Ledger sums every Asset to zero and
// counts one row per transfer), and no answer names an Owner or a key.
func TestMarketSurvivesKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: kills and restarts the binary mid-burst")
	}
	bin := buildArena(t)
	data := filepath.Join(t.TempDir(), "data")
	args := []string{"--addr", freeAddr(t)}
	s := startServeArgs(t, bin, data, args, nil)
	mc := &marketClient{t: t, base: s.url}
	const players, perPlayer = 4, 20
	keys := make([]string, players)
	ids := make([]string, players)
	for i := range players {
		keys[i] = issueKey(t, s, fmt.Sprintf("owner-crash-%d", i))
		ids[i] = mc.must(keys[i], fmt.Sprintf(`{"protocolVersion":2,"commandId":"enrol-%d","action":"enroll"}`, i))["playerId"].(string)
	}
	// Player i sends i+1 credits to Player i+1, perPlayer times.
	cmd := func(i, n int) string {
		return fmt.Sprintf(`{"protocolVersion":2,"commandId":"burst-%d-%d","action":"transfer","toPlayerId":%q,"assetId":"credits","quantity":%d}`,
			i, n, ids[(i+1)%players], i+1)
	}
	type ack struct {
		key, body string
		answer    []byte
	}
	var (
		mu     sync.Mutex
		acked  []ack
		public [][]byte
		count  atomic.Int32
		killed = make(chan struct{})
		once   sync.Once
	)
	kill := func() {
		once.Do(func() {
			if err := s.cmd.Process.Kill(); err != nil {
				t.Error(err)
			}
			close(killed)
		})
	}
	var wg sync.WaitGroup
	for i := range players {
		wg.Go(func() {
			for n := range perPlayer {
				st, b, err := mc.post(keys[i], cmd(i, n))
				if err != nil {
					return // no answer: this command and the rest are sent again after the restart
				}
				if st != 200 {
					t.Errorf("burst %d-%d: %d %s", i, n, st, b)
					return
				}
				mu.Lock()
				acked = append(acked, ack{keys[i], cmd(i, n), b})
				public = append(public, b)
				mu.Unlock()
				if count.Add(1) == players*perPlayer/3 {
					go kill()
				}
			}
		})
	}
	wg.Wait()
	kill() // in case every command was answered before the kill landed
	<-killed
	s.cmd.Wait()
	if len(acked) >= players*perPlayer {
		t.Logf("every command was acknowledged before the kill landed")
	}
	t.Logf("%d of %d commands acknowledged before the kill", len(acked), players*perPlayer)

	s2 := startServeArgs(t, bin, data, args, nil)
	mc.base = s2.url
	for _, a := range acked {
		st, b, err := mc.post(a.key, a.body)
		if err != nil || st != 200 || !bytes.Equal(b, a.answer) {
			t.Fatalf("after the restart, %s answers %d %v\n%s\nwant the stored\n%s", a.body, st, err, b, a.answer)
		}
	}
	for i := range players {
		for n := range perPlayer {
			st, b, err := mc.post(keys[i], cmd(i, n))
			var env struct {
				OK bool `json:"ok"`
			}
			if err != nil || st != 200 || json.Unmarshal(b, &env) != nil || !env.OK {
				t.Fatalf("%s after the restart: %d %v %s", cmd(i, n), st, err, b)
			}
			public = append(public, b)
		}
	}
	for i := range players {
		inv := mc.must(keys[i], `{"protocolVersion":2,"action":"readInventory"}`)
		got := map[string]float64{}
		for _, h := range inv["holdings"].([]any) {
			h := h.(map[string]any)
			got[h["assetId"].(string)] = h["quantity"].(float64)
		}
		from := (i + players - 1) % players
		want := 100 - perPlayer*(i+1) + perPlayer*(from+1)
		if got["credits"] != float64(want) || got["wood"] != 10 {
			t.Errorf("player %d holdings %v, want credits %d (every transfer exactly once)", i, got, want)
		}
	}
	// The Admin projection (operator only): one Ledger row per transfer, every Asset summing to
	// zero over the Players and the system Inventories.
	var out, errs bytes.Buffer
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	if code := opsMain(ctx, []string{"market", "admin", "--server", s2.url, "--data", data}, func(string) string { return "" }, &out, &errs); code != 0 {
		t.Fatalf("ops market admin: %d %s", code, errs.String())
	}
	var admin struct {
		Players []struct {
			Holdings map[string]int64 `json:"holdings"`
		} `json:"players"`
		System []struct {
			Holdings map[string]int64 `json:"holdings"`
		} `json:"system"`
		Ledger []struct {
			Reason string `json:"reason"`
		} `json:"ledger"`
	}
	if err := json.Unmarshal(out.Bytes(), &admin); err != nil {
		t.Fatal(err)
	}
	transfers := 0
	for _, r := range admin.Ledger {
		if r.Reason == "transfer" {
			transfers++
		}
	}
	sum := map[string]int64{}
	for _, p := range admin.Players {
		for a, q := range p.Holdings {
			sum[a] += q
		}
	}
	for _, s := range admin.System {
		for a, q := range s.Holdings {
			sum[a] += q
		}
	}
	if transfers != players*perPlayer || len(admin.Players) != players {
		t.Errorf("admin: %d transfer rows, %d players; want %d and %d", transfers, len(admin.Players), players*perPlayer, players)
	}
	for a, q := range sum {
		if q != 0 {
			t.Errorf("asset %s sums to %d over every Inventory, want 0", a, q)
		}
	}
	for _, b := range public {
		for i := range players {
			if bytes.Contains(b, []byte(keys[i])) || bytes.Contains(b, []byte(fmt.Sprintf("owner-crash-%d", i))) {
				t.Fatalf("a public answer names an Owner or a key: %s", b)
			}
		}
	}
}
