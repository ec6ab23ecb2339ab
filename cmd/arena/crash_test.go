package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"arena/games/canon"
)

// TestServeKilledRightAfterAnswers kills the real server with SIGKILL twice in one practice round,
// each time right after an answer was accepted (the reply came back, so it was durable: write
// before speak), and restarts it on the same data dir. Across the three processes every envelope
// the walk-in collects must verify with the published key, be valid JSON, and carry in
// state.public_log a prefix of the revealed transcript's public events in their JCS form, with
// the walk-in's own accepted line in the first envelope after each restart; the round ends with
// one reveal and no seq gap.
func TestServeKilledRightAfterAnswers(t *testing.T) {
	bin := buildArena(t)
	data := filepath.Join(t.TempDir(), "data")
	s := startServer(t, bin, data)
	ctx, cancel := context.WithTimeout(t.Context(), 150*time.Second)
	defer cancel()
	card := s.call(ctx, "GET", "/.well-known/agent.json", "", nil)
	key, err := canon.ParseKey(fmt.Sprint(card.body["signing_key"]))
	if err != nil {
		t.Fatalf("agent card %s: %v", card.raw, err)
	}
	reg := s.call(ctx, "POST", "/v1/walkin", "", map[string]any{"name": "Kill Walker"})
	tok, _ := reg.body["token"].(string)
	join := s.call(ctx, "POST", "/v1/walkin/join", tok, map[string]any{"table": "practice"})
	round, _ := join.body["round"].(string)
	if join.status != 200 || round == "" {
		t.Fatalf("join %d %s", join.status, join.raw)
	}
	type held struct {
		raw        []byte
		mustHear   string // a line the walk-in said before this envelope (after a restart)
		afterCrash bool
	}
	var envs []held
	lastSaid := ""
	crashed := false
	// play answers until killAt (turn/phase/exchange) has been answered, then returns false; or
	// to the result (true).
	play := func(s *server, killAt string) bool {
		for {
			r := s.call(ctx, "GET", "/v1/walkin/next?wait=30", tok, nil)
			if r.status != 200 {
				t.Fatalf("next %d %s", r.status, r.raw)
			}
			if r.body["result"] != nil {
				return true
			}
			if r.body["waiting"] == true {
				continue
			}
			h := held{raw: bytes.Clone(r.raw), afterCrash: crashed}
			if crashed {
				h.mustHear, crashed = lastSaid, false
			}
			envs = append(envs, h)
			var e envelope
			if err := json.Unmarshal(r.raw, &e); err != nil {
				t.Fatalf("envelope is not JSON: %v", err)
			}
			a := answerFor(e)
			if e.Phase == "talk" {
				text := fmt.Sprintf("turn %d, exchange %d: <kill> & \u2028 test", e.Turn, e.Exchange)
				a["messages"] = []any{map[string]any{"type": "public", "text": text, "tone": "ask"}}
				lastSaid = text
			}
			if r := s.call(ctx, "POST", "/v1/walkin/answer", tok, a); r.status != 200 {
				t.Fatalf("answer: %d %s", r.status, r.raw)
			}
			if fmt.Sprintf("%d/%s/%d", e.Turn, e.Phase, e.Exchange) == killAt {
				return false
			}
		}
	}
	kill := func(s *server) {
		if err := s.cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		s.cmd.Wait()
		crashed = true
	}
	if play(s, "1/talk/2") {
		t.Fatal("round over before the first kill")
	}
	kill(s)
	s2 := startServer(t, bin, data)
	if play(s2, "3/talk/1") {
		t.Fatal("round over before the second kill")
	}
	kill(s2)
	s3 := startServer(t, bin, data)
	if !play(s3, "") {
		t.Fatal("no result")
	}
	tr := s3.call(ctx, "GET", "/v1/rounds/"+round+"/transcript", "", nil)
	var transcript struct {
		Events []json.RawMessage `json:"events"`
	}
	if err := json.Unmarshal(tr.raw, &transcript); err != nil || tr.status != 200 {
		t.Fatalf("transcript %d %.300s", tr.status, tr.raw)
	}
	var publicJCS [][]byte
	var texts []string
	revealed := 0
	for i, raw := range transcript.Events {
		var ev struct {
			Seq        int64  `json:"seq"`
			Type       string `json:"type"`
			Visibility string `json:"visibility"`
			Payload    struct {
				Text string `json:"text"`
			} `json:"payload"`
		}
		if err := json.Unmarshal(raw, &ev); err != nil {
			t.Fatal(err)
		}
		if ev.Seq != int64(i+1) {
			t.Fatalf("event %d has seq %d", i+1, ev.Seq)
		}
		if ev.Type == "round.revealed" {
			revealed++
		}
		if ev.Visibility != "public" {
			continue
		}
		c, err := canon.Canonical(raw)
		if err != nil {
			t.Fatal(err)
		}
		publicJCS = append(publicJCS, c)
		texts = append(texts, ev.Payload.Text)
	}
	if revealed != 1 {
		t.Fatalf("%d round.revealed events", revealed)
	}
	after := 0
	for k, h := range envs {
		var e struct {
			Sig   string `json:"sig"`
			State struct {
				PublicLog []json.RawMessage `json:"public_log"`
			} `json:"state"`
		}
		if err := json.Unmarshal(h.raw, &e); err != nil {
			t.Fatalf("envelope %d: %v", k, err)
		}
		unsigned, err := canon.CanonicalWithout(h.raw, "sig")
		if err != nil {
			t.Fatal(err)
		}
		sig, err := canon.ParseSig(e.Sig)
		d := canon.Digest(unsigned)
		if err != nil || !ed25519.Verify(key, d[:], sig) {
			t.Fatalf("envelope %d does not verify with the published key", k)
		}
		heard := h.mustHear == ""
		for i, raw := range e.State.PublicLog {
			if i >= len(publicJCS) || !bytes.Equal(raw, publicJCS[i]) { // the envelope is JCS: byte for byte
				t.Fatalf("envelope %d (after a crash: %v): public_log[%d] is not the transcript's public event %d:\n %s", k, h.afterCrash, i, i, raw)
			}
			if texts[i] == h.mustHear {
				heard = true
			}
		}
		if !heard {
			t.Fatalf("envelope %d, the first after a restart, lacks the line the walk-in said (accepted) before the kill: %q", k, h.mustHear)
		}
		if h.afterCrash {
			after++
		}
	}
	if after != 2 {
		t.Fatalf("%d envelopes after a restart, want 2", after)
	}
	s3.stop()
}
