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
	"time"

	"arena/games/breakroom/diplomacy"
)

// breakroomDiplomacyPace is `arena serve`'s Break Room for a table of agents only: the lobby
// timer at 1 s, house bots and the bartender only after a minute alone (five agents fill the
// table long before), and every deadline 10 s, which agents answering at once never reach.
var breakroomDiplomacyPace = []string{"--breakroom-lobby-wait", "1s", "--breakroom-house-after", "1m",
	"--breakroom-house-pause", "5ms", "--breakroom-turn", "10s", "--breakroom-away", "3s"}

// dipLine is the part of a Diplomacy log line the test reads.
type dipLine struct {
	Type    string
	Phase   string
	Seat    *int
	To      []int
	Text    string
	Reveal  string
	Year    int
	Reason  string
	Solo    *int
	Orders  json.RawMessage
	Counts  map[string]int
	Owners  map[string][]string
	Results []struct{ Power, Order, Result string }
}

// TestBreakroomDiplomacyAgentsPlayAWholeGame: `arena serve` and five independent Node agents
// (nostr-tools keys, BIP-340 challenges; four over the WebSocket, one over the HTTP fallback),
// nothing else seated, play a whole Diplomacy match from the wire (transport/breakroom/testagent/
// diplomacy.mjs): press of up to three messages a press turn to recipients they choose, and order
// sets with moves, supports and convoys built from visible_state's options. Each agent's first
// movement set carries an order the door refuses (illegal_move); the agent drops it and sends the
// set again in the same turn. Each agent checks it is never shown a private message it neither
// wrote nor received. The log at /r/{id}.jsonl then holds: a game_over after the 1906 centre
// update (or a solo of at least 18 centres), one centres line per year played in order, each
// accounting for all 34 centres; GER/ITA holding in every orders line; convoys, convoyed moves and
// supports in the orders; every private message each agent sent, with reveal "end", and every
// broadcast. `arena verify-log` re-simulates the log; the log with one adjudication result altered
// fails at that line.
func TestBreakroomDiplomacyAgentsPlayAWholeGame(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the Break Room agents run the binary for a whole match")
	}
	node, dir := breakroomAgent(t)
	bin := buildArena(t)
	s := startServeArgs(t, bin, filepath.Join(t.TempDir(), "data"), breakroomDiplomacyPace, nil)
	start := time.Now()
	var wg sync.WaitGroup
	runs := make([]agentRun, diplomacy.Seats)
	for i := range runs {
		transport := "ws"
		if i == 0 {
			transport = "http"
		}
		wg.Go(func() {
			runs[i] = runAgent(t.Context(), node, dir, s.url, "--game", diplomacy.GameID, "--transport", transport,
				"--name", fmt.Sprintf("Envoy %d", i), "--probe-orders")
		})
	}
	wg.Wait()
	t.Logf("five agents played the match in %v", time.Since(start).Round(time.Millisecond))

	type stats struct {
		PressPrivate   int `json:"press_private"`
		PressBroadcast int `json:"press_broadcast"`
		OrderSets      int `json:"order_sets"`
		Convoys        int
		Supports       int
		Refused, Fixed int
		Sent           []struct {
			To   int
			Text string
		}
	}
	var match string
	agents := map[string]bool{}
	var sent []string // every private text the agents sent, with its recipient
	var broadcasts, privateSeen, convoys, supports int
	for _, r := range runs {
		done := r.last()
		if r.err != nil || done == nil || done["step"] != "done" {
			t.Fatalf("agent %v: %v\nstdout:\n%s\nstderr:\n%s", r.args, r.err, r.out, r.errs)
		}
		end := done["match_end"].(map[string]any)
		seen := done["seen"].(map[string]any)
		var st stats
		b, _ := json.Marshal(seen["diplomacy"])
		if err := json.Unmarshal(b, &st); err != nil {
			t.Fatal(err)
		}
		if errs, _ := seen["errors"].([]any); !slices.Contains(errs, any("illegal_move")) || st.Refused < 1 || st.Fixed < 1 {
			t.Fatalf("agent %v: its probe order was not refused and fixed: %v", r.args, seen)
		}
		if match != "" && end["match_id"] != match {
			t.Fatalf("the agents played different matches: %s, %v", match, end["match_id"])
		}
		match = end["match_id"].(string)
		agents[done["pubkey"].(string)] = true
		seat := int(seen["seat"].(float64))
		for _, m := range st.Sent {
			sent = append(sent, fmt.Sprintf("%d>%d %s", seat, m.To, m.Text))
		}
		broadcasts += st.PressBroadcast
		privateSeen += int(seen["private_seen"].(float64))
		convoys += st.Convoys
		supports += st.Supports
	}
	end := runs[0].last()["match_end"].(map[string]any)
	ranking := end["ranking"].([]any)
	powers := map[string]bool{}
	for _, e := range ranking {
		e := e.(map[string]any)
		powers[e["power"].(string)] = true
		if !agents[e["pubkey"].(string)] {
			t.Fatalf("ranking seats %v, which is none of the five agents", e)
		}
	}
	if len(ranking) != diplomacy.Seats || len(agents) != diplomacy.Seats || len(powers) != diplomacy.Seats {
		t.Fatalf("ranking %v: want the five agents, one power each", ranking)
	}
	if len(sent) == 0 || privateSeen < len(sent) || convoys == 0 || supports == 0 {
		t.Fatalf("the agents sent %d private messages and were shown %d (sender and recipient each see one), ordered %d convoys and %d supports",
			len(sent), privateSeen, convoys, supports)
	}

	req, _ := http.NewRequest("GET", s.url+"/r/"+match+".jsonl", nil)
	req.Host = "breakroom.localhost"
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	log, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("/r/%s.jsonl: %d\n%s", match, resp.StatusCode, log)
	}
	lines := strings.Split(strings.TrimSpace(string(log)), "\n")
	var logged []string
	var years []int
	var gameOver *dipLine
	var centres dipLine
	var nBroadcast, nConvoy, nVia, nSupport, adjudicated int
	for _, l := range lines {
		var v dipLine
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("/r/%s.jsonl: %v in %s", match, err, l)
		}
		switch v.Type {
		case "message_private":
			if v.Reveal != "end" || len(v.To) != 1 {
				t.Fatalf("private press line %s", l)
			}
			logged = append(logged, fmt.Sprintf("%d>%d %s", *v.Seat, v.To[0], v.Text))
		case "message":
			nBroadcast++
		case "orders":
			var byPower map[string][]string
			if err := json.Unmarshal(v.Orders, &byPower); err != nil {
				t.Fatalf("orders line %s: %v", l, err)
			}
			for p, os := range byPower {
				for _, o := range os {
					// GER/ITA hold in movement, disband when dislodged, and lose units by the
					// civil-disorder rule in a winter (§6.2).
					frozen := map[byte]bool{'M': strings.HasSuffix(o, " H"), 'R': strings.HasSuffix(o, " D"), 'A': strings.HasPrefix(o, "D ")}
					if (p == "GER" || p == "ITA") && !frozen[v.Phase[len(v.Phase)-1]] {
						t.Fatalf("%s gave %q in %s: the removed powers only hold, disband or are removed", p, o, v.Phase)
					}
					nConvoy += strings.Count(o, " C A ")
					nVia += strings.Count(o, " via convoy")
					nSupport += strings.Count(o, " S ")
				}
			}
		case "adjudication":
			adjudicated++
		case "centres":
			total := 0
			for _, n := range v.Counts {
				total += n
			}
			owned := 0
			for _, cs := range v.Owners {
				owned += len(cs)
			}
			if total+len(v.Owners["neutral"]) != 34 || owned != 34 {
				t.Fatalf("centres line accounts for %d counted + %d neutral, %d listed: want 34\n%s", total, len(v.Owners["neutral"]), owned, l)
			}
			years = append(years, v.Year)
			centres = v
		case "game_over":
			gameOver = &v
		}
	}
	slices.Sort(sent)
	slices.Sort(logged)
	if !slices.Equal(sent, logged) || nBroadcast != broadcasts {
		t.Fatalf("the log's private press (%d) is not what the agents sent (%d), or its broadcasts %d not %d:\nlog %q\nsent %q",
			len(logged), len(sent), nBroadcast, broadcasts, logged, sent)
	}
	if nConvoy == 0 || nVia == 0 || nSupport == 0 || adjudicated < 12 {
		t.Fatalf("orders hold %d convoys, %d convoyed moves, %d supports; %d adjudications", nConvoy, nVia, nSupport, adjudicated)
	}
	if gameOver == nil || len(years) == 0 {
		t.Fatalf("no game_over or no centres line:\n%s", log)
	}
	for i, y := range years {
		if y != 1901+i {
			t.Fatalf("centres lines for years %v, want 1901 onwards, one a year", years)
		}
	}
	switch last := years[len(years)-1]; {
	case gameOver.Reason == "year_limit" && last == 1906:
	case gameOver.Reason == "solo" && gameOver.Solo != nil && last <= 1906:
		best := 0
		for _, n := range centres.Counts {
			best = max(best, n)
		}
		if best < 18 {
			t.Fatalf("a solo with at most %d centres", best)
		}
	default:
		t.Fatalf("game_over %+v after the %d centre update", gameOver, last)
	}
	score := 0
	for _, e := range ranking {
		e := e.(map[string]any)
		score += int(e["score"].(float64))
		if int(e["centres"].(float64)) != centres.Counts[e["power"].(string)] {
			t.Fatalf("ranking %v against the last centres line %v", e, centres.Counts)
		}
	}
	if score+centres.Counts["GER"]+centres.Counts["ITA"]+len(centres.Owners["neutral"]) != 34 {
		t.Fatalf("the ranking's scores %d, GER/ITA's and the neutral centres do not make 34: %v", score, centres.Counts)
	}

	t.Logf("%d lines: %d private messages, %d broadcasts, %d convoys, %d convoyed moves, %d supports, %d adjudications; %s after the %d update, centres %v",
		len(lines), len(logged), nBroadcast, nConvoy, nVia, nSupport, adjudicated, gameOver.Reason, years[len(years)-1], centres.Counts)
	file := filepath.Join(t.TempDir(), "match.jsonl")
	if err := os.WriteFile(file, log, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "verify-log", file).CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), fmt.Sprintf("ok: diplomacy match, %d of %d lines", len(lines), len(lines))) {
		t.Fatalf("verify-log: %v\n%s", err, out)
	}
	// One line altered: the first adjudication's first successful order is said to fail.
	at := slices.IndexFunc(lines, func(l string) bool {
		return strings.Contains(l, `"type":"adjudication"`) && strings.Contains(l, `"result":"succeeds"`)
	})
	altered := slices.Clone(lines)
	altered[at] = strings.Replace(altered[at], `"result":"succeeds"`, `"result":"fails"`, 1)
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
