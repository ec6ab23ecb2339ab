package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"arena/chain/anchor"
	"arena/chain/ccd"
	"arena/config"
	"arena/games/blitz"
	"arena/games/canon"
)

// buildArena builds the real binary once per test run.
var buildOnce struct {
	sync.Once
	path string
	err  error
	out  []byte
}

func buildArena(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "arena-bin-")
		if err != nil {
			buildOnce.err = err
			return
		}
		buildOnce.path = filepath.Join(dir, "arena")
		cmd := exec.Command("go", "build", "-o", buildOnce.path, ".")
		buildOnce.out, buildOnce.err = cmd.CombinedOutput()
	})
	if buildOnce.err != nil {
		t.Fatalf("go build: %v\n%s", buildOnce.err, buildOnce.out)
	}
	return buildOnce.path
}

// server is a running `arena serve` subprocess.
type server struct {
	t     *testing.T
	cmd   *exec.Cmd
	url   string
	chain string // the chain node's gRPC address (the embedded devchain)
	data  string
	logs  *syncBuf
}

type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startServer runs the binary on a random port with data as its data dir and waits for the
// listen line.
func startServer(t *testing.T, bin, data string) *server {
	t.Helper()
	s := &server{t: t, data: data, logs: &syncBuf{}}
	s.cmd = exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--data", data, "--log-format", "json")
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
	lines := make(chan string, 4)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	select {
	case l, ok := <-lines:
		if !ok || !strings.HasPrefix(l, "arena: listening on http://") {
			t.Fatalf("first line %q; logs:\n%s", l, s.logs)
		}
		s.url = strings.TrimPrefix(l, "arena: listening on ")
	case <-time.After(30 * time.Second):
		t.Fatalf("no listen line in 30s; logs:\n%s", s.logs)
	}
	select {
	case l := <-lines:
		s.chain = strings.TrimPrefix(l, "arena: chain node ")
	case <-time.After(10 * time.Second):
		t.Fatalf("no chain node line; logs:\n%s", s.logs)
	}
	go func() {
		for range lines {
		}
	}()
	return s
}

// stop sends SIGTERM and expects a clean exit.
func (s *server) stop() {
	s.t.Helper()
	s.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			s.t.Fatalf("serve exited with %v after SIGTERM; logs:\n%s", err, s.logs)
		}
	case <-time.After(20 * time.Second):
		s.cmd.Process.Kill()
		s.t.Fatalf("serve did not stop within 20s of SIGTERM")
	}
}

type resp struct {
	status int
	raw    []byte
	body   map[string]any
}

func (s *server) call(ctx context.Context, method, path, token string, body any) resp {
	s.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequestWithContext(ctx, method, s.url+path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("X-Walkin", token)
	}
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer r.Body.Close()
	raw, _ := io.ReadAll(r.Body)
	out := resp{status: r.StatusCode, raw: raw}
	json.Unmarshal(raw, &out.body)
	return out
}

// envelope is what the walk-in reads of an envelope.
type envelope struct {
	Round    string `json:"round"`
	Turn     int    `json:"turn"`
	Phase    string `json:"phase"`
	Exchange int    `json:"exchange"`
	Seat     int    `json:"seat"`
	Sig      string `json:"sig"`
}

// answerFor is the walk-in's play: a public line on every talk exchange, an accusation of
// seat 3 on turn 1, a commitment to seat 2 on turn 2's commit, nothing otherwise.
func answerFor(e envelope) map[string]any {
	a := map[string]any{"round": e.Round, "turn": e.Turn, "phase": e.Phase}
	switch e.Phase {
	case "talk":
		a["exchange"] = e.Exchange
		a["messages"] = []any{map[string]any{"type": "public", "text": fmt.Sprintf("turn %d, exchange %d: who is with me?", e.Turn, e.Exchange), "tone": "ask"}}
		if e.Turn == 1 && e.Exchange == 1 {
			a["accusation"] = 3
		}
	case "commit":
		if e.Turn == 2 {
			a["commitments"] = []any{map[string]any{"ref": "c1", "payee": 2, "chips": 5, "condition": map[string]any{"always": true}, "due": 3}}
		}
	}
	return a
}

// TestServeEndToEnd builds the real binary, starts it on a random port with an empty data dir,
// plays a whole practice round as a walk-in against house seats on the chat clock (every
// envelope's signature checked against /.well-known/agent.json), then reads /me, the
// transcript and the ops list, and stops the server with SIGTERM.
func TestServeEndToEnd(t *testing.T) {
	bin := buildArena(t)
	data := filepath.Join(t.TempDir(), "data")
	s := startServer(t, bin, data)
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()

	if r := s.call(ctx, "GET", "/healthz", "", nil); r.status != 200 {
		t.Fatalf("healthz %d %s", r.status, r.raw)
	}
	card := s.call(ctx, "GET", "/.well-known/agent.json", "", nil)
	key, err := canon.ParseKey(fmt.Sprint(card.body["signing_key"]))
	if err != nil || !strings.HasPrefix(fmt.Sprint(card.body["agent"]), "ccd:") {
		t.Fatalf("agent card %s: %v", card.raw, err)
	}
	for _, f := range []string{"instance.key", "operator.token", "arena.db"} {
		if _, err := os.Stat(filepath.Join(data, f)); err != nil {
			t.Errorf("zero set-up did not make %s: %v", f, err)
		}
	}

	reg := s.call(ctx, "POST", "/v1/walkin", "", map[string]any{"name": "E2E Walker", "model": "test"})
	tok, _ := reg.body["token"].(string)
	if reg.status != 201 || !strings.HasPrefix(tok, "w_") {
		t.Fatalf("register %d %s", reg.status, reg.raw)
	}
	join := s.call(ctx, "POST", "/v1/walkin/join", tok, map[string]any{"table": "practice"})
	round, _ := join.body["round"].(string)
	if join.status != 200 || round == "" || join.body["pace"] != "chat" {
		t.Fatalf("join %d %s", join.status, join.raw)
	}

	start := time.Now()
	moves, answered := 0, map[string]bool{}
	var result map[string]any
	for result == nil {
		if ctx.Err() != nil {
			t.Fatalf("round not over after %d moves; logs:\n%s", moves, s.logs)
		}
		r := s.call(ctx, "GET", "/v1/walkin/next?wait=30", tok, nil)
		if r.status != 200 {
			t.Fatalf("next %d %s", r.status, r.raw)
		}
		if res, ok := r.body["result"].(map[string]any); ok {
			result = res
			break
		}
		if r.body["waiting"] == true {
			continue
		}
		var e envelope
		if err := json.Unmarshal(r.raw, &e); err != nil || e.Round != round || e.Seat != 1 {
			t.Fatalf("envelope %s: %v", r.raw, err)
		}
		unsigned, err := canon.CanonicalWithout(r.raw, "sig")
		if err != nil {
			t.Fatal(err)
		}
		sig, err := canon.ParseSig(e.Sig)
		d := canon.Digest(unsigned)
		if err != nil || !ed25519.Verify(key, d[:], sig) {
			t.Fatalf("envelope signature does not verify with the published key: %s", r.raw)
		}
		id := fmt.Sprintf("%d/%s/%d", e.Turn, e.Phase, e.Exchange)
		if answered[id] {
			// Answered already and polled again before the next move: the poll does not consume,
			// so the answered move is gone and a re-answer is stale.
			t.Fatalf("move %s offered again after it was answered", id)
		}
		a := s.call(ctx, "POST", "/v1/walkin/answer", tok, answerFor(e))
		if a.status != 200 {
			t.Fatalf("answer %s: %d %s", id, a.status, a.raw)
		}
		if _, ok := a.body["dropped"].([]any); !ok {
			t.Fatalf("answer reply without dropped[]: %s", a.raw)
		}
		answered[id] = true
		moves++
	}
	took := time.Since(start)
	t.Logf("practice round %s: %d moves answered in %v", round, moves, took)
	if os.Getenv("ARENA_E2E_DEBUG") != "" {
		tr := s.call(ctx, "GET", "/v1/rounds/"+round+"/transcript", "", nil)
		t.Logf("transcript: %s", tr.raw)
	}
	if moves != 1+5*4 { // scouting, then 5 turns of 3 talk exchanges and a commit (§5.3, §5.6)
		t.Errorf("answered %d moves, want 21 (scouting + 5 × (3 talk + commit))", moves)
	}
	if took > 45*time.Second {
		t.Errorf("the round took %v on the chat clock with house seats answering at once; want seconds", took)
	}
	if result["transcript_hash"] == "" || result["seed"] == "" {
		t.Errorf("result lacks the reveal: %v", result)
	}

	me := s.call(ctx, "GET", "/v1/walkin/me", tok, nil)
	if me.status != 200 || !bytes.Contains(me.raw, []byte(round)) {
		t.Fatalf("/me %d %s", me.status, me.raw)
	}
	tr := s.call(ctx, "GET", "/v1/rounds/"+round+"/transcript", "", nil)
	var transcript struct {
		Round  string `json:"round"`
		Events []struct {
			Seq        int64  `json:"seq"`
			Type       string `json:"type"`
			Visibility string `json:"visibility"`
		} `json:"events"`
	}
	if err := json.Unmarshal(tr.raw, &transcript); err != nil || tr.status != 200 || transcript.Round != round {
		t.Fatalf("transcript %d %.300s", tr.status, tr.raw)
	}
	checkAnchors(t, ctx, s.chain, round, tr.raw)
	types := map[string]int{}
	for i, ev := range transcript.Events {
		types[ev.Type]++
		if ev.Seq != int64(i+1) && ev.Seq != int64(i) {
			t.Fatalf("event %d has seq %d: not the ordered list", i, ev.Seq)
		}
	}
	for _, want := range []string{"round.revealed", "message.public", "commitment.sealed"} {
		if types[want] == 0 {
			t.Errorf("transcript has no %s event (types %v)", want, types)
		}
	}
	if types["message.private"]+types["role.assigned"] == 0 {
		t.Errorf("the revealed transcript holds no private or sealed event: %v", types)
	}

	m := s.call(ctx, "GET", "/metrics", "", nil)
	for _, want := range []string{`arena_tables{status="finished"} 1`, "arena_rounds_finished_total 1", "arena_moves_total",
		"arena_timer_lateness_seconds_bucket", "arena_snapshot_commit_seconds_bucket",
		`arena_http_requests_total{code="200",route="/v1/walkin/answer"} 21`} {
		if !bytes.Contains(m.raw, []byte(want)) {
			t.Errorf("/metrics lacks %q", want)
		}
	}

	var out, errb bytes.Buffer
	if code := opsMain(ctx, []string{"tables", "--server", s.url, "--data", data}, func(string) string { return "" }, &out, &errb); code != 0 ||
		!strings.Contains(out.String(), join.body["table"].(string)) || !strings.Contains(out.String(), "finished") {
		t.Fatalf("arena ops tables: exit %d\n%s%s", code, out.String(), errb.String())
	}
	s.stop()
}

// TestServeDroppedPollKeepsTheMove is the long-poll drop case at the HTTP level, on the real
// binary: ten walk-ins each play a short practice round; before every move each opens a long
// poll and drops the connection a moment later (around when the move is issued), then polls
// again: the re-poll must bring the next move, 100 times out of 100.
func TestServeDroppedPollKeepsTheMove(t *testing.T) {
	bin := buildArena(t)
	s := startServer(t, bin, filepath.Join(t.TempDir(), "data"))
	ctx, cancel := context.WithTimeout(t.Context(), 120*time.Second)
	defer cancel()
	const walkins, perWalkin = 10, 10 // a short round is 10 moves: scouting + 3 × (2 talk + commit)
	var mu sync.Mutex
	kept, cases := 0, 0
	var wg sync.WaitGroup
	for w := range walkins {
		wg.Add(1)
		go func() {
			defer wg.Done()
			reg := s.call(ctx, "POST", "/v1/walkin", "", map[string]any{"name": fmt.Sprintf("Dropper %d", w)})
			tok, _ := reg.body["token"].(string)
			join := s.call(ctx, "POST", "/v1/walkin/join", tok, map[string]any{"table": "practice", "format": "short"})
			if join.status != 200 {
				t.Errorf("join %d %s", join.status, join.raw)
				return
			}
			last := ""
			for i := range perWalkin {
				// The dropped poll: its connection closes 0–3 ms after it is sent. Wall time is
				// what is tested: the drop lands wherever the server has got to by then.
				pctx, pcancel := context.WithCancel(ctx)
				go func() { time.Sleep(time.Duration(i%4) * time.Millisecond); pcancel() }()
				req, _ := http.NewRequestWithContext(pctx, "GET", s.url+"/v1/walkin/next?wait=30", nil)
				req.Header.Set("X-Walkin", tok)
				if r, err := http.DefaultClient.Do(req); err == nil {
					r.Body.Close()
				}
				pcancel()
				// The re-poll must bring the next move, not a waiting answer and not a move
				// already answered.
				r := s.call(ctx, "GET", "/v1/walkin/next?wait=20", tok, nil)
				var e envelope
				json.Unmarshal(r.raw, &e)
				id := fmt.Sprintf("%d/%s/%d", e.Turn, e.Phase, e.Exchange)
				ok := r.status == 200 && e.Sig != "" && id != last
				mu.Lock()
				cases++
				if ok {
					kept++
				}
				mu.Unlock()
				if !ok {
					t.Errorf("walk-in %d move %d: re-poll after a dropped poll answered %d %.200s", w, i, r.status, r.raw)
					return
				}
				last = id
				if a := s.call(ctx, "POST", "/v1/walkin/answer", tok, answerFor(e)); a.status != 200 {
					t.Errorf("answer %s: %d %s", id, a.status, a.raw)
					return
				}
			}
		}()
	}
	wg.Wait()
	t.Logf("dropped polls whose move came on the re-poll: %d of %d", kept, cases)
	if kept != walkins*perWalkin {
		t.Fatalf("kept %d of %d, want %d of %d", kept, cases, walkins*perWalkin, walkins*perWalkin)
	}
	s.stop()
}

// TestServeCrashMidRound kills the real server with SIGKILL in the middle of a practice round
// (an open move polled but not answered), restarts it on the same data dir, and finishes the
// round: the open move comes back byte for byte (same deadline instant, same signature), the
// round completes, every line the walk-in said is in the revealed transcript exactly once and
// in order, the transcript's seqs run without a gap, and the revealed seed is the one committed
// before play.
func TestServeCrashMidRound(t *testing.T) {
	bin := buildArena(t)
	data := filepath.Join(t.TempDir(), "data")
	s := startServer(t, bin, data)
	ctx, cancel := context.WithTimeout(t.Context(), 120*time.Second)
	defer cancel()
	reg := s.call(ctx, "POST", "/v1/walkin", "", map[string]any{"name": "Crash Walker"})
	tok, _ := reg.body["token"].(string)
	join := s.call(ctx, "POST", "/v1/walkin/join", tok, map[string]any{"table": "practice"})
	round, _ := join.body["round"].(string)
	if join.status != 200 {
		t.Fatalf("join %d %s", join.status, join.raw)
	}
	var said []string
	play := func(s *server, stopAt string) (open []byte) {
		for {
			r := s.call(ctx, "GET", "/v1/walkin/next?wait=30", tok, nil)
			if r.status != 200 {
				t.Fatalf("next %d %s", r.status, r.raw)
			}
			if r.body["result"] != nil {
				return r.raw
			}
			if r.body["waiting"] == true {
				continue
			}
			var e envelope
			json.Unmarshal(r.raw, &e)
			if fmt.Sprintf("%d/%s/%d", e.Turn, e.Phase, e.Exchange) == stopAt {
				return r.raw
			}
			a := answerFor(e)
			if e.Phase == "talk" {
				said = append(said, a["messages"].([]any)[0].(map[string]any)["text"].(string))
			}
			if r := s.call(ctx, "POST", "/v1/walkin/answer", tok, a); r.status != 200 {
				t.Fatalf("answer: %d %s", r.status, r.raw)
			}
		}
	}
	before := play(s, "3/talk/2")
	if err := s.cmd.Process.Kill(); err != nil { // SIGKILL: no shutdown, no flush
		t.Fatal(err)
	}
	s.cmd.Wait()

	s2 := startServer(t, bin, data)
	r := s2.call(ctx, "GET", "/v1/walkin/next?wait=30", tok, nil)
	if string(r.raw) != string(before) {
		t.Fatalf("after the crash the open move changed:\nbefore %s\nafter  %s", before, r.raw)
	}
	end := play(s2, "")
	var res struct {
		Result struct {
			Seed     string       `json:"seed"`
			SeedHash string       `json:"seed_hash"`
			Reveal   blitz.Reveal `json:"reveal"`
		} `json:"result"`
	}
	if err := json.Unmarshal(end, &res); err != nil || res.Result.Seed == "" {
		t.Fatalf("no result after the restart: %s (%v)", end, err)
	}
	// The draw revealed is the one committed before turn 1 (§5.5): the salted seed hash and
	// the open-round anchor recompute from the reveal.
	seed, err1 := hex.DecodeString(res.Result.Seed)
	salt, err2 := hex.DecodeString(res.Result.Reveal.Salts.Seed)
	if err1 != nil || err2 != nil {
		t.Fatalf("reveal seed/salt not hex: %v %v", err1, err2)
	}
	if d := canon.Digest(append(salt, seed...)); res.Result.SeedHash != canon.IDOf(d) {
		t.Errorf("revealed seed does not hash to the committed %s", res.Result.SeedHash)
	}
	if _, anchor, err := blitz.OpenAnchor(res.Result.Reveal); err != nil || canon.IDOf(anchor) != res.Result.Reveal.OpenAnchor {
		t.Errorf("open-round anchor does not recompute across the crash: %v, %s vs %s", err, canon.IDOf(anchor), res.Result.Reveal.OpenAnchor)
	}
	tr := s2.call(ctx, "GET", "/v1/rounds/"+round+"/transcript", "", nil)
	var transcript struct {
		Events []struct {
			Seq     int64           `json:"seq"`
			Type    string          `json:"type"`
			Payload json.RawMessage `json:"payload"`
		} `json:"events"`
	}
	if err := json.Unmarshal(tr.raw, &transcript); err != nil || tr.status != 200 {
		t.Fatalf("transcript %d %.300s", tr.status, tr.raw)
	}
	var heard []string
	revealed := 0
	for i, ev := range transcript.Events {
		if i > 0 && ev.Seq != transcript.Events[i-1].Seq+1 {
			t.Fatalf("seq gap: %d after %d", ev.Seq, transcript.Events[i-1].Seq)
		}
		if ev.Type == "round.revealed" {
			revealed++
		}
		if ev.Type == "message.public" {
			var p struct {
				Text string `json:"text"`
			}
			json.Unmarshal(ev.Payload, &p)
			if strings.HasPrefix(p.Text, "turn ") && strings.Contains(p.Text, "who is with me?") {
				heard = append(heard, p.Text)
			}
		}
	}
	if revealed != 1 {
		t.Errorf("%d round.revealed events, want 1", revealed)
	}
	if strings.Join(heard, "|") != strings.Join(said, "|") {
		t.Errorf("the transcript's lines of the walk-in differ from what it said across the crash:\nsaid  %q\nheard %q", said, heard)
	}
	if len(said) != 15 {
		t.Errorf("said %d lines, want 15 (5 turns × 3 exchanges)", len(said))
	}
	s2.stop()
}

func TestServeConfigErrors(t *testing.T) {
	if code := runServe(t.Context(), []string{"--addr", "no-port"}); code != 2 {
		t.Errorf("bad --addr: exit %d, want 2", code)
	}
	if code := runServe(t.Context(), []string{"--log-format", "xml"}); code != 2 {
		t.Errorf("bad --log-format: exit %d, want 2", code)
	}
}

// TestServeRefusesAKeyItCannotRead: a corrupt instance key is an error at start, never
// silently replaced (that would change the instance's identity).
func TestServeRefusesAKeyItCannotRead(t *testing.T) {
	data := t.TempDir()
	os.WriteFile(filepath.Join(data, "instance.key"), []byte("zz"), 0o600)
	var out bytes.Buffer
	cfgArgs := []string{"--addr", "127.0.0.1:0", "--data", data}
	cfg, err := loadForTest(cfgArgs)
	if err != nil {
		t.Fatal(err)
	}
	err = serve(t.Context(), cfg, newLogger(cfg, io.Discard), &out)
	if err == nil || !strings.Contains(err.Error(), "instance key") {
		t.Fatalf("serve with a corrupt key: %v", err)
	}
	if out.Len() != 0 {
		t.Fatalf("printed a listen line: %s", out.String())
	}
}

func loadForTest(args []string) (config.Config, error) {
	return config.Load("arena serve", args, func(string) string { return "" }, io.Discard)
}

// checkAnchors does what anchor-check does (§5.5): every anchor.* event of the transcript names
// a transaction that finalizes on the chain node, whose registered 50 bytes decode to the
// event's kind, the round's number, its seq and its hash.
func checkAnchors(t *testing.T, ctx context.Context, node, round string, transcript []byte) {
	t.Helper()
	var tr struct {
		Events []struct {
			Type    string `json:"type"`
			Payload struct {
				Kind string `json:"kind"`
				Seq  uint32 `json:"seq"`
				Hash string `json:"hash"`
				Tx   string `json:"tx"`
			} `json:"payload"`
		} `json:"events"`
	}
	if err := json.Unmarshal(transcript, &tr); err != nil {
		t.Fatal(err)
	}
	c, err := ccd.Dial(ctx, node, false)
	if err != nil {
		t.Fatalf("dial the devchain at %s: %v", node, err)
	}
	defer c.Close()
	n, _ := anchor.ParseRound(round)
	kinds := map[string]int{}
	for _, ev := range tr.Events {
		if !strings.HasPrefix(ev.Type, "anchor.") {
			continue
		}
		p := ev.Payload
		kinds[p.Kind]++
		var txh [32]byte
		if b, err := hex.DecodeString(p.Tx); err != nil || len(b) != 32 {
			t.Fatalf("%s: tx %q is not a transaction hash", ev.Type, p.Tx)
		} else {
			copy(txh[:], b)
		}
		var st ccd.Status
		limit := time.Minute
		if dl, ok := ctx.Deadline(); ok {
			limit = time.Until(dl)
		}
		eventually(t, limit, 50*time.Millisecond, func() bool {
			if st, err = c.Status(ctx, txh); err != nil {
				t.Fatalf("status of %s: %v", p.Tx, err)
			}
			return st.State == ccd.Finalized
		}, func() string { return fmt.Sprintf("%s tx %s not finalized: %v", ev.Type, p.Tx, st.State) })
		a, err := anchor.Decode(st.Data)
		if err != nil || !st.Registered {
			t.Fatalf("%s tx %s: registered %v, data %x: %v", ev.Type, p.Tx, st.Registered, st.Data, err)
		}
		if a.Kind.String() != p.Kind || a.Round != n || a.Seq != p.Seq || hex.EncodeToString(a.Hash[:]) != p.Hash {
			t.Fatalf("%s: on chain %+v, in the transcript %+v", ev.Type, a, p)
		}
	}
	if kinds["opened"] != 1 || kinds["exchange"] == 0 {
		t.Errorf("anchors by kind %v: want one opened and the exchanges", kinds)
	}
	t.Logf("anchors checked on the devchain: %v", kinds)
}

// TestServeSIGTERMEndsLongPolls: a SIGTERM answers a long poll in flight at once (waiting,
// draining) instead of holding the shutdown for its 30 seconds, and the server exits 0.
func TestServeSIGTERMEndsLongPolls(t *testing.T) {
	bin := buildArena(t)
	s := startServer(t, bin, filepath.Join(t.TempDir(), "data"))
	ctx := t.Context()
	reg := s.call(ctx, "POST", "/v1/walkin", "", map[string]any{"name": "Sleeper"})
	tok, _ := reg.body["token"].(string)
	got := make(chan resp, 1)
	go func() { got <- s.call(ctx, "GET", "/v1/walkin/next?wait=30", tok, nil) }()
	// The poll is waiting (the walk-in holds no round) before the SIGTERM. The server is another
	// process that gives no signal of a poll held, so wall time orders them: 300 ms for the
	// request to reach its handler.
	time.Sleep(300 * time.Millisecond)
	start := time.Now()
	s.stop()
	select {
	case r := <-got:
		if r.status != 200 || r.body["waiting"] != true {
			t.Fatalf("poll in flight at SIGTERM answered %d %s", r.status, r.raw)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the poll in flight was not answered")
	}
	d := time.Since(start)
	t.Logf("shutdown with a long poll in flight took %v", d)
	if d > 10*time.Second {
		t.Fatalf("shutdown with a long poll in flight took %v", d)
	}
}

// TestServeOpsStopAndRestart: an operator stops a live table with `arena ops stop`, the walk-in's
// answer is refused meanwhile (changing nothing), `arena ops restart` brings the table back from
// its snapshot, and the round plays on to its result.
func TestServeOpsStopAndRestart(t *testing.T) {
	bin := buildArena(t)
	data := filepath.Join(t.TempDir(), "data")
	s := startServer(t, bin, data)
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	reg := s.call(ctx, "POST", "/v1/walkin", "", map[string]any{"name": "Ops Walker"})
	tok, _ := reg.body["token"].(string)
	join := s.call(ctx, "POST", "/v1/walkin/join", tok, map[string]any{"table": "practice", "format": "short"})
	table, _ := join.body["table"].(string)
	if join.status != 200 || table == "" {
		t.Fatalf("join %d %s", join.status, join.raw)
	}
	ops := func(args ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		if code := opsMain(ctx, append(args, "--server", s.url, "--data", data), noEnv, &out, &errb); code != 0 {
			t.Fatalf("arena ops %v: exit %d: %s", args, code, errb.String())
		}
		return out.String()
	}
	next := func() (envelope, []byte) {
		for {
			r := s.call(ctx, "GET", "/v1/walkin/next?wait=30", tok, nil)
			if r.status != 200 {
				t.Fatalf("next %d %s", r.status, r.raw)
			}
			if r.body["waiting"] == true {
				continue
			}
			var e envelope
			json.Unmarshal(r.raw, &e)
			return e, r.raw
		}
	}
	e, _ := next() // scouting
	if r := s.call(ctx, "POST", "/v1/walkin/answer", tok, answerFor(e)); r.status != 200 {
		t.Fatalf("answer %d %s", r.status, r.raw)
	}
	e, _ = next() // turn 1, talk 1
	if out := ops("stop", table); !strings.Contains(out, "stopped") {
		t.Fatalf("ops stop: %s", out)
	}
	if out := ops("tables"); !strings.Contains(out, table) || !strings.Contains(out, "stopped") {
		t.Fatalf("ops tables after stop:\n%s", out)
	}
	// A stopped table withdraws its open moves from the mailboxes (TableStopped), so the answer
	// finds no move waiting: §4.4 "an answer with no move waiting ... is refused with stale".
	r := s.call(ctx, "POST", "/v1/walkin/answer", tok, answerFor(e))
	if r.status != 409 || r.body["code"] != "stale" {
		t.Fatalf("an answer to a stopped table: %d %s, want 409 stale (its move was withdrawn)", r.status, r.raw)
	}
	// The walk-in's seat was given up at the stop (actors/dotdotdot/mailbox_stopped.go): polls say so, and
	// the walk-in is free to join elsewhere (a stopped round is not live, §4.4).
	if r := s.call(ctx, "GET", "/v1/walkin/next?wait=1", tok, nil); r.status != 200 || r.body["status"] != "stopped" {
		t.Fatalf("next after the stop: %d %s, want status stopped", r.status, r.raw)
	}
	// Restarted, the table resumes from its snapshot and plays to its end: the given-up seat is
	// answered with silence at once, the house seats play on.
	if out := ops("restart", table); !strings.Contains(out, "restarted") {
		t.Fatalf("ops restart: %s", out)
	}
	for {
		out := ops("tables")
		if line := lineWith(out, table); strings.Contains(line, "finished") {
			break
		} else if !strings.Contains(line, "live") {
			t.Fatalf("ops tables after restart, want the table live then finished:\n%s", out)
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the restarted table did not finish: %v", ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
	// A finished table is neither stopped nor restarted: both refuse, exit 1, and it stays finished.
	for _, verb := range []string{"stop", "restart"} {
		var out, errb bytes.Buffer
		code := opsMain(ctx, []string{verb, table, "--server", s.url, "--data", data}, noEnv, &out, &errb)
		if code != 1 || !strings.Contains(errb.String(), "has finished its round; there is nothing to "+verb) || out.Len() > 0 {
			t.Fatalf("arena ops %s of the finished table: exit %d, stdout %q, stderr %q", verb, code, out.String(), errb.String())
		}
	}
	if line := lineWith(ops("tables"), table); !strings.Contains(line, "finished") {
		t.Fatalf("after ops stop of the finished table: %s", line)
	}
	if r := s.call(ctx, "POST", "/v1/walkin/join", tok, map[string]any{"table": "practice"}); r.status != 200 {
		t.Fatalf("join after the stopped seat was given up: %d %s", r.status, r.raw)
	}
	s.stop()
}

// lineWith is the first line of out that contains sub ("" when none).
func lineWith(out, sub string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}
