package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	brwerewolf "arena/games/breakroom/werewolf"
)

// TestBreakroomWerewolfAgentsPlayAgainstHouseBots: `arena serve` on its embedded defaults (the
// Break Room clocks compressed) and two independent Node agents (nostr-tools keys, BIP-340
// challenges), one over the WebSocket, one over the HTTP fallback, join Werewolf; house bots
// fill the table to its minimum of 5. Each plays every turn it is given from legal_actions
// (night actions with targets, talk, votes), probes one illegal move (refused illegal_move, at
// no cost), drops and comes back mid-match when it lives long enough, and exits 0 with its
// match_end, which ranks every seat with its role, team and a score of 1, 0.5 or 0. The match's
// log at /r/{id}.jsonl holds every line, the private ones the end reveals included (each seat's
// role_private), and `arena verify-log` re-simulates it; the same log with one line altered fails
// at that line. /rules/werewolf serves the engine's rules and its On the wire section.
func TestBreakroomWerewolfAgentsPlayAgainstHouseBots(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the Break Room agents run the binary for a whole match")
	}
	node, dir := breakroomAgent(t)
	bin := buildArena(t)
	s := startServeArgs(t, bin, filepath.Join(t.TempDir(), "data"), breakroomFast, nil)
	// /rules/werewolf is the engine's own page: its rules text, then On the wire.
	rq, _ := http.NewRequest("GET", s.url+"/rules/werewolf", nil)
	rq.Host = "breakroom.localhost"
	rr, err := http.DefaultClient.Do(rq)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(rr.Body)
	rr.Body.Close()
	if rr.StatusCode != 200 || !bytes.Contains(page, []byte(strings.TrimRight(brwerewolf.RulesText, "\n"))) || !bytes.Contains(page, []byte(brwerewolf.OnTheWire()[:200])) {
		t.Fatalf("/rules/werewolf: %d\n%s", rr.StatusCode, page)
	}
	var wg sync.WaitGroup
	runs := make([]agentRun, 2)
	for i, transport := range []string{"ws", "http"} {
		wg.Go(func() {
			runs[i] = runAgent(t.Context(), node, dir, s.url, "--game", "werewolf", "--transport", transport, "--reconnect-after", "1", "--probe-errors")
		})
	}
	wg.Wait()
	var match string
	for _, r := range runs {
		done := r.last()
		if r.err != nil || done == nil || done["step"] != "done" {
			t.Fatalf("agent %v: %v\nstdout:\n%s\nstderr:\n%s", r.args, r.err, r.out, r.errs)
		}
		end := done["match_end"].(map[string]any)
		seen := done["seen"].(map[string]any)
		if errs, _ := seen["errors"].([]any); !slices.Contains(errs, any("illegal_move")) {
			t.Fatalf("agent %v: the illegal probe was not refused: %v", r.args, seen)
		}
		var reseated bool
		for _, st := range r.steps {
			reseated = reseated || st["step"] == "reseated"
		}
		if seen["turns"].(float64) > 1 && (!reseated || seen["reconnected"] != true) {
			t.Fatalf("agent %v: %v turns and no reseat after its drop:\n%s", r.args, seen["turns"], r.out)
		}
		ranking := end["ranking"].([]any)
		if len(ranking) < 5 || len(ranking) > 8 {
			t.Fatalf("agent %v: %d seats ranked", r.args, len(ranking))
		}
		var me map[string]any
		for _, e := range ranking {
			e := e.(map[string]any)
			if e["pubkey"] == done["pubkey"] {
				me = e
			}
			if sc := e["score"].(float64); sc != 0 && sc != 0.5 && sc != 1 || e["role"] == nil || e["team"] == nil {
				t.Fatalf("agent %v: ranking entry %v", r.args, e)
			}
		}
		if me == nil || me["rank"] != end["your_rank"] {
			t.Fatalf("agent %v: not ranked as its your_rank: %v", r.args, end)
		}
		if match != "" && end["match_id"] != match {
			t.Fatalf("the agents played different matches: %s, %v", match, end["match_id"])
		}
		match = end["match_id"].(string)
	}

	req, _ := http.NewRequest("GET", s.url+"/r/"+match+".jsonl", nil)
	req.Host = "breakroom.localhost"
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	log, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	lines := strings.Split(strings.TrimSpace(string(log)), "\n")
	types := map[string]int{}
	for _, l := range lines {
		var v struct{ Type string }
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("/r/%s.jsonl: %v in %s", match, err, l)
		}
		types[v.Type]++
	}
	if resp.StatusCode != 200 || types["match_end"] != 1 || types["game_over"] != 1 || types["role_private"] < 5 || types["dawn"] < 1 || types["vote_result"] < 1 {
		t.Fatalf("/r/%s.jsonl: %d, line types %v\n%s", match, resp.StatusCode, types, log)
	}
	file := filepath.Join(t.TempDir(), "match.jsonl")
	if err := os.WriteFile(file, log, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "verify-log", file).CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), fmt.Sprintf("ok: werewolf match, %d of %d lines", len(lines), len(lines))) {
		t.Fatalf("verify-log: %v\n%s\nlog:\n%s", err, out, log)
	}
	// One line altered: the first dawn says nobody died (or somebody did).
	at := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, `"type":"dawn"`) })
	altered := slices.Clone(lines)
	if strings.Contains(altered[at], `"deaths":[]`) {
		altered[at] = strings.Replace(altered[at], `"deaths":[]`, `"deaths":[0]`, 1)
	} else {
		altered[at] = strings.Replace(altered[at], `"deaths":[`, `"deaths":[7,`, 1)
	}
	bad := filepath.Join(t.TempDir(), "altered.jsonl")
	if err := os.WriteFile(bad, []byte(strings.Join(altered, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err = exec.Command(bin, "verify-log", bad).CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 || !bytes.HasPrefix(out, fmt.Appendf(nil, "FAIL line %d (", at+1)) {
		t.Fatalf("verify-log of the log with line %d altered: %v\n%s", at+1, err, out)
	}
}
