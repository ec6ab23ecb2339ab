package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	brinference "arena/games/breakroom/inference"
)

// TestBreakroomInferenceAgentPlays: `arena serve` on its embedded defaults (Break Room clocks
// compressed) and the independent Node agent playing Inference (`--game inference`) over the
// WebSocket against house bots, dropping its socket after two turns and coming back: it exits 0
// with its match_end. The match's public log, fetched from /r/{match_id}.jsonl, holds no
// deal_private line and no mucked value, and `arena verify-log` re-simulates it through its end,
// every revealed value proved against its commitment; the same log with one showdown value
// altered fails at that line.
func TestBreakroomInferenceAgentPlays(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the Break Room agent runs the binary for a whole match")
	}
	node, dir := breakroomAgent(t)
	bin := buildArena(t)
	s := startServeArgs(t, bin, filepath.Join(t.TempDir(), "data"), breakroomFast, nil)
	r := runAgent(t.Context(), node, dir, s.url, "--game", "inference", "--transport", "ws", "--reconnect-after", "2", "--probe-errors")
	checkDone(t, r)
	end := r.last()["match_end"].(map[string]any)
	matchID := end["match_id"].(string)
	for _, e := range end["ranking"].([]any) {
		en := e.(map[string]any)
		if _, ok := en["credits"].(float64); !ok || en["score"] != nil {
			t.Fatalf("ranking entry %v: want credits and no score (§2.8)", en)
		}
	}

	get := func(path string) (int, []byte) {
		t.Helper()
		req, _ := http.NewRequest("GET", s.url+path, nil)
		req.Host = "breakroom.localhost"
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, b
	}
	// The rules page is the engine's own (rules.md and its On the wire section); the transcript
	// is in the game's words.
	if st, page := get("/rules/inference"); st != 200 || string(page) != (brinference.Engine{}).Info().RulesPage() {
		t.Fatalf("/rules/inference: %d\n%s", st, page)
	}
	if st, tr := get("/r/" + matchID + "/transcript"); st != 200 || !bytes.Contains(tr, []byte("Inference begins with 3 players")) ||
		!bytes.Contains(tr, []byte(" takes the pot of ")) {
		t.Fatalf("/r/%s/transcript: %d\n%s", matchID, st, tr)
	}
	status, log := get("/r/" + matchID + ".jsonl")
	if status != 200 || !bytes.Contains(log, []byte(`"type":"match_end"`)) || !bytes.Contains(log, []byte(`"type":"deal"`)) {
		t.Fatalf("/r/%s.jsonl: %d\n%s", matchID, status, log)
	}
	if bytes.Contains(log, []byte("deal_private")) || bytes.Contains(log, []byte("deal_key")) {
		t.Fatalf("the public log holds a dealt value or the deal key:\n%s", log)
	}
	verify := func(b []byte) (string, error) {
		file := filepath.Join(t.TempDir(), "match.jsonl")
		if err := os.WriteFile(file, b, 0o600); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(bin, "verify-log", file).CombinedOutput()
		return string(out), err
	}
	if out, err := verify(log); err != nil || !strings.HasPrefix(out, "ok: inference match") {
		t.Fatalf("verify-log: %v\n%s\nlog:\n%s", err, out, log)
	}

	// Alter the first revealed value (to another number of the deck) of the first contested
	// showdown: verify-log fails at that line, for its commitment.
	lines := bytes.Split(bytes.TrimSpace(log), []byte("\n"))
	at := -1
	for i, l := range lines {
		if bytes.Contains(l, []byte(`"type":"showdown"`)) && bytes.Contains(l, []byte(`"uncontested":false`)) {
			at = i
			break
		}
	}
	if at < 0 {
		t.Fatalf("no contested showdown in the match:\n%s", log)
	}
	var sd struct {
		Reveals []struct{ Value int } `json:"reveals"`
	}
	if err := json.Unmarshal(lines[at], &sd); err != nil || len(sd.Reveals) == 0 {
		t.Fatalf("showdown line %s: %v", lines[at], err)
	}
	v := sd.Reveals[0].Value
	nv := v%100 + 1
	old, repl := `"value":`+strconv.Itoa(v), `"value":`+strconv.Itoa(nv)
	lines[at] = bytes.Replace(lines[at], []byte(old), []byte(repl), 1)
	out, err := verify(append(bytes.Join(lines, []byte("\n")), '\n'))
	want := "FAIL line " + strconv.Itoa(at+1) + " "
	if err == nil || !strings.HasPrefix(out, want) || !strings.Contains(out, "commitment") {
		t.Fatalf("verify-log of the altered log: %v\n%s\nwant it to start %q", err, out, want)
	}
}
