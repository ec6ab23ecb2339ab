package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	dddenv "arena/actors/dotdotdot/envelope"
	"arena/chain/badge"
	"arena/chain/ccd"
	"arena/chain/egress"
	"arena/games"
	"arena/games/canon"
	"arena/transport/a2a"
)

// jsAgentProc is the A2A JS SDK agent (transport/a2a/testagent) under node.
type jsAgentProc struct {
	base string
	key  ed25519.PrivateKey
}

// startNodeAgent runs the JS agent for Badge agent with the given seed, serving cardFile at
// /card.json. It skips, loudly, only when node is not installed.
func startNodeAgent(t *testing.T, agent string, seed []byte, cardFile string) *jsAgentProc {
	t.Helper()
	nodeBin, err := exec.LookPath("node")
	if err != nil {
		t.Skip("SKIPPED LOUDLY: `node` is not installed, so the A2A JS SDK agent cannot play; install Node.js 20+ and run scripts/install-test-deps.sh")
	}
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "transport", "a2a", "testagent")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@a2a-js", "sdk")); err != nil {
		cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm ci in %s (run scripts/install-test-deps.sh): %v\n%s", dir, err, out)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, nodeBin, "agent.mjs")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "AGENT_ID="+agent, "AGENT_SEED="+hex.EncodeToString(seed), "AGENT_NAME=Ada",
		"CARD_FILE="+cardFile, "PORT=0")
	var errBuf syncBuf
	cmd.Stderr = &errBuf
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("agent stderr:\n%s", errBuf.String())
		}
	})
	base := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if l, ok := strings.CutPrefix(sc.Text(), "testagent: listening on "); ok {
				base <- l
			}
		}
	}()
	select {
	case b := <-base:
		return &jsAgentProc{base: b, key: ed25519.NewKeyFromSeed(seed)}
	case <-time.After(20 * time.Second):
		t.Fatalf("the JS agent did not start; stderr:\n%s", errBuf.String())
	}
	return nil
}

func postJSON(t *testing.T, url string, body any, hdr map[string]string) (int, map[string]any, []byte) {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case []byte:
		rd = bytes.NewReader(b)
	default:
		raw, _ := json.Marshal(b)
		rd = bytes.NewReader(raw)
	}
	req, _ := http.NewRequest("POST", url, rd)
	req.Header.Set("Content-Type", "application/json")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var m map[string]any
	_ = json.Unmarshal(raw, &m)
	return resp.StatusCode, m, raw
}

func getJSON(t *testing.T, url string) (int, []byte) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, raw
}

// signedObj signs obj as a join is signed: sig over SHA-256(JCS(obj without sig)).
func signedObj(t *testing.T, key ed25519.PrivateKey, obj map[string]any) []byte {
	t.Helper()
	unsigned, err := canon.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	d := canon.Digest(unsigned)
	obj["sig"] = canon.FormatSig(ed25519.Sign(key, d[:]))
	b, _ := json.Marshal(obj)
	return b
}

// The JS SDK agent, registered on `arena serve`'s embedded devchain with a card written by
// chain/badge and anchored by its hash, verifies the arena instance from the chain (§4.3),
// joins with a signed join, and plays a whole Short round against the real binary beside two
// house seats: its signed commitments seal and settle. Around it: a replayed join, a stale
// join and a forged join are refused; the owner's session carries a call lever; a forged
// envelope is caught by the agent with the key it resolved from the chain.
func TestServeJSAgentJoinsAndPlays(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the agent end-to-end runs the binary for about 25 s")
	}
	bin := buildArena(t)
	dir := t.TempDir()
	seed := bytes.Repeat([]byte{0x42}, 32)
	agentID := badge.NewAgentID(badge.Testnet, badge.TestnetRegistry, 4242)
	cardFile := filepath.Join(dir, "card.json")
	js := startNodeAgent(t, agentID.String(), seed, cardFile)

	// The agent's card, written by chain/badge, and its registration for the embedded devchain.
	var owner ccd.Address
	copy(owner[:], bytes.Repeat([]byte{7}, 32))
	card, err := badge.WriteCard(badge.CardSpec{Agent: agentID, Name: "Ada", Kind: badge.KindPlayer,
		SigningKey: js.key.Public().(ed25519.PublicKey), Endpoint: js.base + "/a2a", Owner: owner, Registry: badge.TestnetRegistry})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cardFile, card, 0o600); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(card)
	agents, _ := json.Marshal([]map[string]any{{"token_id": 4242, "owner": owner.String(),
		"agent_uri": js.base + "/card.json", "metadata_hash": hex.EncodeToString(sum[:])}})
	agentsFile := filepath.Join(dir, "agents.json")
	os.WriteFile(agentsFile, agents, 0o600)
	cfgFile := filepath.Join(dir, "arena.json")
	os.WriteFile(cfgFile, []byte(`{"pace":{"agent_talk":"1500ms","agent_commit":"2s","scouting":"1s"}}`), 0o600)

	data := filepath.Join(dir, "data")
	s := &server{t: t, data: data, logs: &syncBuf{}}
	// The instance Badge is given (a small token id, as a registry mints them), not derived from
	// the key (config.DeriveAgent).
	instanceID := badge.NewAgentID(badge.Testnet, badge.TestnetRegistry, 77).String()
	s.cmd = exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--data", data, "--log-format", "json", "--config", cfgFile,
		"--agent", instanceID)
	s.cmd.Env = append(os.Environ(), "ARENA_EGRESS_LOOPBACK=1", "ARENA_DEV_AGENTS="+agentsFile)
	s.cmd.Stderr = s.logs
	out, _ := s.cmd.StdoutPipe()
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if s.cmd.ProcessState == nil {
			s.cmd.Process.Kill()
			s.cmd.Wait()
		}
		if t.Failed() {
			t.Logf("serve logs:\n%s", s.logs)
		}
	})
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if u, ok := strings.CutPrefix(sc.Text(), "arena: listening on "); ok {
			s.url = u
		}
		if c, ok := strings.CutPrefix(sc.Text(), "arena: chain node "); ok {
			s.chain = c
			break
		}
	}
	go io.Copy(io.Discard, out)
	if s.url == "" || s.chain == "" {
		t.Fatalf("serve did not start; logs:\n%s", s.logs)
	}

	// §4.3 from the agent's side: resolve the arena's Badge on chain, compare with what it serves.
	ctx := context.Background()
	client, err := ccd.Dial(ctx, s.chain, false)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	var gen struct {
		Accounts []struct{ Name, Address string } `json:"accounts"`
	}
	graw, err := os.ReadFile(filepath.Join(data, "devchain", "devchain-genesis.json"))
	if err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(graw, &gen)
	var house ccd.Address
	for _, a := range gen.Accounts {
		if a.Name == "house" {
			house, _ = ccd.ParseAddress(a.Address)
		}
	}
	verifier := badge.New(badge.Config{Node: client, Cards: egress.NewClient(egress.Dev()), House: house})
	_, served := getJSON(t, s.url+"/.well-known/agent.json")
	var sc2 struct {
		Agent      string `json:"agent"`
		SigningKey string `json:"signing_key"`
		Kind       string `json:"kind"`
	}
	json.Unmarshal(served, &sc2)
	inst, err := verifier.Resolve(ctx, sc2.Agent)
	if err != nil {
		t.Fatalf("the arena's Badge does not resolve from the chain: %v (card %s)", err, served)
	}
	if canon.FormatKey(inst.Key) != sc2.SigningKey || inst.Kind != "arena" || !inst.HouseOwned {
		t.Fatalf("resolved %s kind %s house %v; served %s", canon.FormatKey(inst.Key), inst.Kind, inst.HouseOwned, served)
	}
	if code, _, raw := postJSON(t, js.base+"/control", map[string]any{"arena_key": canon.FormatKey(inst.Key)}, nil); code != 200 {
		t.Fatalf("control: %d %s", code, raw)
	}
	// A forged envelope (another key) is caught by the agent; the arena's own key would pass.
	forger := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{9}, 32))
	p := games.Prompt{Seat: 1, Move: games.Move{Turn: 1, Phase: "talk", Exchange: 1}, Deadline: time.Now().Add(3 * time.Second)}
	forged, _ := dddenv.Sign(forger, "T-1", p)
	if _, err := a2a.New(a2a.Options{}).Call(ctx, js.base+"/a2a", forged, p.Deadline); err == nil {
		t.Fatal("the agent answered a forged envelope")
	}

	// Joins: stale and forged are refused; the agent's own signed join seats it; its replay is refused.
	stale := signedObj(t, js.key, map[string]any{"agent": agentID.String(), "table": "practice",
		"issued_at": time.Now().Add(-10 * time.Minute).UTC().Format(time.RFC3339), "nonce": "stale-nonce-0000000001"})
	if code, body, _ := postJSON(t, s.url+"/v1/join", stale, nil); code != 409 || body["code"] != "join_stale" {
		t.Fatalf("stale join: %d %v", code, body)
	}
	bad := signedObj(t, forger, map[string]any{"agent": agentID.String(), "table": "practice",
		"issued_at": time.Now().UTC().Format(time.RFC3339), "nonce": "forged-nonce-000000001"})
	if code, body, _ := postJSON(t, s.url+"/v1/join", bad, nil); code != 422 || body["code"] != "invalid_signature" {
		t.Fatalf("forged join: %d %v", code, body)
	}
	code, body, raw := postJSON(t, js.base+"/control", map[string]any{"join": map[string]any{"url": s.url + "/v1/join", "table": "practice", "format": "short"}}, nil)
	if code != 200 || body["status"] != float64(200) {
		t.Fatalf("join: %d %s", code, raw)
	}
	reply := body["reply"].(map[string]any)
	round, _ := reply["round"].(string)
	if round == "" || reply["seat"] != float64(1) || reply["name"] != "Ada" || reply["agent"] != agentID.String() {
		t.Fatalf("join reply %v", reply)
	}
	if code, body, _ := postJSON(t, s.url+"/v1/join", []byte(body["sent"].(string)), nil); code != 409 || body["code"] != "join_replayed" {
		t.Fatalf("replayed join: %d %v", code, body)
	}

	// The owner's session: challenge, signed by the card key, then a call lever.
	_, ch, _ := postJSON(t, s.url+"/v1/session/challenge", map[string]any{"agent": agentID.String()}, nil)
	sess := signedObj(t, js.key, map[string]any{"agent": agentID.String(), "challenge": ch["challenge"],
		"issued_at": time.Now().UTC().Format(time.RFC3339)})
	code, sb, _ := postJSON(t, s.url+"/v1/session", sess, nil)
	tok, _ := sb["session"].(string)
	if code != 200 || tok == "" {
		t.Fatalf("session: %d %v", code, sb)
	}
	if code, lb, raw := postJSON(t, s.url+"/v1/rounds/"+round+"/call", map[string]any{"text": "keep an eye on seat 2"},
		map[string]string{"Authorization": "Bearer " + tok}); code != 200 {
		t.Fatalf("call lever: %d %v %s", code, lb, raw)
	}

	// The round plays out; the transcript opens at the reveal.
	var events []games.Event
	var lastCode int
	var lastRaw []byte
	eventually(t, 90*time.Second, 500*time.Millisecond, func() bool {
		if lastCode, lastRaw = getJSON(t, s.url+"/v1/rounds/"+round+"/transcript"); lastCode != 200 {
			return false
		}
		var tr struct {
			Events []games.Event `json:"events"`
		}
		if err := json.Unmarshal(lastRaw, &tr); err != nil {
			t.Fatal(err)
		}
		events = tr.Events
		return true
	}, func() string {
		return fmt.Sprintf("round %s not revealed in 90 s (last %d %s)", round, lastCode, lastRaw)
	})
	var lines, sealed, settled, calls int
	ids := map[string]bool{}
	for _, e := range events {
		var pl map[string]any
		_ = json.Unmarshal(e.Payload, &pl)
		switch {
		case e.Type == "message.public" && (pl["seat"] == float64(1) || pl["from"] == float64(1)):
			lines++
		case e.Type == "commitment.sealed" && e.Visibility == "public" && (pl["payer"] == float64(1) || pl["payer"] == agentID.String()):
			sealed++
			ids[pl["id"].(string)] = true
		case e.Type == "commitment.settled" && e.Visibility == "public" && ids[pl["id"].(string)]:
			settled++
		case e.Type == "call.delivered" && e.Visibility == "private:1":
			calls++
		}
	}
	_, st := getJSON(t, js.base+"/stats")
	t.Logf("round %s: %d events; seat 1: %d lines, %d sealed, %d settled, %d calls delivered; agent %s", round, len(events), lines, sealed, settled, calls, st)
	if lines < 6 || sealed < 1 || settled != sealed || calls != 1 {
		t.Fatalf("seat 1: %d lines, %d sealed, %d settled, %d calls", lines, sealed, settled, calls)
	}
	var stats map[string]any
	json.Unmarshal(st, &stats)
	if stats["forged"] != float64(1) || stats["extensionHeader"] != stats["calls"] || stats["answered"].(float64) < 10 {
		t.Fatalf("agent stats %s", st)
	}
	s.stop()
}
