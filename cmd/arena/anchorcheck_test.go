package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"arena/chain/anchor"
	"arena/games/canon"
	"arena/storage"
	"arena/storage/storagetest"
)

// walkers numbers the walk-ins of this package's tests (names are unique per server).
var walkers atomic.Int64

// playPractice plays one practice round of format ("" for Blitz) to its result as a walk-in
// with answerFor, and returns the round id and the per-move latencies (from the answer's reply
// to the next envelope's arrival).
func playPractice(t testing.TB, ctx context.Context, s *server, format string) (string, []time.Duration) {
	t.Helper()
	reg := s.call(ctx, "POST", "/v1/walkin", "", map[string]any{"name": fmt.Sprintf("Anchor Walker %d", walkers.Add(1)), "model": "test"})
	tok, _ := reg.body["token"].(string)
	if reg.status != 201 || tok == "" {
		t.Fatalf("register %d %s", reg.status, reg.raw)
	}
	body := map[string]any{"table": "practice"}
	if format != "" {
		body["format"] = format
	}
	join := s.call(ctx, "POST", "/v1/walkin/join", tok, body)
	round, _ := join.body["round"].(string)
	if join.status != 200 || round == "" {
		t.Fatalf("join %d %s", join.status, join.raw)
	}
	var lat []time.Duration
	var answeredAt time.Time
	for {
		if ctx.Err() != nil {
			t.Fatalf("round %s not over; logs:\n%s", round, s.logs)
		}
		r := s.call(ctx, "GET", "/v1/walkin/next?wait=30", tok, nil)
		if r.status != 200 {
			t.Fatalf("next %d %s", r.status, r.raw)
		}
		if r.body["result"] != nil {
			return round, lat
		}
		if r.body["waiting"] == true {
			continue
		}
		if !answeredAt.IsZero() {
			lat = append(lat, time.Since(answeredAt))
		}
		var e envelope
		if err := json.Unmarshal(r.raw, &e); err != nil || e.Round != round {
			t.Fatalf("envelope %s: %v", r.raw, err)
		}
		a := s.call(ctx, "POST", "/v1/walkin/answer", tok, answerFor(e))
		if a.status != 200 {
			t.Fatalf("answer %d/%s/%d: %d %s", e.Turn, e.Phase, e.Exchange, a.status, a.raw)
		}
		answeredAt = time.Now()
	}
}

// revealedTranscript polls the round's transcript until the final transcript anchor is
// recorded in it (transcript.anchored: the chain actor answers after the reveal) and every
// anchor request has its event, and returns the body.
func revealedTranscript(t testing.TB, ctx context.Context, s *server, round string) []byte {
	t.Helper()
	for {
		tr := s.call(ctx, "GET", "/v1/rounds/"+round+"/transcript", "", nil)
		if tr.status == 200 && bytes.Contains(tr.raw, []byte(`"type":"transcript.anchored"`)) {
			return tr.raw
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the transcript of %s never recorded its transcript anchor: %d %.300s", round, tr.status, tr.raw)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// runAnchorCheck runs the sub-command in-process and returns its exit code and output.
func runAnchorCheck(ctx context.Context, env map[string]string, args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := anchorCheckMain(ctx, args, func(k string) string { return env[k] }, &out, &errb)
	return code, out.String(), errb.String()
}

// firstFail is the first FAIL line of anchor-check's output, "" if none.
func firstFail(out string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "FAIL ") {
			return l
		}
	}
	return ""
}

// tamper returns a copy of the transcript body with event i (0-based) changed by edit, which
// gets the event decoded with json.Number (so every other byte keeps its value).
func tamper(t *testing.T, raw []byte, i int, edit func(ev map[string]any)) []byte {
	t.Helper()
	var body struct {
		Round  string            `json:"round"`
		Events []json.RawMessage `json:"events"`
	}
	if err := json.Unmarshal(raw, &body); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(body.Events[i]))
	dec.UseNumber()
	var ev map[string]any
	if err := dec.Decode(&ev); err != nil {
		t.Fatal(err)
	}
	edit(ev)
	b, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	body.Events[i] = b
	out, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// tevent is what the tamper cases read of an event.
type tevent struct {
	Seq        int64          `json:"seq"`
	Turn       int            `json:"turn"`
	Type       string         `json:"type"`
	Visibility string         `json:"visibility"`
	Payload    map[string]any `json:"payload"`
}

// TestAnchorCheckEndToEnd plays a practice round on the real binary with the embedded chain,
// then runs anchor-check on the transcript URL and on a file copy: every check passes, one line
// per anchor (opened, each exchange, each commitment, turn, transcript). Then four tampered
// copies (one private line's text, one commitment amount, one event seq, one anchor's seq) each
// fail, and the FIRST failing line is the check that covers the changed event.
func TestAnchorCheckEndToEnd(t *testing.T) {
	bin := buildArena(t)
	s := startServer(t, bin, filepath.Join(t.TempDir(), "data"))
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	round, _ := playPractice(t, ctx, s, "")
	raw := revealedTranscript(t, ctx, s, round)

	// The URL form, the node from --node.
	code, out, errOut := runAnchorCheck(ctx, nil, "--node", s.chain, s.url+"/v1/rounds/"+round+"/transcript")
	if code != 0 || firstFail(out) != "" {
		t.Fatalf("anchor-check of the served transcript: exit %d\n%s%s", code, out, errOut)
	}
	counts := map[string]int{}
	for _, l := range strings.Split(out, "\n") {
		for _, k := range []string{"opened", "exchange", "commitment", "turn", "transcript"} {
			if strings.HasPrefix(l, "ok   anchor #") && strings.Contains(l, " "+k+": ") && strings.Contains(l, " holds kind "+k+",") {
				counts[k]++
			}
		}
	}
	if counts["opened"] != 1 || counts["exchange"] != 15 || counts["turn"] != 1 || counts["transcript"] != 1 || counts["commitment"] == 0 {
		t.Errorf("anchors checked on chain by kind %v, want 1 opened, 15 exchanges, commitments, 1 turn, 1 transcript\n%s", counts, out)
	}
	if !strings.Contains(out, "ok   open-round anchor: recomputed from the revealed salts") {
		t.Errorf("no open-round anchor line:\n%s", out)
	}
	// Every sealed commitment's signature verifies with no --keys: each seat.taken publishes the
	// key its commitments are checked against (§7.3).
	if v, n := strings.Count(out, "sig verifies under the payer's key from its seat.taken"), counts["commitment"]; v != n || strings.Contains(out, "not verified") {
		t.Errorf("%d commitment signatures verified from seat.taken, want all %d:\n%s", v, n, out)
	}
	t.Logf("anchor-check %s: %d lines, on chain by kind %v", round, strings.Count(out, "\n"), counts)

	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// The file form, the node from ARENA_CHAIN_NODE.
	env := map[string]string{"ARENA_CHAIN_NODE": s.chain}
	if code, out, errOut := runAnchorCheck(ctx, env, write("good.json", raw)); code != 0 {
		t.Fatalf("anchor-check of the file: exit %d\n%s%s", code, out, errOut)
	}

	var tr struct {
		Events []tevent `json:"events"`
	}
	if err := json.Unmarshal(raw, &tr); err != nil {
		t.Fatal(err)
	}
	find := func(ok func(i int, e tevent) bool) int {
		for i, e := range tr.Events {
			if ok(i, e) {
				return i
			}
		}
		t.Fatal("no such event in the transcript")
		return -1
	}
	exchangeOf := func(i int) (turn, x int) {
		for j := i; j >= 0; j-- {
			if tr.Events[j].Type == "exchange.started" {
				return tr.Events[j].Turn, int(tr.Events[j].Payload["exchange"].(float64))
			}
		}
		return 0, 0
	}

	privateAt := find(func(_ int, e tevent) bool { return e.Type == "message.private" && e.Turn == 2 })
	forgeText := func(ev map[string]any) {
		ev["payload"].(map[string]any)["text"] = "Seat 5: 90 CCD each way, due next turn?"
	}
	turn, x := exchangeOf(privateAt)
	exchangeLine := fmt.Sprintf(" exchange: turn %d exchange %d, ", turn, x)
	cases := []struct {
		name     string
		edits    map[int]func(ev map[string]any)
		prefix   string // the first FAIL line starts with it
		contains string // and contains it
	}{{
		name:     "private line text",
		edits:    map[int]func(map[string]any){privateAt: forgeText},
		prefix:   "FAIL anchor #",
		contains: exchangeLine + "events ",
	}}
	// The same line changed AND the recorded exchange hash rewritten to match the forgery: the
	// transcript agrees with itself, the chain does not.
	{
		i := privateAt
		for tr.Events[i].Type != "exchange.started" {
			i--
		}
		from := i
		for i = privateAt + 1; tr.Events[i].Type != "exchange.started" && tr.Events[i].Type != "phase.started"; i++ {
		}
		forged := tamper(t, raw, privateAt, forgeText)
		h := exchangeHashOf(t, forged, from, i-1)
		at := find(func(_ int, e tevent) bool {
			return e.Type == "anchor.exchange" && e.Payload["hash"] != nil && int(e.Payload["seq"].(float64)) == anchorSeqOfWindow(t, out, exchangeLine)
		})
		cases = append(cases, struct {
			name     string
			edits    map[int]func(ev map[string]any)
			prefix   string
			contains string
		}{
			name: "private line text and its recorded exchange hash",
			edits: map[int]func(map[string]any){privateAt: forgeText, at: func(ev map[string]any) {
				ev["payload"].(map[string]any)["hash"] = h
			}},
			prefix:   "FAIL anchor #",
			contains: exchangeLine + "events ",
		})
	}
	sealedAt := find(func(_ int, e tevent) bool { return e.Type == "commitment.sealed" && e.Visibility == "sealed" })
	seqAt := find(func(_ int, e tevent) bool { return e.Type == "message.public" && e.Turn == 3 })
	anchorAt := find(func(_ int, e tevent) bool { return e.Type == "anchor.exchange" && e.Turn == 4 })
	cases = append(cases, []struct {
		name     string
		edits    map[int]func(ev map[string]any)
		prefix   string
		contains string
	}{{
		name: "commitment amount",
		edits: map[int]func(map[string]any){sealedAt: func(ev map[string]any) {
			p := ev["payload"].(map[string]any)
			p["amount"] = json.Number("99000000")
			p["commitment"].(map[string]any)["amount"] = json.Number("99000000")
		}},
		prefix:   "FAIL commitment " + strings.TrimPrefix(tr.Events[sealedAt].Payload["id"].(string), "sha256:")[:12],
		contains: "SHA-256 of its canonical bytes is",
	}, {
		name:     "event seq",
		edits:    map[int]func(map[string]any){seqAt: func(ev map[string]any) { ev["seq"] = ev["seq"].(json.Number) + "0" }},
		prefix:   fmt.Sprintf("FAIL events: event %d (message.public) has seq %d0", seqAt+1, seqAt+1),
		contains: fmt.Sprintf("want %d", seqAt+1),
	}, {
		name: "anchor seq",
		edits: map[int]func(map[string]any){anchorAt: func(ev map[string]any) {
			p := ev["payload"].(map[string]any)
			n, _ := p["seq"].(json.Number).Int64()
			p["seq"] = json.Number(fmt.Sprint(n + 1))
		}},
		prefix:   fmt.Sprintf("FAIL anchor #%d exchange: ", int(tr.Events[anchorAt].Payload["seq"].(float64))),
		contains: "no anchor.exchange event with seq",
	}}...)
	for _, c := range cases {
		b := raw
		for i, edit := range c.edits {
			b = tamper(t, b, i, edit)
		}
		p := write(strings.ReplaceAll(c.name, " ", "-")+".json", b)
		code, out, errOut := runAnchorCheck(ctx, env, p)
		first := firstFail(out)
		if code != 1 || !strings.HasPrefix(first, c.prefix) || !strings.Contains(first, c.contains) {
			t.Errorf("%s changed: exit %d, first FAIL %q, want %q…%q\n%s%s", c.name, code, first, c.prefix, c.contains, out, errOut)
			continue
		}
		t.Logf("%s changed: %s", c.name, first)
	}
	s.stop()

	// --data: the stopped server's arena.db opens read-only, and the chain actor's index
	// answers where each anchor's bytes landed (after a re-sign, another hash than the one in
	// the transcript; here the same). chain/verify's tests follow a re-signed one.
	if code, out, errOut := runAnchorCheck(ctx, nil, "--data", s.data, write("again.json", raw)); code != 0 || !strings.Contains(out, "all ") {
		t.Fatalf("anchor-check --data on the stopped server (its devchain run for the check): exit %d\n%s%s", code, out, errOut)
	}
	storagetest.Check(t, filepath.Join(s.data, "arena.db")) // a played server's file fits the layout
	db, err := storage.Open(filepath.Join(s.data, "arena.db"), storage.Options{ReadOnly: true, LockTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ev := tr.Events[anchorAt]
	n, _ := anchor.ParseRound(round)
	a := anchor.Anchor{Kind: anchor.Exchange, Round: n, Seq: uint32(ev.Payload["seq"].(float64))}
	hex.Decode(a.Hash[:], []byte(ev.Payload["hash"].(string)))
	data, _ := a.Encode()
	got, ok, err := followIn(db)(ctx, data)
	if err != nil || !ok || hex.EncodeToString(got[:]) != ev.Payload["tx"] {
		t.Fatalf("the chain index has anchor #%d at %x (%v, %v), the transcript says %s", a.Seq, got, ok, err, ev.Payload["tx"])
	}
	a.Seq += 1000
	data, _ = a.Encode()
	if _, ok, err := followIn(db)(ctx, data); ok || err != nil {
		t.Fatalf("an anchor never registered is found: %v %v", ok, err)
	}
}

func TestAnchorCheckUsage(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.json")
	os.WriteFile(junk, []byte("not json"), 0o600)
	good := filepath.Join(dir, "t.json")
	os.WriteFile(good, []byte(`{"round":"T-1","events":[{"seq":1,"round":"T-1","type":"round.created","visibility":"public","payload":{"game":"blitz"}}]}`), 0o600)
	for _, c := range []struct {
		args []string
		env  map[string]string
		code int
		says string
	}{
		{nil, nil, 2, "want one TRANSCRIPT"},
		{[]string{"a", "b"}, nil, 2, "want one TRANSCRIPT"},
		{[]string{"--bogus", good}, nil, 2, "flag provided but not defined"},
		{[]string{filepath.Join(dir, "none.json")}, nil, 2, "no such file"},
		{[]string{junk}, nil, 2, "transcript"},
		{[]string{good}, nil, 2, "no chain node: give --node"},
		{[]string{"--keys", junk, good}, map[string]string{"ARENA_CHAIN_NODE": "127.0.0.1:1"}, 2, "--keys"},
		{[]string{good}, map[string]string{"ARENA_CHAIN_NODE": "127.0.0.1:1"}, 2, "the node at 127.0.0.1:1 does not answer"},
	} {
		code, out, errOut := runAnchorCheck(ctx, c.env, c.args...)
		if code != c.code || !strings.Contains(errOut, c.says) {
			t.Errorf("anchor-check %q: exit %d, stderr %q, want %d and %q (stdout %q)", c.args, code, errOut, c.code, c.says, out)
		}
	}
	if code, out, _ := runAnchorCheck(ctx, nil, "-h"); code != 0 || !strings.Contains(out, "usage: arena anchor-check") {
		t.Errorf("-h: exit %d %q", code, out)
	}
}

// With a transcript URL and no --node, anchor-check takes the node from the "chain_node" member
// of the server's /healthz, where `arena serve` reports the loopback port its embedded devchain
// listens on: on a fresh server, `arena anchor-check URL` passes with no --node.
func TestAnchorCheckURLFindsTheNodeThroughHealthz(t *testing.T) {
	bin := buildArena(t)
	s := startServer(t, bin, filepath.Join(t.TempDir(), "data"))
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()

	h := s.call(ctx, "GET", "/healthz", "", nil)
	var health map[string]any
	_ = json.Unmarshal(h.raw, &health)
	if h.status != 200 || health["chain_node"] != s.chain {
		t.Errorf("/healthz: %d %s; want status ok and chain_node %q (the embedded devchain's address)", h.status, h.raw, s.chain)
	}

	round, _ := playPractice(t, ctx, s, "short")
	revealedTranscript(t, ctx, s, round)
	code, out, errOut := runAnchorCheck(context.Background(), nil, s.url+"/v1/rounds/"+round+"/transcript")
	if code != 0 || firstFail(out) != "" {
		t.Fatalf("anchor-check URL without --node: exit %d, want 0 with the node read from /healthz\nstdout: %s\nstderr: %s", code, out, errOut)
	}
}

// exchangeHashOf is the exchange hash a forger would write: hex SHA-256 of JCS of events
// [from..to] of the transcript body raw.
func exchangeHashOf(t *testing.T, raw []byte, from, to int) string {
	t.Helper()
	var body struct {
		Events []json.RawMessage `json:"events"`
	}
	if err := json.Unmarshal(raw, &body); err != nil {
		t.Fatal(err)
	}
	list := []byte{'['}
	for i := from; i <= to; i++ {
		c, err := canon.Canonical(body.Events[i])
		if err != nil {
			t.Fatal(err)
		}
		if i > from {
			list = append(list, ',')
		}
		list = append(list, c...)
	}
	list = append(list, ']')
	return hex.EncodeToString(sha256Sum(list))
}

func sha256Sum(b []byte) []byte { s := sha256.Sum256(b); return s[:] }

// anchorSeqOfWindow reads, from a passing anchor-check output, the seq of the exchange anchor
// whose line names the window (" exchange: turn T exchange X, ").
func anchorSeqOfWindow(t *testing.T, out, window string) int {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "ok   anchor #") && strings.Contains(l, window) {
			var n int
			fmt.Sscanf(strings.TrimPrefix(l, "ok   anchor #"), "%d", &n)
			return n
		}
	}
	t.Fatalf("no line for %q in\n%s", window, out)
	return 0
}
