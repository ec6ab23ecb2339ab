package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"arena/games/breakroom/auction"
)

// TestBreakroomAuctionAgainstHouseBots: `arena serve` on its embedded defaults (the Break Room
// clocks compressed) and the independent Node agent (nostr-tools key, BIP-340 challenge, its
// moves from legal_actions alone: a bid of the entry's min or a pass) playing a whole Auction
// match over the WebSocket against the house bots that fill its table, dropping its socket after
// two turns and coming back with a fresh signed join, its probe of an illegal move refused with
// illegal_move. The match's public log, served at /r/{match_id}.jsonl once it is over, passes
// `arena verify-log`; the same log with one lot_result's price altered fails at exactly that
// line. /rules/auction serves the engine's rules text and its On the wire section.
func TestBreakroomAuctionAgainstHouseBots(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the Break Room agent runs the binary for a whole match")
	}
	node, dir := breakroomAgent(t)
	bin := buildArena(t)
	s := startServeArgs(t, bin, filepath.Join(t.TempDir(), "data"), breakroomFast, nil)
	checkGames(t, s.url)
	// /rules/auction is the engine's own rules page (rules.md, then its On the wire section).
	rq, _ := http.NewRequest("GET", s.url+"/rules/auction", nil)
	rq.Host = "breakroom.localhost"
	rr, err := http.DefaultClient.Do(rq)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(rr.Body)
	rr.Body.Close()
	if rr.StatusCode != 200 || !strings.Contains(string(page), "## On the wire") || !strings.Contains(string(page), "pays exactly its bid (first price)") ||
		!strings.Contains(string(page), `"pricing":"first_price"`) {
		t.Fatalf("/rules/auction: %d\n%s", rr.StatusCode, page)
	}
	r := runAgent(t.Context(), node, dir, s.url, "--game", auction.GameID, "--transport", "ws", "--reconnect-after", "2", "--probe-errors")
	checkDone(t, r)
	end := r.last()["match_end"].(map[string]any)
	match := end["match_id"].(string)
	houses := 0
	for _, e := range end["ranking"].([]any) {
		entry := e.(map[string]any)
		if k := entry["pubkey"].(string); strings.HasPrefix(k, "house:") {
			houses++
		}
		if _, ok := entry["score"]; !ok {
			t.Fatalf("ranking entry without a score: %v", entry)
		}
		if entry["score"].(float64) != entry["cash"].(float64)+entry["value_won"].(float64) {
			t.Fatalf("ranking entry %v: score is not cash + value won", entry)
		}
	}
	if houses < 2 {
		t.Fatalf("the agent's table had %d house bots, want at least 2: %v", houses, end["ranking"])
	}

	req, _ := http.NewRequest("GET", s.url+"/r/"+match+".jsonl", nil)
	req.Host = "breakroom.localhost"
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	log, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !bytes.Contains(log, []byte(`"type":"match_end"`)) || !bytes.Contains(log, []byte(`"type":"deal_private"`)) {
		t.Fatalf("/r/%s.jsonl: %d\n%s", match, resp.StatusCode, log)
	}
	file := filepath.Join(t.TempDir(), "match.jsonl")
	if err := os.WriteFile(file, log, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "verify-log", file).CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "ok: auction match") {
		t.Fatalf("verify-log: %v\n%s\nlog:\n%s", err, out, log)
	}

	// One line tampered: the first sold lot's price, one more. verify-log fails at that line.
	lines := strings.Split(strings.TrimSpace(string(log)), "\n")
	at := -1
	for i, l := range lines {
		if strings.Contains(l, `"type":"lot_result"`) && strings.Contains(l, `"sold":true`) {
			at = i
			break
		}
	}
	if at < 0 {
		t.Fatalf("no lot was sold:\n%s", log)
	}
	var price int
	if _, err := fmt.Sscanf(lines[at][strings.Index(lines[at], `"price":`):], `"price":%d`, &price); err != nil {
		t.Fatalf("lot_result %s: %v", lines[at], err)
	}
	lines[at] = strings.Replace(lines[at], fmt.Sprintf(`"price":%d`, price), fmt.Sprintf(`"price":%d`, price+1), 1)
	tampered := filepath.Join(t.TempDir(), "tampered.jsonl")
	if err := os.WriteFile(tampered, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err = exec.Command(bin, "verify-log", tampered).CombinedOutput()
	want := fmt.Sprintf("FAIL line %d (seq ", at+1)
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.HasPrefix(string(out), want) || !strings.Contains(string(out), "lot_result") {
		t.Fatalf("verify-log of the tampered log: %v\n%s\nwant it to start %q", err, out, want)
	}
}
