package main

import (
	"bufio"
	"bytes"
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
	"strings"
	"testing"
	"time"

	"arena/chain/badge"
	"arena/chain/ccd"
	"arena/games"
)

// Two registered agents (the A2A JS SDK agent, each its own Badge on `arena serve`'s embedded
// devchain, each of its own owner) join a rated table with signed joins: each is told it waits
// ("gathering", the table, its place, starts_by); the table tops up with a house seat and the
// Short round plays out on the real binary; both Badges are then rated (GET /v1/ratings, the
// house seat not), the next round's seat.taken shows the ratings, and `arena ops check ratings`
// finds every rating its rounds' and every round its table's.
func TestServeRatedTableWithRegisteredAgents(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the rated end-to-end runs the binary with two agents for about 30 s")
	}
	bin := buildArena(t)
	dir := t.TempDir()
	type agent struct {
		id    badge.AgentID
		js    *jsAgentProc
		owner ccd.Address
		name  string
	}
	var ags []agent
	var regs []map[string]any
	for i, name := range []string{"Ada", "Basil"} {
		seed := bytes.Repeat([]byte{byte(0x51 + i)}, 32)
		id := badge.NewAgentID(badge.Testnet, badge.TestnetRegistry, uint64(5151+i))
		cardFile := filepath.Join(dir, fmt.Sprintf("card%d.json", i))
		js := startNodeAgent(t, id.String(), seed, cardFile)
		var owner ccd.Address
		copy(owner[:], bytes.Repeat([]byte{byte(21 + i)}, 32))
		card, err := badge.WriteCard(badge.CardSpec{Agent: id, Name: name, Kind: badge.KindPlayer,
			SigningKey: js.key.Public().(ed25519.PublicKey), Endpoint: js.base + "/a2a", Owner: owner, Registry: badge.TestnetRegistry})
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(cardFile, card, 0o600); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(card)
		regs = append(regs, map[string]any{"token_id": 5151 + i, "owner": owner.String(),
			"agent_uri": js.base + "/card.json", "metadata_hash": hex.EncodeToString(sum[:])})
		ags = append(ags, agent{id: id, js: js, owner: owner, name: name})
	}
	agentsJSON, _ := json.Marshal(regs)
	agentsFile := filepath.Join(dir, "agents.json")
	os.WriteFile(agentsFile, agentsJSON, 0o600)
	cfgFile := filepath.Join(dir, "arena.json")
	os.WriteFile(cfgFile, []byte(`{"pace":{"agent_talk":"1500ms","agent_commit":"2s","scouting":"1s","walkin_top_up":"2s"}}`), 0o600)

	data := filepath.Join(dir, "data")
	s := &server{t: t, data: data, logs: &syncBuf{}}
	instanceID := badge.NewAgentID(badge.Testnet, badge.TestnetRegistry, 78).String()
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

	// joinRated has agent i sign and post a rated join; it answers the reply.
	joinRated := func(i int) map[string]any {
		t.Helper()
		code, body, raw := postJSON(t, ags[i].js.base+"/control", map[string]any{"join": map[string]any{"url": s.url + "/v1/join", "table": "rated", "format": "short"}}, nil)
		if code != 200 || body["status"] != float64(200) {
			t.Fatalf("rated join of %s: %d %s", ags[i].name, code, raw)
		}
		return body["reply"].(map[string]any)
	}
	// playRound has both agents join and waits for the round's transcript (revealed).
	playRound := func() (string, []games.Event) {
		t.Helper()
		var table string
		for i := range ags {
			r := joinRated(i)
			if r["status"] != "gathering" || r["kind"] != "rated" || r["seat"] != float64(i+1) || r["starts_by"] == nil {
				t.Fatalf("rated join %d: %v", i, r)
			}
			if i == 0 {
				table, _ = r["table"].(string)
			} else if r["table"] != table {
				t.Fatalf("the agents wait at %v and %s", r["table"], table)
			}
		}
		// The table's round, from the ops list once the table opened (top-up after 2 s).
		var round string
		eventually(t, 30*time.Second, 200*time.Millisecond, func() bool {
			tok, _ := os.ReadFile(filepath.Join(data, "operator.token"))
			req, _ := http.NewRequest("GET", s.url+"/ops/tables", nil)
			req.Header.Set("Authorization", "Bearer "+strings.TrimSpace(string(tok)))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return false
			}
			defer resp.Body.Close()
			var l struct {
				Tables []struct {
					ID, Round, Kind string
				}
			}
			json.NewDecoder(resp.Body).Decode(&l)
			for _, x := range l.Tables {
				if x.ID == table && x.Round != "" && x.Kind == "rated" {
					round = x.Round
					return true
				}
			}
			return false
		}, func() string { return "the rated table " + table + " never opened" })
		var events []games.Event
		eventually(t, 90*time.Second, 500*time.Millisecond, func() bool {
			code, raw := getJSON(t, s.url+"/v1/rounds/"+round+"/transcript")
			if code != 200 {
				return false
			}
			var tr struct {
				Events []games.Event `json:"events"`
			}
			json.Unmarshal(raw, &tr)
			events = tr.Events
			return true
		}, func() string { return fmt.Sprintf("the rated round %s at %s was not revealed in 90 s", round, table) })
		return round, events
	}
	ratings := func() map[string]map[string]any {
		t.Helper()
		code, raw := getJSON(t, s.url+"/v1/ratings")
		var r struct{ Ratings []map[string]any }
		if err := json.Unmarshal(raw, &r); err != nil || code != 200 {
			t.Fatalf("ratings %d %s", code, raw)
		}
		out := map[string]map[string]any{}
		for _, x := range r.Ratings {
			out[x["agent"].(string)] = x
		}
		return out
	}

	_, events := playRound()
	seated := map[string]bool{}
	for _, e := range events {
		if e.Type == "seat.taken" {
			var p map[string]any
			json.Unmarshal(e.Payload, &p)
			seated[fmt.Sprint(p["agent"], "/", p["kind"], "/", p["rating"])] = true
		}
	}
	for _, a := range ags {
		if !seated[a.id.String()+"/byo/0"] {
			t.Fatalf("%s not seated unrated as byo: %v", a.name, seated)
		}
	}
	var rs map[string]map[string]any
	eventually(t, 10*time.Second, 100*time.Millisecond, func() bool { rs = ratings(); return len(rs) == 2 },
		func() string { return fmt.Sprintf("ratings after one rated round: %v", rs) })
	for _, a := range ags {
		r := rs[a.id.String()]
		if r == nil || r["rounds"] != float64(1) || r["name"] != a.name || r["rd"].(float64) >= 350 {
			t.Fatalf("%s rated %v", a.name, r)
		}
	}

	// The next rated round shows each Badge's rating in seat.taken.
	_, events = playRound()
	for _, e := range events {
		if e.Type != "seat.taken" {
			continue
		}
		var p map[string]any
		json.Unmarshal(e.Payload, &p)
		if r := rs[fmt.Sprint(p["agent"])]; r != nil && p["rating"] != r["display"] {
			t.Fatalf("seat.taken %v shows %v, the Badge's rating is %v", p["agent"], p["rating"], r["display"])
		}
	}
	eventually(t, 10*time.Second, 100*time.Millisecond, func() bool {
		rs = ratings()
		return rs[ags[0].id.String()]["rounds"] == float64(2) && rs[ags[1].id.String()]["rounds"] == float64(2)
	}, func() string { return fmt.Sprintf("ratings after two rounds: %v", rs) })

	var o, errb bytes.Buffer
	if code := opsMain(t.Context(), []string{"check", "ratings", "--server", s.url, "--data", data}, noEnv, &o, &errb); code != 0 {
		t.Fatalf("arena ops check ratings: exit %d: %s %s", code, o.String(), errb.String())
	}
	t.Logf("ratings after two rated rounds: %v", rs)
	s.stop()
}
